"""``python -m evaluation.timeaware``: changes of value, forget requests (and traps), specifics said in passing.

Hand-written for issue 69 before any write-path change, in two files: ``timeaware_dev.jsonl`` (read while
building the slot / forget-by-meaning mechanism) and ``timeaware_held.jsonl`` (only ever counted). Each
case is played through the real ingest by :func:`evaluation.writepath.runner.run_writepath`: a change must
leave the new value active and no active memory stating the old one as current; a forget must remove
``old`` and keep ``keep``; a trap (no ``old``) must delete nothing; a specific must survive verbatim.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Literal

from pydantic import TypeAdapter
from typing_extensions import TypedDict

from evaluation.cases import read_cases
from evaluation.writepath.model import Case, Split
from evaluation.writepath.runner import CaseResult, run_writepath
from tasks.settings import Settings

FILES: dict[Split, str] = {"dev": "timeaware_dev", "heldout": "timeaware_held"}


class Written(TypedDict):
    id: str
    kind: Literal["change", "forget", "fact"]
    family: str
    sessions: list[list[str]]
    new: list[str]
    old: list[str]
    keep: list[str]
    verbatim: list[str]


def cases(splits: Sequence[Split] = ("dev", "heldout")) -> list[Case]:
    """The written cases of ``splits`` as write-path cases (each its own user)."""
    out: list[Case] = []
    for split in splits:
        for w in read_cases(FILES[split], TypeAdapter(Written)):
            out.append(Case(w["id"], w["family"], split, w["kind"], tuple(tuple(s) for s in w["sessions"]),
                            new=tuple(w["new"]), old=tuple(w["old"]), keep=tuple(w["keep"]),
                            verbatim=tuple(w["verbatim"])))  # fmt: skip
    return out


def measure(results: Sequence[CaseResult], chosen: Sequence[Case]) -> dict[str, dict[str, list[int]]]:
    """Per split: ``[right, of]`` for changes, genuine forgets, traps left alone and specifics kept."""
    by_id = {c.case_id: c for c in chosen}
    out: dict[str, dict[str, list[int]]] = {}
    for r in results:
        case = by_id[r.case_id]
        if case.kind == "change":
            group = "changes"
        elif case.kind == "forget":
            group = "forgets" if case.old else "traps"
        else:
            group = "specifics"
        ok = bool(r.survived_ok) if group == "specifics" else r.decision_ok
        tally = out.setdefault(r.split, {}).setdefault(group, [0, 0])
        tally[0] += ok
        tally[1] += 1
    return out


def run(
    settings: Settings | None = None, splits: Sequence[Split] = ("dev", "heldout")
) -> tuple[dict[str, dict[str, list[int]]], list[CaseResult]]:
    chosen = cases(splits)
    metrics = run_writepath(settings, cases=chosen)
    return measure(metrics.results, chosen), metrics.results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--failures", action="store_true", help="list failing DEV cases (held-out never shown)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures, results = run()
    if args.json:
        print(json.dumps(figures))
        return
    for split, groups in figures.items():
        print(split, "  ".join(f"{g} {a}/{b}" for g, (a, b) in groups.items()))
    if args.failures:
        for r in results:
            if r.split == "dev" and not (r.decision_ok and r.survived_ok is not False):
                print(f"  {r.case_id} {r.family}: {r.why}")


if __name__ == "__main__":
    main()
