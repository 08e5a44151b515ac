"""A state told again weeks later with something added: one memory that says it all, not two.

"I'm learning Spanish", then a month later "I'm learning Spanish and Italian": the second says all the
first did and more, so the first is now only a shorter copy of it. Kept beside it, it takes a second
slot in every recall about languages and, once the user drops Spanish, is one more memory to change.
But something done again ("I went hiking in Snowdonia", then "... with Sam" a month later) is two
occasions, and the same words of someone else ("my wife works at a bakery") are another person's fact:
both must stay.

Each case is a user with three unrelated memories, a first statement, and a second 30 days later, as in
:mod:`evaluation.restated`:
- ONE: right when a single memory beside the background says every marker (the first was refined).
- TWO: right when every marker is said and two memories beside the background are active.
DEV and HELD-OUT were written together before any rule; DEV's failures were read, HELD-OUT's never.
Run ``python -m evaluation.extended``.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from evaluation.restated import BACKGROUND, told
from tasks.settings import Settings

#: (first statement, second statement, markers, memories beside the background that are right).
Case = tuple[str, str, tuple[str, ...], int]
DEV: tuple[Case, ...] = (
    ("I'm learning Spanish.", "I'm learning Spanish and Italian.", ("Spanish and Italian",), 1),
    ("I play the cello.", "I play the cello in a quartet on Thursdays.", ("cello in a quartet",), 1),
    ("I have a border collie.", "I have a border collie called Pip.", ("collie called Pip",), 1),
    ("I'm allergic to cats.", "I'm allergic to cats and dogs.", ("cats and dogs",), 1),
    ("My brother works in Berlin.", "My brother works in Berlin as an architect.", ("architect",), 1),
    ("I have a cat named Miso.", "I have a cat named Miso and a dog named Tofu.", ("dog named Tofu",), 1),
    ("I went hiking in Snowdonia.", "I went hiking in Snowdonia with Sam.", ("with Sam", "hiking in Snowdonia."), 2),
    ("I live in Leeds.", "My brother lives in Leeds with his wife.", ("User lives in Leeds", "brother"), 2),
    ("I ran a 10k.", "I ran a 10k in under 50 minutes.", ("50 minutes", "10k."), 2),
)  # fmt: skip
HELD: tuple[Case, ...] = (
    ("I drink coffee.", "I drink coffee with oat milk.", ("oat milk",), 1),
    ("I'm training for a marathon.", "I'm training for a marathon in Berlin.", ("marathon in Berlin",), 1),
    ("I have two kids.", "I have two kids and a dog.", ("kids and a dog",), 1),
    ("My dad lives in Cardiff.", "My dad lives in Cardiff with my stepmum.", ("stepmum",), 1),
    ("I work at a bakery.", "I work at a bakery on weekends.", ("bakery on weekends",), 1),
    ("I'm vegetarian.", "I'm vegetarian and gluten-free.", ("gluten-free",), 1),
    ("I live in Bristol.", "I live in Bristol with my two cats.", ("two cats",), 1),
    ("I baked sourdough.", "I baked sourdough with rye flour.", ("rye", "sourdough."), 2),
    ("I work at a bakery.", "My wife works at a bakery in town.", ("User works at a bakery", "wife"), 2),
    ("I visited Rome.", "I visited Rome and Florence.", ("Florence", "Rome."), 2),
)  # fmt: skip


def measure(cases: Sequence[Case], user_prefix: str, settings: Settings, *, verbose: bool = False) -> tuple[int, int]:
    """(ONE cases right, TWO cases right) for ``cases``, each in its own user."""
    active = told([(a, b, m) for a, b, m, _ in cases], user_prefix, settings)
    one = two = 0
    for i, (_, second, markers, right_count) in enumerate(cases):
        now = active.get(f"{user_prefix}{i}", [])
        said = all(any(m.lower() in c.lower() for c in now) for m in markers)
        right = said and len(now) == len(BACKGROUND) + right_count
        if right_count == 1:
            one += right
        else:
            two += right
        if verbose and not right:
            print(f"  MISS {user_prefix}{i}: {second!r} ->")
            for content in now[len(BACKGROUND) - 1 :]:
                print(f"       {content}")
    return one, two


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--verbose", action="store_true", help="print DEV's misses (never HELD-OUT's)")
    args = parser.parse_args(argv)
    for name, cases, prefix in (("DEV", DEV, "d"), ("HELD-OUT", HELD, "h")):
        one, two = measure(cases, prefix, Settings(), verbose=args.verbose and name == "DEV")
        n_one = sum(1 for c in cases if c[3] == 1)
        print(f"{name}: told again with more, one memory {one}/{n_one}; done again or another person's, "
              f"two kept {two}/{len(cases) - n_one}")  # fmt: skip


if __name__ == "__main__":
    main()
