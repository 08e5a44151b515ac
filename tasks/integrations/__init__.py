"""Integrations with agent frameworks, each an optional extra; the core never imports them.

- :mod:`tasks.integrations.adk_memory`: a Google ADK ``BaseMemoryService`` over the pipeline's store
  (``pip install agent-memory-pipeline[adk]``).
- :mod:`tasks.integrations.spool`: the queue the memory service hands sessions to (no ADK import).
- :mod:`tasks.integrations.adk_working`: ``WorkingMemoryPlugin``, an ADK ``BasePlugin`` for working memory
  (results in full once, then cited) and procedural memory, with its tools (issue 65).
"""

from typing import Any


def __getattr__(name: str) -> Any:
    """``tasks.integrations.WorkingMemoryPlugin``, imported on first use (only then is ADK needed)."""
    if name == "WorkingMemoryPlugin":
        from tasks.integrations.adk_working import WorkingMemoryPlugin

        return WorkingMemoryPlugin
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
