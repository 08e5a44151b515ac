"""Instructions said in ways the instruction rules did not read, each checked against a plain form they do.

Two families (round 38). The expected memory is never written out: it is what the same sentence gives in
its plain form, and that plain form must itself be an instruction. DEV was read while writing each rule;
HELD-OUT was written with it and run once after; look-alikes must leave no instruction.

- A request about every answer the assistant gives stands, as if said "From now on, …": "Please list the
  sources for every claim" and "Whenever you suggest a restaurant, include the price range" left no memory
  (only a request that comes back in time, "every morning", or under the user's own condition, "When I ask
  …", was read as standing). Look-alikes are tasks over many things or over what is at hand.
- How the user wants to be called, "call / refer to me by my …", is "address me by my …": "Please call me by
  my first name" was "Please call User by User's first name." under conversation details.
"""

from __future__ import annotations

import pytest

from evaluation.wording import facts_of


def _memories(text: str) -> list[tuple[str, str]]:
    return [(f.topic, f.content) for f in facts_of(text)]


def _standing(text: str) -> str:
    return f"From now on, {text[:1].lower()}{text[1:]}"


EVERY_ANSWER_DEV = [
    "Please list the sources for every claim.",
    "Please add a short summary at the end of every answer.",
    "Double-check the math in each response, please.",
    "Whenever you suggest a restaurant, please include the price range.",
]
EVERY_ANSWER_HELD_OUT = [
    "Please flag anything about money in every email draft.",
    "Put the total calories at the top of each recipe.",
    "Please mention the weather every time you plan a hike.",
    "Whenever you recommend a book, tell me how long it is.",
]
CALLED_BY_DEV = [
    ("Please call me by my first name.", "Please address me by my first name."),
    ("Call me by my surname, please.", "Address me by my surname, please."),
]
CALLED_BY_HELD_OUT = [
    ("Please refer to me by my full name.", "Please address me by my full name."),
    ("Kindly call me by my first name only.", "Kindly address me by my first name only."),
    ("Please always call me by my nickname.", "Please always address me by my nickname."),
]
LOOK_ALIKES = [
    "Please check every room on the list.",
    "Please book a table for all of us.",
    "Send the invite to each of my cousins.",
    "Did you read every answer on the forum?",
    "Check all the links in this doc.",  # added after the rule's first run: a task on what is at hand
    "Call me by Friday with the quote.",
    "Please call the dentist for me.",
    "My kids call me by my last name.",
]

PAIRS = [
    *[(text, _standing(text)) for text in [*EVERY_ANSWER_DEV, *EVERY_ANSWER_HELD_OUT]],
    *CALLED_BY_DEV,
    *CALLED_BY_HELD_OUT,
]


@pytest.mark.parametrize(("text", "plain"), PAIRS)
def test_an_instruction_said_so_is_what_its_plain_form_is(text: str, plain: str) -> None:
    expected = _memories(plain)
    assert expected and expected[0][0] == "explicit_instructions"  # the plain form is an instruction
    assert _memories(text) == expected


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_a_task_or_someone_elses_words_is_no_instruction(text: str) -> None:
    assert not any(topic == "explicit_instructions" for topic, _ in _memories(text))


#: A feeling about every answer, its "I" left out, is what the user said with it (round 39: "Love every answer
#: you give." was read as a standing instruction by the every-answer rule). DEV read while writing the rule;
#: HELD-OUT written with DEV, before it, and run once after.
FEELING_DEV = ["Love every answer you give.", "Appreciate all your recommendations!"]
FEELING_HELD_OUT = [
    "Hate every email you draft.",
    "Adore all your suggestions, honestly.",
    "Enjoy each recipe you send.",
]


@pytest.mark.parametrize("text", [*FEELING_DEV, *FEELING_HELD_OUT])
def test_a_feeling_about_every_answer_is_no_instruction(text: str) -> None:
    said = _memories(text)
    assert not any(topic == "explicit_instructions" for topic, _ in said), said
    # At most what "I love every answer you give." gives: love, hate and adore give it (a preference); enjoy and
    # appreciate give nothing with their "I" left out, as "Enjoy your meal!" and "Appreciate it!" should not.
    assert set(said) <= set(_memories(f"I {text[:1].lower()}{text[1:]}"))
