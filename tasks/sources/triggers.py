"""Pull criteria: when a live session is taken into memory (the seed design's list).

A session with events not taken yet is taken when any of these holds, checked in this order:

- **ended**: its state has the end marker (``settings.adk_end_state_key``, default ``session_ended``)
  set truthy. ADK has no end-of-session event, so the marker is ordinary session state: an agent
  sets it from a tool (``tool_context.state["session_ended"] = True``), a callback, or the app with
  ``Runner.run_async(..., state_delta={"session_ended": True})``; ADK persists it in the session row.
- **compaction**: one of the new events is an ADK compaction event (``actions.compaction``): the
  agent's context was just condensed, a natural checkpoint.
- **messages**: it gained ``trigger_new_messages`` messages (events with text) since last taken.
- **idle**: nothing happened for ``trigger_idle_minutes``.

Otherwise it stays pending and is looked at again by the next run. Pure functions of the new
events, the session state and an injected ``now``, so they are tested without waiting.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from tasks.settings import Settings

Reason = Literal["ended", "compaction", "messages", "idle"]


@dataclass(frozen=True)
class PulledEvent:
    """An ADK event as the source needs it: text is empty for tool calls and responses."""

    id: str
    author: str
    timestamp: datetime
    text: str
    compaction: str | None = None


@dataclass(frozen=True)
class Triggers:
    idle: timedelta
    new_messages: int
    on_compaction: bool
    end_key: str

    @classmethod
    def from_settings(cls, settings: Settings) -> Triggers:
        return cls(
            idle=timedelta(minutes=settings.trigger_idle_minutes),
            new_messages=settings.trigger_new_messages,
            on_compaction=settings.trigger_on_compaction,
            end_key=settings.adk_end_state_key,
        )


def has_ended(state: Mapping[str, Any], end_key: str) -> bool:
    """The explicit end marker: the state key set to anything truthy (``True``, ``"yes"``, a time)."""
    return bool(state.get(end_key))


def take_reason(
    new_events: Sequence[PulledEvent],
    state: Mapping[str, Any],
    last_activity: datetime,
    now: datetime,
    triggers: Triggers,
) -> Reason | None:
    """Why a session with ``new_events`` (not taken yet) is taken now, or None to leave it pending."""
    if not new_events:
        return None
    if has_ended(state, triggers.end_key):
        return "ended"
    if triggers.on_compaction and any(e.compaction for e in new_events):
        return "compaction"
    if triggers.new_messages > 0 and sum(1 for e in new_events if e.text.strip()) >= triggers.new_messages:
        return "messages"
    if now - max(last_activity, *(e.timestamp for e in new_events)) >= triggers.idle:
        return "idle"
    return None
