"""The turn-level baselines (LanceDB hybrid, BM25 + MiniLM with neighbours) and the matched-budget curve."""

from __future__ import annotations

import itertools
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from evaluation.baselines import Retrieved, format_session_time
from evaluation.bm25 import BM25, stem, terms
from evaluation.dataset import EvalDataset, EvalQuestion
from evaluation.embed_cache import CachedEmbedder
from evaluation.matched import budget_curve, compare_budgets
from evaluation.report import PLOTS
from evaluation.results import BUDGET_RIVALS, BUDGETS
from evaluation.runner import run_evaluation
from evaluation.scoring import QuestionRun, score_system
from evaluation.subset import stratified_subset
from evaluation.synthetic import SyntheticConfig, generate
from evaluation.turn_baselines import HybridNeighbours, LanceHybridTurns, rrf
from tasks.models import Event, Session
from tasks.providers.base import Embedder
from tasks.settings import Settings
from tasks.tokens import count_tokens

SMALL = SyntheticConfig(users=2, sessions_per_user=5, seed=11)


@pytest.fixture(scope="module")
def data() -> EvalDataset:
    return generate(SMALL)


@pytest.fixture(scope="module")
def cached(embedder: Embedder, tmp_path_factory: pytest.TempPathFactory) -> CachedEmbedder:
    """The embedder as the runner gives it to every system (content-hash cache): the module's tests index
    the same dated turn lines, embedded once here instead of once per system and test."""
    return CachedEmbedder(embedder, tmp_path_factory.mktemp("embeddings") / "embeddings.sqlite")


def _session_of(data: EvalDataset) -> dict[str, str]:
    return {e.id: s.session_id for s in data.sessions for e in s.events}


def _echo(data: EvalDataset, skip: int = 0) -> tuple[EvalQuestion, Session, int]:
    """A question repeating a turn said once in the dataset, word for word: both legs must put it first."""
    counts = Counter(e.text for s in data.sessions for e in s.events)
    found = [
        (s, i)
        for s in data.sessions
        for i, e in enumerate(s.events)
        if counts[e.text] == 1 and len(e.text.split()) >= 5
    ]
    session, index = found[skip]
    question = EvalQuestion(
        id="echo", app_name=session.app_name, user_id=session.user_id, question=session.events[index].text,
        answer="", category="x",
    )  # fmt: skip
    return question, session, index


def _two_sessions() -> EvalDataset:
    """One user, two sessions a day apart: a hit on the second session's first turn must not pull the
    first session's last turn in."""
    start = datetime(2024, 5, 1, 9, tzinfo=UTC)
    texts = (
        ("We adopted a grey kitten named Pebble.", "What a lovely name.", "She sleeps on the radiator all day."),
        ("My sister moved to Lisbon for a teaching job.", "That sounds exciting!"),
    )
    sessions = tuple(
        Session(
            app_name="a", user_id="u", session_id=f"s{n}", started_at=start + timedelta(days=n),
            ended_at=start + timedelta(days=n, minutes=5),
            events=tuple(
                Event(id=f"s{n}-e{i}", author="user" if i % 2 == 0 else "agent", role="user" if i % 2 == 0 else "agent",
                      text=t, timestamp=start + timedelta(days=n, minutes=i))
                for i, t in enumerate(turns)
            ),
        )
        for n, turns in enumerate(texts)
    )  # fmt: skip
    return EvalDataset(name="two", sessions=sessions, questions=())


# ---------------------------------------------------------------- BM25 and fusion


def test_stemmer_makes_inflections_meet() -> None:
    for family in (("hiking", "hikes", "hiked", "hike"), ("parties", "party"), ("painted", "painting", "paints")):
        assert len({stem(w) for w in family}) == 1, family
    assert stem("class") == "class" and stem("2023") == "2023"
    assert terms("The dogs were running!") == ["dog", "run"]  # stop words dropped


def test_bm25_prefers_the_document_with_the_rare_term() -> None:
    index = BM25(["I went hiking in the mountains", "we talked about dinner", "dinner was late, dinner again"])
    scores = index.scores("Where did she hike?")
    assert scores[0] > 0 and scores[1] == 0 and scores[2] == 0
    assert index.scores("dinner")[2] > index.scores("dinner")[1] > 0  # term frequency counts
    assert index.scores("unrelated words") == [0.0, 0.0, 0.0]


