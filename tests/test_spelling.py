"""A question word the memories spell otherwise (:mod:`tasks.recall.spelling`): the rule on its own,
recall end to end on a real LanceDB with the real MiniLM, and the typo probe's figures.

The phrasings here were written for these tests; the probe's HELD-OUT families
(``python -m evaluation.typo_probe``) are generated typos of questions the rule never read.
"""

from __future__ import annotations

import json

import pytest

from evaluation.dataset import EvalQuestion
from evaluation.typo_probe import FAMILIES, mistyped, neighbours, run, target
from tasks.providers.base import Embedder
from tasks.recall.agent_tools import handle_recall_memory
from tasks.recall.recaller import Recaller
from tasks.recall.spelling import Respelt, edit_distance, is_english, respelled
from tasks.settings import Settings
from tasks.store.indexes import ensure_indexes
from tasks.store.tables import MEMORIES
from tests.test_recall import APP, DISTRACTORS, NOW, USER, make_store, memory

SAID = (
    "User has been running farther to de-stress after work.",
    "User is planning a fundraiser for the animal shelter in May.",
    "User loved the little Italian restaurant near the station.",
    "User sent an email to the landlord about the heating.",
    "User drinks oat flat whites most mornings.",
    "User's sister Nora is flying in on Friday.",
)


@pytest.mark.parametrize(
    ("query", "searched"),
    [
        ("What helps me destress?", "What helps me de-stress?"),  # hyphens as the memories put them
        ("Did I send the e-mail?", "Did I send the email?"),
        ("What am I planning for the funraiser?", "What am I planning for the fundraiser?"),  # a letter left out
        ("Which resturant did I like?", "Which restaurant did I like?"),
        ("What do I usually dirnk?", "What do I usually drink?"),  # swapped, and said "drinks"
        ("When is my sister flyng in?", "When is my sister flying in?"),
        ("Resturant tips?", "Restaurant tips?"),  # the opening word keeps its capital
    ],
)
def test_a_word_is_respelt_as_the_memories_spell_it(query: str, searched: str) -> None:
    out = respelled(query, SAID)
    assert out is not None and out.searched == searched


@pytest.mark.parametrize(
    "query",
    [
        "What do I drink in the mornings?",  # every word held
        "When is Noar flying in?",  # a capitalised word inside the question is a name: not respelt
        "What is the animal shelter's name?",  # possessive of a held word
        "Did I ever mention a podcast?",  # English (WordNet), just not said: nothing to respell to
        "Any plans for the weekend?",
        "Wat abt the cafe?",  # too short to respell safely
        "What is my favourite c++ (or rust?) book [sic]*",  # regex characters are text
        "",
    ],
)
def test_a_word_held_short_named_or_english_is_left_alone(query: str) -> None:
    assert respelled(query, SAID) is None


def test_a_word_said_both_ways_is_searched_the_other_way_and_read_with_both() -> None:
    both = (*SAID, "A long walk is how the user likes to destress.")
    out = respelled("What helps me destress?", both)
    assert out == Respelt("What helps me de-stress?", "What helps me destress (de-stress)?")


def test_two_equally_near_spellings_are_a_tie_left_alone() -> None:
    assert respelled("Who is the ownr?", ("User met the owner.", "User met the owen.")) is not None
    # "bxke": "bike" and "bake" are one edit each and said once each
    assert respelled("Did I fix the bxke?", ("User has a bike.", "User likes to bake.")) is None


def test_episodes_are_read_only_when_the_memories_lack_a_word() -> None:
    episodes = ("On 3 May the user talked about a fundraiser gala.",)
    assert respelled("What about the funraiser?", ("User likes tea.",)) is None
    out = respelled("What about the funraiser?", ("User likes tea.",), episodes)
    assert out is not None and out.searched == "What about the fundraiser?"


def test_edit_distance_counts_a_swap_as_one_and_stops_past_its_cap() -> None:
    assert edit_distance("iwth", "with", 2) == 1
    assert edit_distance("funraiser", "fundraiser", 2) == 1
    assert edit_distance("kitten", "sitting", 3) == 3
    assert edit_distance("abcdef", "uvwxyz", 1) == 2  # cap + 1 once it cannot be within


def test_english_reads_inflections_and_irregular_forms() -> None:
    assert all(is_english(w) for w in ("cities", "running", "went", "children", "happier", "email"))
    assert not any(is_english(w) for w in ("funraiser", "resturant", "dirnk", "iwth"))


def test_recall_finds_the_memory_a_mistyped_question_asks_for(settings: Settings, embedder: Embedder) -> None:
    store = make_store(settings, embedder)
    said = (*DISTRACTORS, "User is planning a fundraiser for the animal shelter in May",
            "User raised money for a fun run last year", "User's friend is a fundraising consultant")  # fmt: skip
    store.upsert(MEMORIES, [memory(embedder, text, days_ago=5 + i) for i, text in enumerate(said)])
    ensure_indexes(store, settings)
    asked = "What am I planning for the funraiser?"
    with Recaller(settings) as recaller:
        result = recaller.recall_result(asked, APP, USER, k=3, now=NOW)
    assert result.searched_as == "What am I planning for the fundraiser?"
    assert result.hits[0].content == "User is planning a fundraiser for the animal shelter in May"
    with Recaller(settings.model_copy(update={"recall_respell": False})) as recaller:
        plain = recaller.recall_result(asked, APP, USER, k=3, now=NOW)
    assert plain.searched_as is None
    # the agent's tool says what it searched, so the model can tell the user
    body = json.loads(handle_recall_memory({"query": asked}, APP, USER, settings=settings, now=NOW))
    assert body["searched_as"] == "What am I planning for the fundraiser?"


def test_probe_typos_are_non_words_drawn_per_question() -> None:
    q = EvalQuestion(id="q1", app_name="a", user_id="u", question="Which restaurant did I like?", answer="x",
                     category="c")  # fmt: skip
    assert target(q.question) == "restaurant"
    for family in FAMILIES:
        out = mistyped(q, family)
        assert out is not None and out[1] == "restaurant" and not is_english(out[2])
        assert out == mistyped(q, family)  # seeded per question: the same typo every run
    assert neighbours("s") == "ad" and neighbours("q") == "w"


@pytest.mark.slow
def test_typo_probe_respelling_pays_on_the_synthetic_set() -> None:
    """``python -m evaluation.typo_probe`` without LoCoMo: the mistyped questions lose evidence, and
    respelling gives some back on DEV and on the HELD-OUT family of other edits."""
    results = run(locomo=None)
    for split in ("DEV synthetic A (none)", "HELD-OUT synthetic B (none)"):
        row = results[split]
        assert row["questions"] > 50
        assert row["typo"] < row["clean"], split
        assert row["respelt"] > row["typo"] and row["respelt back"] > 0, split
