"""``python -m evaluation.wording``: do the local extractor's memories read as English?

Every memory of the embedded extractor is a first-person statement rewritten about its speaker
("I love my dog" → "User loves User's dog"), so a grammar slip shows in every recall ("User heards
a song"). Chat is typed loosely ("i dont like spicy food", "im a nurse", "btw ..."), and a memory
must still come out right. The cases are phrasing families, ``dev`` or ``heldout`` like the
write-path suite: rules are developed on ``dev``; ``heldout`` was written before the rules it
measures and is never read while writing them. A rewrite case is (statement, speaker, expected
rewrite); a chat case is (a user's turn, what its memories must say, what they must not).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from datetime import UTC, datetime

from evaluation.wording_family import ChatCase, Family
from evaluation.wording_lives import LIVES_FAMILIES
from evaluation.wording_probe import PROBE_FAMILIES
from evaluation.wording_recent import RECENT_FAMILIES
from evaluation.wording_typed import TYPED_FAMILIES
from evaluation.wording_untrue import UNTRUE_FAMILIES
from tasks.models import Event, Fact, Session
from tasks.providers.local_extractor import LocalExtractor
from tasks.third_person import third_person

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
    # -- loosely typed chat: developed on ------------------------------------------------------------
    Family("chat: lower case, no apostrophes, fillers", "dev", chat=(
        ("i dont like spicy food", ("User doesn't like spicy food",), ("dont",)),
        ("my name is priya and i work as a nurse in leeds", ("User works as a nurse",), (" i ",)),
        ("im a nurse at the city hospital", ("User is a nurse",), ()),
        ("FYI I'm vegetarian now.", ("User is vegetarian",), ("FYI",)),
        ("i'm not a fan of horror movies tbh", ("User is not a fan of horror movies",), ("tbh",)),
        ("I cant stand loud restaurants", ("User can't stand loud restaurants",), ()),
        ("lets go with casa azul", ("Decision by User: go with casa azul",), ()),
        ("i've been learning spanish for 3 months", ("User has been learning spanish",), ()),
    )),
    Family("chat: what a fact goes on to say", "dev", chat=(
        ("i have two cats, milo and luna", ("User has two cats, milo and luna",), ()),
        ("I work at Google, mostly on search infrastructure.", ("Google, mostly on search infrastructure",), ()),
        ("I live in Lisbon, near the river.", ("User lives in Lisbon, near the river",), ()),
        ("I work at Google, which is great", ("User works at Google",), ()),
        ("I have a dog named Rex.", ("User has a dog named Rex",), ()),
    )),
    Family("chat: sentences in lower case", "dev", chat=(
        ("i dont really like tofu tbh. i love mushroom risotto though", ("User doesn't really like tofu",
         "User loves mushroom risotto"), ("tbh",)),
        ("i moved to york. its much quieter than leeds", ("User moved to york",), (". its", ". Its")),
        ("i have a dog. his name is rex", ("User has a dog",), (". his",)),
    )),
    Family("chat: a clause that goes on", "dev", chat=(
        ("im vegetarian now, been like 3 months", ("User is vegetarian",), ("mentioned that been",)),
        ("I drive a Prius, mostly for work", ("mostly for work",), ("mentioned that mostly",)),
        ("I have a cat, which I adopted in 2021", ("adopted in 2021",), ("mentioned that which",)),
    )),
    Family("chat: we, our, us in reported speech", "dev", chat=(
        ("we adopted a puppy last week", ("User mentioned that they adopted a puppy",), ("that we",)),
        ("We cancelled the Nopa dinner.", ("they cancelled the Nopa dinner",), ("that we",)),
        ("we're moving to Porto in the spring", ("they're moving to Porto",), ("that we",)),
        ("our kids love the beach", ("their kids love the beach",), ("our kids",)),
    )),
    # -- loosely typed chat: measured only (written before the rules) ----------------------------------
    Family("chat (held out)", "heldout", chat=(
        ("i havent been to japan yet but i really want to go", ("User hasn't been to japan",), (" i ",)),
        ("ive been vegan since 2019", ("User has been vegan since 2019",), ()),
        ("im training for a marathon in october", ("User is training for a marathon",), ()),
        ("my sister and i share an apartment in austin", ("User's sister and User share",), (" i ",)),
        ("i wasnt happy with the hotel in rome", ("User wasn't happy with the hotel",), ()),
        ("btw i work night shifts at the hospital", ("User works night shifts",), ("btw",)),
        ("i didnt like the new update tbh", ("User didn't like the new update",), ("tbh",)),
        ("doesnt matter, i prefer aisle seats anyway", ("User prefers aisle seats",), (" i ",)),
    )),
    Family("chat: sentences in lower case (held out)", "heldout", chat=(
        ("my daughter started school. she loves it so far", ("User's daughter started school",), (". she",)),
        ("i quit my job last week. feeling great about it tbh", ("User quit",), ("tbh",)),
        ("we adopted a cat. i named her luna", ("User named her luna",), (". i ",)),
        ("i'm not a morning person lol. i usually start work at 10", ("User usually starts work at 10",),
         ("lol", ". i ")),
        ("e.g. i like hiking and biking", ("User likes hiking",), ()),
    )),
    Family("chat: a clause that goes on (held out)", "heldout", chat=(
        ("i live in madrid, since 2020", ("since 2020",), ("mentioned that since",)),
        ("I work at Acme, mainly on billing", ("mainly on billing",), ("mentioned that mainly",)),
        ("I'm vegan now, for about two years", ("User is vegan",), ("mentioned that for",)),
        ("I play tennis, usually on sundays", ("usually on sundays",), ("mentioned that usually",)),
    )),
    Family("chat: we, our, us (held out)", "heldout", chat=(
        ("we just bought a house in Leeds", ("they just bought a house in Leeds",), ("that we",)),
        ("our neighbours are really loud", ("their neighbours",), ("our neighbours",)),
        ("We'll be in Paris next week.", ("they'll be in Paris",), ("that we",)),
        ("my brother visited us last weekend", ("brother visited",), (" us ",)),
        ("we usually eat dinner at 7", ("they usually eat dinner at 7",), ("that we",)),
    )),
    *RECENT_FAMILIES,
    *PROBE_FAMILIES,
    *LIVES_FAMILIES,
    *UNTRUE_FAMILIES,
    *TYPED_FAMILIES,
)  # fmt: skip


def facts_of(text: str) -> list[Fact]:
    """The local extractor's facts of one user turn ("question >> answer": the agent's question, then the
    user's turn)."""
    at = datetime(2023, 5, 8, 12, 0, tzinfo=UTC)
    asked, _, said = text.rpartition(" >> ")
    event = Event(id="e1", author="user", role="user", text=said, timestamp=at)
    question = Event(id="e0", author="agent", role="agent", text=asked, timestamp=at)
    events = (question, event) if asked else (event,)
    turn = Session(app_name="wording", user_id="u", session_id="s", started_at=at, ended_at=at, events=events)
    return LocalExtractor().extract(turn).facts


