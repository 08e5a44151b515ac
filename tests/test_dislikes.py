"""A dislike is a preference: "I don't like spicy food", "I'm not a fan of horror movies".

Only likes, and dislikes of a known category (coffee, a cuisine, a music genre the lexicon names), were filed
as preferences; "I can't stand country music" or "I'm not keen on early flights" went to conversation
details, where a preference filter, its TTL and its importance never saw them. Round 40. DEV was read while
writing the rule; HELD-OUT was written with it and run once after; look-alikes are dislikes of what is at
hand ("I don't like that idea"), someone else's, or a figure of speech, which must not become preferences.
"""

from __future__ import annotations

import pytest

from evaluation.wording import facts_of
from tasks.providers.local_extractor import content_words

PREFERENCES = "user_preferences"

# (said, words the preference must keep)
DEV = [
    ("I'm not a fan of horror movies.", "horror movies"),
    ("I'm not really into jazz.", "jazz"),
    ("I don't like spicy food.", "spicy food"),
    ("I can't stand country music.", "country music"),
    ("I'm not keen on early flights.", "early flights"),
]
HELD_OUT = [
    ("I really don't like crowded bars.", "crowded bars"),
    ("I'm not a huge fan of long meetings.", "long meetings"),
    ("Honestly I can't stand reality TV.", "reality TV"),
    ("I'm not into board games at all.", "board games"),
    ("I do not enjoy running in the rain.", "running in the rain"),
    ("I'm not keen on cruises.", "cruises"),
]
LOOK_ALIKES = [
    "I don't like that idea.",
    "I don't like this one, show me another.",
    "My son isn't a fan of broccoli.",
    "I'm not into that plan.",
    "I don't like to brag, but I won the race.",
]


def _check(said: str, kept: str) -> None:
    facts = facts_of(said)
    preferences = [f.content for f in facts if f.topic == PREFERENCES]
    assert preferences, [(f.topic, f.content) for f in facts]
    assert set(content_words(kept)) <= set(content_words(preferences[0]))
    assert len(facts) == 1  # said once, not again among the details


@pytest.mark.parametrize(("said", "kept"), DEV)
def test_a_dislike_is_a_preference_dev(said: str, kept: str) -> None:
    _check(said, kept)


@pytest.mark.parametrize(("said", "kept"), HELD_OUT)
def test_a_dislike_is_a_preference_held_out(said: str, kept: str) -> None:
    _check(said, kept)


@pytest.mark.parametrize("said", LOOK_ALIKES)
def test_a_dislike_of_what_is_at_hand_is_no_preference(said: str) -> None:
    assert PREFERENCES not in [f.topic for f in facts_of(said)]
