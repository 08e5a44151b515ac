"""A sentence's first word moved inside a memory is written as it reads there: "Spicy food is my thing" is
"User is into spicy food", while a name keeps its capital ("Tokyo", "Netflix"). A word is common when
WordNet knows it written in lower case (`tasks.wordnet.is_common`); a name it only knows capitalised, or
does not know, keeps its capital.

Cases written before the rule (round 37): DEV read while writing it, HELD-OUT run once after.
"""

from __future__ import annotations

import pytest

from evaluation.wording import memories_of

DEV = [
    ("Spicy food is my thing.", "User is into spicy food"),
    ("Mornings work best for me.", "User prefers mornings"),  # "mentioned that mornings …" before the rule below
    ("Jazz is totally my thing.", "User is into jazz"),
    ("Tokyo is my thing.", "User is into Tokyo"),
    ("Netflix is my thing.", "User is into Netflix"),
]
HELD_OUT = [
    ("Gardening is my thing.", "User is into gardening"),
    ("London is my thing.", "User is into London"),
    ("Salsa dancing is my jam.", "User is into salsa dancing"),
    ("Cold showers are not my cup of tea.", "User is not into cold showers"),
    ("Spotify is my thing.", "User is into Spotify"),
    ("Paris is really my thing.", "User is into Paris"),
]


#: The held-out run also had "Evenings are better for me.", which left no memory at all; it is read as a
#: preference since (``BETTER_DEV`` below).


@pytest.mark.parametrize(("said", "memory"), DEV + HELD_OUT)
def test_a_first_word_reads_as_it_does_inside_the_memory(said: str, memory: str) -> None:
    assert memories_of(said).rstrip(".") == memory


#: "X is better for me" says a preference (round 37, written before the rule): "Evenings are better for me."
#: left no memory (two content words, under the extractor's three).
BETTER_DEV = [
    ("Evenings are better for me.", "User prefers evenings"),
    ("Email is best for me.", "User prefers email"),
    ("Tuesday is better for me.", "User prefers Tuesday"),
    ("Trains are better for me than planes.", "User prefers trains to planes"),
]
BETTER_HELD_OUT = [
    ("Weekends work better for me.", "User prefers weekends"),
    ("Texts are easier for me.", "User prefers texts"),
    ("Morning meetings are best for me.", "User prefers morning meetings"),
]
#: Found by the held-out run: a brand that is also a common word ("Zoom") is written in lower case.
BETTER_NOT_READ = [("Zoom is way better for me than Teams.", "User prefers Zoom to Teams")]


@pytest.mark.parametrize(("said", "memory"), BETTER_DEV + BETTER_HELD_OUT + [pytest.param(*c, marks=pytest.mark.xfail(
    strict=True, reason="a brand that is a common word loses its capital")) for c in BETTER_NOT_READ])  # fmt: skip
def test_better_for_me_is_a_preference(said: str, memory: str) -> None:
    assert memory in memories_of(said)


@pytest.mark.parametrize("said", ["That is better for me.", "It works best for me.", "Mondays are worse for me.",
                                  "Anything is better for me than waiting."])  # fmt: skip
def test_better_for_me_without_a_thing_is_no_preference(said: str) -> None:
    assert "prefers" not in memories_of(said)
