"""The ingest stages before the write, as plain functions: pull → validate → select → extract → embed.

:mod:`tasks.ingest.run` chains them (with :mod:`tasks.ingest.commit` last) for both the Prefect
flow and plain Python. Each takes settings and plain models, never clients, so Prefect can hash
its inputs; the store and the models are opened once per process by their factories.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, datetime

from pydantic import BaseModel, Field, PrivateAttr

from tasks.consolidate.engine import ConsolidationOutcome
from tasks.consolidate.forget_guard import accept_forget
from tasks.errors import ProviderReplyError
from tasks.ingest.evidence import passages_of
from tasks.ingest.people import known_people
from tasks.ingest.validate import ValidationResult
from tasks.models import Episode, Extraction, QuarantineRecord, Session, SessionBatch
from tasks.partitioning import OutcomeFields
from tasks.providers import build_embedder, build_extractor, build_summarizer
from tasks.providers.concurrent import extract_and_summarize
from tasks.providers.openai_usage import UsageMeter, run_meter
from tasks.redact import redact_session
from tasks.settings import Settings
from tasks.sources import build_source
from tasks.sources.raw import RawSession
from tasks.store.filters import is_in
from tasks.store.tables import LEDGER, open_store


class Extracted(BaseModel):
    session: Session
    extraction: Extraction
    episode: Episode


class Embedded(BaseModel):
    batches: list[SessionBatch]
    episodes: list[Episode]
    episode_vectors: list[list[float]]
    seconds: float
    #: Users already consolidated while others were still extracted (LLM runs), by (app_name, user_id):
    #: a tuple, since ids may contain any separator a joined string would use.
    consolidated: dict[tuple[str, str], ConsolidationOutcome] = Field(default_factory=dict)
    #: Per batch, the vectors of its session's evidence passages (``evidence.passages_of`` order).
    evidence_vectors: list[list[list[float]]] = Field(default_factory=list)


class PartitionOutcome(OutcomeFields):
    """One partition of a partitioned ingest, as the run record lists it (``runs --json``: ``partitions``)."""

    sessions: int
    sessions_processed: int = 0
    memories_written: int = 0
    evidence_written: int = 0
    #: How often the worker's process had loaded the embedder by then (1 on a worker that kept it: loaded
    #: once per worker, not per task).
    embedder_loads: int = 0
    #: That process's peak resident memory so far (MB): what a worker needed, the largest partition included.
    worker_peak_mb: float = 0.0


class IngestSummary(BaseModel):
    """What one ingest run did; returned by the flow and printed by the CLI."""

    run_id: str
    sessions_seen: int = 0
    sessions_processed: int = 0
    sessions_skipped: int = 0
    sessions_pending: int = 0
    #: Sessions a provider failed on ("app/user/session" -> error): not in the ledger, retried next run.
    sessions_failed: dict[str, str] = Field(default_factory=dict)
    sessions_quarantined: int = 0
    facts_extracted: int = 0
    forget_requests: int = 0
    memories_written: int = 0
    changes_written: int = 0
    episodes_written: int = 0
    #: Evidence rows (verbatim turn passages) written by this run.
    evidence_written: int = 0
    actions: dict[str, int] = Field(default_factory=dict)
    #: Forget requests of this run that matched no memory (their audit reasons): nothing was deleted for them.
    forgets_unmatched: list[str] = Field(default_factory=list)
    #: Users who asked to forget everything about them ([app, user]): erased after the write, as ``erase-user``.
    erased_on_request: list[list[str]] = Field(default_factory=list)
    seconds: float = 0.0
    embed_seconds: float = 0.0
    #: LLM calls and tokens of this run per provider (empty with local providers).
    llm_usage: dict[str, dict[str, int]] = Field(default_factory=dict)
    #: Partitioned runs (issue 66): the partition this summary is of (None: a whole run), the partitions
    #: of a whole run with their outcomes, and the Prefect task runner that ran them.
    partition: str | None = None
    partitions: list[PartitionOutcome] = Field(default_factory=list)
    task_runner: str | None = None
    #: This run's own LLM usage meter (not stored), counting from the run's start: see openai_usage.
    _usage: UsageMeter = PrivateAttr(default_factory=run_meter)

    def read_usage(self, *, final: bool = False) -> None:
        """Set llm_usage from the run's meter; ``final``: the run is over, the meter stops counting."""
        self.llm_usage = self._usage.snapshot()
        if final:
            self._usage.close()

    def count_extracted(self, items: Sequence[Extracted]) -> None:
        self.facts_extracted = sum(len(e.extraction.facts) for e in items)
        self.forget_requests = sum(len(e.extraction.forgets) for e in items)


def new_run_id() -> str:
    return f"{datetime.now(UTC):%Y%m%dT%H%M%S}-{uuid.uuid4().hex[:8]}"


def pull_sessions(settings: Settings) -> tuple[list[RawSession], list[QuarantineRecord]]:
    """Everything the configured source offers: raw sessions, and quarantine records for unreadable input."""
    raws: list[RawSession] = []
    bad: list[QuarantineRecord] = []
    for item in build_source(settings).pull(settings.quarantine_raw_max_chars):
        if isinstance(item, QuarantineRecord):
            bad.append(item)
        else:
            raws.append(item)
    return raws, bad


