"""Abstention: calibrate recall's answer check on DEV, then count confident answers on what was never said.

Questions come from two sources, each its own users in one temporary store:

* the asked-now lives (``evaluation/cases/asked_now_{dev,held,held2}.jsonl``): a question with no answer
  terms asks about something never told, mostly a near miss of something that was ("what's my grandson's
  name?" when only the grandson was mentioned). DEV is calibrated on; HELD-OUT and HELD-OUT-2 are only
  counted;
* LongMemEval (``--longmemeval DIR``): its ``_abs`` questions, and ``--answerable N`` answerable questions of
  the other types (a stratified, seeded draw), only counted.

Each recall is run with the answer check's threshold at -inf, so every cosine-confident recall gets its
cross-encoder score; the threshold is then the highest that keeps DEV's answerable questions confident
at the share asked (``--keep``, default 0.92), and every split is counted at it and at the configured one.

Run: ``python -m evaluation.abstention --longmemeval ../shared/datasets/longmemeval-dev/oracle``.
"""

from __future__ import annotations

import argparse
import json
import math
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evaluation.asked_now import APP as LIVES_APP
from evaluation.asked_now import NOW as LIVES_NOW
from evaluation.asked_now import sessions as life_sessions
from evaluation.asked_now import splits as life_splits
from evaluation.longmemeval import load_longmemeval
from evaluation.subset import stratified_subset
from tasks.ingest.run import ingest_sessions
from tasks.models import Session
from tasks.recall.abstain import calibrate
from tasks.recall.recaller import Recaller
from tasks.settings import Settings

DEV = "dev"


@dataclass(frozen=True)
class Asked:
    """One question to put: where it is from, whose store, when, and whether it has an answer."""

    split: str
    app_name: str
    user_id: str
    question: str
    answerable: bool
    asked_at: Any


@dataclass(frozen=True)
class Verdict:
    asked: Asked
    cosine_confident: bool
    answer_score: float  # -inf when the cosine verdict already abstained


def lives() -> tuple[list[Session], list[Asked]]:
    """The asked-now lives' sessions and questions (no answer terms: unanswerable)."""
    sessions: list[Session] = []
    asked: list[Asked] = []
    for split, split_lives in life_splits().items():
        for life in split_lives:
            sessions += life_sessions(split, life)
            user = f"{split}-{life[0]}"
            asked += [Asked(split, LIVES_APP, user, q, bool(answer), LIVES_NOW) for q, answer, _ in life[2]]
    return sessions, asked


def longmemeval(path: Path, answerable: int) -> tuple[list[Session], list[Asked]]:
    """LongMemEval's ``_abs`` questions and a stratified draw of ``answerable`` others."""
    data = load_longmemeval(path)
    unanswerable = {q.id for q in data.questions if not q.answerable}
    others = data.model_copy(update={"questions": tuple(q for q in data.questions if q.answerable)})
    drawn = {q.id for q in stratified_subset(others, answerable).questions} if answerable else set()
    chosen = [q for q in data.questions if q.id in unanswerable | drawn]
    users = {q.user_id for q in chosen}
    sessions = [s for s in data.sessions if s.user_id in users]
    return sessions, [Asked("longmemeval", q.app_name, q.user_id, q.question, q.answerable, q.asked_at) for q in chosen]


def verdicts(settings: Settings, sessions: Sequence[Session], asked: Sequence[Asked]) -> list[Verdict]:
    """Ingest ``sessions`` and put every question, the answer check scoring every cosine-confident recall."""
    ingest_sessions(list(sessions), settings)
    scoring = settings.model_copy(update={"recall_abstain_min_answer_score": -math.inf})
    out = []
    with Recaller(scoring) as recaller:
        for a in asked:
            result = recaller.recall_result(a.question, a.app_name, a.user_id, now=a.asked_at)
            score = result.answer_score if result.answer_score is not None else -math.inf
            out.append(Verdict(a, result.confident, score))
    return out


def counts(found: Sequence[Verdict], threshold: float) -> dict[str, dict[str, Any]]:
    """Per split: answerable questions kept confident, unanswerable ones answered confidently."""
    out: dict[str, dict[str, Any]] = {}
    for v in found:
        row = out.setdefault(v.asked.split, {"answerable": 0, "kept": 0, "unanswerable": 0, "answered": 0})
        confident = v.cosine_confident and v.answer_score >= threshold
        if v.asked.answerable:
            row["answerable"] += 1
            row["kept"] += confident
        else:
            row["unanswerable"] += 1
            row["answered"] += confident
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--longmemeval", type=Path, default=None, help="a LongMemEval per-question folder")
    parser.add_argument("--answerable", type=int, default=20, help="LongMemEval answerable questions drawn")
    parser.add_argument("--keep", type=float, default=0.92, help="share of DEV's answerable kept confident")
    parser.add_argument("--dump", type=Path, default=None, help="write every verdict to this JSON file")
    args = parser.parse_args(argv)
    sessions, asked = lives()
    if args.longmemeval is not None:
        more_sessions, more = longmemeval(args.longmemeval, args.answerable)
        sessions, asked = sessions + more_sessions, asked + more
    with tempfile.TemporaryDirectory(prefix="abstain-") as tmp:
        settings = Settings(store_uri=str(Path(tmp) / "store"))
        found = verdicts(settings, sessions, asked)
    dev = [v.answer_score for v in found if v.asked.split == DEV and v.asked.answerable]
    threshold = calibrate(dev, 1.0 - args.keep)
    report = {
        "calibrated_threshold": threshold,
        "at_calibrated": counts(found, threshold),
        "configured_threshold": settings.recall_abstain_min_answer_score,
        "at_configured": counts(found, settings.recall_abstain_min_answer_score),
        "cosine_only": counts(found, -math.inf),
    }
    if args.dump is not None:
        rows = [{"split": v.asked.split, "question": v.asked.question, "answerable": v.asked.answerable,
                 "cosine_confident": v.cosine_confident, "answer_score": v.answer_score} for v in found]  # fmt: skip
        args.dump.write_text(json.dumps(rows, indent=1, default=str), encoding="utf-8")
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
