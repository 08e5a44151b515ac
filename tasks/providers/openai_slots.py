"""The process-wide bound on LLM requests in flight, served by priority.

Plain FIFO would make a request the consolidation schedule is waiting on (the next fact to apply,
whose answer frees the facts after it) queue behind requests made far ahead. So each request carries
a priority from its context (:func:`priority_context`; lower goes first, 0 by default: extraction,
summaries, embeddings, the judge), and equal priorities keep their order of arrival.
"""

from __future__ import annotations

import heapq
import itertools
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import Context, ContextVar, copy_context
from functools import lru_cache

from tasks.settings import Settings

_PRIORITY: ContextVar[int] = ContextVar("llm_request_priority", default=0)


class Slots:
    """A counting semaphore that admits the waiter with the lowest (priority, arrival) first."""

    def __init__(self, size: int) -> None:
        self._cond = threading.Condition()
        self._free = max(1, size)
        self._waiting: list[tuple[int, int]] = []
        self._arrivals = itertools.count()

    @contextmanager
    def slot(self, priority: int) -> Iterator[None]:
        me = (priority, next(self._arrivals))
        with self._cond:
            heapq.heappush(self._waiting, me)
            try:
                while not (self._free and self._waiting[0] == me):
                    self._cond.wait()
            except BaseException:  # interrupted while waiting: leave the line, or it blocks everyone behind
                self._waiting.remove(me)
                heapq.heapify(self._waiting)
                self._cond.notify_all()
                raise
            heapq.heappop(self._waiting)
            self._free -= 1
            if self._free and self._waiting:
                self._cond.notify_all()  # the next in line may go too
        try:
            yield
        finally:
            with self._cond:
                self._free += 1
                self._cond.notify_all()


@lru_cache(maxsize=8)
def _slots(bound: int) -> Slots:
    """One per process and bound: every client built from the same settings shares it."""
    return Slots(bound)


@contextmanager
def in_flight(settings: Settings) -> Iterator[None]:
    """Hold one of the ``openai_max_in_flight`` request slots, in this context's priority order."""
    with _slots(settings.openai_max_in_flight).slot(_PRIORITY.get()):
        yield


def priority_context(priority: int) -> Context:
    """A copy of the current context whose LLM requests wait with ``priority`` (lower goes first)."""
    context = copy_context()
    context.run(_PRIORITY.set, priority)
    return context
