"""``python -m evaluation.wording``: does the local extractor's third-person rewrite read as English?

Every memory of the embedded extractor is a first-person statement rewritten about its speaker
("I love my dog" → "User loves User's dog"), so a grammar slip shows in every recall ("User heards
a song"). The cases are phrasing families, ``dev`` or ``heldout`` like the write-path suite: rules
are developed on ``dev``; ``heldout`` was written before the rules it measures and is never read
while writing them. A case is (statement, speaker, expected rewrite).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from tasks.textrules import third_person

Split = Literal["dev", "heldout"]
Case = tuple[str, str, str]


@dataclass(frozen=True)
class Family:
    name: str
    split: Split
    cases: tuple[Case, ...]


FAMILIES: tuple[Family, ...] = (
    # -- developed on ------------------------------------------------------------------------------
    Family("irregular past", "dev", (
        ("I heard a great song yesterday.", "User", "User heard a great song yesterday."),
        ("I ate sushi for lunch.", "User", "User ate sushi for lunch."),
        ("I forgot my keys at work.", "User", "User forgot User's keys at work."),
        ("I woke up early today.", "Ann", "Ann woke up early today."),
        ("I slept badly last night.", "User", "User slept badly last night."),
        ("I chose the blue one.", "User", "User chose the blue one."),
        ("I grew up in Ohio.", "User", "User grew up in Ohio."),
        ("I understood the plan.", "User", "User understood the plan."),
    )),
    Family("negative contraction", "dev", (
        ("I haven't talked to you in a while.", "User", "User hasn't talked to you in a while."),
        ("I haven't decided yet.", "Maria", "Maria hasn't decided yet."),
        ("I wasn't sure about it.", "User", "User wasn't sure about it."),
        ("I hadn't seen it before.", "User", "User hadn't seen it before."),
        ("I couldn't find it.", "User", "User couldn't find it."),
        ("I aren't going.", "User", "User isn't going."),
        ("I didn't like the movie.", "User", "User didn't like the movie."),
    )),
    Family("present, any speaker", "dev", (
        ("I guess so.", "Maria", "Maria guesses so."),
        ("I wonder what happened.", "Jon", "Jon wonders what happened."),
        ("I hope my kids like it.", "Ann", "Ann hopes Ann's kids like it."),
        ("I just love this place.", "User", "User just loves this place."),
        ("I personally think it works.", "User", "User personally thinks it works."),
        ("I rely on my phone.", "User", "User relies on User's phone."),
    )),
    # -- measured only (written before the rules) ----------------------------------------------------
    Family("irregular past (held out)", "heldout", (
        ("I drank too much coffee.", "User", "User drank too much coffee."),
        ("I fought with my brother.", "User", "User fought with User's brother."),
        ("I hid the present in the closet.", "User", "User hid the present in the closet."),
        ("I lent my bike to a friend.", "User", "User lent User's bike to a friend."),
        ("I froze the leftovers.", "User", "User froze the leftovers."),
        ("I swore I'd quit.", "User", "User swore User would quit."),
        ("I drew a picture of the lake.", "Gina", "Gina drew a picture of the lake."),
        ("I blew out the candles.", "User", "User blew out the candles."),
        ("I sought advice from my mentor.", "User", "User sought advice from User's mentor."),
        ("I bent the rules once.", "User", "User bent the rules once."),
        ("I shook his hand.", "User", "User shook his hand."),
        ("I tore my jacket.", "User", "User tore User's jacket."),
    )),
    Family("negative contraction (held out)", "heldout", (
        ("I haven't been there.", "User", "User hasn't been there."),
        ("I shouldn't eat sugar.", "User", "User shouldn't eat sugar."),
        ("I wouldn't mind.", "Tim", "Tim wouldn't mind."),
        ("I won't be late.", "User", "User won't be late."),
        ("I needn't worry.", "User", "User needn't worry."),
        ("I haven’t read it.", "User", "User hasn’t read it."),
    )),
    Family("present, any speaker (held out)", "heldout", (
        ("I adore my grandmother.", "Jolene", "Jolene adores Jolene's grandmother."),
        ("I reckon it'll rain.", "User", "User reckons it'll rain."),
        ("I suppose that works.", "Deborah", "Deborah supposes that works."),
        ("I doubt it.", "User", "User doubts it."),
        ("I really appreciate my team.", "Sam", "Sam really appreciates Sam's team."),
        ("I honestly prefer tea.", "User", "User honestly prefers tea."),
        ("I apply sunscreen daily.", "User", "User applies sunscreen daily."),
        ("I crave chocolate at night.", "Nate", "Nate craves chocolate at night."),
    )),
)  # fmt: skip


def score(families: Sequence[Family] = FAMILIES) -> dict[str, tuple[int, int]]:
    """Per split, (cases rewritten exactly as expected, cases)."""
    out: dict[str, tuple[int, int]] = {}
    for fam in families:
        right = sum(third_person(text, who) == want for text, who, want in fam.cases)
        done, total = out.get(fam.split, (0, 0))
        out[fam.split] = (done + right, total + len(fam.cases))
    return out


def dev_failures(families: Sequence[Family] = FAMILIES) -> list[tuple[str, str]]:
    """(expected, got) for failing ``dev`` cases only: held-out failures are never shown."""
    return [
        (want, got)
        for fam in families
        if fam.split == "dev"
        for text, who, want in fam.cases
        if (got := third_person(text, who)) != want
    ]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--failures", action="store_true", help="list failing dev cases")
    args = parser.parse_args(argv)
    for split, (right, total) in score().items():
        print(f"{split:8} {right:3d}/{total:3d} {right / total:6.1%}")
    if args.failures:
        for want, got in dev_failures():
            print(f"  want {want!r}\n   got {got!r}")


if __name__ == "__main__":
    main()
