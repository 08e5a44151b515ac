"""Validates a batch of raw sessions with pandera (polars) and builds typed Sessions.

The batch is flattened to one frame of events and checked in one call; failures map back to
their session, which goes to quarantine with every reason while the rest of the batch proceeds.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

import pandera.polars as pa
import polars as pl
from pandera.errors import SchemaErrors

from tasks.ids import id_problem
from tasks.models import Event, QuarantineRecord, Role, Session
from tasks.sources.raw import AGENT_AUTHORS, USER_AUTHORS, RawSession

#: Events may sit slightly outside the session's own start/end (clock skew between services).
CLOCK_SLACK = timedelta(minutes=5)
MAX_TEXT_CHARS = 100_000


class EventFrame(pa.DataFrameModel):
    """One row per event of the batch, with its session's fields repeated."""

    session_idx: int
    app_name: str = pa.Field(nullable=False)
    user_id: str = pa.Field(nullable=False)
    session_id: str = pa.Field(nullable=False)
    started_at: pl.Datetime(time_zone="UTC") = pa.Field(nullable=False)  # type: ignore[valid-type]
    ended_at: pl.Datetime(time_zone="UTC") = pa.Field(nullable=False)  # type: ignore[valid-type]
    event_id: str = pa.Field(nullable=False)
    author: str = pa.Field(nullable=False)
    text: str = pa.Field(nullable=False, str_length={"max_value": MAX_TEXT_CHARS})
    timestamp: pl.Datetime(time_zone="UTC") = pa.Field(nullable=False)  # type: ignore[valid-type]

    class Config:
        strict = True
        coerce = False

    @pa.dataframe_check(name="ended_at >= started_at")
    def ended_after_start(cls, data: pa.PolarsData) -> pl.LazyFrame:
        return data.lazyframe.select(pl.col("ended_at") >= pl.col("started_at"))

    @pa.dataframe_check(name="event time within the session (5 min slack)")
    def event_in_session(cls, data: pa.PolarsData) -> pl.LazyFrame:
        return data.lazyframe.select(
            (pl.col("timestamp") >= pl.col("started_at") - CLOCK_SLACK)
            & (pl.col("timestamp") <= pl.col("ended_at") + CLOCK_SLACK)
        )

    @pa.dataframe_check(name="event id unique within its session")
    def unique_event_ids(cls, data: pa.PolarsData) -> pl.LazyFrame:
        return data.lazyframe.select(~pl.struct("session_idx", "event_id").is_duplicated())

    @pa.dataframe_check(name="event id and author not blank")
    def not_blank(cls, data: pa.PolarsData) -> pl.LazyFrame:
        cols = ["event_id", "author"]
        return data.lazyframe.select(pl.all_horizontal([pl.col(c).str.strip_chars().str.len_chars() > 0 for c in cols]))


@dataclass
class ValidationResult:
    sessions: list[Session]
    quarantined: list[QuarantineRecord]
    pending: int  # sessions not ended yet: left for a later run, not quarantined


#: Authors that are software, never the user: system prompts, tool and function results, chat models.
_MACHINE_AUTHOR = re.compile(
    r"^(?:system|tool|tools|function|functions|developer|ipython|chatgpt|openai|copilot|gpt[\w.-]*|claude[\w.-]*|"
    r"gemini[\w.-]*|llama[\w.-]*|mistral[\w.-]*|[\w.-]*[-_ ](?:bot|assistant|agent|tool))$"
)


def role_of(author: str, fmt: str) -> Role:
    """``user``/``agent`` by author name; in ADK every non-user author is an agent; software
    authors (system, tool, function, ChatGPT-like) are agents; else a person."""
    name = author.strip().lower()
    if name in USER_AUTHORS:
        return "user"
    if fmt == "adk" or name in AGENT_AUTHORS or _MACHINE_AUTHOR.match(name):
        return "agent"
    return "other"


