"""One user's working rows as arrays, kept up to date row by row, and the ranking of related memories.

Why: every fact is decided against the user's active memories, and with an LLM consolidator the
schedule plans each fact against them too, so stacking the rows' vectors and comparing topics and
slots in Python per fact was most of consolidation's CPU (and it sits on the path of the decisions
everything waits for). Here a row's vector is copied into a growing matrix once, and topics, slots
and statuses are small integer codes, so a fact's ranking is one matrix-vector product and a few
vector operations, with the same order and ties as the per-row loop it replaces (:func:`rank`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from tasks.rows import MemoryRow

#: Cosine bonus of a memory of the fact's own topic when ranking the related memories.
TOPIC_BONUS = 0.05
Vectors = npt.NDArray[np.float32]
Codes = npt.NDArray[np.int64]
Mask = npt.NDArray[np.bool_]
_NONE = -1  #: the code of no slot (and of a topic or slot never seen)


def rank(sims: Vectors, same_topic: Mask, same_slot: Mask, k: int) -> list[int]:
    """Positions of the top ``k`` by cosine plus the topic bonus (ties: earlier first), then every same-slot one.

    ``sims`` float32; the bonus is added in float32, as the per-row ranking always did, so ties fall alike.
    """
    bonus = np.where(same_topic, np.float32(TOPIC_BONUS), np.float32(0.0)).astype(np.float32)
    chosen = [int(i) for i in np.argsort(-(sims + bonus), kind="stable")[:k]]
    if same_slot.any():
        taken = set(chosen)
        chosen += [int(i) for i in np.flatnonzero(same_slot) if int(i) not in taken]
    return chosen


class Codebook:
    """Small integer codes of strings (topics, slots), so comparisons run on arrays."""

    def __init__(self) -> None:
        self._codes: dict[str, int] = {}

    def code(self, value: str | None, *, add: bool = False) -> int:
        if not value:
            return _NONE
        if add and value not in self._codes:
            self._codes[value] = len(self._codes)
        return self._codes.get(value, _NONE)


class RowIndex:
    """The rows of a working set in insertion order (a replaced row keeps its place, as in a dict)."""

    def __init__(self) -> None:
        self.rows: list[MemoryRow] = []
        self._pos: dict[str, int] = {}
        self._matrix: Vectors = np.zeros((16, 0), np.float32)  #: sized by the first vector
        self._active: Mask = np.zeros(16, np.bool_)
        self._topics: Codes = np.full(16, _NONE, np.int64)
        self._slots: Codes = np.full(16, _NONE, np.int64)
        self._speakers: Codes = np.full(16, _NONE, np.int64)
        self.topics, self.slots, self.speakers = Codebook(), Codebook(), Codebook()
        self._active_at: Codes | None = None  #: positions of the active rows, until the next put

    def put(self, row: MemoryRow, vector: Vectors) -> None:
        at = self._pos.get(row.row_id)
        if at is None:
            at = self._pos[row.row_id] = len(self.rows)
            self.rows.append(row)
            if not at:
                self._matrix = np.zeros((len(self._active), len(vector)), np.float32)
            if at == len(self._active):
                self._grow()
        else:
            self.rows[at] = row
        self._matrix[at] = vector
        self._active[at] = row.status == "active"
        self._topics[at] = self.topics.code(row.topic, add=True)
        self._slots[at] = self.slots.code(row.slot, add=True)
        self._speakers[at] = self.speakers.code(speaker_key(row.speaker), add=True)
        self._active_at = None

    def _grow(self) -> None:
        size = 2 * len(self._active)
        self._matrix = np.concatenate([self._matrix, np.zeros_like(self._matrix)])
        self._active = np.concatenate([self._active, np.zeros(size // 2, np.bool_)])
        self._topics = np.concatenate([self._topics, np.full(size // 2, _NONE, np.int64)])
        self._slots = np.concatenate([self._slots, np.full(size // 2, _NONE, np.int64)])
        self._speakers = np.concatenate([self._speakers, np.full(size // 2, _NONE, np.int64)])

    def active(self) -> ActiveView:
        """The active rows now, with what ranking them needs (valid until the next :meth:`put`)."""
        if self._active_at is None:
            self._active_at = np.flatnonzero(self._active[: len(self.rows)])
        at = self._active_at
        rows = [self.rows[i] for i in at.tolist()]
        return ActiveView(self, rows, at, self._topics[at], self._slots[at], self._speakers[at])

    def sims(self, vector: Vectors, at: Codes) -> Vectors:
        """Cosines of the rows at ``at`` to ``vector`` (unit vectors), in float32."""
        n = len(self.rows)
        return (self._matrix[:n] @ vector)[at] if n else np.zeros(0, np.float32)


class ActiveView:
    """The active rows of a :class:`RowIndex` at one moment, in order, with their topic, slot and speaker codes."""

    def __init__(
        self, index: RowIndex, rows: list[MemoryRow], at: Codes, topics: Codes, slots: Codes, speakers: Codes
    ) -> None:
        self.index, self.rows, self.at, self.topic_codes, self.slot_codes = index, rows, at, topics, slots
        self.speaker_codes = speakers

    def sims(self, vector: Vectors) -> Vectors:
        return self.index.sims(vector, self.at)

    def same_topic(self, topic: str | None) -> Mask:
        code = self.index.topics.code(topic)
        return self.topic_codes == code if code != _NONE else np.zeros(len(self.rows), np.bool_)

    def same_slot(self, slot: str | None) -> Mask:
        code = self.index.slots.code(slot)
        return self.slot_codes == code if code != _NONE else np.zeros(len(self.rows), np.bool_)

    def other_speaker(self, speaker: str | None) -> Mask:
        """Rows said by someone else than ``speaker`` (rows or a fact without a speaker match any)."""
        if not speaker_key(speaker):
            return np.zeros(len(self.rows), np.bool_)
        code = self.index.speakers.code(speaker_key(speaker))
        others: Mask = (self.speaker_codes != _NONE) & (self.speaker_codes != code)
        return others


def speaker_key(speaker: str | None) -> str:
    """A speaker as compared: case and surrounding spaces aside."""
    return (speaker or "").strip().lower()


def masks(rows: Sequence[MemoryRow], topic: str | None, slot: str | None) -> tuple[Mask, Mask]:
    """Same-topic and same-slot masks of arbitrary rows (the per-row way, for rows outside an index)."""
    same_topic = np.fromiter((bool(topic) and r.topic == topic for r in rows), np.bool_, len(rows))
    same_slot = np.fromiter((bool(slot) and r.slot == slot for r in rows), np.bool_, len(rows))
    return same_topic, same_slot
