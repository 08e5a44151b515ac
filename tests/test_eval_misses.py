"""Miss analysis: each missed evidence turn lands in the band that names why it was missed."""

from __future__ import annotations

from evaluation.dataset import EvalQuestion
from evaluation.misses import EPISODE_ONLY, FOUND, NOT_STORED, band, miss_bands
from tasks.providers.base import Embedder
from tasks.recall.recaller import Recaller
from tasks.settings import Settings
from tasks.store.indexes import ensure_indexes
from tasks.store.tables import EPISODES, MEMORIES
from tests.test_recall import APP, USER, episode, make_store, memory


def test_bands_by_rank() -> None:
    assert band(3, 10, 100).startswith("rank <= 10")
    assert band(10, 10, 100) == "rank 11-30"
    assert band(30, 10, 100) == "rank 31-100"
    assert band(None, 10, 100) == "beyond 100"


def test_missed_turns_are_told_apart(settings: Settings, embedder: Embedder) -> None:
    store = make_store(settings, embedder)
    shown = memory(embedder, "User adopted a grey cat called Pixel").model_copy(update={"source_event_ids": ["t1"]})
    other = memory(embedder, "User repaired a bicycle chain").model_copy(update={"source_event_ids": ["t4"]})
    store.upsert(MEMORIES, [shown, other])
    ep = episode(embedder, "User talked about pets and a vet visit")
    ep["sentences"] = [{"text": "User took Pixel to the vet", "source_event_ids": ["t2"]}]
    ep["source_event_ids"] = ["t2"]
    store.upsert(EPISODES, [ep])
    ensure_indexes(store, settings)
    question = EvalQuestion(id="q", app_name=APP, user_id=USER, question="What is the user's cat called?",
                            answer="Pixel", category="pets", gold_event_ids=("t1", "t2", "t3", "t4"))  # fmt: skip
    other_user = question.model_copy(update={"id": "q2", "user_id": "bob", "category": "elsewhere"})
    with Recaller(settings, store=store, embedder=embedder) as recaller:
        counts = miss_bands(recaller, [question, other_user], k=1, deep=5)
    pets = counts["pets"]
    assert pets["gold"] == 4 and pets[FOUND] == 1  # t1 in the top 1
    assert pets[NOT_STORED] == 1  # t3: nothing cites it
    assert pets["rank 2-3"] + pets["rank 4-5"] == 1  # t4: stored, ranked below k
    # t2 is cited by an episode only; a turn id of one user never counts as stored for another
    assert pets[EPISODE_ONLY] == 1
    assert counts["elsewhere"][NOT_STORED] == 4
