"""Issue 16 recall-quality levers on small hand-built stores (real LanceDB on tmp_path, real MiniLM).

Names and phrasings here are made up for these tests; none comes from an evaluation dataset.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import numpy as np
import pytest

from tasks.providers.base import Embedder
from tasks.recall.abstain import NOTHING_KNOWN, calibrate, judge
from tasks.recall.agent_tools import handle_recall_memory, preload_memories
from tasks.recall.context import build_context
from tasks.recall.ranking import Signals, score
from tasks.recall.recaller import MIN_POOL, Recaller
from tasks.settings import RankingWeights, Settings
from tasks.store.indexes import ensure_indexes
from tasks.store.tables import MEMORIES, Store
from tasks.textrules import fmt_date
from tests.test_recall import APP, DISTRACTORS, NOW, USER, make_store, memory

UNRELATED = "Explain the renormalization group flow in lattice quantum chromodynamics"


@pytest.fixture
def store(settings: Settings, embedder: Embedder) -> Store:
    return make_store(settings, embedder)


@pytest.fixture
def pets(settings: Settings, embedder: Embedder, store: Store) -> Recaller:
    store.upsert(MEMORIES, [memory(embedder, c) for c in (*DISTRACTORS, "User loves African Grey parrots")])
    ensure_indexes(store, settings)
    return Recaller(settings, store=store, embedder=embedder)


def _signals(cosine: list[float], bm25: list[float]) -> Signals:
    n = len(cosine)
    return Signals(
        cosine=np.array(cosine),
        bm25=np.array(bm25),
        age_days=np.zeros(n),
        half_life_days=np.full(n, 365.0),
        importance=np.full(n, 0.5),
        uses=np.zeros(n),
        fused=np.zeros(n),
    )


def test_similarity_is_not_capped_so_strong_matches_keep_their_order() -> None:
    """Two strong matches must not tie at a cap (a tie let long episodes win on recency)."""
    total, parts = score(_signals([0.80, 0.75], [2.0, 30.0]), Settings())
    assert parts["similarity"][0] > 1.0 and parts["similarity"][1] > parts["similarity"][0]
    assert total[1] > total[0]


def test_rare_word_match_beats_name_heavy_chatter(settings: Settings, embedder: Embedder, store: Store) -> None:
    """Conversation turns all carry the speakers' names; the turn with the asked-for word must win."""
    chatter = [
        "Priya: It means a lot having Tomas in Priya's corner.",
        "Priya wishes Priya had known Tomas back then!",
        "Priya: Long time no talk, Tomas.",
        "Priya loves that, Tomas.",
        "Tomas: Priya, that is so cool!",
        "Priya: Been a busy week since Priya and Tomas talked.",
    ]
    target = '(Asked by Tomas: "Any plans for the autumn?") Priya: Researching telescope makers, stargazing is a dream'
    store.upsert(MEMORIES, [memory(embedder, c, topic="key_conversation_details") for c in (*chatter, target)])
    ensure_indexes(store, settings)
    query = "What did Priya research?"
    hits = Recaller(settings, store=store, embedder=embedder).recall(query, APP, USER, k=3, now=NOW)
    assert hits[0].content == target
    # The lever: with the former keyword weight (0.3, capped similarity) chatter outranked it.
    weak = settings.model_copy(update={"ranking": RankingWeights(keyword=0.3)})
    cos = {h.content: h.score_parts["cosine"] for h in Recaller(weak, store=store, embedder=embedder).recall(
        query, APP, USER, k=len(chatter) + 1, now=NOW)}  # fmt: skip
    assert max(cos[c] for c in chatter) > cos[target]  # the premise: embeddings prefer the chatter


