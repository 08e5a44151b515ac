"""Chat probe: does the local extractor keep what a fresh chat message says, and only that?

``python -m evaluation.chat_probe`` runs every case of :mod:`evaluation.chat_probe_cases` (one user
message, one session) through the local extractor and prints per split: cases right (every expected
fact found, no forbidden word stored), expected facts found, and cases that stored a forbidden word.
``--show DEV`` prints DEV's memories case by case; HELD-OUT is only ever counted, so that a rule is not
tuned to the cases that measure it. ``--probe 12`` runs round 26's blind cases
(:mod:`evaluation.chat_probe12_cases`), all of them held out: written after the rules they measure, never shown.
``--probe 13`` runs round 27's (:mod:`evaluation.chat_probe13_cases`), dealt into DEV and HELD-OUT like probe 11's;
``--probe 14`` round 28's (:mod:`evaluation.chat_probe14_cases`, how people really type), the same way.
"""

from __future__ import annotations

import argparse
import random
import re
from datetime import UTC, datetime

from evaluation import chat_probe12_cases, chat_probe13_cases, chat_probe14_cases
from evaluation.chat_probe_cases import CASES, Case
from evaluation.temporal import told_session
from tasks.providers.local_extractor import LocalExtractor

SPLIT_SEED = 2511
NOW = datetime(2026, 10, 1, tzinfo=UTC)


def splits(probe: int = 11) -> dict[str, list[Case]]:
    """Probes 11, 13 and 14: DEV and HELD-OUT, 32 cases each, by a seeded shuffle fixed before the cases were
    run. Probe 12: HELD-OUT only."""
    if probe == 12:
        return {"HELD-OUT": list(chat_probe12_cases.CASES)}
    shuffled = list({13: chat_probe13_cases.CASES, 14: chat_probe14_cases.CASES}.get(probe, CASES))
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