def test_rrf_sums_reciprocal_ranks() -> None:
    # 3: 1/61 + 1/62; 1: 1/61; 2: 1/62 + 1/63 -> 3 first, then 2 (0.03200) before 1 (0.01639)
    assert rrf([[3, 2], [1, 3, 2]]) == [3, 2, 1]
    assert rrf([]) == []


# ---------------------------------------------------------------- the two systems


def test_lance_hybrid_turns_ranks_dated_turns(
    data: EvalDataset, embedder: Embedder, cached: CachedEmbedder, tmp_path: Path
) -> None:
    system = LanceHybridTurns(cached, tmp_path / "turns")
    stats = system.index(data)
    assert stats.items == sum(len(s.events) for s in data.sessions)
    question, session, index = _echo(data)
    items = system.retrieve(question, 5)
    assert 0 < len(items) <= 5
    assert items[0].source_event_ids == (session.events[index].id,)
    assert items[0].text.startswith(format_session_time(session.started_at))  # the session date leads the line
    query, line = embedder.embed([question.question, items[0].text])
    assert items[0].score == pytest.approx(float(query @ line), abs=1e-4)  # cosine, as the other systems report
    scope_ids = {e.id for s in data.sessions if s.user_id == question.user_id for e in s.events}
    for item in items:
        assert len(item.source_event_ids) == 1 and set(item.source_event_ids) <= scope_ids
        assert count_tokens(item.text) > 0
    assert len({i.source_event_ids for i in items}) == len(items)


def test_hybrid_neighbours_adds_same_session_neighbours(data: EvalDataset, cached: CachedEmbedder) -> None:
    system = HybridNeighbours(cached)
    system.index(data)
    session_of = _session_of(data)
    order = {e.id: i for s in data.sessions for i, e in enumerate(s.events)}
    question, session, index = _echo(data, skip=1)
    items = system.retrieve(question, 8)
    assert 0 < len(items) <= 8
    around = [e.id for e in session.events[max(index - 1, 0) : index + 2]]
    assert list(items[0].source_event_ids) == around  # the hit with the turn before and after it
    seen: set[str] = set()
    for item in items:
        ids = item.source_event_ids
        assert len({session_of[i] for i in ids}) == 1, ids
        positions = [order[i] for i in ids]
        assert positions == list(range(positions[0], positions[0] + len(ids)))  # consecutive, in order
        assert len(ids) <= 3 and not seen.intersection(ids)  # never a turn twice in one context
        seen.update(ids)
        assert item.text.count("\n") == len(ids) - 1 and count_tokens(item.text) > 0


def test_neighbours_stop_at_the_session_boundary(embedder: Embedder) -> None:
    data = _two_sessions()
    system = HybridNeighbours(embedder)
    system.index(data)

    def ask(text: str) -> list[Retrieved]:
        return system.retrieve(
            EvalQuestion(id="q", app_name="a", user_id="u", question=text, answer="", category="c"), 2
        )

    assert ask("My sister moved to Lisbon for a teaching job.")[0].source_event_ids == ("s1-e0", "s1-e1")
    assert ask("What a lovely name.")[0].source_event_ids == ("s0-e0", "s0-e1", "s0-e2")
    assert ask("She sleeps on the radiator all day.")[0].source_event_ids == ("s0-e1", "s0-e2")


def test_both_baselines_score_with_token_counts(data: EvalDataset, cached: CachedEmbedder, tmp_path: Path) -> None:
    for system in (LanceHybridTurns(cached, tmp_path / "t"), HybridNeighbours(cached)):
        stats = system.index(data)
        runs = [QuestionRun(q, system.retrieve(q, 10), 0.0) for q in data.questions]
        s = score_system(system.name, runs, k=10, ks=(5, 10), index=stats, full_tokens=10_000.0)
        assert 0 < s.per_k["5"].mean_context_tokens <= s.per_k["10"].mean_context_tokens
        assert s.recall_at_k > 0 and s.mean_items_returned > 0


# ---------------------------------------------------------------- the matched-budget curve


def _question(qid: str, gold: tuple[str, ...], answer: str) -> EvalQuestion:
    return EvalQuestion(
        id=qid, app_name="a", user_id="u", question="q", answer=answer, category="c", gold_event_ids=gold
    )