def test_pool_factor_setting_sets_each_legs_depth(pets: Recaller, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each leg fetches k x recall_pool_factor candidates (at least MIN_POOL) for ranking to re-order."""
    seen: list[int] = []
    search = pets._search.search

    def spy(legs: Any, text: str, embed: Any, limit: int, use_ann: bool) -> Any:
        seen.append(limit)
        return search(legs, text, embed, limit, use_ann)

    monkeypatch.setattr(pets._search, "search", spy)
    pets.recall("bird", APP, USER, k=10, now=NOW)
    pets.settings = pets.settings.model_copy(update={"recall_pool_factor": 3})
    pets.recall("bird", APP, USER, k=10, now=NOW)
    pets.recall("bird", APP, USER, k=2, now=NOW)
    assert seen == [10 * Settings().recall_pool_factor, 30, MIN_POOL]


def test_calibrate_keeps_answerable_loss_within_bounds() -> None:
    answerable = [i / 20 for i in range(1, 21)]  # 0.05 .. 1.0
    threshold = calibrate(answerable, 0.10)
    assert sum(a < threshold for a in answerable) == 2  # 10% of 20
    assert calibrate(answerable, 0.0) == min(answerable)
    with pytest.raises(ValueError):
        calibrate([], 0.05)
    with pytest.raises(ValueError):
        calibrate(answerable, 1.0)


def test_default_threshold_holds_on_a_hand_built_store(pets: Recaller) -> None:
    related = pets.recall_result("What bird did I like?", APP, USER, now=NOW)
    unrelated = pets.recall_result(UNRELATED, APP, USER, now=NOW)
    assert related.confident and related.hits[0].content == "User loves African Grey parrots"
    assert not unrelated.confident and unrelated.hits  # the hits are still there, only judged
    assert unrelated.top_cosine < pets.settings.recall_abstain_min_cosine <= related.top_cosine
    assert not judge([], 0.0).confident


def test_context_says_nothing_is_known_instead_of_padding(settings: Settings, pets: Recaller) -> None:
    padded = build_context(UNRELATED, APP, USER, 200, settings=settings, recaller=pets, now=NOW)
    assert padded.startswith("Known facts:")  # the default is unchanged: nearest memories
    assert (
        build_context(UNRELATED, APP, USER, 200, settings=settings, recaller=pets, abstain=True, now=NOW)
        == NOTHING_KNOWN
    )
    kept = build_context(
        "What bird did I like?", APP, USER, 200, settings=settings, recaller=pets, abstain=True, now=NOW
    )
    assert "African Grey parrots" in kept


def test_agent_tools_abstain(settings: Settings, pets: Recaller) -> None:
    body = json.loads(handle_recall_memory({"query": UNRELATED}, APP, USER, settings=settings, recaller=pets, now=NOW))
    assert set(body) == {"memories"}  # unchanged without abstain
    body = json.loads(
        handle_recall_memory({"query": UNRELATED}, APP, USER, settings=settings, recaller=pets, abstain=True, now=NOW)
    )
    assert body["confident"] is False and body["note"] == NOTHING_KNOWN
    body = json.loads(
        handle_recall_memory({"query": "my bird"}, APP, USER, settings=settings, recaller=pets, abstain=True, now=NOW)
    )
    assert body["confident"] is True and "note" not in body
    assert preload_memories(UNRELATED, APP, USER, settings=settings, recaller=pets, abstain=True, now=NOW) == ""
    assert "parrots" in preload_memories("my bird", APP, USER, settings=settings, recaller=pets, abstain=True, now=NOW)


def test_context_lines_carry_the_event_date(settings: Settings, embedder: Embedder, store: Store) -> None:
    """Temporal questions need when a thing was said, not when it was stored."""
    said = datetime(2023, 5, 7, 14, 0, tzinfo=UTC)
    row = memory(embedder, "User adopted a greyhound called Biscuit").model_copy(
        update={"stated_at": said, "valid_from": said}
    )
    store.upsert(MEMORIES, [row])
    ensure_indexes(store, settings)
    block = build_context("When did I adopt my dog?", APP, USER, 200, settings=settings,
                          recaller=Recaller(settings, store=store, embedder=embedder), now=NOW)  # fmt: skip
    assert f"{fmt_date(said)} - User adopted a greyhound called Biscuit" in block
    assert fmt_date(said) == "7 May 2023"
