"""First use in full, later uses as a compacted citation: the conversation side of working memory.

Framework-free: the ADK plugin (:mod:`tasks.integrations.adk_working`) and the benchmark both use this,
so what is measured is what an agent gets. A stored result is marked with :data:`MARKER`; when a prompt
is built, each marked result not shown yet is expanded to its full content (once), the rest to citations.
"""

from __future__ import annotations

from typing import Any

from tasks.working.compaction import Citation, compact
from tasks.working.memory import WorkingMemory

#: The key a tool result carries once it is stored in working memory.
MARKER = "working_memory_id"
FULL_NOTE = "shown in full once; later turns carry a citation (retrieve_from_memory gives it back)"


class CitationPolicy:
    """Which results a conversation has seen in full; each one's citation computed once."""

    def __init__(self, memory: WorkingMemory, *, goal: str = "", use_llm: bool | None = None) -> None:
        self.memory = memory
        self.goal = goal
        self.use_llm = use_llm
        self.shown: set[str] = set()
        self._citations: dict[str, Citation] = {}

    def citation(self, memory_id: str) -> Citation:
        cited = self._citations.get(memory_id)
        if cited is None:
            item = self.memory.get(memory_id)
            cited = self._citations[memory_id] = compact(item, self.memory.settings, goal=self.goal,
                                                         use_llm=self.use_llm)  # fmt: skip
        return cited

    def stored(self, memory_id: str) -> dict[str, Any]:
        """What the conversation records for a result just stored: its id and citation (never the content)."""
        return {MARKER: memory_id, "citation": self.citation(memory_id).render()}

    def render(self, memory_id: str) -> dict[str, Any]:
        """The result as the next prompt shows it: in full the first time, as its citation afterwards."""
        if memory_id not in self.shown:
            self.shown.add(memory_id)
            item = self.memory.get(memory_id)
            if item.kind != "bytes":  # bytes have no place in a prompt: their citation says what they are
                return {MARKER: memory_id, "result": item.value(), "note": FULL_NOTE}
        return {MARKER: memory_id, "citation": self.citation(memory_id).render()}
