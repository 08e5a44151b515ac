"""Deciding one user's facts ahead, concurrently, when each decision is a call: the sequential run's results.

A user's statements apply in event-time order, each against the memories the earlier ones left, so with
an LLM consolidator a user's facts were one chain of round trips. Here a fact's decision is requested
ahead of its turn when no earlier statement still to be applied can change what the request shows, and
results are still *applied* one by one in the original order, so ids, versions and audit rows are the
sequential ones.

Why a decision requested ahead is the sequential one:

- The consolidator is shown a fact and its candidates: the related active memories at or above
  ``related_threshold``, or of the fact's slot (:class:`~tasks.providers.base.CallingConsolidator`).
  The related memories are the fact's top ``related_k`` by cosine plus a topic bonus, so a memory above
  the threshold counts only while it ranks in the top k.
- A statement not yet applied changes the active memories only by closing or confirming one of its own
  candidates (UPDATE, DELETE, IGNORE) and by adding one row under its slot and topic: its own vector,
  or (UPDATE that supersedes) that vector mixed with its target's. Once its decision is back, what it
  does is known: ADD and IGNORE close nothing, and a fact with no candidate is added without a call.
- So a fact is planned against the active memories plus the rows of the earlier facts known to be
  added, in the order they will be added, and its decision goes out when, for every other earlier
  statement still pending: they share no candidate (nor any of the fact's top k, when more memories
  pass the threshold than fit in it); the row it may add is below ``related_threshold`` to the fact
  and, with its topic bonus, ranks below the lowest candidate in a full top k (so it can neither be
  shown nor push a candidate out); it has another slot and other source events (a replay). Forget
  requests are barriers: decided when reached. A mixed UPDATE vector is left to the guard: it needs an
  UPDATE of that very candidate and rarely comes within the threshold.
- Guard: at its turn the fact's request is rebuilt from the memories as they are then (``decision_key``).
  A decision made for another request is discarded and the fact decided again, so the prediction only
  saves round trips, and results are exact for an endpoint that answers equal requests alike.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from tasks.consolidate.footprints import Footprint, Pending, Plan
from tasks.consolidate.rowindex import TOPIC_BONUS, ActiveView, masks, rank
from tasks.consolidate.working import Decide, MemoryMatch, Statement, UserMemories, new_memory_id
from tasks.models import Decision, Fact, ForgetRequest
from tasks.providers.base import CallingConsolidator
from tasks.providers.openai_slots import priority_context
from tasks.rows import MemoryRow

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Item:
    """One statement of the user's run, in application order."""

    src: Statement
    statement: Fact | ForgetRequest
    vector: list[float]


@dataclass
class ScheduleStats:
    facts: int = 0
    requested: int = 0  #: decision calls made through the schedule
    ahead: int = 0  #: of those, requested before their turn (while earlier facts were still pending)
    kept: int = 0  #: of those, used at their turn
    redone: int = 0  #: discarded (the request had changed) and made again