def source_sessions(
    pull: Callable[[Settings], tuple[list[RawSession], list[QuarantineRecord]]],
    validate: Callable[[list[RawSession]], ValidationResult],
    settings: Settings,
    sessions: Sequence[Session] | None,
    summary: IngestSummary,
) -> tuple[Sequence[Session], list[QuarantineRecord]]:
    """The run's sessions (pulled and validated unless given) and what was quarantined doing so, counted
    into ``summary``: one reading for a whole run and for a partitioned one."""
    if sessions is not None:
        summary.sessions_seen = len(sessions)
        return sessions, []
    raws, unreadable = pull(settings)
    validated = validate(raws)
    summary.sessions_seen = len(raws) + len(unreadable)
    summary.sessions_pending = validated.pending
    return validated.sessions, unreadable + validated.quarantined


def select_new(sessions: Sequence[Session], settings: Settings) -> list[Session]:
    """Sessions not in the ledger with the same content hash (a changed session counts as new)."""
    store = open_store(settings)
    done: dict[str, str] = {}
    keys = sorted({s.key for s in sessions})
    for start in range(0, len(keys), 500):
        where = is_in("session_key", keys[start : start + 500], ("session_key",))
        for row in store.rows(LEDGER, where, columns=["session_key", "content_hash"]):
            done[row["session_key"]] = row["content_hash"]
    latest: dict[str, Session] = {}
    for session in sessions:  # the same session twice in one batch: the later line wins
        latest[session.key] = session
    return [s for s in latest.values() if done.get(s.key) != s.content_hash]


def extract_sessions(sessions: Sequence[Session], settings: Settings) -> tuple[list[Extracted], list[QuarantineRecord]]:
    """Extract and summarise each session; with an LLM provider, sessions run concurrently.

    Returns the extractions and quarantine records: a session whose LLM reply stays invalid after
    the repair attempt is quarantined with the raw reply and left out of the run, so the ledger
    does not mark it done. Any other provider failure fails the run (nothing is marked done).
    """
    extractor, summarizer = build_extractor(settings), build_summarizer(settings)
    out: list[Extracted] = []
    bad: list[QuarantineRecord] = []
    # Providers read the redacted session (a no-op unless redact_pii is on); the ledger keeps the
    # original's key and content hash.
    readable = [redact_session(s, settings) for s in sessions]
    people = known_people(readable, settings)
    if settings.extractor == "local" and settings.summarizer == "local":  # CPU-bound: threads would not help
        for session, text, known in zip(sessions, readable, people, strict=True):
            extraction = _guarded(extractor.extract(text, known), text)
            episode = summarizer.summarize(text, extraction.facts)
            out.append(Extracted(session=session, extraction=extraction, episode=episode))
        return out, bad
    results = extract_and_summarize(readable, extractor, summarizer, settings, people)
    for session, result in zip(sessions, results, strict=True):
        if isinstance(result, ProviderReplyError):
            reason = f"session {session.session_id}: {result.reason}"
            raw = result.raw[: settings.quarantine_raw_max_chars]
            bad.append(QuarantineRecord(source=session.source or session.key, line=0, reason=reason, raw=raw))
        elif isinstance(result, BaseException):
            raise result
        else:
            out.append(Extracted(session=session, extraction=_guarded(result[0], session), episode=result[1]))
    return out, bad


def _guarded(extraction: Extraction, session: Session) -> Extraction:
    """Only genuine requests of the user to forget about themselves delete anything, whatever the provider."""
    forgets = [r for r in extraction.forgets if accept_forget(r, session)[0]]
    return extraction if len(forgets) == len(extraction.forgets) else extraction.model_copy(update={"forgets": forgets})


def embed_extracted(items: Sequence[Extracted], settings: Settings) -> Embedded:
    """One embedding call for all facts, forget requests, episodes and evidence passages of the run
    (batched; a text said twice, as a fact and as its turn, is embedded once)."""
    embedder = build_embedder(settings)
    texts: list[str] = []
    for item in items:
        texts += [f.content for f in item.extraction.facts] + [r.query for r in item.extraction.forgets]
    texts += [item.episode.summary for item in items]
    said = [[p.text for p in passages_of(i.session)[0]] if settings.evidence_enabled else [] for i in items]
    unique = list(dict.fromkeys([*texts, *(t for texts_of in said for t in texts_of)]))
    started = time.perf_counter()
    found = embedder.embed(unique).tolist() if unique else []
    seconds = time.perf_counter() - started
    by_text = dict(zip(unique, found, strict=True))
    vectors = [by_text[t] for t in texts]
    batches, cursor = [], 0
    for item in items:
        n_f, n_r = len(item.extraction.facts), len(item.extraction.forgets)
        batches.append(
            SessionBatch(
                session=item.session, facts=item.extraction.facts, fact_vectors=vectors[cursor : cursor + n_f],
                forgets=item.extraction.forgets, forget_vectors=vectors[cursor + n_f : cursor + n_f + n_r],
            )
        )  # fmt: skip
        cursor += n_f + n_r
    return Embedded(
        batches=batches,
        episodes=[i.episode for i in items],
        episode_vectors=vectors[cursor:],
        seconds=seconds,
        evidence_vectors=[[by_text[t] for t in texts_of] for texts_of in said] if settings.evidence_enabled else [],
    )
