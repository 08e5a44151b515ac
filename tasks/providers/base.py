"""The four provider protocols. Stages depend on these, never on a concrete provider."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from tasks.models import Decision, Episode, Extraction, Fact, ForgetRequest, Session
from tasks.rows import MemoryRow

FloatMatrix = npt.NDArray[np.float32]


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors of shape (n, dim)."""

    model: str
    dim: int

    def embed(self, texts: Sequence[str]) -> FloatMatrix: ...


@runtime_checkable
class Extractor(Protocol):
    """Reads one session, returns facts under topics and forget requests. ``people`` maps names the
    user tied to themselves in earlier sessions to the relation ("Tom" -> "brother")."""

    def extract(self, session: Session, people: Mapping[str, str] | None = None) -> Extraction: ...


@runtime_checkable
class Summarizer(Protocol):
    """Writes the episodic memory of one session; ``facts`` are the extractor's, when already known."""

    def summarize(self, session: Session, facts: Sequence[Fact] | None = None) -> Episode: ...


class ScoredMemory(Protocol):
    """A related memory with its cosine similarity to the new fact."""

    @property
    def memory(self) -> MemoryRow: ...

    @property
    def similarity(self) -> float: ...


@runtime_checkable
class Consolidator(Protocol):
    """Decides what a new fact or forget request does to the user's related memories."""

    def decide(self, fact: Fact, related: Sequence[ScoredMemory]) -> Decision: ...

    def forget(self, request: ForgetRequest, related: Sequence[ScoredMemory]) -> list[Decision]: ...


@runtime_checkable
class CallingConsolidator(Consolidator, Protocol):
    """A consolidator whose decisions are requests to a service (an LLM), so the engine may overlap them.

    ``decision_key`` is the exact request :meth:`decide` would send for these inputs, or None when it
    decides without one; equal keys must mean equal decisions. A memory below ``related_threshold``
    (and not of the fact's slot) is never shown to the service. :mod:`tasks.consolidate.schedule`
    relies on both to decide independent facts concurrently with the sequential run's results.
    """

    related_threshold: float

    def decision_key(self, fact: Fact, related: Sequence[ScoredMemory]) -> str | None: ...