def _not_utf8(raw: RawSession) -> str | None:
    """A reason when a string of the session cannot be encoded (a lone surrogate from a JSON escape).

    Every string that reaches polars, Lance or a provider is checked: ids, authors, texts, summaries.
    Sources other than the file reader may not have checked them.
    """
    fields = [("app_name", raw.app_name), ("user_id", raw.user_id), ("session_id", raw.session_id)]
    for i, e in enumerate(raw.events):
        fields += [(f"events[{i}].id", e.id), (f"events[{i}].author", e.author), (f"events[{i}].text", e.text)]
    fields += [(f"compaction_summaries[{i}]", text) for i, text in enumerate(raw.compaction_summaries)]
    for name, value in fields:
        try:
            (value or "").encode("utf-8")
        except UnicodeEncodeError:
            return f"{name}: is not valid UTF-8 (lone surrogate)"
    return None


def _event_problems(raw: RawSession) -> list[str]:
    """Plain reasons for event fields: event ids by the id rule, texts within ``MAX_TEXT_CHARS``."""
    out = []
    for i, e in enumerate(raw.events):
        problem = id_problem(e.id) if e.id is not None else None
        if problem:
            out.append(f"events[{i}].id: {problem}")
        if e.text is not None and len(e.text) > MAX_TEXT_CHARS:
            out.append(f"events[{i}].text: {len(e.text):,} characters, more than the {MAX_TEXT_CHARS:,} allowed")
    return out[:5] + ([f"and {len(out) - 5} more event problems"] if len(out) > 5 else [])


def _frame(raws: Sequence[tuple[int, RawSession]]) -> pl.DataFrame:
    rows = [
        {
            "session_idx": idx, "app_name": r.app_name, "user_id": r.user_id, "session_id": r.session_id,
            "started_at": r.started_at, "ended_at": r.ended_at, "event_id": e.id, "author": e.author,
            "text": e.text, "timestamp": e.timestamp,
        }
        for idx, r in raws
        for e in r.events
    ]  # fmt: skip
    schema: dict[str, pl.DataType | type[pl.DataType]] = {
        "session_idx": pl.Int64, "app_name": pl.String, "user_id": pl.String, "session_id": pl.String,
        "started_at": pl.Datetime("us", "UTC"), "ended_at": pl.Datetime("us", "UTC"), "event_id": pl.String,
        "author": pl.String, "text": pl.String, "timestamp": pl.Datetime("us", "UTC"),
    }  # fmt: skip
    return pl.DataFrame(rows, schema=schema)


def _schema_failures(frame: pl.DataFrame) -> dict[int, list[str]]:
    """Reasons per session index, from one lazy pandera validation of the whole batch."""
    reasons: dict[int, list[str]] = defaultdict(list)
    try:
        EventFrame.validate(frame, lazy=True)
    except SchemaErrors as exc:
        cases = exc.failure_cases
        for case in cases.iter_rows(named=True):
            index = case.get("index")
            if index is None:
                continue
            idx = int(frame["session_idx"][int(index)])
            column = case.get("column") or "row"
            reason = f"{column}: failed {case.get('check')}"
            if reason not in reasons[idx]:
                reasons[idx].append(reason)
    return reasons


def _id_problems(raw: RawSession) -> list[str]:
    """The scope ids by the one id rule the read filters use, so that no stored id can wedge a read."""
    out = []
    for name in ("app_name", "user_id", "session_id"):
        value = getattr(raw, name)
        problem = "missing" if value is None else id_problem(value)
        if problem:
            out.append(f"{name}: {problem}")
    return out


def _batch_failures(raws: Sequence[RawSession]) -> dict[int, list[str]]:
    """Reasons per session index: pre-checks, then one pandera pass over the sessions that passed them."""
    early = {idx: [reason] for idx, raw in enumerate(raws) if (reason := _not_utf8(raw))}
    early |= {idx: problems for idx, raw in enumerate(raws) if idx not in early and (problems := _event_problems(raw))}
    frame = _frame([(idx, raw) for idx, raw in enumerate(raws) if idx not in early])
    failures = _schema_failures(frame) if frame.height else {}
    return failures | early


