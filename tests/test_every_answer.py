"""A request about every answer the assistant gives stands, as if said "From now on, …".

"Please list the sources for every claim" and "Whenever you suggest a restaurant, include the price range"
left no memory: only a request that comes back in time ("every morning") or under a condition of the
user's ("When I ask …") was read as standing. The expected memory is never written out here: it is what
the same sentence said after "From now on," gives. DEV was read while writing the rule; HELD-OUT was
written with it and run once after; look-alikes are one-off tasks over many things, not over answers.
"""

from __future__ import annotations

import pytest

from evaluation.wording import facts_of


def _memories(text: str) -> list[tuple[str, str]]:
    return [(f.topic, f.content) for f in facts_of(text)]


def _said_as_standing(text: str) -> list[tuple[str, str]]:
    return _memories(f"From now on, {text[:1].lower()}{text[1:]}")


DEV = [
    "Please list the sources for every claim.",
    "Please add a short summary at the end of every answer.",
    "Double-check the math in each response, please.",
    "Whenever you suggest a restaurant, please include the price range.",
]

HELD_OUT = [
    "Please flag anything about money in every email draft.",
    "Put the total calories at the top of each recipe.",
    "Please mention the weather every time you plan a hike.",
    "Whenever you recommend a book, tell me how long it is.",
]

#: A task over many things at once, not over the assistant's answers: no standing instruction.
LOOK_ALIKES = [
    "Please check every room on the list.",
    "Please book a table for all of us.",
    "Send the invite to each of my cousins.",
    "Did you read every answer on the forum?",
    "Check all the links in this doc.",  # added after the rule's first run: a task on what is at hand
]


@pytest.mark.parametrize("text", [*DEV, *HELD_OUT])
def test_a_request_about_every_answer_stands(text: str) -> None:
    standing = _said_as_standing(text)
    assert standing and standing[0][0] == "explicit_instructions"  # the reference form is an instruction
    assert _memories(text) == standing


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_a_task_over_many_things_is_no_standing_instruction(text: str) -> None:
    assert not any(topic == "explicit_instructions" for topic, _ in _memories(text))
