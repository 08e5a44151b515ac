"""Chat probe: does the local extractor keep what a fresh chat message says, and only that?

``python -m evaluation.chat_probe`` runs every case of ``evaluation/cases/chat_probe11.jsonl`` (one user
message, one session) through the local extractor and prints per split: cases right (every expected
fact found, no forbidden word stored), expected facts found, and cases that stored a forbidden word.
``--show DEV`` prints DEV's memories case by case; HELD-OUT is only ever counted, so that a rule is not
tuned to the cases that measure it. ``--probe 12`` runs the second blind set (``chat_probe12.jsonl``), all
of it held out: written after the rules it measures, never shown. ``--probe 13`` runs the third
(``chat_probe13.jsonl``), dealt into DEV and HELD-OUT like probe 11's; ``--probe 14`` the fourth
(``chat_probe14.jsonl``, how people really type), the same way.

Each case (written blind, without reading the extractor, its rules or any other case): ``text``;
``expect``, lists of keywords that some stored memory must all contain (one list a fact); ``absent``,
keywords no stored memory may contain (hypotheticals, parts to play, pure questions); ``note``, what it
tests; ``group``, the family it was written under, where the writer named one.
"""

from __future__ import annotations

import argparse
import random
import re
from datetime import UTC, datetime
from typing import NotRequired

from pydantic import TypeAdapter
from typing_extensions import TypedDict  # pydantic validates only this TypedDict on Python 3.11

from evaluation.cases import read_cases
from evaluation.temporal import told_session
from tasks.providers.local_extractor import LocalExtractor

SPLIT_SEED = 2511
NOW = datetime(2026, 10, 1, tzinfo=UTC)


class Case(TypedDict):
    text: str
    expect: list[list[str]]
    absent: list[str]
    note: str
    group: NotRequired[str]


def C(text: str, expect: list[list[str]], absent: list[str], note: str) -> Case:
    """A case written inline (tests); the probes' own cases are in ``evaluation/cases/chat_probe*.jsonl``."""
    return {"text": text, "expect": expect, "absent": absent, "note": note}


CASE = TypeAdapter(Case)


def cases(probe: int = 11) -> list[Case]:
    """The cases of one chat probe (11 to 14), in file order."""
    if probe not in (11, 12, 13, 14):
        raise ValueError(f"unknown chat probe {probe}; one of 11, 12, 13, 14")
    return read_cases(f"chat_probe{probe}", CASE)


def splits(probe: int = 11) -> dict[str, list[Case]]:
    """Probes 11, 13 and 14: DEV and HELD-OUT, 32 cases each, by a seeded shuffle fixed before the cases were
    run. Probe 12: HELD-OUT only."""
    if probe == 12:
        return {"HELD-OUT": cases(12)}
    shuffled = cases(probe)
    random.Random(SPLIT_SEED + {13: 1, 14: 2}.get(probe, 0)).shuffle(shuffled)
    return {"DEV": shuffled[:32], "HELD-OUT": shuffled[32:]}


def stored(extractor: LocalExtractor, text: str) -> list[str]:
    """What the extractor keeps of one message: facts, and forget requests as "forget: ..."."""
    found = extractor.extract(told_session("probe", "u", "s", text, NOW))
    return [f.content for f in found.facts] + [f"forget: {r.query}" for r in found.forgets]


def verdict(case: Case, memories: list[str]) -> tuple[list[bool], list[str]]:
    """Per expected fact, whether one memory holds all its keywords; and the forbidden words stored."""
    lowered = [m.lower() for m in memories]
    found = [any(all(k.lower() in m for k in keys) for m in lowered) for keys in case["expect"]]
    bad = [k for k in case["absent"] if any(re.search(rf"\b{re.escape(k.lower())}", m) for m in lowered)]
    return found, bad


def tally(row: dict[str, int], found: list[bool], bad: list[str]) -> bool:
    """One case's verdict added to its split's counts; whether the case is right."""
    right = all(found) and not bad
    row["cases"] += 1
    row["right"] += right
    row["facts"] += len(found)
    row["found"] += sum(found)
    row["forbidden"] += bool(bad)
    return right


def report(results: dict[str, dict[str, int]]) -> None:
    """One line of counts per split (shared with :mod:`evaluation.session_probe`)."""
    for name, row in results.items():
        print(f"{name:9} right {row['right']}/{row['cases']}  expected facts found {row['found']}/{row['facts']}  "
              f"cases storing a forbidden word {row['forbidden']}")  # fmt: skip


def run(show: str | None = None, probe: int = 11) -> dict[str, dict[str, int]]:
    """Counts per split: cases, right, facts, facts found, cases with a forbidden word."""
    extractor, results = LocalExtractor(), {}
    for name, cases in splits(probe).items():
        row = results[name] = dict.fromkeys(("cases", "right", "facts", "found", "forbidden"), 0)
        for case in cases:
            memories = stored(extractor, case["text"])
            right = tally(row, *verdict(case, memories))
            if show == name == "DEV":
                print(f"{'ok ' if right else 'BAD'} {case['text']!r}")
                for memory in memories:
                    print(f"      {memory}")
    return results


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--show", choices=["DEV"], default=None, help="print DEV's memories case by case")
    probes = [11, 12, 13, 14]
    parser.add_argument("--probe", type=int, choices=probes, default=11, help="which blind probe (12: held out)")
    args = parser.parse_args(argv)
    report(run(args.show, args.probe))


if __name__ == "__main__":
    main()
