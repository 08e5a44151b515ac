"""What a fact waiting in the consolidation schedule may change, and the facts pending before it.

Used by :mod:`tasks.consolidate.schedule`, whose docstring gives the rule these serve.
"""

from __future__ import annotations

from concurrent.futures import Future
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from tasks.consolidate.rowindex import TOPIC_BONUS
from tasks.models import Decision, Fact
from tasks.rows import MemoryRow

Vectors = npt.NDArray[np.float32]


@dataclass
class Footprint:
    """What a statement not yet applied may change among the active memories."""

    targets: frozenset[str]  #: lineages (memory ids) it may close or confirm
    vector: Vectors | None  #: of the row it may add (under its slot and topic); None: it adds none
    slot: str | None
    topic: str
    source: tuple[str, tuple[str, ...]]  #: session and events


@dataclass
class Plan:
    footprint: Footprint
    key: str | None = None
    future: Future[Decision] | None = None
    #: Earlier statements this fact waits for; empty once its decision is requested (or needs no call).
    blockers: frozenset[int] = frozenset()
    #: Of those, the ones whose decision was not known yet when this plan was made.
    undecided: frozenset[int] = frozenset()
    replay: bool = False
    #: The row it adds, once that is known (built once, for the facts planned after it).
    row: MemoryRow | None = None
    _decided: Decision | None = None

    def decided(self) -> Decision | None:
        """The decision requested ahead, once it has come back (None while in flight, or if it failed)."""
        future = self.future
        ready = future is not None and future.done() and not future.cancelled() and future.exception() is None
        if self._decided is None and ready:
            assert future is not None
            self._decided = future.result()
        return self._decided

    def known_add(self) -> bool:
        """Whether this fact will be added as a new memory: no candidate (no call), or the model said ADD."""
        if self.blockers or self.replay:
            return False
        if self.future is None:
            return self.key is None
        decision = self.decided()
        return decision is not None and decision.action == "ADD"

    def effect(self) -> Footprint:
        """The footprint, narrowed to the decision once it is known (only UPDATE and DELETE close a memory)."""
        decision, fp = self.decided(), self.footprint
        if decision is None or decision.action == "ADD":
            return fp
        if decision.action == "IGNORE":  # a confirmation changes nothing a request shows
            return Footprint(frozenset(), None, None, fp.topic, fp.source)
        # UPDATE or DELETE close their target (or, should it be gone by then, add the fact instead).
        targets = frozenset({decision.target_memory_id} if decision.target_memory_id else ())
        return Footprint(targets, fp.vector, fp.slot, fp.topic, fp.source)


@dataclass
class Pending:
    """The statements between the next to apply and the one being planned: rows they will add, and what
    the others may change, indexed."""

    rows: list[MemoryRow] = field(default_factory=list)
    index: list[int] = field(default_factory=list)
    vectors: list[Vectors] = field(default_factory=list)
    topics: list[str] = field(default_factory=list)
    by_target: dict[str, list[int]] = field(default_factory=dict)
    by_slot: dict[str, list[int]] = field(default_factory=dict)
    by_source: dict[tuple[str, tuple[str, ...]], list[int]] = field(default_factory=dict)
    #: The vectors of :attr:`rows` (each its fact's vector, already an array), copied into a growing buffer.
    row_vectors: list[Vectors] = field(default_factory=list)
    _buffer: Vectors | None = None
    _done_rows: int = 0

    def sims(self, vector: Vectors) -> Vectors:
        """Cosines of :attr:`rows` to ``vector``; each row's vector is copied once, as rows are added."""
        n = len(self.row_vectors)
        if self._buffer is None or len(self._buffer) < n:
            grown = np.zeros((max(64, 2 * n), len(vector)), np.float32)
            if self._buffer is not None:
                grown[: self._done_rows] = self._buffer[: self._done_rows]
            self._buffer = grown
        if self._done_rows < n:
            self._buffer[self._done_rows : n] = self.row_vectors[self._done_rows : n]
            self._done_rows = n
        return self._buffer[:n] @ vector

    def add(self, k: int, plan: Plan, row: MemoryRow | None) -> None:
        """A statement that will add ``row`` (known), or one whose effect is not known yet."""
        fp = plan.effect()
        self.by_source.setdefault(fp.source, []).append(k)
        if row is not None:
            assert fp.vector is not None  # a known ADD adds its own fact's vector
            self.rows.append(row)
            self.row_vectors.append(fp.vector)
            return
        for target in fp.targets:
            self.by_target.setdefault(target, []).append(k)
        if fp.slot:
            self.by_slot.setdefault(fp.slot, []).append(k)
        if fp.vector is not None:
            self.index.append(k)
            self.vectors.append(fp.vector)
            self.topics.append(fp.topic)

    def blockers(self, fact: Fact, vector: Vectors, relevant: set[str], floor: float | None, threshold: float,
                 source: tuple[str, tuple[str, ...]]) -> frozenset[int]:  # fmt: skip
        """Pending statements of unknown effect that may change the request of ``fact``.

        A row they may add matters at or above ``threshold`` (it would be shown) or, with its topic
        bonus, at or above ``floor``, the lowest rank score among the fact's candidates in a full
        top k (it could push one out).
        """
        out = {j for target in relevant for j in self.by_target.get(target, ())}
        out.update(self.by_source.get(source, ()))
        if fact.slot:
            out.update(self.by_slot.get(fact.slot, ()))
        if self.vectors:
            sims = np.stack(self.vectors) @ vector
            for j, sim, topic in zip(self.index, sims.tolist(), self.topics, strict=True):
                bonus = TOPIC_BONUS if topic == fact.topic else 0.0
                if sim >= threshold or (floor is not None and sim + bonus >= floor):
                    out.add(j)
        return frozenset(out)
