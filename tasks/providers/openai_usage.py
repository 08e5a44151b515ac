"""LLM token usage: per provider, for the whole process and for each run.

A run's counts must not mix with another run's, in turn or at the same time in one process, so each
run has its own meter (held by its summary) registered in a context variable: every call counts in
the meters of the context it is made in, and the threads the providers hand work to run in a copy of
the caller's context (``map_concurrent``, the consolidation schedule).
"""

from __future__ import annotations

import threading
import weakref
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Usage:
    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    #: Other counts of the provider's calls (issue 64: "fallbacks", "repairs", "unknown_ids", the local
    #: server's "prompt_ms" / "generation_ms"); a snapshot shows only those that happened.
    events: dict[str, int] = field(default_factory=dict)

    def as_dict(self) -> dict[str, int]:
        counts = {"calls": self.calls, "prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens}
        return counts | {k: v for k, v in sorted(self.events.items()) if v}


class UsageMeter:
    """Thread-safe token counts per provider ("extractor", "embedder", ...): of the process, or of one run."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by: dict[str, Usage] = {}
        self.closed = False

    def __deepcopy__(self, memo: dict[int, Any]) -> UsageMeter:
        return self  # a handle: a copy of a run's summary counts into the same meter

    def add(self, provider: str, prompt_tokens: int, completion_tokens: int) -> None:
        with self._lock:
            usage = self._by.setdefault(provider, Usage())
            usage.calls += 1
            usage.prompt_tokens += prompt_tokens
            usage.completion_tokens += completion_tokens

    def count(self, provider: str, event: str, n: int = 1) -> None:
        with self._lock:
            events = self._by.setdefault(provider, Usage()).events
            events[event] = events.get(event, 0) + n

    def snapshot(self) -> dict[str, dict[str, int]]:
        with self._lock:
            return {k: v.as_dict() for k, v in sorted(self._by.items())}

    def reset(self) -> None:
        with self._lock:
            self._by.clear()

    def close(self) -> None:
        """Stop counting (the run is over); the counts stay readable."""
        self.closed = True


#: The whole process's counts.
USAGE = UsageMeter()
#: The meters of the runs going on in this context: a run's calls, whatever thread makes them, count in
#: its meter only, since the threads providers hand work to run in a copy of the caller's context.
#: Weak references: a meter goes with the run summary that holds it.
_RUN_METERS: ContextVar[tuple[weakref.ref[UsageMeter], ...]] = ContextVar("llm_run_meters", default=())


def run_meter() -> UsageMeter:
    """A new meter for a run starting in this context: it counts every call made from now on in it."""
    meter = UsageMeter()
    live = tuple(ref for ref in _RUN_METERS.get() if (m := ref()) is not None and not m.closed)
    _RUN_METERS.set((*live, weakref.ref(meter)))
    return meter


def count_usage(provider: str, prompt_tokens: int, completion_tokens: int) -> None:
    """Count one call in the process's meter and in the meters of the runs it belongs to."""
    USAGE.add(provider, prompt_tokens, completion_tokens)
    for ref in _RUN_METERS.get():
        meter = ref()
        if meter is not None and not meter.closed:
            meter.add(provider, prompt_tokens, completion_tokens)


def count_event(provider: str, event: str, n: int = 1) -> None:
    """Count ``n`` of ``event`` (a fallback, a repair, a dropped id) for ``provider``, as :func:`count_usage`."""
    USAGE.count(provider, event, n)
    for ref in _RUN_METERS.get():
        meter = ref()
        if meter is not None and not meter.closed:
            meter.count(provider, event, n)


def usage_snapshot() -> dict[str, dict[str, int]]:
    return USAGE.snapshot()
