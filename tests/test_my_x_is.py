""" "My birthday's on the 3rd of March" says what "My birthday is on …" says.

A chat writes "is" into the noun before it: "My mom's a nurse", "My son's in year 3". The rules read "my
birthday is" and filed "User's birthday's on the 3rd of March." under conversation details, with no
birthday slot for a later correction to replace. Round 40. The expected memories are never written out:
they are what the same sentence gives with "is" written out. DEV was read while writing the rule;
HELD-OUT was written with it and run once after; look-alikes are possessives ("my mom's name") and "has"
("my family's been great"), which must not change.
"""

from __future__ import annotations

import pytest

from evaluation.wording import facts_of
from tasks.textrules import clean


def _memories(text: str) -> list[tuple[str, str]]:
    return [(f.topic, f.content) for f in facts_of(text)]


DEV = [
    ("My birthday's on the 3rd of March.", "My birthday is on the 3rd of March."),
    ("My mom's a nurse in Leeds.", "My mom is a nurse in Leeds."),
    ("My son's in year 3 now.", "My son is in year 3 now."),
    ("my name's Priya", "my name is Priya"),
]
HELD_OUT = [
    ("My flat's on the 4th floor.", "My flat is on the 4th floor."),
    ("My dad's from Porto originally.", "My dad is from Porto originally."),
    ("My daughter's allergic to nuts.", "My daughter is allergic to nuts."),
    ("My sister's not vegan anymore.", "My sister is not vegan anymore."),
    ("My partner's a teacher at the local school.", "My partner is a teacher at the local school."),
    ("My anniversary's in October.", "My anniversary is in October."),
]
#: Written after the rule (the adjective clause was chosen with HELD-OUT in view), run once.
HELD_OUT_2 = [
    ("Our kitchen's tiny.", "Our kitchen is tiny."),
    ("My commute's really long these days.", "My commute is really long these days."),
    ("My mum's retired now.", "My mum is retired now."),
    ("My landlord's an absolute nightmare.", "My landlord is an absolute nightmare."),
    ("My gym's at the end of my street.", "My gym is at the end of my street."),
]
LOOK_ALIKES = [  # a possessive or "has": the text stays as said
    "My mom's name is Linda.",
    "My family's been great through all this.",
    "My brother's wedding is in June.",
    "My dad's car broke down again.",
    "My wife's got a new job in Bristol.",
]


@pytest.mark.parametrize(("said", "plain"), DEV)
def test_is_written_into_the_noun_dev(said: str, plain: str) -> None:
    assert _memories(said) == _memories(plain)


@pytest.mark.parametrize(("said", "plain"), HELD_OUT)
def test_is_written_into_the_noun_held_out(said: str, plain: str) -> None:
    assert _memories(said) == _memories(plain)


@pytest.mark.parametrize(("said", "plain"), HELD_OUT_2)
def test_is_written_into_the_noun_held_out_2(said: str, plain: str) -> None:
    assert _memories(said) == _memories(plain)


@pytest.mark.parametrize("said", LOOK_ALIKES)
def test_a_possessive_or_has_is_left_alone(said: str) -> None:
    assert clean(said) == said
