"""The evidence layer (issue 70): every turn kept verbatim, recalled beside the memories, packed under a
budget, scoped like them, and reached by forget, erasure and rollback.

One module-scoped store holds two users' sessions (ingested once); the destructive tests (forget,
erase, rollback) each ingest one small session into a store of their own.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tasks.consolidate.history import rollback
from tasks.ingest.evidence import MAX_PASSAGES, PASSAGE_CHARS, clean_text, split_passages
from tasks.ingest.run import ingest_sessions
from tasks.maintain.capacity import run_capacity
from tasks.maintain.ttl import run_ttl
from tasks.models import Event, Session
from tasks.recall.context import EVIDENCE_HEADER, FACTS_HEADER, format_context
from tasks.recall.recaller import Recaller
from tasks.settings import Settings
from tasks.store.erase import erase_user
from tasks.store.filters import scope
from tasks.store.tables import EVIDENCE, MEMORIES, QUARANTINE, open_store
from tasks.tokens import count_tokens

T0 = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)
NOW = datetime(2025, 6, 1, tzinfo=UTC)
APP = "evidence-app"
HOSTILE = "x' OR '1'='1"


def _session(user: str, sid: str, turns: list[tuple[str, str]], start: datetime = T0) -> Session:
    events = tuple(
        Event(id=f"{sid}-e{i}", author=role, role="agent" if role == "agent" else "user", text=text,
              timestamp=start + timedelta(minutes=i))
        for i, (role, text) in enumerate(turns)
    )  # fmt: skip
    return Session(app_name=APP, user_id=user, session_id=sid, started_at=start,
                   ended_at=start + timedelta(minutes=len(turns)), events=events)  # fmt: skip


TRIP = [
    ("user", "Can you suggest three museums in Lisbon for a rainy day?"),
    (
        "agent",
        "Sure: the Gulbenkian Museum, the Tile Museum (Museu Nacional do Azulejo) and MAAT by the river. "
        "The third one has a riverside roof walk.",
    ),
    ("user", "Great, thanks."),
    ("user", "I work as a pharmacist in Porto."),
    ("user", "Ich lerne seit zwei Jahren Portugiesisch.\x07\x00 日本語も少し話せます。"),
    ("user", "Long story. " + "We walked along the coast and saw the old lighthouse near Cascais. " * 500),
    ("user", "I live in Porto. Which cities could I move to next year?"),
    ("agent", "You could move to Lisbon, Braga or Faro; Lisbon has 4 metro lines."),
]
OTHER = [("user", "My secret locker code is 4417 and I keep my museum tickets there.")]


@pytest.fixture(scope="module")
def store_settings(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    settings = Settings(store_uri=str(tmp_path_factory.mktemp("evidence") / "store"))
    summary = ingest_sessions([_session("ana", "trip", TRIP), _session(HOSTILE, "other", OTHER)], settings)
    assert summary.sessions_processed == 2 and summary.evidence_written > len(TRIP)
    return settings


def _evidence(settings: Settings, user: str = "ana") -> list[dict[str, Any]]:
    return open_store(settings).rows(EVIDENCE, scope(APP, user))


def test_every_turn_is_kept_verbatim_with_its_speaker_and_citations(store_settings: Settings) -> None:
    rows = _evidence(store_settings)
    by_event: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        by_event.setdefault(str(row["event_id"]), []).append(row)
    assert sorted(by_event) == sorted(f"trip-e{i}" for i in range(len(TRIP))), "one turn, one or more passages"
    agent = by_event["trip-e1"][0]
    assert agent["role"] == "agent" and agent["author"] == "agent" and "Azulejo" in str(agent["text"])
    assert agent["timestamp"] == T0 + timedelta(minutes=1)
    job = by_event["trip-e3"][0]
    cited = open_store(store_settings).rows(MEMORIES, scope(APP, "ana"), ["memory_id", "source_event_ids"])
    assert job["memory_ids"], "the turn names the memory it gave rise to"
    assert set(job["memory_ids"]) <= {m["memory_id"] for m in cited if "trip-e3" in m["source_event_ids"]}
    other_script = str(by_event["trip-e4"][0]["text"])
    assert "日本語" in other_script and "\x07" not in other_script and "\x00" not in other_script


def test_a_huge_turn_keeps_bounded_passages_and_quarantines_the_rest(store_settings: Settings) -> None:
    long_turn = sorted(
        (r for r in _evidence(store_settings) if r["event_id"] == "trip-e5"), key=lambda r: int(str(r["passage"]))
    )
    assert len(long_turn) == MAX_PASSAGES and all(len(str(r["text"])) <= PASSAGE_CHARS for r in long_turn)
    assert [r["passage"] for r in long_turn] == list(range(MAX_PASSAGES))
    reasons = [r["reason"] for r in open_store(store_settings).rows(QUARANTINE)]
    assert any("trip-e5" in str(r) and "passages" in str(r) for r in reasons)


def test_rows_are_written_once_and_a_rerun_adds_nothing(store_settings: Settings) -> None:
    before = len(_evidence(store_settings))
    again = ingest_sessions([_session("ana", "trip", TRIP)], store_settings)
    assert again.sessions_processed == 0 and len(_evidence(store_settings)) == before
    ids = [r["evidence_id"] for r in _evidence(store_settings)]
    assert len(ids) == len(set(ids))


def test_what_the_agent_told_the_user_is_a_memory_of_its_own_never_the_users(store_settings: Settings) -> None:
    rows = open_store(store_settings).rows(MEMORIES, scope(APP, "ana"))
    said = [r for r in rows if r["speaker"] == "agent"]
    assert any(r["content"].startswith("Agent said:") and "Braga" in r["content"] for r in said)
    assert any("Gulbenkian" in r["content"] for r in said), "a list the agent gave"
    home = [r for r in rows if r["speaker"] == "User" and "Porto" in r["content"] and "live" in r["content"]]
    assert home and all(r["status"] == "active" for r in home), "the agent's cities change nothing of the user's"
    assert not any(r["speaker"] == "User" and "Braga" in r["content"] for r in rows)


def test_passages_split_on_sentence_boundaries() -> None:
    text = "First sentence here. " * 40 + "x" * 1000
    parts = split_passages(clean_text(text))
    assert all(len(p) <= PASSAGE_CHARS for p in parts) and parts[0].endswith("here.")
    assert "".join(parts).replace(" ", "") == clean_text(text).replace(" ", "")
    assert clean_text(" \x00\t ") == ""


def test_recall_returns_what_the_agent_said_beside_the_memories(store_settings: Settings) -> None:
    with Recaller(store_settings) as recaller:
        result = recaller.recall_result("What was the third museum you suggested?", APP, "ana", k=5, now=NOW)
    said = [h for h in result.evidence if h.speaker == "agent"]
    assert said and "MAAT" in said[0].content and said[0].source_event_ids == ["trip-e1"]
    assert all(h.kind == "evidence" for h in result.evidence)
    assert len({h.id for h in result.evidence}) == len(result.evidence)


def test_evidence_is_scoped_like_memories_even_for_hostile_ids(store_settings: Settings) -> None:
    with Recaller(store_settings) as recaller:
        mine = recaller.recall_result("locker code museum tickets", APP, "ana", k=10, now=NOW)
        # Evidence alone (a topic filter naming only it): nothing the memories say hides a turn.
        theirs = recaller.recall_result(
            "museums in Lisbon pharmacist", APP, HOSTILE, k=10, now=NOW, topics=["evidence"]
        )
        nobody = recaller.recall_result("museums", APP, "' OR 1=1 --", k=10, now=NOW)
    assert mine.evidence and not any("4417" in h.content for h in mine.evidence + mine.hits)
    assert theirs.evidence and all(h.session_id == "other" for h in theirs.evidence) and not theirs.hits
    assert not nobody.evidence and not nobody.hits


@pytest.mark.parametrize("budget", [30, 60, 120, 400])
def test_context_packs_memories_first_then_evidence_within_the_budget(store_settings: Settings, budget: int) -> None:
    with Recaller(store_settings) as recaller:
        result = recaller.recall_result("What did you suggest for a rainy day in Lisbon?", APP, "ana", k=5, now=NOW)
    block = format_context(result.hits, budget, evidence=result.evidence)
    assert count_tokens(block) <= budget
    if budget >= 120:
        assert FACTS_HEADER in block and EVIDENCE_HEADER in block
        assert block.index(FACTS_HEADER) < block.index(EVIDENCE_HEADER)
        assert "2025" in block.split(EVIDENCE_HEADER)[1], "a verbatim line says when"
    if budget >= 400:
        assert "agent: Sure: the Gulbenkian Museum" in block, "and who said it"


def _small_store(tmp_path: Path, sessions: list[Session]) -> Settings:
    settings = Settings(store_uri=str(tmp_path / "store"), forgotten_retention_days=36_500.0)
    ingest_sessions(sessions, settings)
    return settings


FAMILY = [("user", "My daughter is named Mia and she turns five next month."), ("agent", "Lovely, noted!")]
FORGET = [("user", "Please forget my daughter's name."), ("agent", "Done, I have forgotten it.")]


def test_a_spoken_forget_redacts_the_value_in_the_evidence(tmp_path: Path) -> None:
    settings = _small_store(tmp_path, [_session("kim", "s1", FAMILY)])
    assert any("Mia" in str(r["text"]) for r in _evidence(settings, "kim"))
    ingest_sessions([_session("kim", "s2", FORGET, T0 + timedelta(days=2))], settings)
    rows = _evidence(settings, "kim")
    turn = next(r for r in rows if r["event_id"] == "s1-e0")
    assert "Mia" not in str(turn["text"]) and turn["redacted"] and turn["memory_ids"], "redacted, still cited"
    with Recaller(settings) as recaller:
        result = recaller.recall_result("What is my daughter's name?", APP, "kim", k=5, now=NOW)
    assert not any("Mia" in h.content for h in result.evidence + result.hits)


def test_erase_user_removes_their_evidence_physically(tmp_path: Path) -> None:
    settings = _small_store(tmp_path, [_session("kim", "s1", FAMILY), _session("lee", "s1", OTHER)])
    store = open_store(settings)
    report = erase_user(store, APP, "kim", run_id="erase-1", reason="test")
    assert report.evidence_deleted == len(FAMILY) and not _evidence(settings, "kim")
    assert _evidence(settings, "lee"), "another user's evidence stays"
    ds = store.table(EVIDENCE).to_lance()
    for version in ds.versions():
        old = ds.checkout_version(version["version"]).to_table(columns=["text"]).column("text").to_pylist()
        assert not any("Mia" in t for t in old), "no kept version still holds the erased turn"


def test_rolling_back_a_run_removes_its_evidence_with_its_memories(tmp_path: Path) -> None:
    settings = _small_store(tmp_path, [_session("kim", "s1", FAMILY)])
    summary = ingest_sessions([_session("kim", "s3", OTHER, T0 + timedelta(days=3))], settings)
    store = open_store(settings)
    assert any(r["session_id"] == "s3" for r in _evidence(settings, "kim"))
    restored = rollback(store, summary.run_id)
    assert EVIDENCE in restored and MEMORIES in restored
    assert {r["session_id"] for r in _evidence(settings, "kim")} == {"s1"}


def test_ttl_and_capacity_treat_evidence_by_their_own_settings(tmp_path: Path) -> None:
    turns = [*FAMILY, ("user", "I work as a pharmacist in Porto.")]
    settings = _small_store(tmp_path, [_session("kim", "s1", turns)])
    uncited = {r["event_id"] for r in _evidence(settings, "kim") if not r["memory_ids"]}
    assert "s1-e1" in uncited and len(_evidence(settings, "kim")) == 3
    run_ttl(settings, now=NOW)
    assert len(_evidence(settings, "kim")) == 3, "no evidence TTL by default: every turn kept"
    report = run_ttl(settings.model_copy(update={"evidence_ttl_days": 30.0}), now=NOW)
    kept = {r["event_id"] for r in _evidence(settings, "kim")}
    assert kept == {"s1-e0", "s1-e2"} and report.details["evidence_expired"] == 1, "a turn a memory cites stays"
    run_capacity(settings.model_copy(update={"evidence_max_rows_per_user": 1}), now=NOW)
    assert [r["event_id"] for r in _evidence(settings, "kim")] == ["s1-e2"], "the oldest goes first"
