"""What a message says that is not the user's to remember (tasks/providers/not_told.py), through the
local extractor as a user's turn."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from evaluation.temporal import told_session
from tasks.providers.local_extractor import LocalExtractor
from tasks.providers.not_told import unpasted, untold

NOW = datetime(2026, 10, 1, tzinfo=UTC)


def memories(text: str) -> str:
    return " | ".join(f.content for f in LocalExtractor().extract(told_session("a", "u", "s", text, NOW)).facts)


@pytest.mark.parametrize(
    ("said", "absent"),
    [
        ("I had a dream last night that I was a famous jazz saxophonist in Paris", "saxophonist"),
        ("Let's do a role-play: you're a barista and I'm Captain Reyes, a retired pirate", "Reyes"),
        ("pretend you're my manager and I'm asking for a raise of 10k", "raise"),
        ("Say someone earns 70k and has 20k in credit card debt, what's a reasonable plan?", "credit"),
        ("Can you summarize this for me? 'Mr. Harold Finch has 12 years of experience in engineering.'", "Finch"),
        ("Here's a sample record for my homework: name='Gloria Mendez', city='Tucson'. Write an INSERT.", "Gloria"),
    ],
)
def test_what_is_not_the_users_is_not_stored(said: str, absent: str) -> None:
    assert absent not in memories(said)


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("I've always dreamed of opening a bakery", "bakery"),
        ("we had a dream wedding in Tuscany last June", "Tuscany"),
        ("I have an interview at Siemens next week, can you role-play the interviewer?", "Siemens"),
        ("thanks, you're the best and I'm finally done with my thesis!", "thesis"),
        ("I had to pretend to be happy at my sister's wedding", "pretend to be happy"),
        ("I'm reading a book about the Roman empire", "Roman empire"),
        ("here's my email: bob.smith@gmail.com", "bob.smith@gmail.com"),
        ("my boss said 'you need to fix your attitude or you are out'", "attitude"),
        ("If a client cancels late I charge 50% of the fee", "50%"),
    ],
)
def test_the_users_own_part_is_kept(said: str, kept: str) -> None:
    assert kept in memories(said)


def test_a_story_keeps_only_that_the_user_writes_it() -> None:
    said = memories("I'm writing a thriller where the detective, Inspector Vale, is a recovering alcoholic")
    assert "writing a thriller" in said and "Vale" not in said and "alcoholic" not in said
    assert untold(["my short story's main character is a lighthouse keeper called Mags"]) == []
    assert untold(["I'm writing a book about my grandmother's life in Poland"]) == [
        "I'm writing a book about my grandmother's life in Poland"
    ]


def test_a_game_ends_the_message_but_not_what_came_before() -> None:
    said = ["I start at Siemens on monday", "Let's play a game: I'm a customer named Bob", "I want a refund"]
    assert untold(said) == ["I start at Siemens on monday"]


def test_quotes_are_material_only_in_a_request_to_work_on_a_text() -> None:
    assert unpasted("proofread this: 'I has went to the shop yesterday'") == "proofread this: "
    assert unpasted("my motto is 'never give up on a good thing'") == "my motto is 'never give up on a good thing'"
    assert unpasted("translate 'hello there' please") == "translate 'hello there' please"  # too short to be material
