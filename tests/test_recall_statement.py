"""The question said as a statement (tasks.recall.statement) and the query vector made of both.

Phrasings here were written for these tests; none comes from an evaluation dataset or probe.
"""

from __future__ import annotations

import pytest

from tasks.providers.base import Embedder
from tasks.recall.recaller import Recaller
from tasks.recall.statement import as_statement
from tasks.settings import Settings
from tasks.store.indexes import ensure_indexes
from tasks.store.tables import MEMORIES
from tests.test_recall import NOW, make_store, memory


@pytest.mark.parametrize(
    ("question", "statement"),
    [
        ("What do I do for a living?", "User do for a living"),
        ("Which town did my aunt retire to?", "town User's aunt retire to"),
        ("What's my wifi password?", "User's wifi password"),
        ("How many cousins do I have?", "many cousins User have"),
        ("Why can't we park on Elm Street?", "they park on Elm Street"),
        ("Am I allergic to anything?", "User allergic to anything"),
        ("Is Noor coming to our barbecue?", "Noor coming to their barbecue"),
        ("Do you know where I'm staying in Oslo?", "you know where User is staying in Oslo"),
        ("Who taught me to swim?", "taught User to swim"),
        ("what kind of bread do we bake on sundays", "kind of bread they bake on sundays"),
    ],
)
def test_a_question_is_said_as_a_statement_about_the_user(question: str, statement: str) -> None:
    assert as_statement(question) == statement


@pytest.mark.parametrize(
    "query",
    ["hiking boots", "I like tea", "Noor's birthday", "", "?", "How many cousins does Ravi have?",
     "Which US state did Noor move to?", "What is ME/CFS?"],
)  # fmt: skip
def test_what_is_not_the_askers_own_question_is_left_alone(query: str) -> None:
    """Not a question, or not about the asker: questions about someone by name read like their memories
    already ("When did Ravi ..."), and rewriting them cost recall on LoCoMo-dev."""
    assert as_statement(query) is None


def test_the_statement_form_brings_a_paraphrased_question_to_its_memory(settings: Settings, embedder: Embedder) -> None:
    """ "What do I do for a living?" reads far from "User teaches chemistry ..." to a small model (cosine
    0.15, where an unrelated question scores as much); with its statement form beside it, much closer."""
    store = make_store(settings, embedder)
    facts = (
        "User teaches chemistry at a secondary school in Derby",
        "User's son Arlo plays the violin in the school orchestra",
        "User drinks green tea every morning",
        "User is saving up for a campervan",
    )
    store.upsert(MEMORIES, [memory(embedder, c, topic="user_personal_info") for c in facts])
    ensure_indexes(store, settings)
    found = {}
    for on in (False, True):
        mode = settings.model_copy(update={"recall_statement_query": on, "include_episodes": False})
        result = Recaller(mode, store=store, embedder=embedder).recall_result("What do I do for a living?", "app",
                                                                             "alice", k=3, now=NOW)  # fmt: skip
        found[on] = result
    assert found[True].hits[0].content.startswith("User teaches chemistry")
    assert found[True].top_cosine > found[False].top_cosine + 0.05  # measured 0.15 -> 0.24


def test_a_rewritten_question_is_judged_on_its_own_threshold(settings: Settings, embedder: Embedder) -> None:
    """The mean vector's cosines run higher than the question's alone: its threshold is its own."""
    store = make_store(settings, embedder)
    store.upsert(MEMORIES, [memory(embedder, "User keeps bees on the allotment")])
    ensure_indexes(store, settings)
    strict = settings.model_copy(
        update={
            "recall_abstain_min_cosine": 0.99,
            "recall_abstain_min_cosine_statement": 0.0,
            "include_episodes": False,
        }
    )
    recaller = Recaller(strict, store=store, embedder=embedder)
    assert recaller.recall_result("What do I keep on my allotment?", "app", "alice", now=NOW).confident
    assert not recaller.recall_result("What does Ravi keep on the allotment?", "app", "alice", now=NOW).confident
