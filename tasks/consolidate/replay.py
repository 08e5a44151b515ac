"""A re-run after a crash: the facts an earlier run of the same sessions already applied are re-logged, not
applied again (the audit log's stable keys keep each verdict once)."""

from __future__ import annotations

from tasks.clock import utc
from tasks.consolidate.matches import Logged, Statement, settled_reason
from tasks.consolidate.remains import UNCHANGED_REASON
from tasks.models import Action, Fact
from tasks.rows import MemoryRow


class Replays(Logged):
    """What :class:`tasks.consolidate.working.UserMemories` does with a fact it finds already applied."""

    def replayed(self, src: Statement, fact: Fact) -> MemoryRow | None:
        """The row an earlier run wrote for this very fact (same session, events, time, wording), if any."""
        text = fact.content.rstrip(". ") + " ("
        for row in list(self.rows.values()):
            if row.source_session_id != src.session.session_id:
                continue
            cited = tuple(row.source_event_ids[: len(src.events)])  # a repeat's turns come after its own
            same_text = row.content == fact.content or row.content.startswith(text)
            if cited == src.events and same_text and utc(row.stated_at) == src.at:
                return row
        return None

    def _replay_fact(self, src: Statement, fact: Fact) -> bool:
        """A fact an earlier run already applied: re-log only."""
        row = self.replayed(src, fact)
        if row is None:
            return False
        old = self.rows.get(row.supersedes or "")
        action: Action = "ADD" if row.relation == "new" else "UPDATE"
        old_content = old.content if old else None
        self._log(src, action, row.relation, row, old_content, row.content, "applied by an earlier run")
        if old is not None and (kept := self.kept_of(src, old)) is not None:
            self._log(src, "ADD", "refines", kept, old.content, kept.content, UNCHANGED_REASON)  # what it left
        settled = settled_reason(src.session, fact)
        for closed in self.rows.values():  # what it settled besides (and was forgotten since: "…; settled by …")
            if closed.status in ("superseded", "deleted") and (closed.status_reason or "").endswith(settled):
                self._log(
                    src, "UPDATE", "supersedes", closed, closed.content, fact.content, "settled by a later statement"
                )
        return True
