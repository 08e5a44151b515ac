"""Where the evidence recall misses sits: lost by extraction, ranked too low, or dropped by packing.

Each gold turn of an answerable question that the packed top k does not cite falls in one band:
``not stored`` (no active memory or episode cites it: extraction lost it), ``episode only`` (only an
episode sentence cites it), or the rank of the first hit citing it in a deep unpacked ranking
(``rank <= k``: packing dropped it; ``rank k+1..3k``; ``rank 3k+1..deep``; ``beyond deep``). Which
band holds the misses says which lever can pay: better extraction, better ranking, or more tokens.

``python -m evaluation.misses --dataset locomo`` ingests into a temporary store and prints the bands
per category (LoCoMo-dev, k = 10: every missed multi-hop turn is stored; most sit below rank 30).
"""

from __future__ import annotations

import argparse
import tempfile
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from evaluation.dataset import EvalQuestion
from tasks.recall.recaller import Recaller
from tasks.store.tables import EPISODES, MEMORIES

FOUND = "found"
NOT_STORED = "not stored"
EPISODE_ONLY = "episode only"


def _cited(recaller: Recaller, table: str) -> set[tuple[str, str, str]]:
    """(app, user, turn) of every active row of ``table``: turn ids are unique only within a user."""
    if not recaller.store.has(table):
        return set()
    rows = recaller.store.rows(table, columns=["app_name", "user_id", "source_event_ids", "status"])
    return {(r["app_name"], r["user_id"], e) for r in rows if r["status"] == "active" for e in r["source_event_ids"]}


def band(rank: int | None, k: int, deep: int) -> str:
    """The rank band of a missed turn's first citing hit (0-based ``rank``; None: not in the deep list)."""
    if rank is None:
        return f"beyond {deep}"
    if rank < k:
        return f"rank <= {k} (packing dropped it)"
    if rank < 3 * k:
        return f"rank {k + 1}-{3 * k}"
    return f"rank {3 * k + 1}-{deep}"


def miss_bands(
    recaller: Recaller, questions: Iterable[EvalQuestion], k: int = 10, deep: int = 100
) -> dict[str, Counter[str]]:
    """Per category: gold turns found in the packed top ``k``, and the band of each missed one."""
    memories, episodes = _cited(recaller, MEMORIES), _cited(recaller, EPISODES)
    unpacked = Recaller(
        recaller.settings.model_copy(update={"recall_pack_depth": 1}), store=recaller.store, embedder=recaller.embedder
    )
    out: dict[str, Counter[str]] = {}
    for q in questions:
        if not q.answerable or not q.gold_event_ids:
            continue
        counts = out.setdefault(q.category, Counter())
        shown = {e for h in recaller.recall(q.question, q.app_name, q.user_id, k=k) for e in h.source_event_ids}
        ranked = unpacked.recall(q.question, q.app_name, q.user_id, k=deep)
        for turn in q.gold_event_ids:
            counts["gold"] += 1
            key = (q.app_name, q.user_id, turn)
            if turn in shown:
                counts[FOUND] += 1
            elif key not in memories:
                counts[EPISODE_ONLY if key in episodes else NOT_STORED] += 1
            else:
                rank = next((i for i, h in enumerate(ranked) if turn in h.source_event_ids), None)
                counts[band(rank, k, deep)] += 1
    return out


def main(argv: list[str] | None = None) -> None:
    from evaluation.pipeline_system import PipelineSystem
    from evaluation.runner import load_dataset
    from tasks.settings import Settings

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--dataset", choices=["locomo", "synthetic"], default="locomo")
    parser.add_argument("--path", type=Path, default=None)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--store", default=None, help="an already ingested store to reuse (default: ingest anew)")
    args = parser.parse_args(argv)
    data = load_dataset(args.dataset, args.path)
    with tempfile.TemporaryDirectory(prefix="memory-misses-") as tmp:
        settings = Settings().model_copy(update={"store_uri": args.store or str(Path(tmp) / "store")})
        system = PipelineSystem(settings)
        if args.store is None:
            system.index(data)
        recaller = Recaller(system.settings)
        for category, counts in sorted(miss_bands(recaller, data.scored_questions(), k=args.k).items()):
            print(f"{category}: " + ", ".join(f"{name} {n}" for name, n in counts.most_common()))


if __name__ == "__main__":
    main()
