"""Play the write-path cases through the real ingest and score what the store holds afterwards.

The honest path: :func:`tasks.pipeline.ingest_sessions` (local extractor, summarizer, embedder,
consolidation engine) into a temporary LanceDB store. Every case is its own user, so all cases
run in two ingest calls: every first session, then every second session (a later run, as in
production, where the earlier memories come from the store).
"""

from __future__ import annotations

import re
import tempfile
from collections import defaultdict
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from pydantic import BaseModel

from evaluation.writepath.cases import Case, build_cases
from tasks.models import Event, Session
from tasks.settings import Settings

APP = "writepath"
T0 = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
#: Words that make a mention of a value not a statement that it is current.
_NOT_CURRENT = re.compile(
    r"\b(?:not|no longer|any ?more|never|no more|stopped|quit|sold|gave up|got rid|gone|instead of|used to|"
    r"switched from|changed from|previously|formerly|was:|retract\w*|scratch(?:ed)? that|meant)\b|n't\b",
    re.I,
)


class CaseResult(BaseModel):
    case_id: str
    family: str
    split: str
    kind: str
    decision_ok: bool
    survived_ok: bool | None
    episode_ok: bool | None
    why: str = ""


class FamilyScore(BaseModel):
    family: str
    split: str
    kind: str
    cases: int
    decision: float
    survived: float | None
    episode: float | None


class WritepathMetrics(BaseModel):
    """Write-path accuracy per split ("dev", "heldout") and per family."""

    cases: int
    decision: dict[str, float]
    survived: dict[str, float]
    episode: dict[str, float]
    families: list[FamilyScore]
    results: list[CaseResult]
    seconds: float


def user_of(index: int) -> str:
    return f"wp{index:04d}"


def sessions_of(case: Case, index: int) -> list[Session]:
    """One Session per case session: each user turn answered by a neutral agent turn."""
    out = []
    for j, turns in enumerate(case.sessions):
        start = T0 + timedelta(days=30 * j)
        events: list[Event] = []
        for t, text in enumerate(turns):
            at = start + timedelta(minutes=2 * t)
            events.append(Event(id=f"s{j}u{t}", author="user", role="user", text=text, timestamp=at))
            events.append(Event(id=f"s{j}a{t}", author="agent", role="agent", text="Noted.",
                                timestamp=at + timedelta(minutes=1)))  # fmt: skip
        out.append(Session(app_name=APP, user_id=user_of(index), session_id=f"s{j}", started_at=start,
                           ended_at=events[-1].timestamp, events=tuple(events)))  # fmt: skip
    return out


def strip_notes(content: str) -> str:
    """A memory without its history notes ("(changed from X on …)"), which never state X as current."""
    return re.sub(r"\((?:changed from|previously|refined on|switched from)[^()]*\)", "", content)


def states_current(content: str, value: str) -> bool:
    """The memory names ``value`` and nothing in it says the value is past, negated or retracted."""
    text = strip_notes(content)
    return value.lower() in text.lower() and not _NOT_CURRENT.search(text)


def _contains(content: str, value: str) -> bool:
    return value.lower() in content.lower()


def score_case(case: Case, memories: Sequence[str], episodes: Sequence[dict[str, Any]]) -> CaseResult:
    """Decision, survival and episode consistency of one case from its user's active rows."""
    why: list[str] = []
    if case.kind == "forget":
        leaked = [v for v in case.old if any(_contains(m, v) for m in memories)]
        why += [f"still active: {v}" for v in leaked]
    else:
        why += [f"old still current: {v}" for v in case.old if any(states_current(m, v) for m in memories)]
    why += [f"new not active: {v}" for v in case.new if not any(_contains(m, v) for m in memories)]
    why += [f"wrongly says: {v}" for v in case.absent if any(_contains(m, v) for m in memories)]
    for v in case.keep:
        count = sum(_contains(m, v) for m in memories)
        if count == 0 or (case.single and count > 1):
            why.append(f"{v} active {count}x")
    survived = None
    if case.verbatim:
        lost = [v for v in case.verbatim if not _survived(case, v, memories, episodes)]
        survived = not lost
        why += [f"lost: {v}" for v in lost]
    episode_ok = None
    if case.old and case.kind != "forget":
        last = [e for e in episodes if e["session_id"] == f"s{len(case.sessions) - 1}"]
        stale = [
            s["text"]
            for e in last
            for s in e["sentences"]  # the uncited opening only lists topic words
            if s["source_event_ids"] and any(states_current(s["text"], v) for v in case.old)
        ]
        episode_ok = not stale
        why += [f"episode: {s}" for s in stale]
    decision_ok = not [w for w in why if not w.startswith(("lost:", "episode:"))]
    return CaseResult(
        case_id=case.case_id, family=case.family, split=case.split, kind=case.kind, decision_ok=decision_ok,
        survived_ok=survived, episode_ok=episode_ok, why="; ".join(why),
    )  # fmt: skip


