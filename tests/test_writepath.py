"""The offline write path end to end (issue 11): sessions in through ingest, recall and the tables out.

Real parts only: the local extractor, summarizer, embedder and consolidation engine, a LanceDB
store in tmp_path, and :func:`tasks.recall.recall`. The sessions are the issue's own.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from evaluation.writepath.runner import states_current
from flows.cli import main as cli_main
from tasks.ingest.run import ingest_sessions
from tasks.models import Event, RecallHit, Session
from tasks.recall.recaller import recall
from tasks.settings import Settings
from tasks.store.tables import CHANGES, EPISODES, MEMORIES, open_store

APP, USER = "assistant", "nora"
T0 = datetime(2025, 4, 5, 10, 0, tzinfo=UTC)


def session(session_id: str, day: int, *user_turns: str) -> Session:
    start = T0 + timedelta(days=day)
    events: list[Event] = []
    for i, text in enumerate(user_turns):
        at = start + timedelta(minutes=2 * i)
        events += [
            Event(id=f"{session_id}-u{i}", author="user", role="user", text=text, timestamp=at),
            Event(id=f"{session_id}-a{i}", author="agent", role="agent", text="Thanks, noted.",
                  timestamp=at + timedelta(minutes=1)),
        ]  # fmt: skip
    return Session(app_name=APP, user_id=USER, session_id=session_id, started_at=start,
                   ended_at=events[-1].timestamp, events=tuple(events))  # fmt: skip


def ingest(tmp_path: Path, *sessions: Session) -> Settings:
    """Each session in its own run, in order, as a user's sessions arrive in production."""
    settings = Settings(store_uri=str(tmp_path / "store"))
    for s in sessions:
        ingest_sessions([s], settings)
    return settings


def active(settings: Settings) -> list[str]:
    return [r["content"] for r in open_store(settings).rows(MEMORIES, "status = 'active'", ["content"])]


def top(settings: Settings, query: str) -> RecallHit:
    hits = recall(query, APP, USER, settings=settings, k=5)
    assert hits, f"nothing recalled for {query!r}"
    return hits[0]


def test_running_then_swimming_supersedes_the_sport(tmp_path: Path) -> None:
    settings = ingest(
        tmp_path,
        session("s1", 0, "Every weekend I go running along the river, it's my favourite sport."),
        session("s2", 30, "Quick update: I stopped running because of my knee, I swim at the lido instead now."),
    )
    memories = active(settings)
    assert not [m for m in memories if states_current(m, "running")], memories
    assert any("swim" in m for m in memories)
    assert "swim" in top(settings, "What sport does the user do?").content
    changes = open_store(settings).rows(CHANGES, "action = 'UPDATE'", ["relation", "reason"])
    assert changes and changes[0]["reason"], "the change is audited with its reason"


def test_fiat_then_volvo_reads_well_and_the_fiat_is_not_current(tmp_path: Path) -> None:
    settings = ingest(
        tmp_path,
        session("s1", 0, "My car is a red Fiat Panda."),
        session("s2", 30, "I sold the Fiat last week, I drive a Volvo XC40 now."),
    )
    memories = active(settings)
    assert not [m for m in memories if states_current(m, "Fiat")], memories
    answer = top(settings, "What car does the user drive?").content
    assert "Volvo XC40" in answer
    assert "User drives a Volvo XC40" in answer  # third person that reads well, not "User drive"


def test_identifier_in_a_second_clause_is_recalled(tmp_path: Path) -> None:
    settings = ingest(
        tmp_path, session("s1", 0, "I renewed the gym membership yesterday, and my member number is ZK-4410.")
    )
    assert any("ZK-4410" in m for m in active(settings))
    hit = top(settings, "ZK-4410")
    assert "ZK-4410" in hit.content
    assert "s1-u0" in hit.source_event_ids


def test_retraction_keeps_only_the_corrected_value(tmp_path: Path) -> None:
    settings = ingest(tmp_path, session("s1", 0, "My appointment is on Monday. Scratch that, it's Tuesday."))
    memories = active(settings)
    assert any("Tuesday" in m for m in memories)
    assert not [m for m in memories if states_current(m, "Monday")], memories
    episode = open_store(settings).rows(EPISODES, None, ["summary"])[0]["summary"]
    assert "Tuesday" in episode and "Monday" not in episode


def test_negation_closes_the_old_fact(tmp_path: Path) -> None:
    settings = ingest(
        tmp_path,
        session("s1", 0, "I have a ferret named Oskar."),
        session("s2", 30, "I don't have a ferret now."),
    )
    assert not [m for m in active(settings) if states_current(m, "ferret")]


def test_confirmation_is_ignored_and_an_unrelated_fact_is_added(tmp_path: Path) -> None:
    settings = ingest(
        tmp_path,
        session("s1", 0, "My instrument is the nyckelharpa."),
        session("s2", 30, "I still play the nyckelharpa.", "My locker code is QX-5521."),
    )
    memories = active(settings)
    assert sum("nyckelharpa" in m for m in memories) == 1, memories
    assert any("QX-5521" in m for m in memories)


def test_episode_does_not_state_a_value_the_session_changed(tmp_path: Path) -> None:
    said = "I love coffee but honestly I've switched to tea, coffee keeps me up at night."
    settings = ingest(tmp_path, session("s1", 0, said))
    episode = open_store(settings).rows(EPISODES, None, ["summary"])[0]["summary"]
    assert "tea" in episode
    assert "User loves coffee" not in episode


def test_instruction_reads_as_an_instruction(tmp_path: Path) -> None:
    settings = ingest(tmp_path, session("s1", 0, "Never book me on flights before 8am."))
    memories = active(settings)
    assert any(m.startswith("Never book the user") for m in memories), memories
    assert not [m for m in memories if "User:" in m or "book User" in m]


def test_cli_ingest_then_recall_the_identifier_and_the_new_value(
    prefect_harness: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Through the command line: the sessions as a JSONL file, then `recall` for the identifier and the change."""
    sessions = [
        session("s1", 0, "My car is a red Fiat Panda, and my licence plate is KX-2291."),
        session("s2", 30, "I sold the Fiat last week, I drive a Volvo XC40 now."),
    ]
    source = tmp_path / "sessions.jsonl"
    source.write_text("\n".join(s.model_dump_json(exclude={"compaction_summaries", "source"}) for s in sessions))
    store = str(tmp_path / "cli-store")
    assert cli_main(["ingest", "--sessions", str(source), "--store", store]) == 0
    capsys.readouterr()

    def cli_recall(query: str) -> list[dict[str, Any]]:
        assert cli_main(["recall", "--app", APP, "--user", USER, "--k", "3", "--json", "--store", store, query]) == 0
        hits: list[dict[str, Any]] = json.loads(capsys.readouterr().out)
        return hits

    assert "KX-2291" in cli_recall("KX-2291")[0]["content"]
    assert "Volvo XC40" in cli_recall("What car does the user drive?")[0]["content"]
