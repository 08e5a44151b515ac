"""Evaluation building blocks: metrics on hand-made cases, the datasets, the baselines, the report."""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from evaluation import metrics as m
from evaluation.baselines import DenseRAG, FullContext, IndexStats, Retrieved, turn_line
from evaluation.dataset import EvalDataset, EvalQuestion
from evaluation.locomo import load_locomo, parse_locomo_datetime, split_evidence, turn_text
from evaluation.report import PLOTS, write_report
from evaluation.scoring import QuestionRun, score_system
from evaluation.synthetic import SyntheticConfig, generate
from tasks.models import Event, Session
from tasks.providers.base import Embedder

# ---------------------------------------------------------------- metrics


def test_retrieval_metrics_exact_values() -> None:
    sources = [("a",), ("x", "b"), ("y",), ("c", "a")]
    gold = ("a", "b", "z")
    assert m.relevance(sources, gold) == [True, True, False, True]
    assert m.precision_at_k(sources, gold, 3) == pytest.approx(2 / 3)
    assert m.precision_at_k(sources, gold, 10) == pytest.approx(3 / 4)  # over what was returned
    assert m.precision_at_k([], gold, 5) == 0.0
    assert m.recall_at_k(sources, gold, 1) == pytest.approx(1 / 3)
    assert m.recall_at_k(sources, gold, 2) == pytest.approx(2 / 3)
    assert m.recall_at_k(sources, gold, 20) == pytest.approx(2 / 3)
    assert m.recall_at_k(sources, (), 5) == 0.0
    assert m.hit_at_k([("y",), ("b",)], gold, 1) == 0.0
    assert m.hit_at_k([("y",), ("b",)], gold, 2) == 1.0
    assert m.reciprocal_rank([("y",), ("q",), ("b",)], gold) == pytest.approx(1 / 3)
    assert m.reciprocal_rank([("y",)], gold) == 0.0


def test_ndcg_counts_only_newly_covered_evidence() -> None:
    # gold {a, b}: ideal = 1 + 1/log2(3)
    ideal = 1 + 1 / math.log2(3)
    assert m.ndcg_at_k([("a",), ("b",)], ("a", "b"), 2) == pytest.approx(1.0)
    assert m.ndcg_at_k([("x",), ("a",)], ("a", "b"), 2) == pytest.approx((1 / math.log2(3)) / ideal)
    # a duplicate of an already covered turn gains nothing, so the value never exceeds 1
    assert m.ndcg_at_k([("a",), ("a",)], ("a",), 2) == pytest.approx(1.0)
    assert m.ndcg_at_k([("a",), ("a",), ("b",)], ("a", "b"), 3) == pytest.approx((1 + 0.5) / ideal)


def test_answer_token_recall_uses_content_words() -> None:
    assert m.content_words("The Berlin, Germany!") == {"berlin", "germany"}
    assert m.answer_token_recall("7 May 2023", "on 7 may, 2023 she went") == 1.0
    assert m.answer_token_recall("Psychology, counseling certification", "she studies psychology") == (
        pytest.approx(1 / 3)
    )
    assert m.answer_token_recall("No", "anything") == 1.0  # nothing to look for


def test_percentile_savings_and_mentions() -> None:
    assert m.percentile([1.0, 2.0, 3.0, 4.0], 50) == pytest.approx(2.5)
    assert m.percentile([5.0], 95) == 5.0
    assert m.percentile([], 50) == 0.0
    assert m.token_savings(250, 1000) == pytest.approx(0.75)
    assert m.mentions("I moved to New York!", "new york")
    assert not m.mentions("Teacup collection", "tea")


def test_stale_and_leak_checks() -> None:
    assert m.stale_returned(["likes coffee", "likes tea"], ["tea"], ["coffee"])
    assert not m.stale_returned(["switched from coffee to tea"], ["tea"], ["coffee"])
    assert not m.stale_returned(["likes tea", "used to like coffee"], ["tea"], ["coffee"])
    assert not m.stale_returned(["nothing relevant"], ["tea"], ["coffee"])
    assert m.leaked(["Lives in Berlin"], ["Berlin"])
    assert not m.leaked(["Lives somewhere"], ["Berlin"])


