"""``python -m evaluation.forget_probe [--show DEV]``: forget requests that do not repeat the user's words.

A user who takes something back names it by its area ("anything medical"), by a person ("everything
about my ex"), by when it was said, or softly ("pls don't hold onto that"); and says "forget" in
ways that ask for nothing ("forget the beach, let's do the mountains", "I forgot my keys"). The
cases (``evaluation/cases/forget_probe1.jsonl``, one a line) were written for round 29 by a helper that read no
rule and no other case, before any rule was written for them; a seeded shuffle split them into DEV
(read while writing rules) and HELD-OUT (only counted). Each case is played through the real ingest:
the first session states facts, the second asks; ``old`` must leave every active memory, ``keep`` must stay.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

from evaluation.cases import CASES_DIR
from evaluation.writepath.model import Case, Split
from evaluation.writepath.runner import run_writepath

SPLIT_SEED = 2916
CASES_FILE = CASES_DIR / "forget_probe1.jsonl"
#: The second set (round 39): 80 cases written by another helper that read no rule and no case of the first
#: set, split by its own seed; its DEV was read while writing round 39's rules, its HELD-OUT only counted.
SETS: dict[int, tuple[Path, int]] = {
    1: (CASES_FILE, SPLIT_SEED),
    2: (CASES_DIR / "forget_probe2.jsonl", 3917),
    3: (CASES_DIR / "forget_probe3.jsonl", 4129),
}


def raw_cases(which: int = 1) -> list[dict[str, Any]]:
    """The helper's cases as written (set 1: 52 ask to forget one thing or two, 12 a whole area, 20 nothing)."""
    path = SETS[which][0]
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def cases(which: int = 1) -> list[Case]:
    """Every case, split by a seeded shuffle within hostile (nothing to delete) and genuine requests."""
    raw, seed = raw_cases(which), SETS[which][1]
    prefix = "fp#" if which == 1 else f"fp{which}#"
    out: list[Case] = []
    for hostile in (True, False):
        group = [(i, c) for i, c in enumerate(raw) if (not c["old"]) == hostile]
        random.Random(seed + hostile).shuffle(group)
        for n, (i, c) in enumerate(group):
            split: Split = "dev" if n % 2 == 0 else "heldout"
            family = f"forget-probe/{c['way']}"
            out.append(Case(f"{prefix}{i}", family, split, "forget", (tuple(c["said"]), (c["ask"],)),
                            old=tuple(c["old"]), keep=tuple(c["keep"])))  # fmt: skip
    return sorted(out, key=lambda c: int(c.case_id.partition("#")[2]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", choices=["DEV"], help="print DEV's failures with their reasons")
    parser.add_argument("--set", type=int, choices=sorted(SETS), default=1, help="which set of cases")
    args = parser.parse_args()
    chosen = cases(args.set)
    metrics = run_writepath(cases=chosen)
    hostile = {c.case_id for c in chosen if not c.old}
    for split, name in (("dev", "DEV"), ("heldout", "HELD-OUT")):
        results = [r for r in metrics.results if r.split == split]
        right = sum(r.decision_ok for r in results)
        false = sum("active 0x" in r.why for r in results)
        missed = sum("still active" in r.why for r in results)
        calm = [r for r in results if r.case_id in hostile]
        print(f"{name:9} {right}/{len(results)} right; hostile {sum(r.decision_ok for r in calm)}/{len(calm)}; "
              f"cases with a false deletion {false}, with a missed one {missed}")  # fmt: skip
        if args.show and split == "dev":
            for r in results:
                if not r.decision_ok:
                    print(f"  {r.case_id} {r.family}: {r.why}")


if __name__ == "__main__":
    main()
