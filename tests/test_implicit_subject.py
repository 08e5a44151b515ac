"""A sentence said without its subject: which openings mean "I", "I'm" or "I have", and which have a
subject of their own (a name, a noun, a day, an imperative)."""

from __future__ import annotations

import pytest

from evaluation.wording import memories_of
from tasks.providers.implicit_subject import with_subject


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("Grabbed coffee with Lena", "I grabbed coffee with Lena"),  # a regular past before a bare noun
        ("Drove Sam to the airport", "I drove Sam to the airport"),  # an irregular past before a name
        ("Married Sam in 2019", "I married Sam in 2019"),  # a state word before an object is a verb
        ("Married to Sam since 2019", "I'm married to Sam since 2019"),
        ("Really stressed about the move", "I'm really stressed about the move"),
        ("No car at the moment", "I have no car at the moment"),
    ],
)
def test_openings_that_mean_i(said: str, meant: str) -> None:
    assert with_subject(said) == meant


@pytest.mark.parametrize(
    "said",
    [
        "Fred called this morning",  # a name ending in -ed, followed by its verb
        "Ahmed and I went hiking",
        "Speed dating was fun",  # "-eed" words are not past forms
        "Indeed it is",
        "Set a reminder for 5pm",  # a past form that is also the imperative
        "Sat works better for me",  # a day
        "Rose is my aunt",  # a name
        "Ground beef is cheaper here",  # a noun
        "Grabbed lunch with Priya?",  # a question is not a statement
        "The dog grabbed my sandwich",  # it has its subject
        "No prob, see you then",  # chat's "no problem"
    ],
)
def test_openings_with_a_subject_of_their_own(said: str) -> None:
    assert with_subject(said) is None


def test_a_person_named_before_is_a_subject() -> None:
    """A name ending in -ed before a preposition reads like a verb ("Alfred from work called"); with Alfred
    among the people the user has named in earlier sessions, he is the sentence's subject."""
    assert with_subject("Alfred from work called", names=("Alfred",)) is None
    assert with_subject("Alfred moved to Leeds") is None  # a verb follows the name


def test_the_memory_reads_as_the_users() -> None:
    assert memories_of("Grabbed lunch with Priya today, she just got promoted").startswith(
        "User grabbed lunch with Priya"
    )
    assert memories_of("Worried about the exam on Friday").startswith("User is worried about the exam")
