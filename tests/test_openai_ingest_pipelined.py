"""An LLM ingest of several users, big ones consolidated while the others are still extracted, writes what
the one-stage-after-another run writes (tasks.ingest.run.pipelines / _pipelined)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import tasks.ingest.run as ingest_run
from tasks.ingest.run import ingest_sessions, pipelines
from tasks.models import Session
from tasks.store.tables import CHANGES, EPISODES, MEMORIES, open_store
from tests.llm_stub import LLMStub, make_session, plausible_chat, stub_settings
from tests.test_openai_schedule import hashed_decision

_VARYING = {"run_id", "created_at", "updated_at", "processed_at"}


def decisions_by_hash(body: dict[str, Any]) -> str:
    """Extraction and summaries as a small model would answer; consolidation verdicts of every kind."""
    try:
        json.loads(body["messages"][1]["content"])
    except (ValueError, IndexError, KeyError):
        return plausible_chat(body)
    return hashed_decision(body)


@pytest.fixture
def stub() -> Any:
    server = LLMStub(chat_default=decisions_by_hash, latency=0.005).start()
    yield server
    server.stop()


def sessions() -> list[Session]:
    """Two big users whose sessions keep coming back to the same things, and a small one."""
    themes = ["my sister lives in Oslo", "I work at the bakery", "my dog is called Rex", "I play chess on Sundays"]
    out = []
    for user, count in (("alice", 5), ("bob", 4)):
        for s in range(count):
            turns = [(user, f"{themes[(s + i) % 4]} and {('still', 'again', 'now')[i % 3]} {s}") for i in range(6)]
            out.append(make_session(f"{user}-s{s}", turns, day=s, user=user))
    out.append(make_session("carol-s0", [("carol", "I like tea")], day=1, user="carol"))
    return out


def stored(settings: Any) -> dict[str, list[dict[str, Any]]]:
    store = open_store(settings)
    out = {}
    for table, key in ((MEMORIES, "row_id"), (CHANGES, "change_id"), (EPISODES, "episode_id")):
        rows = [{k: v for k, v in r.items() if k not in _VARYING} for r in store.rows(table)]
        out[table] = sorted(rows, key=lambda r: str(r[key]))
    return out


def test_pipelined_ingest_writes_what_the_staged_run_writes(
    stub: LLMStub, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    todo = sessions()
    groups = pipelines(todo)
    assert [{s.user_id for s in g} for g in groups] == [{"alice"}, {"bob"}, {"carol"}]
    pipelined = stub_settings(stub, tmp_path / "a")
    first = ingest_sessions(todo, pipelined)
    monkeypatch.setattr(ingest_run, "OWN_PIPELINE_SHARE", 2.0)  # no user on its own: one stage after another
    assert len(pipelines(todo)) == 1
    staged = stub_settings(stub, tmp_path / "b")
    second = ingest_sessions(todo, staged)
    assert first.actions == second.actions
    assert {"ADD", "UPDATE", "IGNORE"} <= set(first.actions), first.actions  # verdicts of every kind
    assert first.sessions_processed == second.sessions_processed == len(todo)
    assert stored(pipelined) == stored(staged)


def test_users_whose_ids_join_alike_keep_their_own_pipelines() -> None:
    """Ids may contain "/": app "a/b" + user "c" and app "a" + user "b/c" are two tenants, never one group."""
    one = make_session("s1", [("c", "I work at the bakery")], user="c").model_copy(update={"app_name": "a/b"})
    two = make_session("s2", [("b/c", "I play chess")], user="b/c").model_copy(update={"app_name": "a"})
    groups = pipelines([one, two])
    assert sorted([(s.app_name, s.user_id) for s in g] for g in groups) == [[("a", "b/c")], [("a/b", "c")]]
