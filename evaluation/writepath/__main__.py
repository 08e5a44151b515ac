"""``python -m evaluation.writepath``: the write-path accuracy table, dev and held-out families apart.

``--failures`` lists failing cases of the DEV families only: held-out failures are never shown,
so that nobody writes a rule against them.
"""

from __future__ import annotations

import argparse
import json

from evaluation.writepath.cases import FAMILIES, ORIGINAL_FAMILIES
from evaluation.writepath.runner import WritepathMetrics, run_writepath


def _pct(value: float | None) -> str:
    return "   -  " if value is None else f"{value:6.1%}"


def table(metrics: WritepathMetrics) -> str:
    lines = [f"{'family':28} {'split':8} {'n':>3} {'decision':>8} {'survived':>8} {'episode':>8}"]
    for f in metrics.families:
        lines.append(f"{f.family:28} {f.split:8} {f.cases:3d} {_pct(f.decision):>8} {_pct(f.survived):>8} "
                     f"{_pct(f.episode):>8}")  # fmt: skip
    for split in ("dev", "heldout"):
        n = sum(f.cases for f in metrics.families if f.split == split)
        lines.append(f"{'ALL ' + split:28} {split:8} {n:3d} {_pct(metrics.decision[split]):>8} "
                     f"{_pct(metrics.survived[split]):>8} {_pct(metrics.episode[split]):>8}")  # fmt: skip
    original = {f.name for f in FAMILIES[:ORIGINAL_FAMILIES]}
    for split in ("dev", "heldout"):
        rs = [r for r in metrics.results if r.split == split and r.family in original]
        survived = [r.survived_ok for r in rs if r.survived_ok is not None]
        decided = sum(r.decision_ok for r in rs) / len(rs) if rs else None
        lines.append(f"{'original 30 ' + split:28} {split:8} {len(rs):3d} {_pct(decided):>8} "
                     f"{_pct(sum(survived) / len(survived) if survived else None):>8}")  # fmt: skip
    lines.append(f"{metrics.cases} cases in {metrics.seconds:.1f} s")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--failures", action="store_true", help="list failing DEV cases (held-out never shown)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    metrics = run_writepath(seed=args.seed)
    if args.json:
        print(json.dumps(metrics.model_dump(exclude={"results"}), indent=2))
        return
    print(table(metrics))
    if args.failures:
        for r in metrics.results:
            if r.split == "dev" and not (r.decision_ok and r.survived_ok is not False and r.episode_ok is not False):
                print(f"  {r.case_id}: {r.why}")


if __name__ == "__main__":
    main()
