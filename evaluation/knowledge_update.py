"""Knowledge-update questions: is the current value shown, and is an outdated one shown as current?

LongMemEval's knowledge-update questions ask for a value the user changed ("What time do I wake up
on Saturdays?": 8:30, later 7:30). Its answer sessions are the statements of the value in time order,
so the gold turns (``has_answer``) of the latest answer session hold the current value and those of
the earlier ones an outdated value. For each question, the items an agent reads first (the top
``depth`` of the context order: memories and verbatim passages interleaved) are scored:

* **current shown**: an item cites a current gold turn, or its text holds the answer;
* **outdated shown as current**: an item marked ``current`` cites an outdated gold turn and no
  current one (a new version that carries "(previously: …)" cites both, and is not counted).

Run: ``python -m evaluation.knowledge_update --path ../shared/datasets/longmemeval-dev/oracle``.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from evaluation.longmemeval import parse_longmemeval_datetime, question_item
from tasks.ingest.run import ingest_sessions
from tasks.models import RecallHit, Session
from tasks.recall.abstain import RecallResult
from tasks.recall.evidence import interleaved
from tasks.recall.recaller import Recaller
from tasks.settings import Settings
from tasks.textrules import content_words

KNOWLEDGE_UPDATE = "knowledge-update"
#: The items an agent reads first (the issue's "top 5").
DEPTH = 5


@dataclass(frozen=True)
class UpdateCase:
    """One knowledge-update question with its gold turns split by time."""

    question_id: str
    question: str
    answer: str
    asked_at: datetime
    user_id: str
    app_name: str
    current_turns: frozenset[str]
    outdated_turns: frozenset[str]


@dataclass
class UpdateScore:
    """One question's outcome."""

    question_id: str
    current_shown: bool
    outdated_as_current: bool
    outdated_labelled: bool
    shown: list[dict[str, Any]] = field(default_factory=list)


def update_case(data: dict[str, Any]) -> tuple[list[Session], UpdateCase]:
    """A knowledge-update question file as its sessions and its gold turns, current and outdated."""
    sessions, question = question_item(data)
    answer_ids = {str(s) for s in data.get("answer_session_ids") or []}
    dated = sorted(
        (parse_longmemeval_datetime(str(d)), sid)
        for sid, d in zip(data["haystack_session_ids"], data["haystack_dates"], strict=True)
        if str(sid) in answer_ids
    )
    latest = dated[-1][1] if dated else None
    current: set[str] = set()
    outdated: set[str] = set()
    gold = set(question.gold_event_ids)
    for session in sessions:
        raw = session.session_id.split("#")[0]
        for event in session.events:
            if event.id in gold:
                (current if raw == latest else outdated).add(event.id)
    case = UpdateCase(question.id, question.question, question.answer, question.asked_at or dated[-1][0],
                      question.user_id, question.app_name, frozenset(current), frozenset(outdated))  # fmt: skip
    return sessions, case


def load_cases(path: Path, limit: int | None = None) -> tuple[list[Session], list[UpdateCase]]:
    """The knowledge-update questions (answerable ones) under ``path``, sorted by file name."""
    sessions: list[Session] = []
    cases: list[UpdateCase] = []
    for file in sorted(path.glob("*.json")):
        data = json.loads(file.read_text(encoding="utf-8"))
        if data.get("question_type") != KNOWLEDGE_UPDATE or str(data["question_id"]).endswith("_abs"):
            continue
        item_sessions, case = update_case(data)
        if case.outdated_turns and case.current_turns:
            sessions += item_sessions
            cases.append(case)
        if limit is not None and len(cases) >= limit:
            break
    return sessions, cases


def holds_answer(text: str, answer: str) -> bool:
    """Every content word of the answer is in ``text`` (a short answer: "7:30 am", "the suburbs")."""
    wanted = set(content_words(answer))
    return bool(wanted) and wanted <= set(content_words(text))


def score_case(case: UpdateCase, result: RecallResult, depth: int = DEPTH) -> UpdateScore:
    """How the first ``depth`` items of ``result`` present the case's values."""
    shown = interleaved(result.hits, result.evidence)[:depth]
    current_shown = outdated_current = labelled = False
    rows = []
    for hit in shown:
        turns = set(hit.source_event_ids)
        cites_current = bool(turns & case.current_turns)
        cites_outdated = bool(turns & case.outdated_turns)
        current_shown |= cites_current or holds_answer(hit.content, case.answer)
        if cites_outdated and not cites_current:
            outdated_current |= hit.current
            labelled |= not hit.current
        rows.append(_row(hit, cites_current, cites_outdated))
    return UpdateScore(case.question_id, current_shown, outdated_current, labelled, rows)


def _row(hit: RecallHit, cites_current: bool, cites_outdated: bool) -> dict[str, Any]:
    return {"kind": hit.kind, "current": hit.current, "cites_current": cites_current,
            "cites_outdated": cites_outdated, "text": hit.content[:120]}  # fmt: skip


def measure(path: Path, settings: Settings, *, limit: int | None = None, depth: int = DEPTH) -> dict[str, Any]:
    """Ingest the knowledge-update haystacks into ``settings``' store and score every question."""
    sessions, cases = load_cases(path, limit)
    ingest_sessions(sessions, settings)
    scores: list[UpdateScore] = []
    with Recaller(settings) as recaller:
        for case in cases:
            result = recaller.recall_result(case.question, case.app_name, case.user_id, now=case.asked_at)
            scores.append(score_case(case, result, depth))
    return summary(scores)


def summary(scores: Sequence[UpdateScore]) -> dict[str, Any]:
    n = len(scores) or 1
    return {
        "questions": len(scores),
        "current_shown": sum(s.current_shown for s in scores) / n,
        "outdated_shown_as_current": sum(s.outdated_as_current for s in scores) / n,
        "outdated_shown_labelled": sum(s.outdated_labelled for s in scores) / n,
        "per_question": [
            {
                "id": s.question_id,
                "current_shown": s.current_shown,
                "outdated_as_current": s.outdated_as_current,
                "shown": s.shown,
            }
            for s in scores
        ],
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--path", type=Path, required=True, help="a LongMemEval per-question folder")
    parser.add_argument("--limit", type=int, default=None, help="first N knowledge-update questions")
    parser.add_argument("--depth", type=int, default=DEPTH, help="items read first (default 5)")
    parser.add_argument("--no-evidence", action="store_true", help="the memories only (evidence layer off)")
    parser.add_argument("--no-current", action="store_true", help="recall without current/earlier marks (before)")
    parser.add_argument("--details", action="store_true", help="print every question's shown items")
    parser.add_argument("--store", default=None, help="ingest into (and keep) this store; default: a temporary one")
    args = parser.parse_args(argv)
    base = Settings()
    with tempfile.TemporaryDirectory(prefix="ku-") as tmp:
        update: dict[str, Any] = {"store_uri": args.store or str(Path(tmp) / "store")}
        if args.no_current:
            update |= {"recall_current": False}
        if args.no_evidence:
            update |= {"evidence_enabled": False, "recall_evidence": False}
        out = measure(args.path, base.model_copy(update=update), limit=args.limit, depth=args.depth)
    if not args.details:
        out.pop("per_question")
    print(json.dumps(out, indent=2, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
