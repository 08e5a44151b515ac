"""Changes said without a change word: someone new in a role, and work said to be finished.

"My manager is Priya", later "My new manager is Omar": the second was added beside the first, and Priya
stayed the user's manager. Two facts about one person in the user's life that share nothing but the
person are both kept (rightly, for "my son is sick" and "my son is 5"), and "new manager" was another
attribute than "manager". "I'm working on a migration to ClickHouse", later "We finished the ClickHouse
migration": the work stayed in progress. What only looks like either must not change anything: another
role, a new thing, other work finished.

Each case is a user with three unrelated memories, a first statement and a second 30 days later (as in
:mod:`evaluation.restated`), and (value that must be active, value that must not be, or "" if both stay).
DEV and HELD-OUT were written together before any rule; DEV's failures were read, HELD-OUT's never.
Run ``python -m evaluation.implied_changes``.
"""

from __future__ import annotations

from collections.abc import Sequence

from evaluation.restated import report_splits, told
from tasks.settings import Settings

#: (first statement, second statement, the value now, the value no longer: "" when both stay).
Case = tuple[str, str, str, str]
DEV: tuple[Case, ...] = (
    ("My manager is Priya.", "My new manager is Omar.", "Omar", "Priya"),
    ("My landlord is Mr Hughes.", "Our new landlord is Mrs Okafor.", "Okafor", "Hughes"),
    ("My personal trainer is Jess.", "Jess moved away, my new personal trainer is Marco.", "Marco", "is Jess"),
    ("My son is Tom.", "My son is sick this week.", "sick", ""),
    ("My manager is Priya.", "My new desk is by the window.", "window", ""),
    ("I'm working on a migration to ClickHouse at work.", "We finished the ClickHouse migration yesterday!",
     "finished the clickhouse migration", "working on a migration"),
    ("I'm halfway through writing my thesis.", "I finally finished my thesis!", "finished", "halfway through"),
    ("I'm working on a quilt for my niece.", "I finished a scarf for my brother.", "scarf", ""),
    ("I'm leaning towards a MacBook Air.", "Bought the MacBook Air M3, love it.", "macbook air m3", "leaning towards"),
    ("I'm leaning towards a MacBook Air.", "I bought a new mouse.", "mouse", ""),
)  # fmt: skip
HELD: tuple[Case, ...] = (
    ("My GP is Dr Evans.", "My new GP is Dr Malik.", "Malik", "Evans"),
    ("My flatmate is Lena.", "My new flatmate is Joe, Lena moved out.", "Joe", "flatmate is Lena"),
    ("My boss is Karen.", "Karen retired, so my new boss is Steve.", "Steve", "boss is Karen"),
    ("My brother is Sam.", "My new car is a Tesla.", "Tesla", ""),
    ("My daughter is Mia.", "My daughter is Mia and she's 7 now.", "7", ""),
    ("I'm in the middle of renovating the kitchen.", "We finished renovating the kitchen last week.",
     "finished renovating", "middle of renovating"),
    ("I'm training for the Berlin marathon.", "I completed the Berlin marathon on Sunday!", "completed",
     "training for the berlin marathon"),
    ("I'm working on my novel.", "I finished reading a novel by Ishiguro.", "ishiguro", ""),
    ("I'm thinking of getting a Kindle Paperwhite.", "I ordered the Kindle Paperwhite yesterday.", "ordered",
     "thinking of getting"),
    ("I'm thinking of getting a puppy.", "I got a new phone case.", "phone case", ""),
)  # fmt: skip


def measure(cases: Sequence[Case], user_prefix: str, settings: Settings, *, verbose: bool = False) -> tuple[int, int]:
    """(changes right, keeps right): a change when the new value is active and the old one is not in any
    active memory; a keep when both statements' values are still active."""
    told_by = told([(a, b, ()) for a, b, _, _ in cases], user_prefix, settings)
    active = {user: [c.lower() for c in contents] for user, contents in told_by.items()}
    changes = keeps = 0
    for i, (first, second, now, gone) in enumerate(cases):
        said = active.get(f"{user_prefix}{i}", [])
        has_now = any(now.lower() in c for c in said)
        if gone:
            right = has_now and not any(gone.lower() in c.split("(previously")[0] for c in said)
            changes += right
        else:
            first_value = first.rstrip(".").split()[-1].lower()
            right = has_now and any(first_value in c for c in said)
            keeps += right
        if verbose and not right:
            print(f"  MISS {user_prefix}{i}: {first!r} then {second!r} -> {said[3:]}")
    return changes, keeps


def main(argv: list[str] | None = None) -> None:
    report_splits(
        __doc__,
        measure,
        (DEV, HELD),
        ("a change said without a change word, the old state closed", "not a change, both kept"),
        argv,
    )


if __name__ == "__main__":
    main()
