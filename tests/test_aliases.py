"""A person asked about by another name than the memory says ("Nora" for "my sister"): the rule,
the merge of the two searches, recall end to end, and the write-path fault the family showed.

Real LanceDB on tmp_path and the real MiniLM; the people and phrasings are made up here. The figures
on held-out cases are in ``evaluation.aliases`` (measured, never tuned on).
"""

from __future__ import annotations

import pyarrow as pa
import pytest

from evaluation.aliases import _sessions, measure
from tasks.ingest.run import ingest_sessions
from tasks.providers.base import Embedder
from tasks.providers.people import memory_ties
from tasks.recall.aliases import merged, other_names, with_names
from tasks.recall.legs import BM25, COSINE
from tasks.recall.recaller import Recaller
from tasks.settings import Settings
from tasks.store.filters import scope
from tasks.store.indexes import ensure_indexes
from tasks.store.tables import MEMORIES, open_store
from tests.test_recall import APP, NOW, USER, make_store, memory

TIES = ("User's sister Nora is coming for dinner on Friday.", "User's friend Carla loves Thai food.")


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("What instrument is Nora learning?", (("Nora", "my sister"),)),
        ("What pet did my sister adopt?", (("my sister", "Nora"),)),
        ("What did Nora's kids and my friend say?", (("Nora", "my sister"), ("my friend", "Carla"))),
        ("Does my sister Nora eat fish?", ()),  # both said already
        ("What does Tom like?", ()),  # no tie
        ("What did the sister in the film do?", ()),  # not the user's own relation
    ],
)
def test_the_other_side_of_a_tie_the_question_says(query: str, expected: tuple[tuple[str, str], ...]) -> None:
    assert other_names(query, TIES) == expected


def test_a_relation_with_two_names_adds_neither_and_our_is_the_users() -> None:
    brothers = ("User's brother Leo is flying in.", "User's brother Sam lives in Oslo.")
    assert other_names("When is my brother flying in?", brothers) == ()
    assert other_names("When is Leo flying in?", brothers) == (("Leo", "my brother"),)
    # "Took our dog Biscuit to the vet" is written "... their dog Biscuit ...": the user's "our".
    assert memory_ties(["User mentioned that they took their dog Biscuit to the vet."]) == {"Biscuit": "dog"}
    assert memory_ties(["Maria said their dog Rex is old."]) == {}  # someone else's "their"


def test_their_after_someone_else_is_theirs() -> None:
    """In a memory of the user, "their" after another person is that person's: Max is not the user's son."""
    assert memory_ties(["User's neighbour Jess said their son Max starts school."]) == {"Jess": "neighbour"}
    assert memory_ties(["User had dinner with the Patels, their son Max is five."]) == {}
    # a place or a day before it names no one: the user's "our"
    assert memory_ties(["User moved to Lisbon with their cat Miso."]) == {"Miso": "cat"}
    assert memory_ties(["User mentioned that on Monday they took their dog Rex out."]) == {"Rex": "dog"}


def test_the_question_says_the_other_name_instead_or_beside() -> None:
    named = (("Nora", "my sister"),)
    assert with_names("What is Nora learning?", named) == "What is my sister learning?"
    assert with_names("What is Nora learning?", named, both=True) == "What is Nora (my sister) learning?"


def test_a_row_found_by_either_search_is_kept_once_with_its_better_scores() -> None:
    first = pa.table({"row_id": ["a", "b"], COSINE: [0.5, 0.2], BM25: pa.array([1.0, None], pa.float64())})
    second = pa.table({"row_id": ["b", "c"], COSINE: [0.6, 0.3], BM25: pa.array([2.0, None], pa.float64())})
    out = merged(first, second, "row_id")
    assert out is not None
    rows = {r["row_id"]: r for r in out.to_pylist()}
    assert set(rows) == {"a", "b", "c"}
    assert rows["b"][COSINE] == 0.6 and rows["b"][BM25] == 2.0 and rows["a"][BM25] == 1.0
    assert rows["c"][BM25] is None  # missed by both text legs: still no BM25 score
    assert merged(None, second, "row_id") is second and merged(first, None, "row_id") is first


def test_recall_finds_what_was_said_of_the_relation_when_asked_by_name(settings: Settings, embedder: Embedder) -> None:
    store = make_store(settings, embedder)
    said = (
        "User's sister is learning to play the cello",
        "User's cousin plays the violin in an orchestra",
        "User's sister Nora is coming for dinner on Friday",
    )
    store.upsert(MEMORIES, [memory(embedder, text, days_ago=30 - 10 * i, topic="key_conversation_details")
                            for i, text in enumerate(said)])  # fmt: skip
    ensure_indexes(store, settings)
    with Recaller(settings) as recaller:
        hits = recaller.recall("What instrument is Nora learning?", APP, USER, k=3, now=NOW)
    ranked = [h.content for h in hits]
    assert ranked.index("User's sister is learning to play the cello") < ranked.index(
        "User's cousin plays the violin in an orchestra"
    )


def test_aliases_family_figures() -> None:
    """The end-to-end family (``python -m evaluation.aliases``): the other name must pay on dev and on
    held-out (top-1), never lose an answer said in the question's own name, and rewrite only single ties."""
    results = measure()
    for split in ("dev", "held-out"):
        on, off = results[f"{split} on"], results[f"{split} off"]
        # Since packing drops a memory that repeats its episode, held-out finds every answer in the top 3
        # without the other name too (5/8 -> 8/8); the other name still puts it first.
        assert on["top3"] >= off["top3"] and on["top1"] > off["top1"], split
        assert results[f"{split} same on"]["top3"] == results[f"{split} same on"]["asked"], split
        assert results[f"{split} others"]["as expected"] == results[f"{split} others"]["asked"], split


def test_the_wordings_own_frame_is_not_a_shared_word(settings: Settings) -> None:
    """ "Our neighbour's cat hates the vacuum cleaner" closed "Our dog is scared of thunderstorms": "hates"
    negates its clause, and both memories said "mentioned" (the wording's "User mentioned that")."""
    said = (
        "Our dog is scared of thunderstorms, he hides under the bed.",
        "Our neighbour's cat hates the vacuum cleaner.",
        "Our dog doesn't hide under the bed any more.",
    )
    ingest_sessions(_sessions("u", said), settings)
    rows = open_store(settings).rows(MEMORIES, scope("names", "u"), columns=["content", "status"])
    current = [r["content"] for r in rows if r["status"] == "active"]
    cat = [c for c in current if "neighbour's cat" in c]
    assert cat and "previously" not in cat[0]  # the cat closed nothing
    assert any("doesn't hide" in c for c in current)  # a negation about the dog still changes the dog's memory
    assert not any(c.startswith("User mentioned that their dog is scared") for c in current)