def test_score_system_on_hand_made_runs() -> None:
    def question(qid: str, answer: str, category: str, **extra: Any) -> EvalQuestion:
        return EvalQuestion(id=qid, app_name="a", user_id="u", question="?", answer=answer, category=category, **extra)

    q1 = question("q1", "tea", "c1", gold_event_ids=("e1",))
    q2 = question("q2", "blue", "c2", gold_event_ids=("e2", "e3"))
    q3 = question("q3", "", "gone", answerable=False, forgotten_values=("Berlin",))
    runs = [
        QuestionRun(q1, [Retrieved("drinks tea", ("e1",), 0.9), Retrieved("x", ("e9",), 0.2)], 2.0),
        QuestionRun(q2, [Retrieved("nothing", ("e7",), 0.4), Retrieved("blue car", ("e3", "e4"), 0.3)], 4.0),
        QuestionRun(q3, [Retrieved("lives in Berlin", ("e5",), 0.7)], 6.0),
    ]
    s = score_system("sys", runs, k=1, ks=(1, 2), index=IndexStats(), full_tokens=100.0, abstain_threshold=0.5)
    assert s.questions == 2
    assert s.recall_at_k == pytest.approx(0.5)  # q1: 1, q2: 0
    assert s.per_k["2"].recall == pytest.approx(0.75)  # q2 covers e3 of {e2, e3} at k=2
    assert s.mrr == pytest.approx((1 + 0.5) / 2)
    assert s.answer_recall_at_k == pytest.approx(0.5)
    assert s.per_category["c1"].recall_at_k == 1.0 and s.per_category["c2"].recall_at_k == 0.0
    assert s.mean_sources_per_memory == pytest.approx(1.0)
    assert s.per_k["2"].mean_context_tokens > s.per_k["1"].mean_context_tokens
    assert s.token_savings_vs_full == pytest.approx(1 - s.mean_context_tokens / 100.0)
    assert s.recall_p50_ms == pytest.approx(4.0)
    assert s.unanswerable.questions == 1 and s.unanswerable.retrieved_above_threshold_rate == 1.0
    assert s.forgotten_leak_rate == 1.0
    assert s.stale_fact_rate is None


# ---------------------------------------------------------------- synthetic


def test_synthetic_is_deterministic_and_seeded() -> None:
    small = SyntheticConfig(users=2, sessions_per_user=4, seed=3)
    assert generate(small) == generate(small)
    assert generate(small) != generate(SyntheticConfig(users=2, sessions_per_user=4, seed=4))


def test_synthetic_contains_every_required_case() -> None:
    data = generate(SyntheticConfig(users=2, sessions_per_user=4))
    assert len(data.sessions) == 8 and {s.user_id for s in data.sessions} == {"user-00", "user-01"}
    topics = {f.topic for f in data.gold_facts}
    assert topics == {
        "user_personal_info",
        "user_preferences",
        "key_conversation_details",
        "explicit_instructions",
    }
    statuses = {f.status for f in data.gold_facts}
    assert statuses == {"active", "superseded", "forgotten"}
    categories = {q.category for q in data.questions}
    assert {"updated", "forgotten", "personal_info", "preference", "decision", "instruction"} <= categories
    events = {e.id: e for s in data.sessions for e in s.events}
    for s in data.sessions:
        assert s.started_at.tzinfo is not None
        assert all(e.id.startswith(f"{s.session_id}-e") for e in s.events)
        assert [e.timestamp for e in s.events] == sorted(e.timestamp for e in s.events)
    # every gold event exists, is a user turn and states the answer verbatim
    for q in data.questions:
        for eid in q.gold_event_ids:
            assert events[eid].role == "user"
            assert m.mentions(events[eid].text, q.answer)
    updated = [q for q in data.questions if q.category == "updated"]
    assert updated and all(q.stale_values and q.stale_values[0] != q.answer for q in updated)
    forgotten = [q for q in data.questions if q.category == "forgotten"]
    assert forgotten and all(not q.answerable and q.forgotten_values for q in forgotten)
    assert any(len(q.gold_event_ids) > 1 for q in data.questions)  # restated near-duplicates
    gold_ids = {eid for f in data.gold_facts for eid in f.source_event_ids}
    small_talk = [e for e in events.values() if e.role == "user" and e.id not in gold_ids]
    assert len(small_talk) >= 3 * len(data.sessions)  # chit-chat that must not become memories
    texts = [e.text for e in events.values() if e.role == "user"]
    assert any(t.lower().startswith(("please forget", "can you delete", "forget about")) for t in texts)


# ---------------------------------------------------------------- LoCoMo


def test_locomo_parsing_helpers() -> None:
    assert parse_locomo_datetime("1:56 pm on 8 May, 2023") == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert parse_locomo_datetime("12:09 am on 13 September, 2023") == datetime(2023, 9, 13, 0, 9, tzinfo=UTC)
    assert split_evidence(["D8:6; D9:17", "D1:3", "D1:3"]) == ("D8:6", "D9:17", "D1:3")
    assert turn_text({"text": "Look!", "blip_caption": "a dog on a beach"}) == (
        "Look! [shares a photo: a dog on a beach]"
    )