def _failures_isolated(raws: Sequence[RawSession]) -> dict[int, list[str]]:
    """The batch's reasons; if the batch check itself breaks on some input, each session is checked alone,
    so the one that breaks it is quarantined and the rest are not held back."""
    try:
        return _batch_failures(raws)
    except Exception:  # an input no check foresaw must not stop the batch
        failures: dict[int, list[str]] = {}
        for idx, raw in enumerate(raws):
            try:
                if reasons := _batch_failures([raw]).get(0):
                    failures[idx] = reasons
            except Exception as exc:
                failures[idx] = [f"could not be validated ({type(exc).__name__})"]
        return failures


def _superseded(sessions: list[Session], lines: list[RawSession]) -> tuple[list[Session], list[QuarantineRecord]]:
    """Earlier lines of a session that appears again later in the batch with other content.

    The later line wins (a session log appended to as it grows); the earlier ones are quarantined
    with a pointer to it instead of disappearing silently. Identical repeats are merely dropped.
    """
    last = {s.key: i for i, s in enumerate(sessions)}
    kept, dropped = [], []
    for i, (session, raw) in enumerate(zip(sessions, lines, strict=True)):
        later = last[session.key]
        if later == i:
            kept.append(session)
        elif session.content_hash != sessions[later].content_hash:
            where = f"{lines[later].source}:{lines[later].line}"
            reason = f"session_id: appears again at {where} with other content; that later line is used"
            dropped.append(QuarantineRecord(source=raw.source, line=raw.line, reason=reason, raw=raw.raw))
    return kept, dropped


def _session(raw: RawSession) -> Session:
    assert raw.app_name and raw.user_id and raw.session_id and raw.started_at and raw.ended_at
    events = tuple(
        Event(id=str(e.id), author=str(e.author), role=role_of(str(e.author), raw.fmt), text=str(e.text),
              timestamp=e.timestamp)  # type: ignore[arg-type]
        for e in sorted(raw.events, key=lambda e: e.timestamp)  # type: ignore[arg-type,return-value]
    )  # fmt: skip
    return Session(app_name=raw.app_name, user_id=raw.user_id, session_id=raw.session_id,
                   started_at=raw.started_at, ended_at=raw.ended_at, events=events,
                   compaction_summaries=tuple(raw.compaction_summaries), compacted_until=raw.compacted_until,
                   source=f"{raw.source}:{raw.line}")  # fmt: skip


def validate_batch(raws: Sequence[RawSession]) -> ValidationResult:
    """Typed sessions for the good raw sessions; quarantine records (with reasons) for the others.

    Never raises for any input: every session ends up as a Session, a quarantine record or pending.
    """
    failures = _failures_isolated(raws)
    sessions: list[Session] = []
    lines: list[RawSession] = []
    quarantined: list[QuarantineRecord] = []
    pending = 0
    for idx, raw in enumerate(raws):
        reasons = list(raw.problems) + failures.get(idx, [])
        if raw.ended_at is None and not raw.problems and raw.fmt == "jsonl" and raw.events:
            pending += 1  # not ended yet: picked up by a later run once it has ended_at
            continue
        if not raw.events:
            reasons.append("events: no event with text")
        reasons += _id_problems(raw)
        for name in ("started_at", "ended_at"):
            if getattr(raw, name) is None and not any(r.startswith(name) for r in reasons):
                reasons.append(f"{name}: missing")
        if not reasons:
            try:
                sessions.append(_session(raw))
                lines.append(raw)
                continue
            except Exception as exc:  # an input no check foresaw
                reasons.append(f"could not be read as a session ({type(exc).__name__})")
        quarantined.append(QuarantineRecord(source=raw.source, line=raw.line, reason="; ".join(reasons), raw=raw.raw))
    sessions, repeated = _superseded(sessions, lines)
    return ValidationResult(sessions=sessions, quarantined=quarantined + repeated, pending=pending)