def test_budget_curve_takes_items_while_they_fit() -> None:
    long_text = "filler " * 40
    items = [Retrieved("blue parrot", ("e1",), 0.9), Retrieved(long_text, ("e2",), 0.8), Retrieved("red", ("e3",), 0.7)]
    run = QuestionRun(_question("q1", ("e1", "e3"), "red parrot"), items, 0.0)
    first, second = count_tokens("blue parrot"), count_tokens(long_text) + 1
    budgets = [first, first + second - 1, first + second + count_tokens("red") + 1]
    curve = budget_curve({3: [run]}, budgets)
    assert [p.mean_items for p in curve] == [1, 1, 3]  # the long item blocks the short one after it
    assert [p.recall for p in curve] == [0.5, 0.5, 1.0]
    assert [p.answer_recall for p in curve] == [0.5, 0.5, 1.0]
    assert curve[0].mean_context_tokens == first and all(p.k == 3 for p in curve)
    assert budget_curve({3: [run]}, [1])[0].mean_items == 0  # nothing fits


def test_curve_is_monotone_and_within_budget(data: EvalDataset, cached: CachedEmbedder, tmp_path: Path) -> None:
    budgets = list(range(50, 1501, 50))
    for system in (LanceHybridTurns(cached, tmp_path / "t"), HybridNeighbours(cached)):
        system.index(data)
        runs_by_k = {kk: [QuestionRun(q, system.retrieve(q, kk), 0.0) for q in data.questions] for kk in (5, 10, 30)}
        curve = budget_curve(runs_by_k, budgets)
        assert [p.budget for p in curve] == budgets
        for lo, hi in itertools.pairwise(curve):
            assert hi.recall >= lo.recall and hi.answer_recall >= lo.answer_recall
        assert all(p.mean_context_tokens <= p.budget for p in curve)
        assert curve[-1].recall > curve[0].recall


#: The run's shape needs every category and both rivals, not many questions: one user's two sessions and
#: one question per category (``limit``, stratified and seeded).
RUN = SyntheticConfig(users=1, sessions_per_user=2)
RUN_LIMIT = 6


@pytest.mark.slow
def test_evaluation_run_carries_curves_verdicts_and_categories(
    tmp_path: Path, settings: Settings, embedder: Embedder
) -> None:
    systems = ["pipeline", *BUDGET_RIVALS]
    result = run_evaluation(
        "synthetic",
        settings=settings,
        synthetic=RUN,
        limit=RUN_LIMIT,
        systems=systems,
        out_dir=tmp_path / "report",
        k=10,
        writepath=False,
    )
    assert result.budgets == list(BUDGETS)
    assert [v.budget for v in result.budget_comparison] == list(BUDGETS)
    for v in result.budget_comparison:
        assert set(v.rivals_recall) == set(BUDGET_RIVALS)
        assert v.recall_above == all(v.pipeline_recall > r for r in v.rivals_recall.values())
    for name in systems:
        s = result.systems[name]
        assert {"5", "10", "20"} <= set(s.per_category_k) and s.per_category_k["10"] == s.per_category
        assert len(s.budget_curve) == len(BUDGETS)
    report = (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    assert "Recall at matched context budgets" in report and "### k = 20" in report
    assert all((tmp_path / "report" / p).is_file() for p in PLOTS)
    assert compare_budgets({"pipeline": result.systems["pipeline"]}) == []  # no rivals, no verdict
    # a system whose ranking depends on k is scored at 5 from being asked for 5, not from a cut deeper answer
    data = stratified_subset(generate(RUN), RUN_LIMIT)
    assert len(data.questions) == result.questions == RUN_LIMIT
    # The run's own vectors (its on-disk cache), so the comparison is of the asking, not of a re-embedding.
    fresh = HybridNeighbours(CachedEmbedder(embedder, tmp_path / "report" / "cache" / "embeddings.sqlite"))
    stats = fresh.index(data)
    at5 = score_system(
        fresh.name, [QuestionRun(q, fresh.retrieve(q, 5), 0.0) for q in data.questions],
        k=5, ks=(5,), index=stats, full_tokens=1.0,
    )  # fmt: skip
    assert result.systems["hybrid_neighbours"].per_k["5"] == at5.per_k["5"]