def test_locomo_loader_on_real_files(locomo_dir: Path) -> None:
    data = load_locomo(locomo_dir)
    per_conv = {c: sum(1 for s in data.sessions if s.user_id == c) for c in ("conv-26", "conv-30", "conv-41")}
    assert per_conv == {"conv-26": 19, "conv-30": 19, "conv-41": 32}
    assert sum(len(s.events) for s in data.sessions) == 419 + 369 + 663
    first = next(s for s in data.sessions if s.session_id == "conv-26-session_1")
    assert first.started_at == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert first.events[0].id == "D1:1" and first.events[0].author == "Caroline" and first.events[0].role == "other"
    assert first.events[1].timestamp - first.events[0].timestamp == timedelta(minutes=1)
    assert all(s.app_name == "locomo" for s in data.sessions)
    assert all("[shares a photo:" in e.text for s in data.sessions for e in s.events if "photo:" in e.text)
    assert any("[shares a photo:" in e.text for s in data.sessions for e in s.events)
    ids = {e.id for s in data.sessions if s.user_id == "conv-26" for e in s.events}
    split = [q for q in data.questions if q.gold_event_ids[:2] == ("D8:6", "D9:17")]
    assert split and all(e in ids for e in split[0].gold_event_ids)
    assert len(data.scored_questions()) == 383
    assert sum(1 for q in data.questions if q.category == "adversarial" and not q.answerable) == 47 + 24 + 41


# ---------------------------------------------------------------- baselines and report


def _tiny() -> EvalDataset:
    t0 = datetime(2024, 3, 1, 10, 0, tzinfo=UTC)
    texts = [
        "Hi there",
        "Hello!",
        "My dog Rex loves the beach",
        "Nice",
        "I work as a pilot for a small airline",
        "Cool job",
        "What's the weather?",
        "Sunny",
        "I prefer green tea to coffee",
        "Noted",
        "Bye",
        "Bye!",
    ]
    events = tuple(
        Event(
            id=f"s1-e{i + 1}",
            author="user" if i % 2 == 0 else "agent",
            role="user" if i % 2 == 0 else "agent",
            text=t,
            timestamp=t0 + timedelta(minutes=i),
        )
        for i, t in enumerate(texts)
    )
    session = Session(
        app_name="app",
        user_id="u1",
        session_id="s1",
        started_at=t0,
        ended_at=events[-1].timestamp,
        events=events,
    )
    q = EvalQuestion(
        id="q1",
        app_name="app",
        user_id="u1",
        question="What is the user's job?",
        answer="pilot",
        category="job",
        gold_event_ids=("s1-e5",),
    )
    return EvalDataset(name="tiny", sessions=(session,), questions=(q,))


def test_baselines_on_a_tiny_dataset(embedder: Embedder) -> None:
    data = _tiny()
    q = data.questions[0]
    turn = DenseRAG("turn_rag", embedder, window=1)
    assert turn.index(data).items == 12
    hits = turn.retrieve(q, 3)
    assert hits[0].source_event_ids == ("s1-e5",) and hits[0].text.endswith(
        "user: I work as a pilot for a small airline"
    )
    assert hits[0].text.startswith("10:00 am on 1 March, 2024")
    assert hits[0].score >= hits[1].score >= hits[2].score
    chunk = DenseRAG("chunk_rag", embedder, window=5, stride=1)
    assert chunk.index(data).items == 8  # windows starting at turns 1..8
    top = chunk.retrieve(q, 2)
    assert all(len(h.source_event_ids) == 5 for h in top) and "s1-e5" in top[0].source_event_ids
    tiled = DenseRAG("chunk_rag", embedder, window=5)
    assert [u.source_event_ids[-1] for u in tiled.units(data.sessions[0])] == ["s1-e5", "s1-e10", "s1-e12"]
    full = FullContext()
    full.index(data)
    everything = full.retrieve(q, 1)
    assert [h.text for h in everything] == [turn_line(data.sessions[0], e) for e in data.sessions[0].events]


def test_report_writes_markdown_json_and_plots(tmp_path: Path) -> None:
    data = _tiny()
    q = data.questions[0]
    runs = [QuestionRun(q, [Retrieved("1 March 2024 - User works as a pilot", ("s1-e5",), 0.8)], 3.0)]
    from evaluation.results import EvaluationResult, IngestMetrics

    sysm = score_system("pipeline", runs, k=10, ks=(1, 5, 10, 20), index=IndexStats(), full_tokens=200.0)
    result = EvaluationResult(
        dataset="tiny",
        k=10,
        ks=[1, 5, 10, 20],
        questions=1,
        scored_questions=1,
        systems={"pipeline": sysm},
        ingest=IngestMetrics(sessions=1, memories=1),
    )
    written = write_report(result, tmp_path)
    assert {p.name for p in written} == {"report.md", "metrics.json", *PLOTS}
    assert all(p.stat().st_size > 0 for p in written)
    assert (tmp_path / "recall_at_k.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert json.loads((tmp_path / "metrics.json").read_text())["systems"]["pipeline"]["recall_at_k"] == 1.0
    assert "What the numbers mean" in (tmp_path / "report.md").read_text()
