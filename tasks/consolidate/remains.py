"""What a forget request keeps of a memory: "You can keep that I'm a loan officer, but forget the salary"; also
what a new value leaves of the memory it replaces ("vegetarian and allergic to peanuts", then "vegan").

The memory is deleted as any forgotten one is (its words leave the episodes, its text the table files after
the retention period); what the request keeps (:mod:`tasks.providers.forget_parts`) becomes a memory of its
own, with a stable id (a re-run finds it), the old memory's provenance, and a vector embedded from its own
text at the write (``reembed``): the old vector would still carry what was forgotten.
"""

from __future__ import annotations

from datetime import datetime

from tasks.consolidate.matches import Logged, Statement
from tasks.models import stable_id
from tasks.rows import MemoryRow

KEPT_REASON = "what a forget request kept of a memory it deleted"
#: Why a memory was written from what a new value left of the memory it replaced (:mod:`update_parts`).
UNCHANGED_REASON = "what a new value left unchanged of the memory it replaced"


class Remains(Logged):
    """The part of :class:`tasks.consolidate.working.UserMemories` that writes what a forget request keeps."""

    reembed: list[str]
    now: datetime
    run_id: str

    def put(self, row: MemoryRow) -> MemoryRow:
        raise NotImplementedError

    def keep_rest(self, src: Statement, forgotten: MemoryRow, text: str, reason: str = KEPT_REASON) -> None:
        """Write ``text``, what the request ``src`` keeps of the ``forgotten`` memory (or what a new value left
        of the memory it replaced), as a new memory. Its slot and value are not carried: the value may be what
        was forgotten ("$85k"), or what changed."""
        row = self.kept_of(src, forgotten)
        if row is None:  # not written by an earlier run of the same sessions
            memory_id = _kept_id(src, forgotten)
            fields = {"row_id": MemoryRow.make_row_id(memory_id, 1), "memory_id": memory_id, "version": 1}
            fields |= {"content": text, "status": "active", "status_reason": None, "valid_from": src.at}
            fields |= {"valid_to": None, "supersedes": None, "relation": "refines", "confirmations": 0}
            fields |= {"slot": None, "value": None, "created_at": self.now, "updated_at": self.now}
            row = self.put(forgotten.model_copy(update=fields | {"run_id": self.run_id}))
            self.reembed.append(row.row_id)
        self._log(src, "ADD", "refines", row, forgotten.content, row.content, reason)

    def kept_of(self, src: Statement, forgotten: MemoryRow) -> MemoryRow | None:
        """The memory the request ``src`` kept of ``forgotten`` (by an earlier run too), if it kept any."""
        return self.rows.get(MemoryRow.make_row_id(_kept_id(src, forgotten), 1))


def _kept_id(src: Statement, forgotten: MemoryRow) -> str:
    return stable_id("kept", forgotten.memory_id, src.text)
