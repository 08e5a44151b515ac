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
    ("Mornings work best for me.", "User mentioned that mornings work best for User"),
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


#: Found by the held-out run: the sentence leaves no memory at all (a comparison without a thing compared to).
NOT_READ = [("Evenings are better for me.", "User mentioned that evenings are better for User")]


@pytest.mark.parametrize(("said", "memory"), DEV + HELD_OUT + [pytest.param(*c, marks=pytest.mark.xfail(
    strict=True, reason="no memory at all")) for c in NOT_READ])  # fmt: skip
def test_a_first_word_reads_as_it_does_inside_the_memory(said: str, memory: str) -> None:
    assert memories_of(said).rstrip(".") == memory
