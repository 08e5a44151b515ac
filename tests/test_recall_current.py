"""Recall marks what holds now and what was said earlier (tasks/recall/current.py), in every way out:
the hits, ``recall --json``, the context block; and finds a passage's neighbours in the scan it read."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime, timedelta
from functools import partial
from typing import Literal

import pytest

from evaluation.knowledge_update import score_case, update_case
from flows.cli import main
from tasks.ingest.run import ingest_sessions
from tasks.models import Event, RecallHit, Session
from tasks.recall.abstain import RecallResult
from tasks.recall.context import build_context
from tasks.recall.current import earlier_label, marked, outdated_turns, same_slot_older
from tasks.recall.evidence import COLUMNS, PLACE, neighbours_in, neighbours_of
from tasks.recall.legs import OFFSET
from tasks.recall.recaller import Recaller
from tasks.settings import Settings
from tasks.store.filters import scope
from tasks.store.tables import EVIDENCE, open_store
from tests.clock import NOW

APP = "current-app"
USER = "dana"
OLD_AT = NOW - timedelta(days=40)
NEW_AT = NOW - timedelta(days=10)
QUESTION = "What time do I wake up on Saturday mornings?"
Kind = Literal["memory", "episode", "evidence"]


def _session(sid: str, start: datetime, turns: list[tuple[str, str]]) -> Session:
    events = tuple(
        Event(id=f"{sid}-e{i}", author=role, role="agent" if role == "agent" else "user", text=text,
              timestamp=start + timedelta(minutes=i))
        for i, (role, text) in enumerate(turns)
    )  # fmt: skip
    return Session(app_name=APP, user_id=USER, session_id=sid, started_at=start,
                   ended_at=start + timedelta(minutes=len(turns)), events=events)  # fmt: skip


OLD = [
    ("user", "I'm trying to get into a weekend morning routine."),
    ("agent", "Happy to help. When do you usually get up?"),
    ("user", "I've been waking up around 8:30 am on Saturdays, then I go for a short jog."),
]
NEW = [
    ("user", "Can you suggest a jogging route near the river?"),
    ("agent", "Sure, the riverside path is flat and shaded."),
    ("user", "Nice. These days I wake up at 7:30 am on Saturdays and have a coffee before the jog."),
]


@pytest.fixture(scope="module")
def settings(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    out = Settings(store_uri=str(tmp_path_factory.mktemp("current") / "store"))
    ingest_sessions([_session("old", OLD_AT, OLD), _session("new", NEW_AT, NEW)], out)
    return out


def _shown(hits: list[RecallHit], words: str) -> list[RecallHit]:
    return [h for h in hits if words in h.content]


def test_the_latest_value_is_current_and_the_older_one_is_labelled_earlier(settings: Settings) -> None:
    with Recaller(settings) as recaller:
        result = recaller.recall_result(QUESTION, APP, USER, k=5, now=NOW)
    shown = [*result.hits, *result.evidence]
    older, newer = _shown(shown, "8:30"), _shown(shown, "7:30")
    assert older and newer
    for h in older:  # an item, or an episode's sentence, that says the old value is labelled earlier
        label = earlier_label(h.stated_at or h.created_at)
        if h.kind == "episode":
            assert -1 < h.content.find(label) < h.content.find("8:30")
        else:
            assert not h.current and h.content.startswith(label)
    assert any(h.current for h in newer) and all(h.current for h in newer)


def test_recall_json_gives_each_hit_its_currency_and_date(
    settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["recall", QUESTION, "--app", APP, "--user", USER, "--k", "5", "--json",
                 "--now", NOW.isoformat(), "--store", settings.store_uri])  # fmt: skip
    assert code == 0
    hits = json.loads(capsys.readouterr().out)
    assert hits and all(isinstance(h["current"], bool) and h["stated_at"] for h in hits)
    assert any(not h["current"] and "8:30" in h["content"] for h in hits)
    assert all(h["current"] for h in hits if "7:30" in h["content"])


def test_the_context_block_never_shows_the_older_value_as_current(settings: Settings) -> None:
    block = build_context(QUESTION, APP, USER, 400, settings=settings, now=NOW)
    lines = [line for line in block.splitlines() if "8:30" in line]
    assert lines and all(-1 < line.find("earlier (") < line.find("8:30") for line in lines)
    assert any(line[:1].isdigit() and "7:30" in line for line in block.splitlines())


def test_a_question_that_names_a_time_is_asked_of_that_time(settings: Settings) -> None:
    month = f"{OLD_AT:%Y-%m}"  # an ISO month: no month names, which follow the locale
    with Recaller(settings) as recaller:
        hits = recaller.recall(f"When did I wake up on Saturdays in {month}?", APP, USER, k=5, now=NOW)
    assert all(h.current for h in _shown(hits, "8:30"))


def _hit(hid: str, kind: Kind, when: datetime, vector: list[float], memory_ids: Sequence[str] = ()) -> RecallHit:
    return RecallHit(id=hid, kind=kind, topic="t", content=f"{hid} words", score=1.0, session_id=f"s-{hid}",
                     stated_at=when, created_at=when, vector=vector, memory_ids=list(memory_ids))  # fmt: skip


def test_time_order_of_close_items_and_replaced_turns() -> None:
    a = _hit("a", "memory", OLD_AT, [1.0, 0.0, 0.0])
    b = _hit("b", "memory", NEW_AT, [0.9, 0.1, 0.0])
    far = _hit("far", "memory", OLD_AT, [0.0, 0.0, 1.0])
    assert same_slot_older([a, b, far], 0.65) == {"a"}
    asked_of_a = a.model_copy(update={"score_parts": {"cosine": 0.6}})  # b says another slot than asked
    assert same_slot_older([asked_of_a, b.model_copy(update={"score_parts": {"cosine": 0.3}})], 0.65) == set()
    same_session = b.model_copy(update={"session_id": "s-a"})
    assert same_slot_older([a, same_session], 0.65) == set()  # one session: one statement, not a change
    turn = _hit("t", "evidence", OLD_AT, [0.0, 1.0, 0.0], memory_ids=["m1", "m2"])
    assert outdated_turns([turn], {"m1": NEW_AT, "m2": None}) == {"t"}  # both replaced since
    assert outdated_turns([turn], {"m1": NEW_AT, "m2": OLD_AT}) == set()  # m2 still holds what it said
    hits, evidence = marked([a, b, far], [turn], {"m1": NEW_AT, "m2": None}, 0.65)
    assert [h.current for h in hits] == [False, True, True] and not evidence[0].current
    assert hits[0].content == earlier_label(OLD_AT) + "a words" and hits[2].content == "far words"
    again, _ = marked(hits, [], {}, 0.65)
    assert again[0].content == hits[0].content  # labelled once, however often marked


@pytest.mark.parametrize("whole", [False, True])
def test_neighbours_from_the_scan_are_those_of_the_filtered_read(settings: Settings, whole: bool) -> None:
    store = open_store(settings)
    dataset = store.table(EVIDENCE).to_lance()
    where = scope(APP, USER)
    columns = list(dict.fromkeys(["vector", OFFSET, *PLACE, *(COLUMNS if whole else ())]))
    scan = dataset.to_table(columns=columns, filter=where)
    found = [r for r in store.rows(EVIDENCE, where, list(COLUMNS)) if int(r["turn"]) in (0, 2)]
    mine = neighbours_in(scan, partial(dataset.take, columns=list(COLUMNS)), found, 1)
    theirs = neighbours_of(store, APP, USER, found, 1)
    assert theirs and {k: [r["evidence_id"] for r in v] for k, v in mine.items()} == {
        k: [r["evidence_id"] for r in v] for k, v in theirs.items()
    }


def test_current_marking_can_be_switched_off(settings: Settings) -> None:
    off = settings.model_copy(update={"recall_current": False})
    with Recaller(off) as recaller:
        result = recaller.recall_result(QUESTION, APP, USER, k=5, now=NOW)
    assert all(h.current and not h.content.startswith("earlier (") for h in [*result.hits, *result.evidence])


def test_the_answer_check_scores_the_first_items_and_folds_into_confident(settings: Settings) -> None:
    on = settings.model_copy(update={"recall_abstain_answer_check": True, "recall_abstain_min_answer_score": 50.0})
    with Recaller(on) as recaller:
        result = recaller.recall_result(QUESTION, APP, USER, k=5, now=NOW)
    assert result.answer_score is not None and result.answer_score < 50.0 and not result.confident
    assert result.hits  # abstaining says "not sure", it hides nothing


def test_knowledge_update_cases_split_gold_turns_by_the_latest_answer_session() -> None:
    turn = {"role": "user", "has_answer": True}
    data = {
        "question_id": "q1", "question_type": "knowledge-update", "question": "Where do I keep my bike?",
        "answer": "in the garage", "question_date": "2023/06/01 (Thu) 10:00",
        "answer_session_ids": ["a", "b"], "haystack_session_ids": ["b", "a"],
        "haystack_dates": ["2023/05/20 (Sat) 10:00", "2023/05/01 (Mon) 10:00"],
        "haystack_sessions": [[{**turn, "content": "It lives in the garage now."}],
                              [{**turn, "content": "My bike is in the hallway."}]],
    }  # fmt: skip
    _, case = update_case(data)
    assert case.current_turns == {"b:0"} and case.outdated_turns == {"a:0"}
    old = RecallHit(id="m1", kind="memory", topic="t", content="User keeps the bike in the hallway", score=1.0,
                    session_id="a", source_event_ids=["a:0"], created_at=NOW)  # fmt: skip
    new = old.model_copy(update={"id": "m2", "content": "User keeps the bike in the garage", "source_event_ids": []})
    shown = score_case(case, RecallResult(hits=[old, new]))
    assert shown.current_shown and shown.outdated_as_current  # the answer's words count as shown
    labelled = score_case(case, RecallResult(hits=[old.model_copy(update={"current": False})]))
    assert not labelled.outdated_as_current and labelled.outdated_labelled and not labelled.current_shown
