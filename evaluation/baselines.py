"""The reference systems the pipeline is compared with: full context, chunk RAG and turn RAG.

They bracket the pipeline: full context is the recall ceiling at the highest token cost; the RAG
baselines are what one gets by embedding raw turns with the same embedder, without extraction.
Search is brute-force cosine over normalised vectors: exact, and fast enough at evaluation sizes.
"""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

import numpy as np

from evaluation.dataset import EvalDataset, EvalQuestion
from tasks.models import Event, Session
from tasks.providers.base import Embedder, FloatMatrix

Scope = tuple[str, str]


@dataclass(frozen=True)
class Retrieved:
    """One retrieved item: the exact line a prompt would carry, the turns it comes from, and its
    cosine similarity to the question (the same scale for every system)."""

    text: str
    source_event_ids: tuple[str, ...]
    score: float


@dataclass
class IndexStats:
    seconds: float = 0.0
    items: int = 0
    sessions: int = 0
    memories: int = 0
    extra: dict[str, float] = field(default_factory=dict)


class RetrievalSystem(Protocol):
    """What the runner needs of a system: build once, then answer questions."""

    name: str
    #: True when the system returns its whole history whatever k is (no ranking cut-off).
    returns_everything: bool

    def index(self, dataset: EvalDataset) -> IndexStats: ...

    def retrieve(self, question: EvalQuestion, k: int) -> list[Retrieved]: ...


def format_session_time(value: datetime) -> str:
    """A session's time in LoCoMo's own style, e.g. "1:56 pm on 8 May, 2023"."""
    hour = value.hour % 12 or 12
    return f"{hour}:{value:%M} {'am' if value.hour < 12 else 'pm'} on {value.day} {value:%B}, {value.year}"


def turn_line(session: Session, event: Event) -> str:
    """A turn prefixed with its session time and speaker, so relative dates stay resolvable."""
    return f"{format_session_time(session.started_at)} {event.author}: {event.text}"


class FullContext:
    """Everything the scope ever said, in order: the recall ceiling and the token-cost reference."""

    name = "full_context"
    returns_everything = True

    def __init__(self) -> None:
        self._items: dict[Scope, list[Retrieved]] = {}

    def index(self, dataset: EvalDataset) -> IndexStats:
        start = time.perf_counter()
        items: dict[Scope, list[Retrieved]] = defaultdict(list)
        for session in sorted(dataset.sessions, key=lambda s: s.started_at):
            scope = (session.app_name, session.user_id)
            items[scope].extend(Retrieved(turn_line(session, e), (e.id,), 1.0) for e in session.events)
        self._items = dict(items)
        count = sum(len(v) for v in self._items.values())
        return IndexStats(seconds=time.perf_counter() - start, items=count, sessions=len(dataset.sessions))

    def retrieve(self, question: EvalQuestion, k: int) -> list[Retrieved]:
        return list(self._items.get((question.app_name, question.user_id), []))


class DenseRAG:
    """Windows of ``window`` consecutive turns within a session, embedded and searched by cosine."""

    returns_everything = False

    def __init__(self, name: str, embedder: Embedder, window: int, stride: int | None = None) -> None:
        if window < 1:
            raise ValueError("window must be at least 1")
        self.name = name
        self.window = window
        self.stride = stride or window
        self._embedder = embedder
        self._units: dict[Scope, list[Retrieved]] = {}
        self._vectors: dict[Scope, FloatMatrix] = {}

    def units(self, session: Session) -> list[Retrieved]:
        """Every window of ``window`` consecutive turns, ``stride`` apart; a shorter session is one unit."""
        events = session.events
        out: list[Retrieved] = []
        last = max(len(events) - self.window, 0)
        starts = list(range(0, last + 1, self.stride))
        if starts[-1] != last:
            starts.append(last)
        for start in starts:
            part = events[start : start + self.window]
            text = "\n".join(turn_line(session, e) for e in part)
            out.append(Retrieved(text, tuple(e.id for e in part), 0.0))
        return out

    def index(self, dataset: EvalDataset) -> IndexStats:
        start = time.perf_counter()
        units: dict[Scope, list[Retrieved]] = defaultdict(list)
        for session in sorted(dataset.sessions, key=lambda s: s.started_at):
            units[(session.app_name, session.user_id)].extend(self.units(session))
        self._units = dict(units)
        flat = [u for scope_units in self._units.values() for u in scope_units]
        vectors = self._embedder.embed([u.text for u in flat])
        offset = 0
        for scope, scope_units in self._units.items():
            self._vectors[scope] = vectors[offset : offset + len(scope_units)]
            offset += len(scope_units)
        return IndexStats(seconds=time.perf_counter() - start, items=len(flat), sessions=len(dataset.sessions))

    def retrieve(self, question: EvalQuestion, k: int) -> list[Retrieved]:
        scope = (question.app_name, question.user_id)
        units = self._units.get(scope, [])
        if not units or k <= 0:
            return []
        query = self._embedder.embed([question.question])[0]
        scores = self._vectors[scope] @ query
        top = np.argsort(-scores, kind="stable")[:k]
        return [Retrieved(units[i].text, units[i].source_event_ids, float(scores[i])) for i in top]
