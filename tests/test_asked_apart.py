"""A statement and the question typed after it in one breath: the fact is kept, the question is not a memory."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from evaluation.temporal import told_session
from tasks.providers.asked_apart import asked_apart, is_pretend
from tasks.providers.local_extractor import LocalExtractor
from tasks.textrules import clean


@pytest.mark.parametrize(
    ("sentence", "parts"),
    [
        ("broke my wrist in june, when can i lift again", ["broke my wrist in june", "when can i lift again"]),
        ("moving to Oslo in May 🎉 what should I pack", ["moving to Oslo in May", "what should I pack"]),
        ("my mum is diabetic — is honey ok for her?", ["my mum is diabetic", "is honey ok for her?"]),
        ("got a puppy, any tips for crate training", ["got a puppy", "any tips for crate training"]),
        ("just adopted a cat, can you suggest names", ["just adopted a cat", "can you suggest names"]),
    ],
)
def test_a_question_after_a_statement_is_cut_off(sentence: str, parts: list[str]) -> None:
    assert asked_apart([sentence]) == parts


@pytest.mark.parametrize(
    "sentence",
    [
        "I met Ana, who is my neighbour's daughter",  # a relative clause, not a question
        "I know what is best for my knees",
        "I love my job, what's more the pay is good",
        "My brother - the one in Leeds - is getting married",  # a dash aside without a question
        "Is it normal to feel tired after a run?",
    ],
)
def test_what_is_not_a_trailing_question_stays_whole(sentence: str) -> None:
    assert asked_apart([sentence]) == [sentence]


@pytest.mark.parametrize(
    ("sentence", "pretend"),
    [
        ("Pretend I'm a 40 year old pilot, what should I invest in?", True),
        ("imagine I was living in Tokyo, how would my commute look", True),
        ("Let's say my budget is 500 euros", True),
        ("I'm pretending to like my boss's jokes", False),
        ("Imagine Dragons is my favourite band", False),
    ],
)
def test_playing_a_part_is_not_the_user(sentence: str, pretend: bool) -> None:
    assert is_pretend(clean(sentence)) is pretend


def _memories(text: str) -> list[str]:
    session = told_session("a", "u", "s", text, datetime(2026, 10, 1, tzinfo=UTC))
    return [f.content for f in LocalExtractor().extract(session).facts]


def test_the_fact_is_kept_and_the_question_dropped() -> None:
    facts = _memories("sprained my ankle playing football on saturday, when can i start running again")
    assert len(facts) == 1 and "ankle" in facts[0] and "running again" not in facts[0]
    facts = _memories("my son is allergic to eggs — can he have pancakes made with banana?")
    assert len(facts) == 1 and "allergic to eggs" in facts[0] and "pancakes" not in facts[0]


def test_used_to_has_its_subject() -> None:
    assert _memories("used to play the cello in school") == ["User used to play the cello in school"]


def test_a_part_to_play_leaves_no_memory() -> None:
    assert _memories("pretend I'm a retired teacher with a big pension, how do I plan my week") == []


def test_chat_probe_splits_are_fixed_and_its_verdict_reads_keywords() -> None:
    from evaluation.chat_probe import C, splits, verdict

    first, again = splits(), splits()
    assert [c["text"] for c in first["DEV"]] == [c["text"] for c in again["DEV"]]
    assert len(first["DEV"]) == len(first["HELD-OUT"]) == 32
    assert not {c["text"] for c in first["DEV"]} & {c["text"] for c in first["HELD-OUT"]}
    case = C("x", [["cello"], ["sister", "nora"]], ["cat"], "")
    assert verdict(case, ["User's sister Nora plays the cello"]) == ([True, True], [])
    assert verdict(case, ["User plays the cello", "User's catalogue"]) == ([True, False], ["cat"])
