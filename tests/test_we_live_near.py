"""Where the user lives, said with "we" or "near": "We live in Leeds", "I live near Utrecht".

Only "I live in X" filled the location slot; "We live in Leeds" was "User mentioned that they live in Leeds."
and "I live near Utrecht" a conversation detail, so a later move could not replace either by its slot.
Round 40. DEV was read while writing the rule; HELD-OUT was written with it and run once after; look-alikes
are someone else's home, a way of living, or a place that is no town.
"""

from __future__ import annotations

import pytest

from evaluation.wording import facts_of

DEV = [("We live in Leeds.", "Leeds"), ("I live near Utrecht.", "Utrecht"), ("I live just outside Lyon.", "Lyon")]
HELD_OUT = [
    ("We live just outside Bristol.", "Bristol"),
    ("We've lived in Porto since 2019.", "Porto"),
    ("I live close to Hamburg, in a small village.", "Hamburg"),
    ("We live on the outskirts of Madrid.", "Madrid"),
    ("We currently live in Cape Town.", "Cape Town"),
]
LOOK_ALIKES = [
    "We live in hope.",
    "I live near the station.",
    "We live in a small flat.",
    "They live in Leeds.",
    "My parents live near Utrecht.",
]


def _location(text: str) -> list[tuple[str, str]]:
    return [(f.topic, f.content) for f in facts_of(text) if f.slot == "location"]


@pytest.mark.parametrize(("said", "place"), DEV)
def test_where_we_live_dev(said: str, place: str) -> None:
    found = _location(said)
    assert found and found[0][0] == "user_personal_info" and place in found[0][1], facts_of(said)


@pytest.mark.parametrize(("said", "place"), HELD_OUT)
def test_where_we_live_held_out(said: str, place: str) -> None:
    found = _location(said)
    assert found and found[0][0] == "user_personal_info" and place in found[0][1], facts_of(said)


@pytest.mark.parametrize("said", LOOK_ALIKES)
def test_not_where_the_user_lives(said: str) -> None:
    assert _location(said) == []
