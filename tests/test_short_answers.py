"""A short answer to "What's your name?" says what "My name is Sam" says.

"What's your name?" "Sam." was stored as '(Asked by the agent: "What's your name?") User mentioned: Sam.': no
name slot, so a later "call me Sammy" or "my name is Samuel" could not replace it, and "Where are you based?"
"London for now, moving to Leeds" read "User mentioned that London for now, …". Round 40. The expected
memories are never written out: they are what the same question gives when the user answers in a full
sentence. DEV was read while writing the rule; HELD-OUT was written with it and run once after (3/6: "Near
Rotterdam" kept its capital after "live", "Thai" lost its capital to a guess, and "Where are you from?", with
no content word, was never quoted to the answer; each fixed for what it is, then 6/6); look-alikes are answers
that answer nothing ("Not sure yet", "Why do you ask?"), which must not become a value.
"""

from __future__ import annotations

import pytest

from evaluation.wording import facts_of


def _memories(text: str) -> list[tuple[str, str | None, str]]:
    return [(f.topic, f.slot, f.content) for f in facts_of(text)]


# (question, short answer, the same answer in full)
DEV = [
    ("What's your name?", "Sam.", "My name is Sam."),
    ("Where are you based?", "London for now.", "I live in London for now."),
    ("How old are you?", "34", "I'm 34."),
    ("What are your hobbies?", "Climbing and chess.", "My hobbies are Climbing and chess."),  # capitals as typed
]
HELD_OUT = [
    ("What's your email?", "sam.k@example.com", "My email is sam.k@example.com"),
    ("Where do you live?", "Near Rotterdam.", "I live near Rotterdam."),
    ("What's your favourite cuisine?", "Thai, easily.", "My favourite cuisine is Thai, easily."),
    ("How old are you?", "41 next month", "I'm 41 next month"),
    ("Where are you from?", "Kenya originally.", "I'm from Kenya originally."),
    ("What is your partner's name?", "Jonas", "My partner's name is Jonas"),
]
LOOK_ALIKES = [  # (question, an answer that answers nothing)
    ("What's your name?", "Why do you ask?"),
    ("What's your budget?", "Not sure yet."),
    ("What's your email?", "I'd rather not say."),
    ("Where do you live?", "Does it matter?"),
    ("How old are you?", "Old enough, haha."),
]


@pytest.mark.parametrize(("question", "short", "full"), DEV)
def test_a_short_answer_reads_as_its_full_form_dev(question: str, short: str, full: str) -> None:
    assert _memories(f"{question} >> {short}") == _memories(f"{question} >> {full}")


@pytest.mark.parametrize(("question", "short", "full"), HELD_OUT)
def test_a_short_answer_reads_as_its_full_form_held_out(question: str, short: str, full: str) -> None:
    assert _memories(f"{question} >> {short}") == _memories(f"{question} >> {full}")


@pytest.mark.parametrize(("question", "answer"), LOOK_ALIKES)
def test_an_answer_that_answers_nothing_fills_no_slot(question: str, answer: str) -> None:
    assert [slot for _, slot, _ in _memories(f"{question} >> {answer}") if slot and not slot.startswith("about:")] == []
