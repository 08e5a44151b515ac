"""One user's memories while a run consolidates them: the verdicts applied as versioned rows.

Nothing is ever removed here: a change closes the old version (``valid_to``, status) and writes a
new one in the same lineage (``memory_id``), and every verdict, IGNORE included, is audited.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

import numpy as np
import numpy.typing as npt

from tasks.clock import utc
from tasks.consolidate.matches import (
    ERASE_USER,
    UNMATCHED_FORGET,
    Decide,
    MemoryMatch,
    Statement,
    erases_everything,
    forget_reason,
    forgettable,
    new_memory_id,
    settled_reason,
)  # fmt: skip
from tasks.consolidate.provenance import carried
from tasks.consolidate.remains import KEPT_REASON, UNCHANGED_REASON, Remains
from tasks.consolidate.replay import Replays
from tasks.consolidate.rowindex import TOPIC_BONUS, RowIndex, masks, rank
from tasks.models import Action, Decision, Fact, ForgetRequest, Relation, stable_id
from tasks.providers.base import Consolidator
from tasks.providers.update_parts import same_attribute, unchanged_part
from tasks.rows import ChangeRow, MemoryRow

UPDATE_RELATIONS: frozenset[Relation] = frozenset({"supersedes", "contradicts", "refines"})
__all__ = ["TOPIC_BONUS", "Decide", "MemoryMatch", "Statement", "UserMemories", "forget_reason", "new_memory_id"]
_FACT_FIELDS = {"topic", "content", "importance", "confidence", "speaker", "slot", "value", "expires_at"}
_NULL_FIELDS = ("valid_to", "status_reason", "supersedes", "last_confirmed_at", "last_accessed_at")


class UserMemories(Replays, Remains):
    """The user's memories while a run consolidates them, with what changed and the audit trail."""

    def __init__(self, existing: Iterable[MemoryRow], consolidator: Consolidator, run_id: str, now: datetime,
                 related_k: int) -> None:  # fmt: skip
        self.rows: dict[str, MemoryRow] = {}
        self.index = RowIndex()  #: the same rows as arrays, for ranking
        self.dirty: dict[str, None] = {}
        self.changes: list[ChangeRow] = []
        self.reembed: list[str] = []  #: rows whose vector the write embeds from their text (:mod:`remains`)
        self._change_ids: set[str] = set()
        self._vectors: dict[str, npt.NDArray[np.float32]] = {}
        for row in existing:
            self.rows[row.row_id] = row
            self.index.put(row, self.vector_of(row))
        self.consolidator, self.run_id, self.now, self.related_k = consolidator, run_id, now, related_k

    def put(self, row: MemoryRow, **update: Any) -> MemoryRow:
        """Store a row (or a copy of it with ``update``) and mark it to be written."""
        if update:
            row = row.model_copy(update={**update, "updated_at": self.now})
        self.rows[row.row_id] = row
        self.index.put(row, self.vector_of(row))
        self.dirty[row.row_id] = None
        return row

    def lineage(self, memory_id: str) -> list[MemoryRow]:
        return sorted((r for r in self.rows.values() if r.memory_id == memory_id), key=lambda r: r.version)

    def active(self, memory_id: str | None) -> MemoryRow | None:
        return next((r for r in self.lineage(memory_id) if r.status == "active"), None) if memory_id else None

    def scored(
        self, vector: Sequence[float], rows: list[MemoryRow], topic: str | None, slot: str | None, k: int,
        matrix: npt.NDArray[np.float32] | None = None,
    ) -> list[MemoryMatch]:  # fmt: skip
        """Top ``k`` rows by cosine (same topic slightly preferred) plus every row of the same slot
        (``matrix``: the rows' vectors stacked, when the caller already has them)."""
        if not rows:
            return []
        matrix = np.stack([self.vector_of(r) for r in rows]) if matrix is None else matrix
        sims = matrix @ np.asarray(vector, dtype=np.float32)
        return [MemoryMatch(rows[i], float(sims[i])) for i in rank(sims, *masks(rows, topic, slot), k)]

    def vector_of(self, row: MemoryRow) -> npt.NDArray[np.float32]:
        """A row's vector as an array, converted once (a row id's vector never changes)."""
        if row.row_id not in self._vectors:
            self._vectors[row.row_id] = np.asarray(row.vector, dtype=np.float32)
        return self._vectors[row.row_id]

    def with_status(self, status: str) -> list[MemoryRow]:
        return [r for r in self.rows.values() if r.status == status]

    # -- facts ---------------------------------------------------------------------------------

    def related(self, fact: Fact, vector: Sequence[float]) -> list[MemoryMatch]:
        """What a fact is decided against: its related active memories (as :meth:`scored` ranks them),
        its own speaker's only: what one person says never updates, refines or repeats what another
        said (in a chat between two people, "That's so cool" had refined the other's news)."""
        view = self.index.active()
        if not view.rows:
            return []
        sims = view.sims(np.asarray(vector, dtype=np.float32))
        others = view.other_speaker(fact.speaker)
        if others.any():
            sims = np.where(others, np.float32(-2.0), sims).astype(np.float32)
        chosen = rank(sims, view.same_topic(fact.topic), view.same_slot(fact.slot) & ~others, self.related_k)
        return [MemoryMatch(view.rows[i], float(sims[i])) for i in chosen if not others[i]]

    def apply_fact(self, src: Statement, fact: Fact, vector: list[float], decide: Decide | None = None) -> None:
        """Decide a fact (by the consolidator, or ``decide``) against the current memories and apply it."""
        if self._replay_fact(src, fact):
            return
        decision = (decide or self.consolidator.decide)(fact, self.related(fact, vector))
        self.apply_decision(src, fact, vector, decision)

    def apply_decision(self, src: Statement, fact: Fact, vector: list[float], decision: Decision) -> None:
        target = self.active(decision.target_memory_id)
        if decision.action == "UPDATE" and target is not None:
            if src.at < utc(target.valid_from):
                self._historical(src, fact, vector, target, decision)
            else:
                self._update(src, fact, vector, target, decision)
        elif decision.action == "IGNORE":
            self._confirm(src, fact, target, decision)
        elif decision.action == "DELETE" and target is not None:
            self._delete(src, target, decision.reason or fact.content)
        elif not self._forgotten_later(src, fact, vector):
            row = self._new_row(src, fact, vector, new_memory_id(src.session, fact), 1)
            self._log(src, "ADD", "new", row, None, row.content, decision.reason or "new memory")
        if decision.action in ("ADD", "UPDATE"):
            for memory_id in decision.closes:
                self._settle(src, fact, self.active(memory_id))

    def _settle(self, src: Statement, fact: Fact, target: MemoryRow | None) -> None:
        """Close a memory the fact settles besides its target (a plan carried out), at the fact's time."""
        if target is None or utc(target.valid_from) > src.at:
            return
        closed = self.put(target, valid_to=src.at, status="superseded", status_reason=settled_reason(src.session, fact))
        self._log(src, "UPDATE", "supersedes", closed, target.content, fact.content, "settled by a later statement")

    def _new_row(
        self, src: Statement, fact: Fact, vector: list[float], memory_id: str, version: int, **fields: Any
    ) -> MemoryRow:
        return self.put(self.row_of(src, fact, vector, memory_id, version, **fields))

    def row_of(
        self, src: Statement, fact: Fact, vector: Sequence[float], memory_id: str, version: int, **fields: Any
    ) -> MemoryRow:
        """A new version from a fact (not stored): current, valid from when the fact was stated."""
        base: dict[str, Any] = fact.model_dump(include=_FACT_FIELDS) | dict.fromkeys(_NULL_FIELDS)
        base |= {
            "row_id": MemoryRow.make_row_id(memory_id, version),
            "memory_id": memory_id,
            "version": version,
        }
        base |= {"app_name": src.session.app_name, "user_id": src.session.user_id, "run_id": self.run_id}
        base |= {"vector": [float(x) for x in vector], "source_session_id": src.session.session_id}
        base |= {"source_event_ids": list(src.events), "stated_at": src.at, "valid_from": src.at}
        base |= {"status": "active", "relation": "new", "confirmations": 0, "access_count": 0}
        base |= {"created_at": self.now, "updated_at": self.now, **fields}
        return MemoryRow.model_validate(base)

    def _update(self, src: Statement, fact: Fact, vector: list[float], target: MemoryRow, decision: Decision) -> None:
        """Close the current version at the fact's time and write the next one as current."""
        self.put(target, valid_to=src.at, status="superseded", status_reason=decision.reason or "superseded")
        relation: Relation = decision.relation if decision.relation in UPDATE_RELATIONS else "supersedes"
        if relation in ("supersedes", "contradicts"):  # the new value of the same attribute: keep its context
            mixed = np.asarray(vector, dtype=np.float32) + self.vector_of(target)
            vector = (mixed / max(float(np.linalg.norm(mixed)), 1e-9)).tolist()
        content = decision.new_content or fact.content
        row = self._new_row(
            src, fact, vector, target.memory_id, self._next_version(target.memory_id), content=content,
            supersedes=target.row_id, relation=relation, access_count=target.access_count,
            last_accessed_at=target.last_accessed_at,
            source_event_ids=carried(src, target, self.rows.get(target.supersedes or ""), content),
        )  # fmt: skip
        self._log(src, "UPDATE", relation, row, target.content, row.content, decision.reason)
        if same_attribute(fact.slot, target.slot) and (rest := unchanged_part(target.content, target.value, content)):
            # a new value of the same attribute: "… and allergic to peanuts" outlives "vegetarian"
            self.keep_rest(src, target, rest, UNCHANGED_REASON)

    def _historical(
        self, src: Statement, fact: Fact, vector: list[float], target: MemoryRow, decision: Decision
    ) -> None:
        """A late, older fact becomes an earlier closed version of the lineage, never the current one."""
        at = src.at
        versions = [r for r in self.lineage(target.memory_id) if r.status != "deleted"]
        next_from = min(utc(r.valid_from) for r in versions if utc(r.valid_from) > at)
        covering = next((r for r in versions if utc(r.valid_from) <= at < utc(r.valid_to or next_from)), None)
        if covering is not None:  # a closed version that was believed at that time ends there now
            self.put(covering, valid_to=at)
        reason = f"backfill stated {at.date().isoformat()}, before the current version; kept as history"
        row = self._new_row(
            src, fact, vector, target.memory_id, self._next_version(target.memory_id), valid_to=next_from,
            status="superseded", status_reason=reason, relation="historical",
            supersedes=covering.row_id if covering else None,
        )  # fmt: skip
        self._log(src, "UPDATE", "historical", row, target.content, row.content, f"{reason} ({decision.reason})")

    def _confirm(self, src: Statement, fact: Fact, target: MemoryRow | None, decision: Decision) -> None:
        """Count a repeat (a newer one only: a re-run changes nothing); its turns are the memory's provenance too."""
        reason = decision.reason or "duplicate"
        if target is None:
            self._log(src, "IGNORE", "duplicates", new_memory_id(src.session, fact), None, fact.content, reason)
            return
        cited = list(dict.fromkeys([*target.source_event_ids, *src.events]))  # a fact meets its speaker's only
        update: dict[str, Any] = {"source_event_ids": cited} if cited != list(target.source_event_ids) else {}
        if src.at > utc(target.last_confirmed_at or target.stated_at):
            update |= {"confirmations": target.confirmations + 1, "last_confirmed_at": src.at}
        if update:
            self.put(target, **update)
        self._log(src, "IGNORE", "duplicates", target, target.content, fact.content, reason)

    def _forgotten_later(self, src: Statement, fact: Fact, vector: list[float]) -> bool:
        """An old statement of something the user later asked to forget must not come back."""
        deleted = [r for r in self.with_status("deleted") if r.valid_to is not None and utc(r.valid_to) > src.at]
        if not deleted:
            return False
        verdict = self.consolidator.decide(fact, self.scored(vector, deleted, fact.topic, fact.slot, self.related_k))
        match = next((r for r in deleted if r.memory_id == verdict.target_memory_id), None)
        if verdict.action != "IGNORE" or match is None:
            return False
        reason = "older statement of a memory the user later asked to forget; not restored"
        self._log(src, "IGNORE", "forgets", match, match.content, fact.content, reason)
        return True

    # -- forget requests -----------------------------------------------------------------------

    def apply_forget(self, src: Statement, request: ForgetRequest, vector: list[float]) -> None:
        reason, kept_here = forget_reason(request), set()  # what this request kept, on a re-run: not judged again
        said = " ".join(e.text for e in src.session.events if e.id in src.events)
        if erases_everything(request, said):  # the whole user: erased after the write, as ``erase-user`` does
            whole = stable_id("erase-user", src.session.app_name, src.session.user_id)
            self._log(src, "IGNORE", "forgets", f"erase-user:{whole}", None, None, f"{ERASE_USER}: {reason}")
            return
        for row in self.with_status("deleted"):  # a re-run: what this very request deleted (closed at it, or before)
            if (row.status_reason or "").startswith(reason) and row.valid_to and utc(row.valid_to) <= src.at:
                self._log(src, "DELETE", "forgets", row, row.content, None, reason)
                if (kept := self.kept_of(src, row)) is not None:
                    self._log(src, "ADD", "refines", kept, row.content, kept.content, KEPT_REASON)
                    kept_here.add(kept.memory_id)
        heads = {r.memory_id: r for r in forgettable(self.rows.values()) if r.memory_id not in kept_here}
        related = self.scored(vector, list(heads.values()), None, None, max(5 * self.related_k, 50))
        matched = bool(kept_here) or any(
            (r.status_reason or "").startswith(reason) for r in self.with_status("deleted")
        )  # fmt: skip
        for decision in self.consolidator.forget(request, related):
            target = heads.get(decision.target_memory_id or "")
            if decision.action != "DELETE" or target is None:
                continue
            matched = True
            if utc(target.valid_from) > src.at:
                why = f"forget request predates this memory version ({decision.reason})"
                self._log(src, "IGNORE", "forgets", target, target.content, None, why)
            else:
                self._delete(src, target, reason, audit_reason=decision.reason)
                if decision.new_content and target.status == "active":  # what the request keeps of it
                    self.keep_rest(src, target, decision.new_content)
        if not matched:  # nothing it names was said: nothing deleted, and the run says so
            unmatched = stable_id("unmatched-forget", src.session.app_name, src.session.user_id, request.query)
            self._log(src, "IGNORE", "forgets", f"unmatched:{unmatched}", None, None, f"{UNMATCHED_FORGET}: {reason}")

    def _delete(self, src: Statement, target: MemoryRow, reason: str, audit_reason: str | None = None) -> None:
        """Close the memory as deleted at the request's time; the row stays for history. A memory another one
        closed keeps when it was closed, and why ("…; settled by <id>": a re-run's replay finds it)."""
        why = f"{reason}; {target.status_reason}" if target.valid_to and target.status_reason else reason
        closed = self.put(target, status="deleted", valid_to=target.valid_to or src.at, status_reason=why)
        self._log(src, "DELETE", "forgets", closed, target.content, None, audit_reason or reason)

    # -- audit ---------------------------------------------------------------------------------

    def _next_version(self, memory_id: str) -> int:
        return max((r.version for r in self.lineage(memory_id)), default=0) + 1

    def _log(
        self, src: Statement, action: Action, relation: Relation, on: MemoryRow | str, old: str | None,
        new: str | None, reason: str,
    ) -> None:  # fmt: skip
        """Audit one verdict on a memory row (or, with no row, on a memory id) with a stable key."""
        memory_id, row_id = (on, None) if isinstance(on, str) else (on.memory_id, on.row_id)
        s = src.session
        key = (
            "change",
            memory_id,
            row_id or "",
            action,
            s.app_name,
            s.user_id,
            s.session_id,
            *src.events,
            src.text,
        )
        change_id = stable_id(*key)
        if change_id in self._change_ids:
            return
        self._change_ids.add(change_id)
        ids = {"change_id": change_id, "memory_id": memory_id, "row_id": row_id, "run_id": self.run_id}
        what = {
            "action": action,
            "relation": relation,
            "old_content": old,
            "new_content": new,
            "reason": reason,
        }
        where = {"app_name": s.app_name, "user_id": s.user_id, "session_id": s.session_id}
        # One microsecond per verdict keeps the log in decision order within a run (same ``now``).
        at = self.now + timedelta(microseconds=len(self.changes))
        extra = {"source_event_ids": list(src.events), "created_at": at}
        self.changes.append(ChangeRow.model_validate(ids | what | where | extra))
