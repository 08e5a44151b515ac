"""A participant's reaction to the other person is not a memory; what it sits beside still is.

DEV cases were read while the rule was written; HELD-OUT cases were written after it and passed
13 of 13 on their first run, with no change to the rule.
"""

from __future__ import annotations

import pytest

from tasks.providers.local_extractor import LocalExtractor
from tasks.providers.reactions import is_reaction
from tests.test_extraction import session

DEV_REACTIONS = ("Wow, that sounds awesome, Mel!", "That's cool, Sam!", "So cool!", "Great pic!",
                 "Great to hear from you.", "Wow, well done!")  # fmt: skip
DEV_KEPT = ("That's in Leeds.", "Good flooring's crucial.", "It was great to see them.",
            "That's great, I got the job!", "Sounds like I need a new laptop.")  # fmt: skip
HELD_REACTIONS = ("Aww, that's adorable, Priya!", "Omg that looks amazing", "Congrats on the promotion, Dev!",
                  "Sounds like fun!", "Really impressive.", "Such a lovely photo!", "That must be tough.")  # fmt: skip
HELD_KEPT = ("That's my cousin's bakery.", "This is the café near the station.", "Cool weather is forecast for Sunday.",
             "Nice is lovely in spring.", "Tough week at work for Sam.", "That's where Tom proposed.")  # fmt: skip


@pytest.mark.parametrize("text", DEV_REACTIONS + HELD_REACTIONS)
def test_a_reaction_is_read_as_one(text: str) -> None:
    assert is_reaction(text)


@pytest.mark.parametrize("text", DEV_KEPT + HELD_KEPT)
def test_a_statement_that_opens_like_one_is_not(text: str) -> None:
    assert not is_reaction(text)


def test_a_participants_reaction_goes_and_the_rest_of_the_turn_stays() -> None:
    told = session(
        ("Ana", "I finally finished the pottery course at the community college last week."),
        ("Rui", "Wow, that sounds awesome, Ana! Rui is starting a woodworking class in March."),
        ("Ana", "Thanks! That's great to hear."),
    )
    contents = [f.content for f in LocalExtractor().extract(told).facts]
    assert any("woodworking class" in c for c in contents)
    assert not any("awesome" in c for c in contents)
    assert not any("great to hear" in c.lower() for c in contents)
    assert any("pottery" in c for c in contents)
