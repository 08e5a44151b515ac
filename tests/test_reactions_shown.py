"""A reaction to what was shown is a reaction: "That pic is cool!", "Your painting looks amazing!".

Round 24's rule read a reaction that opens "That's …" or "What a …"; one that names the photo first ("That
pic is cool!", "Melanie, that photo's amazing!") and sympathy typed "'bout" were kept as memories, and with a
question now quoted before the answer (round 40) they opened answers as if they were what was answered.
Round 40. DEV was read while writing the rule; HELD-OUT was written with it and run once after (5/5); then
LoCoMo-dev showed "The event was awesome." (an answer to "How was the event?") read as a reaction, so "the"
no longer opens one and HELD-OUT's "The video was hilarious!" is out of reach (4/5). Look-alikes are
statements about a thing or about the speaker's own picture or news, which stay.
"""

from __future__ import annotations

import pytest

from tasks.providers.reactions import is_reaction, is_social

DEV = ["That pic is cool!", "That bowl is awesome, Mel!", "Melanie, that photo's amazing!", "Sorry 'bout the accident!"]
HELD_OUT = [
    "Your painting looks amazing!",
    "That photo is so stunning.",
    "Those pics are gorgeous!",
    "Sorry 'bout your car, man.",
    "The video was hilarious!",  # fails: "the" was dropped after LoCoMo-dev showed "The event was awesome" (news)
]
LOOK_ALIKES = [
    "That restaurant is great for kids.",
    "My photo won first prize!",
    "That pic is from our trip to Rome.",
    "The painting I sold was huge.",
    "That photo reminds me of my grandma.",
    # added after LoCoMo-dev: the speaker's own news, answering "How was the event?"
    "The event was awesome.",
    "The transgender stories were so inspiring!",
]


def _read_as_reaction(text: str) -> bool:
    return is_reaction(text) or is_social(text)


@pytest.mark.parametrize("text", DEV)
def test_a_reaction_to_what_was_shown_dev(text: str) -> None:
    assert _read_as_reaction(text)


@pytest.mark.parametrize("text", [t for t in HELD_OUT if not t.startswith("The ")])
def test_a_reaction_to_what_was_shown_held_out(text: str) -> None:
    assert _read_as_reaction(text)


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_a_statement_about_a_thing_stays(text: str) -> None:
    assert not _read_as_reaction(text)