@dataclass
class DecisionSchedule:
    """Plans, requests and hands out one user's decisions; see the module docstring."""

    work: UserMemories
    consolidator: CallingConsolidator
    items: Sequence[Item]
    pool: ThreadPoolExecutor
    #: How many decisions (requested or waiting) to plan ahead of the next statement to apply.
    lookahead: int
    plans: dict[int, Plan] = field(default_factory=dict)
    stats: ScheduleStats = field(default_factory=ScheduleStats)
    _done: int = 0  #: decisions come back so far
    _planned_at_done: int = -1
    _moved: bool = False
    _wake: threading.Event = field(default_factory=threading.Event)
    _start: int = 0  #: the next statement to apply, as of the planning pass
    #: The (session, events) of every row there is: only a fact from one of them can be a replay.
    _sources: set[tuple[str, tuple[str, ...]]] = field(default_factory=set)

    def __post_init__(self) -> None:
        self._sources = {(r.source_session_id, tuple(r.source_event_ids)) for r in self.work.rows.values()}

    def run(self) -> ScheduleStats:
        """Apply every statement in order, planning ahead before each one that may free or request more."""
        try:
            for index, item in enumerate(self.items):
                if self._worth_planning(index):
                    self.plan(index)
                waiting = self.plans.get(index)
                while waiting is not None and waiting.future is not None and not waiting.future.done():
                    self._wake.wait()  # while its decision is out, plan what the others coming back free
                    self._wake.clear()
                    self.plan(index)
                self._sources.add((item.src.session.session_id, item.src.events))  # what it writes comes from here
                if isinstance(item.statement, Fact):
                    self.stats.facts += 1
                    self.work.apply_fact(item.src, item.statement, item.vector, self._decider(index))
                else:
                    self.work.apply_forget(item.src, item.statement, item.vector)
        finally:
            for plan in self.plans.values():
                if plan.future is not None:
                    plan.future.cancel()
        return self.stats

    def _worth_planning(self, start: int) -> bool:
        """Plan again only when something changed: a decision came back, or one that waited or called was
        applied (the window moves on, blockers go); not after every fact added without a call."""
        plan = self.plans.get(start)
        done = self._done
        changed = plan is None or bool(plan.blockers) or done != self._planned_at_done or self._moved
        self._planned_at_done, self._moved = done, False
        if plan is not None and (plan.future is not None or plan.blockers):
            self._moved = True  # applying it moves the window on
        return changed

    def _count_done(self, _: Future[Decision]) -> None:
        self._done += 1  # only compared for change, never for an exact count
        self._wake.set()

    def plan(self, start: int) -> None:
        """Request every decision in the window that no pending earlier statement can change."""
        self._start = start
        snapshot: ActiveView | None = None
        pending = Pending()
        calls = 0
        for k in range(start, len(self.items)):
            if isinstance(self.items[k].statement, ForgetRequest):
                break  # a barrier: nothing after a forget request goes ahead of it
            plan = self.plans.get(k)
            if plan is None or (plan.blockers and self._unblocked(plan, start)):
                snapshot = snapshot or self._snapshot()
                plan = self.plans[k] = self._assess(k, snapshot, pending)
            pending.add(k, plan, self._added_row(k, plan))
            calls += plan.future is not None or bool(plan.blockers)
            if calls >= self.lookahead:
                break

    def _unblocked(self, plan: Plan, start: int) -> bool:
        """Whether a waiting fact may be free now: a blocker was applied or its decision came back."""
        return any(j < start or (j in plan.undecided and self.plans[j].decided()) for j in plan.blockers)

    def _added_row(self, k: int, plan: Plan) -> MemoryRow | None:
        """The row fact ``k`` will add, when that is known: later facts are planned as if it were there."""
        if plan.row is None and plan.known_add():
            item = self.items[k]
            assert isinstance(item.statement, Fact)
            memory_id = new_memory_id(item.src.session, item.statement)
            plan.row = self.work.row_of(item.src, item.statement, item.vector, memory_id, 1)
        return plan.row

    def _snapshot(self) -> ActiveView:
        return self.work.index.active()

    def _assess(self, k: int, snap: ActiveView, pending: Pending) -> Plan:
        item = self.items[k]
        fact = item.statement
        assert isinstance(fact, Fact)
        threshold, top_k = self.consolidator.related_threshold, self.work.related_k
        vector = np.asarray(item.vector, dtype=np.float32)
        rows, sims = snap.rows, snap.sims(vector)
        same_topic, same_slot = snap.same_topic(fact.topic), snap.same_slot(fact.slot)
        if pending.rows:  # the rows earlier facts will add, in the order they will be added
            rows, sims = [*rows, *pending.rows], np.concatenate([sims, pending.sims(vector)])
            topic, slot = masks(pending.rows, fact.topic, fact.slot)
            same_topic, same_slot = np.concatenate([same_topic, topic]), np.concatenate([same_slot, slot])
        related = [MemoryMatch(rows[i], float(sims[i])) for i in rank(sims, same_topic, same_slot, top_k)]
        above = sims >= threshold
        hits = np.flatnonzero(above | same_slot).tolist()
        relevant = {m.memory.memory_id for m in related if _shown(m, fact, threshold)}
        ranked = [m.similarity + (TOPIC_BONUS if m.memory.topic == fact.topic else 0.0) for m in related[:top_k]]
        shown_ranks = [score for m, score in zip(related, ranked, strict=False) if m.similarity >= threshold]
        if int(above.sum()) > sum(m.similarity >= threshold for m in related[:top_k]):
            relevant |= {m.memory.memory_id for m in related[:top_k]}  # the top k is full
        floor = min(shown_ranks) if len(ranked) >= top_k and shown_ranks else None
        source = (item.src.session.session_id, item.src.events)
        targets = frozenset(rows[i].memory_id for i in hits)
        plan = Plan(Footprint(targets, vector, fact.slot, fact.topic, source))
        plan.blockers = pending.blockers(fact, vector, relevant, floor, threshold, source)
        plan.undecided = frozenset(j for j in plan.blockers if self.plans[j].decided() is None)
        plan.replay = source in self._sources and self.work.replayed(item.src, fact) is not None
        if plan.blockers or plan.replay:
            return plan
        plan.key = self.consolidator.decision_key(fact, related)
        if plan.key is not None:
            # The nearer the next fact to apply, the sooner its request goes out (openai_slots).
            context = priority_context(k - self._start)
            plan.future = self.pool.submit(context.run, self.consolidator.decide, fact, related)
            plan.future.add_done_callback(self._count_done)
            self.stats.requested += 1
            self.stats.ahead += k > self._start
        return plan

    def _decider(self, k: int) -> Decide:
        """The decision for fact ``k`` at its turn: the one requested ahead if its request still holds."""
        plan = self.plans.pop(k, None)

        def decide(fact: Fact, related: Sequence[MemoryMatch]) -> Decision:
            if plan is not None and plan.future is not None:
                if self.consolidator.decision_key(fact, related) == plan.key:
                    self.stats.kept += 1
                    return plan.future.result()
                plan.future.cancel()
                self.stats.redone += 1
                log.debug("decision requested ahead for statement %d no longer holds; deciding again", k)
            return self.consolidator.decide(fact, related)

        return decide


def _shown(match: MemoryMatch, fact: Fact, threshold: float) -> bool:
    return match.similarity >= threshold or bool(fact.slot and match.memory.slot == fact.slot)


def apply_ahead(
    work: UserMemories, consolidator: CallingConsolidator, items: Sequence[Item], workers: int, lookahead: int
) -> ScheduleStats:
    """Apply ``items`` in order with decisions requested ahead on up to ``workers`` threads."""
    with ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="decide") as pool:
        stats = DecisionSchedule(work, consolidator, items, pool, max(1, lookahead)).run()
    if stats.requested:
        log.info(
            "consolidation: %d facts, %d decisions requested, %d of them ahead of their turn, %d kept, %d made again",
            stats.facts, stats.requested, stats.ahead, stats.kept, stats.redone,
        )  # fmt: skip
    return stats
