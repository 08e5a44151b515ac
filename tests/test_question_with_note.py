"""A question followed by a note about what came with it is still the question an answer answers.

Chat exports put what was sent with a message after its words: "How often do you all work out together?
[shares a photo: …]", "Which airline? [attached: screenshot.png]", "Any allergies? (just so I can plan)".
The answer's memory lost its question (or, for a short answer, the whole memory): the last sentence did
not end in "?". Round 40. The expected memory is never written out: it is what the same answer gives after
the same question without the note. DEV was read while writing the rule; HELD-OUT was written with it
and run once after; look-alikes are notes after a sentence that asks nothing, which must change nothing.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from evaluation.wording import facts_of
from tasks.models import Event
from tasks.providers.local_extractor import question_to


def _memories(text: str) -> list[tuple[str, str]]:
    return [(f.topic, f.content) for f in facts_of(text)]


# (question, note, answer)
DEV = [
    ("Which airline do you usually fly?", "[attached: screenshot.png]", "KLM, always."),
    (
        "How often do you all work out together?",
        "[shares a photo: a group of people in a gym]",
        "Three times a week; it keeps us on track.",
    ),
    ("What's your budget for the sofa?", "(roughly)", "600 euros tops."),
    ("Which of these do you like best?", "[image]", "The blue one, definitely."),
]
HELD_OUT = [
    ("How many kids do you have?", "[sent a photo of a birthday cake]", "Three, all under ten."),
    ("Any allergies I should know about?", "(just so I can plan the menu)", "Shellfish, badly."),
    ("Where are you flying from?", "<image: airport map>", "Manchester, the early flight."),
    ("What time does the class start?", "[link: gym timetable] [photo]", "Half six on Tuesdays."),
    ("Do you prefer the window or the aisle?", "(asking for the booking)", "Aisle, I get up a lot."),
]
LOOK_ALIKES = [  # a note after words that ask nothing: the answer has no question to carry
    ("Here's the menu.", "[shares a photo: a menu]", "The pasta looks good."),
    ("I booked the flights", "(finally)", "Great, thanks for sorting it."),
    ("Look at this view.", "[image: is it real?]", "Wow, where is that?"),
]


@pytest.mark.parametrize(("question", "note", "answer"), DEV)
def test_a_note_after_the_question_keeps_it_dev(question: str, note: str, answer: str) -> None:
    plain = _memories(f"{question} >> {answer}")
    assert plain and question in plain[0][1]  # the plain form carries the question
    assert _memories(f"{question} {note} >> {answer}") == plain


@pytest.mark.parametrize(("question", "note", "answer"), HELD_OUT)
def test_a_note_after_the_question_keeps_it_held_out(question: str, note: str, answer: str) -> None:
    plain = _memories(f"{question} >> {answer}")
    assert plain and question in plain[0][1]
    assert _memories(f"{question} {note} >> {answer}") == plain


@pytest.mark.parametrize(("said", "note", "answer"), LOOK_ALIKES)
def test_a_note_after_no_question_asks_nothing(said: str, note: str, answer: str) -> None:
    assert _memories(f"{said} {note} >> {answer}") == _memories(f"{said} >> {answer}")


def test_between_people_the_note_is_left_out_of_the_quoted_question() -> None:
    at = datetime(2023, 5, 8, 12, 0, tzinfo=UTC)
    asked = Event(id="D1:1", author="Maria", role="other", timestamp=at,
                  text="Great news! How often do you all work out together? [shares a photo: a gym]")  # fmt: skip
    said = Event(id="D1:2", author="John", role="other", text="Three times a week.", timestamp=at)
    found = question_to(asked, said)
    assert found is not None
    assert found.prefix == '(Asked by Maria: "How often do you all work out together?")'
    assert found.event_id == "D1:1"