def memories_of(text: str) -> str:
    """What the local extractor remembers of one user turn (:func:`facts_of`), its facts joined by " | "."""
    return " | ".join(f.content for f in facts_of(text))


def _chat_right(case: ChatCase, said: str) -> bool:
    _, must, must_not = case
    return all(m in said for m in must) and not any(n in f" {said} " for n in must_not)


def _results(fam: Family) -> list[tuple[bool, str, str]]:
    """(right, expected, got) per case of the family."""
    out = [(got == want, want, got) for text, who, want in fam.cases for got in (third_person(text, who),)]
    for case in fam.chat:
        said = memories_of(case[0])
        out.append((_chat_right(case, said), f"{case[1]} without {case[2]}", said))
    return out


Results = list[tuple[Family, list[tuple[bool, str, str]]]]


def results(families: Sequence[Family] = FAMILIES) -> Results:
    """Every family with its cases' (right, expected, got); the extractor runs once per chat case."""
    return [(fam, _results(fam)) for fam in families]


def score(families: Sequence[Family] = FAMILIES, done: Results | None = None) -> dict[str, tuple[int, int]]:
    """Per split, (cases right, cases)."""
    out: dict[str, tuple[int, int]] = {}
    for fam, found in done if done is not None else results(families):
        right, total = out.get(fam.split, (0, 0))
        out[fam.split] = (right + sum(r for r, _, _ in found), total + len(found))
    return out


def dev_failures(families: Sequence[Family] = FAMILIES, done: Results | None = None) -> list[tuple[str, str]]:
    """(expected, got) for failing ``dev`` cases only: held-out failures are never shown."""
    found = done if done is not None else results([f for f in families if f.split == "dev"])
    return [(want, got) for fam, rows in found if fam.split == "dev" for right, want, got in rows if not right]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--failures", action="store_true", help="list failing dev cases")
    args = parser.parse_args(argv)
    done = results()
    for split, (right, total) in score(done=done).items():
        print(f"{split:8} {right:3d}/{total:3d} {right / total:6.1%}")
    if args.failures:
        for want, got in dev_failures(done=done):
            print(f"  want {want!r}\n   got {got!r}")


if __name__ == "__main__":
    main()
