"""How the user wants to be called is an instruction, as "address me by …" already was.

"Please call me by my first name" was "Please call User by User's first name." under conversation details, and
"Please refer to me by my full name" "User mentioned that please refer to …". The expected memory is never
written out: it is what the same sentence gives with "address me by". DEV was read while writing the rule;
HELD-OUT was written with it and run once after; look-alikes call or refer to something else.
"""

from __future__ import annotations

import pytest

from evaluation.wording import facts_of


def _memories(text: str) -> list[tuple[str, str]]:
    return [(f.topic, f.content) for f in facts_of(text)]


DEV = [
    ("Please call me by my first name.", "Please address me by my first name."),
    ("Call me by my surname, please.", "Address me by my surname, please."),
]
HELD_OUT = [
    ("Please refer to me by my full name.", "Please address me by my full name."),
    ("Kindly call me by my first name only.", "Kindly address me by my first name only."),
    ("Please always call me by my nickname.", "Please always address me by my nickname."),
]
LOOK_ALIKES = [
    "Call me by Friday with the quote.",
    "Please call the dentist for me.",
    "My kids call me by my last name.",
]


@pytest.mark.parametrize(("text", "reference"), [*DEV, *HELD_OUT])
def test_how_to_call_the_user_is_an_instruction(text: str, reference: str) -> None:
    expected = _memories(reference)
    assert expected and expected[0][0] == "explicit_instructions"  # the reference form is an instruction
    assert _memories(text) == expected


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_calling_someone_else_or_by_a_day_is_no_instruction(text: str) -> None:
    assert not any(topic == "explicit_instructions" for topic, _ in _memories(text))
