"""A short first-person clause that does something to a thing is a memory (round 41).

"We homeschool our kids" and "We foster kittens" left no memory: a clause without a rule needed three words of
content, and "homeschool" and "kids" are two (the forget probe's third set showed it: a look-alike case lost
"homeschool" before any request). A person, a verb and a noun it acts on now say enough
(`tasks/providers/acts_on.py`); a pronoun or a placeholder ("I mean whatever", "We tried that") names no
thing. DEV read while writing; HELD-OUT written with the rule and run once (4 of 5: "We brew our own beer" had
two words before its noun, mended after); look-alikes store nothing, as before.
"""

from __future__ import annotations

import pytest

from tasks.providers.acts_on import acts_on_a_thing
from tasks.providers.local_extractor import LocalExtractor
from tests.test_forgotten_repeats import session

DEV = [("We homeschool our kids", "homeschool"), ("We foster kittens", "kittens")]
HELD_OUT = [
    ("We brew our own beer", "beer"),
    ("I restore old motorcycles", "motorcycles"),
    ("We keep chickens", "chickens"),
    ("I collect stamps", "stamps"),
    ("We rent a cabin", "cabin"),
]
LOOK_ALIKES = ["We did it", "We tried that", "We won", "I mean whatever"]


def _facts(text: str) -> list[str]:
    said = session(0, text)
    return [f.content for f in LocalExtractor().extract(said).facts]


@pytest.mark.parametrize(("said", "word"), [*DEV, *HELD_OUT])
def test_what_the_user_does_to_a_thing_is_kept(said: str, word: str) -> None:
    facts = _facts(said)
    assert any(word in f for f in facts), facts


@pytest.mark.parametrize("said", LOOK_ALIKES)
def test_a_clause_naming_no_thing_is_not_read_as_one(said: str) -> None:
    assert not acts_on_a_thing(said)
