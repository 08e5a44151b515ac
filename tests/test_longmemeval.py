"""The LongMemEval loader on a hand-made fixture (tests/data/longmemeval) and, when present, the dev split."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from evaluation.longmemeval import ABSTENTION, load_longmemeval, parse_longmemeval_datetime
from evaluation.runner import DEFAULT_LONGMEMEVAL

FIXTURE = Path(__file__).parent / "data" / "longmemeval"


def test_dates_parse_as_utc_and_bad_ones_are_refused() -> None:
    assert parse_longmemeval_datetime("2023/05/30 (Tue) 21:39") == datetime(2023, 5, 30, 21, 39, tzinfo=UTC)
    with pytest.raises(ValueError, match="unrecognised LongMemEval date"):
        parse_longmemeval_datetime("30 May 2023")


def test_each_question_is_its_own_user_with_its_evidence() -> None:
    data = load_longmemeval(FIXTURE)
    by_id = {q.id: q for q in data.questions}
    assert sorted(by_id) == ["q_fallback", "q_marked", "q_never_abs"]
    assert {s.user_id for s in data.sessions} == set(by_id)
    marked = by_id["q_marked"]
    assert marked.gold_event_ids == ("answer_a1:0",)  # has_answer turns only
    assert marked.asked_at == datetime(2023, 5, 30, 21, 39, tzinfo=UTC)
    assert marked.category == "single-session-user" and marked.answerable
    # No has_answer turn: every (non-empty) turn of the answer session; the int answer becomes text.
    fallback = by_id["q_fallback"]
    assert fallback.gold_event_ids == ("answer_x:0", "answer_x:2") and fallback.answer == "2"
    abstain = by_id["q_never_abs"]
    assert not abstain.answerable and abstain.category == ABSTENTION
    assert [q.id for q in data.scored_questions()] == ["q_fallback", "q_marked"]


def test_sessions_keep_repeats_drop_empty_turns_and_map_roles() -> None:
    sessions = {s.session_id: s for s in load_longmemeval(FIXTURE).sessions if s.user_id == "q_fallback"}
    assert sorted(sessions) == ["answer_x", "noise", "noise#2"]  # a repeated id is kept under a new name
    assert [e.id for e in sessions["answer_x"].events] == ["answer_x:0", "answer_x:2"]  # the blank turn is gone
    assert [e.role for e in sessions["answer_x"].events] == ["user", "agent"]
    assert sessions["noise#2"].started_at == datetime(2023, 7, 20, 9, 0, tzinfo=UTC)
    assert all(len({e.id for e in s.events}) == len(s.events) for s in sessions.values())


def test_an_empty_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no LongMemEval question files"):
        load_longmemeval(tmp_path)


def test_dev_split_when_present() -> None:
    if not DEFAULT_LONGMEMEVAL.is_dir():
        pytest.skip(f"LongMemEval dev split not found at {DEFAULT_LONGMEMEVAL} (it lives in ../shared)")
    data = load_longmemeval(DEFAULT_LONGMEMEVAL)
    assert len(data.questions) == 92
    assert sum(1 for q in data.questions if q.category == ABSTENTION) == 5
    assert all(q.gold_event_ids for q in data.questions if q.answerable)
    ids = [e.id for s in data.sessions for e in s.events]
    assert len({(s.user_id, e.id) for s in data.sessions for e in s.events}) == len(ids)
