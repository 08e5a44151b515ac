"""``--limit N``: a stratified, seeded subset of a dataset's questions, for a quick but fair look.

Each category keeps its share of the questions (largest remainders, every category at least one
when N allows), drawn with a seeded generator so a limit is the same subset on every machine; only
the scopes the chosen questions ask about are kept, so a LongMemEval limit ingests N haystacks.
"""

from __future__ import annotations

import random
from collections import defaultdict

from evaluation.dataset import EvalDataset, EvalQuestion


def _quotas(sizes: dict[str, int], limit: int) -> dict[str, int]:
    total = sum(sizes.values())
    if limit >= total:
        return dict(sizes)
    exact = {c: limit * n / total for c, n in sizes.items()}
    quota = {c: min(sizes[c], int(v)) for c, v in exact.items()}
    if limit >= len(sizes):  # every category is seen at least once
        for c in sizes:
            quota[c] = max(quota[c], 1)
    by_remainder = sorted(sizes, key=lambda c: (-(exact[c] - int(exact[c])), c))
    while sum(quota.values()) < limit:
        for c in by_remainder:
            if sum(quota.values()) < limit and quota[c] < sizes[c]:
                quota[c] += 1
    while sum(quota.values()) > limit:  # the at-least-one rule overshot: take back from the largest
        c = max(quota, key=lambda c: (quota[c], c))
        quota[c] -= 1
    return quota


def stratified_subset(data: EvalDataset, limit: int, seed: int = 0) -> EvalDataset:
    """``limit`` questions, stratified by category and seeded; the dataset's order is kept."""
    if limit < 1:
        raise ValueError(f"limit must be at least 1 (got {limit})")
    groups: dict[str, list[EvalQuestion]] = defaultdict(list)
    for q in data.questions:
        groups[q.category].append(q)
    rng = random.Random(seed)
    chosen: set[str] = set()
    for category, n in sorted(_quotas({c: len(g) for c, g in groups.items()}, limit).items()):
        chosen.update(q.id for q in rng.sample(groups[category], n))
    questions = tuple(q for q in data.questions if q.id in chosen)
    scopes = {(q.app_name, q.user_id) for q in questions}
    return data.model_copy(
        update={
            "questions": questions,
            "sessions": tuple(s for s in data.sessions if (s.app_name, s.user_id) in scopes),
            "gold_facts": tuple(f for f in data.gold_facts if (f.app_name, f.user_id) in scopes),
            "notes": (*data.notes, f"--limit {limit}: {len(questions)} questions stratified by category, seed {seed}"),
        }
    )
