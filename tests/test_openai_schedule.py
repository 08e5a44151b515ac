"""Consolidation decisions requested ahead (tasks/consolidate/schedule.py) give the sequential run's results.

The stub decides each request by a hash of the request itself (fact and candidates shown), the way a
deterministic endpoint would, so the sequential and the concurrent schedule meet the same replies.
"""

from __future__ import annotations

import hashlib
import json
import logging
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tasks.consolidate.engine import ConsolidationOutcome, consolidate_user, statements
from tasks.consolidate.footprints import Footprint, Plan
from tasks.consolidate.schedule import DecisionSchedule
from tasks.consolidate.working import UserMemories
from tasks.models import Decision, Fact, ForgetRequest, SessionBatch
from tasks.providers.openai_consolidator import OpenAIConsolidator
from tasks.rows import MemoryRow
from tests.llm_stub import T0, LLMStub, make_session, plausible_chat, stub_settings

DIM = 24
NOW = T0 + timedelta(days=30)


def hashed_decision(body: dict[str, Any]) -> str:
    """ADD / UPDATE / IGNORE / DELETE, and which candidate, from a hash of the request; forget: word match."""
    doc = json.loads(body["messages"][1]["content"])
    if "request" in doc:  # a forget request: every memory sharing its last word
        word = doc["request"].split()[-1]
        hits = [m["id"] for m in doc["memories"] if word in m["content"]]
        return json.dumps({"deletions": [{"memory_id": i, "reason": "named"} for i in hits]})
    if "new_fact" not in doc:
        return plausible_chat(body)
    h = int(hashlib.sha256(body["messages"][1]["content"].encode()).hexdigest(), 16)
    memories = doc["memories"]
    action = ("ADD", "UPDATE", "IGNORE", "DELETE", "UPDATE")[h % 5]
    target = memories[(h // 5) % len(memories)]["id"] if action != "ADD" else None
    relation = ("supersedes", "refines", "contradicts")[(h // 7) % 3]
    new_content = f"{doc['new_fact']['content']} (was: {memories[0]['content'][:20]})" if action == "UPDATE" else None
    return json.dumps({"action": action, "target_memory_id": target, "new_content": new_content,
                       "relation": relation, "reason": f"hash {h % 1000}"})  # fmt: skip


@pytest.fixture
def stub() -> Any:
    server = LLMStub(chat_default=hashed_decision, latency=0.005).start()
    yield server
    server.stop()


def _unit(v: np.ndarray) -> list[float]:
    return [float(x) for x in v / np.linalg.norm(v)]


def scripted_user(seed: int, sessions: int = 6, per_session: int = 10) -> list[SessionBatch]:
    """Sessions of facts around a few themes (so many facts meet related memories), slots and a forget."""
    rng = np.random.default_rng(seed)
    themes = rng.normal(size=(5, DIM))
    batches = []
    for s in range(sessions):
        turns = [("alice", f"statement {s}-{i} about theme words") for i in range(per_session + 1)]
        session = make_session(f"s{s}", turns, day=s)
        facts, vectors = [], []
        for i in range(per_session):
            theme = int(rng.integers(0, 5))
            event = session.events[i]
            slot = "employer" if theme == 0 and rng.random() < 0.5 else None
            facts.append(Fact(topic=("user_preferences", "user_personal_info")[theme % 2],
                              content=f"theme{theme} fact {s}-{i} word{theme}", source_event_ids=(event.id,),
                              stated_at=event.timestamp, speaker="User", slot=slot,
                              value=f"v{i}" if slot else None))  # fmt: skip
            vectors.append(_unit(themes[theme] + rng.normal(scale=0.9, size=DIM)))
        forgets, forget_vectors = [], []
        if s == 3:  # a forget request in the middle of the user's history: a barrier
            event = session.events[per_session]
            forgets.append(ForgetRequest(query="forget word2", source_event_ids=(event.id,),
                                         stated_at=event.timestamp, speaker="alice"))  # fmt: skip
            forget_vectors.append(_unit(themes[2]))
        batches.append(SessionBatch(session=session, facts=facts, fact_vectors=vectors, forgets=forgets,
                                    forget_vectors=forget_vectors))  # fmt: skip
    return batches


def run(stub: LLMStub, tmp_path: Path, batches: list[SessionBatch], concurrency: int,
        existing: list[MemoryRow] | None = None) -> ConsolidationOutcome:  # fmt: skip
    consolidator = OpenAIConsolidator(stub_settings(stub, tmp_path / "store"))
    return consolidate_user(list(existing or []), batches, consolidator, run_id="r1", now=NOW, related_k=4,
                            concurrency=concurrency)  # fmt: skip


def dumped(outcome: ConsolidationOutcome) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    return [r.model_dump() for r in outcome.upserts], [c.model_dump() for c in outcome.changes]


@pytest.mark.parametrize("seed", [1, 2])
def test_concurrent_schedule_equals_the_sequential_run(
    stub: LLMStub, tmp_path: Path, seed: int, caplog: pytest.LogCaptureFixture
) -> None:
    batches = scripted_user(seed)
    sequential = run(stub, tmp_path, batches, concurrency=1)
    sequential_requests = len(stub.chat_requests())
    assert stub.peak == 1
    stub.peak = 0
    with caplog.at_level(logging.INFO, logger="tasks.consolidate.schedule"):
        concurrent = run(stub, tmp_path, batches, concurrency=8)
    assert dumped(concurrent) == dumped(sequential)
    actions = {c.action for c in sequential.changes}
    assert {"ADD", "UPDATE", "IGNORE", "DELETE"} <= actions, actions  # every kind of verdict was exercised
    assert stub.peak > 1  # decisions really overlapped
    [record] = [r for r in caplog.records if r.name == "tasks.consolidate.schedule"]
    assert isinstance(record.args, tuple)
    _, requested, ahead, kept, redone = (int(str(a)) for a in record.args)
    assert ahead > 0 and kept + redone == requested  # decisions did go out ahead of their turn
    # Requests made ahead and then discarded cost extra calls; the prediction keeps them rare.
    assert len(stub.chat_requests()) - sequential_requests <= sequential_requests * 1.2


def test_rerun_over_the_written_rows_replays_alike(stub: LLMStub, tmp_path: Path) -> None:
    """A re-run of the same input over the first run's rows: the replay path, sequential or concurrent."""
    batches = scripted_user(4, sessions=3)
    first = run(stub, tmp_path, batches, concurrency=8)
    latest = {r.row_id: r for r in first.upserts}
    again = [run(stub, tmp_path, batches, concurrency=c, existing=list(latest.values())) for c in (1, 8)]
    assert dumped(again[0]) == dumped(again[1])
    assert any(c.reason == "applied by an earlier run" for c in again[0].changes)


def test_dependent_facts_are_decided_in_order(stub: LLMStub, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A fact that shares a candidate with an earlier one waits for it; an unrelated one goes ahead.

    "Ahead" is read from the schedule's own count, not from the order requests reach the stub: the
    unrelated request is sent first, but a loaded machine may deliver it after the dependent one."""
    tea, city = np.eye(DIM)[0], np.eye(DIM)[1]
    session = make_session("s1", [("alice", "tea"), ("alice", "tea again"), ("alice", "city")], day=1)
    old = make_session("s0", [("alice", "old tea"), ("alice", "old city")], day=0)
    seed = [SessionBatch(session=old, facts=[
        Fact(topic="user_preferences", content="Alice drinks green tea", source_event_ids=("s0-e0",),
             stated_at=old.events[0].timestamp, speaker="User"),
        Fact(topic="user_personal_info", content="Alice lives in Porto", source_event_ids=("s0-e1",),
             stated_at=old.events[1].timestamp, speaker="User"),
    ], fact_vectors=[_unit(tea), _unit(city)], forgets=[], forget_vectors=[])]  # fmt: skip
    existing = run(stub, tmp_path, seed, concurrency=1).upserts  # no candidates: two ADDs, no call
    assert stub.chat_requests() == []

    def fact(i: int, content: str) -> Fact:
        return Fact(topic="user_preferences", content=content, source_event_ids=(session.events[i].id,),
                    stated_at=session.events[i].timestamp, speaker="User")  # fmt: skip

    facts = [fact(0, "Alice now drinks black tea"), fact(1, "Alice drinks black tea daily"), fact(2, "Alice moved")]
    vectors = [_unit(tea + 0.3 * city), _unit(tea + 0.2 * np.eye(DIM)[3]), _unit(city + 0.1 * tea)]
    batch = SessionBatch(session=session, facts=facts, fact_vectors=vectors, forgets=[], forget_vectors=[])
    stub.chat_default = refine_first  # each fact refines its best candidate
    with caplog.at_level(logging.INFO, logger="tasks.consolidate.schedule"):
        concurrent = run(stub, tmp_path, [batch], concurrency=8, existing=existing)
    docs = {doc["new_fact"]["content"]: (i, doc) for i, doc in enumerate(
        json.loads(b["messages"][1]["content"]) for b in stub.chat_requests())}  # fmt: skip
    assert set(docs) == {f.content for f in facts}
    first, dependent = docs[facts[0].content], docs[facts[1].content]
    assert dependent[0] > first[0]  # the dependent fact was requested after the first one was applied
    assert [m["content"] for m in dependent[1]["memories"]] == [facts[0].content]  # and saw what it wrote
    [record] = [r for r in caplog.records if r.name == "tasks.consolidate.schedule"]
    assert isinstance(record.args, tuple)
    assert int(str(record.args[2])) == 1  # one decision requested ahead of its turn: the unrelated fact's
    stub.requests.clear()
    sequential = run(stub, tmp_path, [batch], concurrency=1, existing=existing)
    assert dumped(concurrent) == dumped(sequential)
    assert [c.action for c in sequential.changes] == ["UPDATE", "UPDATE", "UPDATE"]


def refine_first(body: dict[str, Any]) -> str:
    doc = json.loads(body["messages"][1]["content"])
    return json.dumps({"action": "UPDATE", "target_memory_id": doc["memories"][0]["id"], "relation": "refines",
                       "new_content": doc["new_fact"]["content"], "reason": "refines"})  # fmt: skip


def test_a_decision_made_for_another_request_is_made_again(stub: LLMStub, tmp_path: Path) -> None:
    """The guard: at its turn a fact's request is rebuilt; a stale decision made ahead is discarded."""
    batches = scripted_user(5, sessions=2, per_session=3)
    items = statements(batches)
    consolidator = OpenAIConsolidator(stub_settings(stub, tmp_path / "store"))
    work = UserMemories([], consolidator, "r1", NOW, 4)
    for item in items[:3]:
        assert isinstance(item.statement, Fact)
        work.apply_fact(item.src, item.statement, item.vector)
    k = 3
    item = items[k]
    assert isinstance(item.statement, Fact)
    related = work.related(item.statement, item.vector)
    stale: Future[Decision] = Future()
    stale.set_result(Decision(action="DELETE", target_memory_id="nope", relation="forgets", reason="stale"))
    footprint = Footprint(frozenset(), None, None, "user_preferences", ("s", ()))
    with ThreadPoolExecutor(max_workers=1) as pool:
        schedule = DecisionSchedule(work, consolidator, items, pool, lookahead=1)
        schedule.plans[k] = Plan(footprint, key="a request made on other memories", future=stale)
        decided = schedule._decider(k)(item.statement, related)
    assert schedule.stats.redone == 1 and schedule.stats.kept == 0
    assert decided.reason != "stale"
