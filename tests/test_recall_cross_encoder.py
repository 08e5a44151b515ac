"""The opt-in cross-encoder reranker: the real shipped model, through a Recaller on a real LanceDB store."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from evaluation.pipeline_system import _MemoScorer
from evaluation.runner import run_evaluation
from evaluation.synthetic import SyntheticConfig
from flows import cli_recall
from tasks.errors import ProviderConfigError
from tasks.providers.base import Embedder
from tasks.recall.cross_encoder import CrossEncoder, CrossEncoderReranker, build_reranker, model_dir
from tasks.recall.recaller import Recaller
from tasks.settings import Settings
from tasks.store.tables import MEMORIES, open_store
from tests.test_recall import APP, NOW, USER, memory
from tests.test_recall_packing import _episode, _memory

#: (question, the memory that answers it, memories the embedder puts closer to the question).
CASES = [
    (
        "What instrument does Sam play?",
        "Sam has played the cello in an orchestra for ten years",
        ["Sam loves listening to instrumental music while working", "Sam thinks instruments are expensive"],
    ),
    (
        "Where did the user grow up?",
        "User spent their childhood in a small fishing village in Norway",
        ["User wants to grow tomatoes in the garden", "User grew tired of city life"],
    ),
]


@pytest.fixture(scope="module")
def encoder() -> CrossEncoder:
    return CrossEncoder(model_dir())


def test_shipped_model_scores_the_answer_above_near_misses(encoder: CrossEncoder) -> None:
    for question, answer, near in CASES:
        logits = encoder.scores(question, [*near, answer])
        assert logits.shape == (len(near) + 1,)
        assert logits[-1] == max(logits), question
    assert encoder.scores("anything", []).shape == (0,)


def test_recaller_reranks_by_the_cross_encoder(tmp_path: Path, embedder: Embedder) -> None:
    base = Settings(store_uri=str(tmp_path / "store"))
    store = open_store(base)
    rows = [memory(embedder, text, key=text) for _, answer, near in CASES for text in (answer, *near)]
    store.upsert(MEMORIES, rows)
    plain = Recaller(base, store=store, embedder=embedder)
    reranked = Recaller(base.model_copy(update={"recall_reranker": "cross-encoder"}), store=store, embedder=embedder)
    assert isinstance(reranked.reranker, CrossEncoderReranker)
    for question, answer, _ in CASES:
        before = plain.recall(question, APP, USER, k=3, now=NOW)
        after = reranked.recall(question, APP, USER, k=3, now=NOW)
        assert before[0].content != answer  # the embedder alone ranks a near miss first ...
        assert after[0].content == answer  # ... the cross-encoder the memory that answers
        assert "rerank" in after[0].score_parts and "rerank" not in before[0].score_parts
        assert {h.id for h in after} <= {h.id for h in plain.recall(question, APP, USER, k=30, now=NOW)}


def test_depth_bounds_what_is_reordered(encoder: CrossEncoder, tmp_path: Path, embedder: Embedder) -> None:
    question, answer, near = CASES[0]
    settings = Settings(store_uri=str(tmp_path / "store"))
    store = open_store(settings)
    store.upsert(MEMORIES, [memory(embedder, t, key=t) for t in (answer, *near)])
    hits = Recaller(settings, store=store, embedder=embedder).recall(question, APP, USER, k=3, now=NOW)
    assert CrossEncoderReranker(encoder, depth=1)(question, hits) == hits  # one candidate: nothing to reorder
    top2 = CrossEncoderReranker(encoder, depth=2)(question, hits)
    assert top2[2:] == hits[2:] and {h.id for h in top2[:2]} == {h.id for h in hits[:2]}


def test_missing_model_is_a_clear_error(tmp_path: Path) -> None:
    assert build_reranker(Settings(store_uri=str(tmp_path))) is None
    broken = Settings(store_uri=str(tmp_path), recall_reranker="cross-encoder", recall_reranker_path=str(tmp_path))
    with pytest.raises(ProviderConfigError, match="no cross-encoder model"):
        build_reranker(broken)


#: One user's few sessions and one question per category (``limit``, stratified and seeded): the test is
#: about sharing one ingest between two recall modes, not the figures.
TINY = SyntheticConfig(users=1, sessions_per_user=4, seed=11)
TINY_LIMIT = 6


@pytest.mark.slow
def test_evaluation_compares_both_recall_modes_on_one_ingest(tmp_path: Path, embedder: Embedder) -> None:
    settings = Settings(store_uri=str(tmp_path / "unused"))
    store_uri = str(tmp_path / "store")
    result = run_evaluation(
        "synthetic", settings=settings, synthetic=TINY, limit=TINY_LIMIT, systems=["pipeline", "pipeline_reranked"],
        k=10, store_uri=store_uri, writepath=False,
    )  # fmt: skip
    assert result.questions == TINY_LIMIT
    plain, reranked = result.systems["pipeline"], result.systems["pipeline_reranked"]
    assert reranked.items_indexed == plain.items_indexed > 0  # the reranked mode read the same ingest
    assert len(reranked.budget_curve) == len(plain.budget_curve) and reranked.recall_at_k > 0
    store = open_store(settings.model_copy(update={"store_uri": store_uri}))
    ids = [r["row_id"] for r in store.rows(MEMORIES, columns=["row_id"])]
    assert len(ids) == len(set(ids)) == plain.items_indexed  # written once, not twice


def test_abstention_is_judged_on_the_embedders_ranking(tmp_path: Path, embedder: Embedder) -> None:
    base = Settings(store_uri=str(tmp_path / "store"))
    store = open_store(base)
    store.upsert(MEMORIES, [memory(embedder, t, key=t) for _, answer, near in CASES for t in (answer, *near)])
    plain = Recaller(base, store=store, embedder=embedder)
    reranked = Recaller(base.model_copy(update={"recall_reranker": "cross-encoder"}), store=store, embedder=embedder)
    shown_differently = 0
    for query in [q for q, _, _ in CASES] + ["What is the capital of Peru?", "Which vaccine did the cat get?"]:
        a, b = (
            plain.recall_result(query, APP, USER, k=3, now=NOW),
            reranked.recall_result(query, APP, USER, k=3, now=NOW),
        )
        assert (a.confident, a.top_cosine, a.misattributed) == (b.confident, b.top_cosine, b.misattributed)
        assert [h.id for h in b.hits] == [h.id for h in reranked.recall(query, APP, USER, k=3, now=NOW)]
        shown_differently += [h.id for h in a.hits] != [h.id for h in b.hits]
    assert shown_differently >= len(CASES)  # the reranker changed what is shown, not the verdicts


def test_evaluation_memo_scores_each_pair_once_and_charges_its_time(encoder: CrossEncoder) -> None:
    calls: list[int] = []

    class Counting:
        def scores(self, query: str, passages: Sequence[str]) -> npt.NDArray[np.float64]:
            calls.append(len(passages))
            return encoder.scores(query, passages)

    memo = _MemoScorer(Counting())
    question, answer, near = CASES[0]
    first = memo.scores(question, [answer, *near])
    assert memo.take_charged_ms() == 0.0  # all computed: the measured time is the real one
    again = memo.scores(question, [near[0], answer, "Sam sings in a choir"])
    assert calls == [3, 1]  # only the new passage went to the model
    assert list(again[:2]) == [first[1], first[0]]
    assert memo.take_charged_ms() > 0.0 and memo.take_charged_ms() == 0.0  # remembered ones cost their time


def test_cli_recall_rerank_flag(tmp_path: Path, embedder: Embedder, capsys: pytest.CaptureFixture[str]) -> None:
    question, answer, near = CASES[1]
    settings = Settings(store_uri=str(tmp_path / "store"))
    open_store(settings).upsert(MEMORIES, [memory(embedder, t, key=t) for t in (answer, *near)])
    parser = argparse.ArgumentParser()
    cli_recall.register(parser.add_subparsers())
    base = ["recall", "--app", APP, "--user", USER, "--json", "--k", "1", "--store", settings.store_uri]
    for flags, expected in (([], near), (["--rerank"], [answer])):
        args = parser.parse_args([*base, *flags, question])
        assert args.handler(args) == 0
        assert json.loads(capsys.readouterr().out)[0]["content"] in expected


def test_length_batching_keeps_each_pairs_score(encoder: CrossEncoder) -> None:
    """Pairs are batched by length in an order of their own; each score still lands on its own passage."""
    question, answer, near = CASES[0]
    long = "Sam practised scales on the cello every morning before work. " * 12
    passages = [long, *near, answer, long.upper(), "cello"] * 3  # more than one batch, mixed widths
    scores = encoder.scores(question, passages)
    shuffled = [5, 17, 0, 9, 3, 12, 1, 16, 4, 8, 2, 13, 7, 11, 6, 14, 10, 15]
    again = encoder.scores(question, [passages[i] for i in shuffled])
    np.testing.assert_allclose(again, scores[shuffled], atol=1e-4)  # same batches, whatever the input order
    assert np.array_equal(scores[:6], scores[6:12]) and np.array_equal(scores[:6], scores[12:])  # a repeat, once
    for start in (0, 6, 12):
        assert int(np.argmax(scores[start : start + 4])) == 3  # the answer above its near misses


def test_episode_is_read_sentence_by_sentence_and_shows_its_best(encoder: CrossEncoder) -> None:
    """A long summary whose one sentence answers beats a near miss, and is shown cut to its best sentences."""
    filler = [(f"They chatted about the weather and weekend plans, part {i}.", [f"f{i}"]) for i in range(6)]
    answer = ("Sam said the cello has been his instrument in an orchestra for ten years.", ["t9"])
    ep = _episode([*filler[:3], answer, *filler[3:]])
    near = _memory(CASES[0][2][0], ["n1"])
    whole = CrossEncoderReranker(encoder, depth=10)(CASES[0][0], [near, ep])
    assert next(h for h in whole if h.id == "ep").content == ep.content  # 0 sentences: read and shown whole
    top = CrossEncoderReranker(encoder, depth=10, episode_sentences=2)(CASES[0][0], [near, ep])[0]
    assert top.id == "ep" and len(top.sentences) == 2 and answer[0] in top.content
    assert "t9" in top.source_event_ids and len(top.source_event_ids) == 2  # cites only what it shows
    kept = [s.text for s in top.sentences]
    assert kept == [t for t, _ in [*filler[:3], answer, *filler[3:]] if t in kept]  # in their own order
    # It scores as its best sentence (batch-mates sway int8 logits a little, see the batching test).
    assert top.score_parts["rerank"] == pytest.approx(encoder.scores(CASES[0][0], [answer[0]])[0], abs=0.5)
