"""List questions over a kind of thing: WordNet's members are searched for and shown (tasks.recall.kinds)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tasks.models import RecallHit
from tasks.providers.base import Embedder
from tasks.recall import kinds
from tasks.recall.kinds import kind_of, listed, promoted
from tasks.recall.recaller import Recaller
from tasks.recall.search import Leg
from tasks.settings import Settings
from tasks.store.filters import scope
from tasks.store.indexes import ensure_indexes
from tasks.store.tables import MEMORIES
from tests.test_recall import APP, NOW, USER, make_store, memory
from tests.test_recall_packing import _memory


def _kind(question: str) -> kinds.Kind:
    kind = kind_of(question)
    assert kind is not None, question
    return kind


def test_list_questions_name_a_specific_concrete_kind() -> None:
    assert _kind("Which cities has Jon visited?").word == "city"
    assert _kind("What martial arts has John done?").word == "martial_art"  # a two-word kind
    assert _kind("what kinds of desserts did she bake?").word == "dessert"
    assert _kind("What musical artists/bands has Mel seen?").word == "artist"
    for question in (
        "What kind of music do I like?",  # not a plural: not a list question
        "What activities does Mel do?",  # thousands of kinds of activity: no kind at all
        "What plans does Jon have?",  # abstract: plans are not things a memory names
        "What emotions did John feel?",
        "Where did Jon go in Rome?",
        "",
    ):
        assert kind_of(question) is None, question


def test_members_are_named_words_and_capitalised_names_away_from_a_sentence_start() -> None:
    cities = _kind("Which cities has Jon visited?")
    text = "Took a short trip to Rome. Nice reminder! I was reading in Paris and then New York."
    assert cities.members_in(text) == {"rome", "paris", "new_york"}  # not "Nice", not "reading"
    assert cities.members_in("rome wasn't built in a day") == set()  # a name in lower case is a word
    assert _kind("What martial arts has John done?").members_in("John is off to do some taekwondo!") == {"taekwondo"}
    assert _kind("Which countries has Rosa travelled to?").members_in("We spent two weeks in Portugal.") == {
        "portugal"
    }  # a country's territory (its second sense) counts too
    assert "rome" in cities.search_text.split() and "new_york" not in cities.search_text


def _hits(texts: list[str], speaker: str = "Jon") -> list[RecallHit]:
    return [_memory(t, [f"t{i}"], speaker=speaker, hit_id=f"h{i}") for i, t in enumerate(texts)]


def test_each_members_best_memory_takes_a_last_place_in_the_top_k() -> None:
    cities = _kind("Which cities has Jon visited?")
    said = ["a", "Jon loved Paris", "b", "c", "d", "e", "Jon flew to Rome", "f", "Rome again", "g", "Jon saw Oslo"]
    ranked = _hits(said)
    out = promoted(ranked, 4, cities, {"Jon"})
    assert [h.id for h in out[:4]] == ["h0", "h1", "h6", "h10"]  # Paris keeps its place; Rome's best, Oslo move up
    assert sorted(h.id for h in out) == sorted(h.id for h in ranked)  # nothing lost, nothing doubled
    assert [h.id for h in out if "kind_member" in h.score_parts] == ["h6", "h10"]  # why they are shown
    assert [h.id for h in promoted(ranked, 6, cities, {"Jon"})[:6]] == ["h0", "h1", "h2", "h3", "h6", "h10"]
    # At most k // 2 lifted, in rank order; a member already inside keeps its place.
    many = _hits(["a", "b", "c", "d", "to Lyon", "to Oslo", "to Kyoto", "to Lima"])
    assert [h.id for h in promoted(many, 4, cities, set())[:4]] == ["h0", "h1", "h4", "h5"]


def test_only_the_named_persons_memories_count() -> None:
    cities = _kind("Which cities has Jon visited?")
    ranked = [*_hits(["a", "b", "c"]), *_hits(["Gina moved to Rome"], speaker="Gina")]
    assert promoted(ranked, 2, cities, {"Jon"}) == ranked
    assert [h.id for h in listed(ranked, 2, cities, "Which cities has Jon visited?")] == [h.id for h in ranked]
    assert listed(ranked, 2, None, "anything") == ranked


def test_without_the_wordnet_wheel_there_is_no_kind(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    kinds._lexicon.cache_clear()
    kinds._kind.cache_clear()
    try:
        assert kind_of("Which cities has Jon visited?") is None
    finally:
        kinds._lexicon.cache_clear()
        kinds._kind.cache_clear()


_FILLERS = (
    "I love exploring new places, every trip teaches me something",
    "Packing is the worst part of any trip",
    "Lena visited her parents last weekend",
    "Lena wants to travel more before she turns forty",
    "Lena has visited the new museum twice this year",
    "Lena thinks the city is too crowded in summer",
    "Lena loves travelling with her sister",
    "Lena saw the best sunset of her life on the trip",
)


@pytest.fixture()
def lena(settings: Settings, embedder: Embedder) -> Settings:
    store = make_store(settings, embedder)
    said = [("Lena", t) for t in _FILLERS] + [
        ("Lena", "Lena just got back from a long weekend in Porto, the tiles everywhere were gorgeous"),
        ("Omar", "Omar visited Vienna for a conference and loved the city"),
    ]
    store.upsert(MEMORIES, [memory(embedder, text).model_copy(update={"speaker": who}) for who, text in said])
    ensure_indexes(store, settings)
    return settings.model_copy(update={"recall_reranker": "none"})


def test_recaller_shows_the_member_the_question_shares_no_word_with(lena: Settings, embedder: Embedder) -> None:
    question = "Which cities has Lena visited?"
    with Recaller(lena.model_copy(update={"recall_kinds": False}), embedder=embedder) as recaller:
        before = [h.content for h in recaller.recall(question, APP, USER, k=4, now=NOW)]
    with Recaller(lena, embedder=embedder) as recaller:
        after = [h.content for h in recaller.recall(question, APP, USER, k=4, now=NOW)]
    assert not any("Porto" in c for c in before)
    assert any("Porto" in c for c in after) and len(after) == 4
    assert not any("Vienna" in c for c in after)  # Omar's city is not Lena's


@pytest.mark.parametrize("use_ann", [False, True])
def test_second_search_reuses_the_vector_leg_and_finds_what_a_whole_search_finds(
    lena: Settings, embedder: Embedder, use_ann: bool
) -> None:
    """The members' search runs only the text legs again; its candidates are a whole search's."""
    with Recaller(lena, embedder=embedder, use_ann=use_ann) as recaller:
        plans = recaller._plans(scope(APP, USER), None, None, None, None, True)
        legs = [Leg(p.table, p.where, p.text_col, p.columns) for p in plans]
        vector = embedder.embed(["Which cities has Lena visited?"])[0]
        first = recaller._search.search(legs, "cities Lena visited", lambda: vector, 20, use_ann)
        words = recaller._search.search_words(first, "Porto Vienna Rome", 20)
        whole = recaller._search.search(legs, "Porto Vienna Rome", lambda: vector, 20, use_ann).tables
    assert [t is None for t in words] == [t is None for t in whole]
    found = [(a, b) for a, b in zip(words, whole, strict=True) if a is not None and b is not None]
    assert found and all(a.equals(b) for a, b in found)
    assert any("Porto" in c for a, _ in found for c in a.column("content").to_pylist() if c)


def test_setting_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MEMORY_PIPELINE_RECALL_KINDS", "false")
    assert Settings(store_uri=str(tmp_path)).recall_kinds is False


def test_kinds_probe_cases_name_their_members() -> None:
    from evaluation.kinds_probe import conversations, named

    DEV, HELD, HELD_2 = conversations().values()

    people = [{p for c in split for p in c.people} for split in (DEV, HELD, HELD_2)]
    assert sum(len(p) for p in people) == len(set().union(*people))  # no person in two splits
    for conv in DEV + HELD + HELD_2:
        said = " ".join(text for _, turns in conv.sessions for _, text in turns)
        assert all(named(m, said) for _, members in conv.questions for m in members)