def _survived(case: Case, value: str, memories: Sequence[str], episodes: Sequence[dict[str, Any]]) -> bool:
    """In an active memory, or verbatim in an episode sentence that cites the turn where it was said."""
    if any(value in m for m in memories):
        return True
    turns = {f"s{j}u{t}" for j, ss in enumerate(case.sessions) for t, text in enumerate(ss) if value in text}
    return any(value in s["text"] and turns & set(s["source_event_ids"]) for e in episodes for s in e["sentences"])


def run_writepath(
    settings: Settings | None = None, seed: int = 11, cases: Sequence[Case] | None = None
) -> WritepathMetrics:
    """Ingest every case (as its own user) into a temporary store and score them all."""
    from tasks.ingest.run import ingest_sessions
    from tasks.store.tables import EPISODES, MEMORIES, open_store

    chosen = list(cases) if cases is not None else build_cases(seed)
    per_case = [sessions_of(c, i) for i, c in enumerate(chosen)]
    started = datetime.now(UTC)
    with tempfile.TemporaryDirectory(prefix="writepath-") as tmp:
        run_settings = (settings or Settings()).model_copy(update={"store_uri": tmp})
        for j in range(max(len(s) for s in per_case)):
            ingest_sessions([s[j] for s in per_case if len(s) > j], run_settings)
        store = open_store(run_settings)
        memories: dict[str, list[str]] = defaultdict(list)
        for row in store.rows(MEMORIES, "status = 'active'", ["user_id", "content"]):
            memories[row["user_id"]].append(row["content"])
        episodes: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for row in store.rows(EPISODES, None, ["user_id", "session_id", "sentences"]):
            episodes[row["user_id"]].append(row)
    results = [score_case(c, memories[user_of(i)], episodes[user_of(i)]) for i, c in enumerate(chosen)]
    return summarise(results, (datetime.now(UTC) - started).total_seconds())


def _share(flags: Sequence[bool | None]) -> float | None:
    known = [f for f in flags if f is not None]
    return sum(known) / len(known) if known else None


def summarise(results: Sequence[CaseResult], seconds: float) -> WritepathMetrics:
    families: list[FamilyScore] = []
    for name in dict.fromkeys(r.family for r in results):
        rs = [r for r in results if r.family == name]
        families.append(FamilyScore(family=name, split=rs[0].split, kind=rs[0].kind, cases=len(rs),
                                    decision=_share([r.decision_ok for r in rs]) or 0.0,
                                    survived=_share([r.survived_ok for r in rs]),
                                    episode=_share([r.episode_ok for r in rs])))  # fmt: skip
    decision: dict[str, float] = {}
    survived: dict[str, float] = {}
    episode: dict[str, float] = {}
    for split in ("dev", "heldout"):
        rs = [r for r in results if r.split == split]
        decision[split] = _share([r.decision_ok for r in rs]) or 0.0
        survived[split] = _share([r.survived_ok for r in rs]) or 0.0
        episode[split] = _share([r.episode_ok for r in rs]) or 0.0
    return WritepathMetrics(cases=len(results), decision=decision, survived=survived, episode=episode,
                            families=families, results=list(results), seconds=seconds)  # fmt: skip
