"""A taste said with the thing first ("Spicy food is my thing"), and a fact said before a request
("I'm colourblind, so please don't rely on colours") kept beside the request.

Cases written before the rules; DEV read while writing them, HELD-OUT run once after (a common first word
is written in lower case since round 37, ``tests/test_first_word.py``). "X is my thing": HELD-OUT 0 -> 5 of 5
(three left no memory, two "User mentioned that … User's thing"). A one-word fact before a request:
HELD-OUT 3 -> 4 of 4 (the request's words were taken to cover it).
"""

from __future__ import annotations

import pytest

from evaluation.wording import memories_of

THING_DEV = [
    ("Spicy food is my thing.", "User is into spicy food"),
    ("Jazz is totally my thing.", "User is into jazz"),
    ("Board games are our thing.", "User is into board games"),
    ("Golf is not my thing.", "User is not into golf"),
]
THING_HELD_OUT = [
    ("Hiking is really my thing.", "User is into hiking"),
    ("Sushi is my jam.", "User is into sushi"),
    ("Horror movies aren't my thing.", "User is not into horror movies"),
    ("Early mornings are not my cup of tea.", "User is not into early mornings"),
    ("Karaoke is kind of my thing.", "User is into karaoke"),
]


@pytest.mark.parametrize(("said", "memory"), THING_DEV + THING_HELD_OUT)
def test_my_thing_is_a_taste(said: str, memory: str) -> None:
    assert memories_of(said).rstrip(".") == memory


@pytest.mark.parametrize("said", ["That's my thing.", "What is your thing?"])
def test_my_thing_without_a_thing_says_nothing(said: str) -> None:
    assert "into" not in memories_of(said)


FACT_BEFORE_REQUEST_DEV = [("I'm colourblind, so please don't rely on colours in charts.", "User is colourblind")]
FACT_BEFORE_REQUEST_HELD_OUT = [
    ("I'm epileptic, so please avoid flashing lights.", "User is epileptic"),
    ("I'm deaf, so please text instead of calling.", "User is deaf"),
    ("I'm pregnant, so please no alcohol suggestions.", "User is pregnant"),
    ("I'm Muslim, so please don't suggest pork dishes.", "User is Muslim"),
]


@pytest.mark.parametrize(("said", "fact"), FACT_BEFORE_REQUEST_DEV + FACT_BEFORE_REQUEST_HELD_OUT)
def test_a_fact_before_a_request_is_kept(said: str, fact: str) -> None:
    assert fact in memories_of(said)
