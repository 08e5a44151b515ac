"""Endings, reversals and corrections told a month later.

Faults seen in round 22's probes of users' lives (9 and 10): "we broke up last week" left "User and User's
boyfriend Tom have been together 3 years" current; "paid the car loan off early!" left the loan; "finger's
healed, back on the wall" left the torn pulley; "I'm back eating meat tbh" left "User is vegetarian";
"started running and I actually love it now" left "User hates running"; "Lisbon's cancelled, Kez broke his
ankle" left the trip booked; "actually it's July not June" replaced the plan to move in with Priya by the
correction's own words, so the plan was lost. Two rules went too far the other way: "just finished year 2 of
the degree" closed the degree, and "doing a side hustle selling vintage trainers" closed the user's job (as
if "selling" sold it).

Six families: part_done (a part of a course finished), trade (selling as a trade), off_short ("X's
cancelled"), endings, reversal and correction. Cases are as in :mod:`evaluation.life_changes`. DEV was
written by the developer before any rule; HELD-OUT was written by a helper session that read neither the
rules nor DEV, and its failures are never read. DEV's second batch (30 cases) was written after the first
rules, to widen them in more of users' words; its third (48) by another helper session that read neither the
rules nor the other cases, and its fourth (40) by a third such session. The cases are
``evaluation/cases/life_endings_dev.jsonl`` and ``life_endings_held.jsonl``, each with its batch and family.
Run ``python -m evaluation.life_endings``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import TypeAdapter
from typing_extensions import TypedDict  # pydantic validates only this TypedDict on Python 3.11

from evaluation.cases import read_cases
from evaluation.life_changes import Case, measure
from evaluation.restated import report_splits


class Told(TypedDict):
    """One case as its file holds it: the batch and family it was written in, and :data:`Case`'s fields."""

    batch: int
    family: str | None
    first: str
    second: str
    told: list[str]
    gone: list[str]


TOLD = TypeAdapter(Told)


def cases(split: Literal["dev", "held"]) -> tuple[Case, ...]:
    """DEV (``evaluation/cases/life_endings_dev.jsonl``, batches 1 to 4) or HELD-OUT, as :func:`measure` reads them."""
    rows = read_cases(f"life_endings_{split}", TOLD)
    return tuple((r["first"], r["second"], tuple(r["told"]), tuple(r["gone"])) for r in rows)


def main(argv: list[str] | None = None) -> None:
    splits = (cases("dev"), cases("held"))
    report_splits(__doc__, measure, splits, ("what ended told right", "nothing ended, both kept"), argv)


if __name__ == "__main__":
    main()
