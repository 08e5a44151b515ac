"""What a short sentence says is kept where it was said: a day named as a sentence's subject
("Tomorrow's gonna be a big night"), a pronoun inside a compound ("me-time"), and a participant's
short feeling said beside the rest of their turn ("I'm excited! It's been a wild ride, …").

Cases written before the rules (round 37): DEV read while writing them, HELD-OUT run once after.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tasks.providers.local_extractor import LocalExtractor
from tasks.textrules import resolve_dates
from tasks.third_person import third_person
from tests.test_extraction import session

SAID_ON = datetime(2023, 6, 19, 12, tzinfo=UTC)  # a Monday

DAY_AS_SUBJECT_DEV = [
    ("Tomorrow's gonna be an awesome night", "20 June 2023 is gonna be an awesome night"),
    ("Yesterday was rough for me", "18 June 2023 was rough for me"),
    ("Next Friday is the deadline for my thesis", "23 June 2023 is the deadline for my thesis"),
    ("Last year was tough, but this year has been better", "2022 was tough, but 2023 has been better"),
    ("Tomorrow's meeting got moved to 10", "20 June 2023's meeting got moved to 10"),
    ("I think tomorrow will be sunny", "I think 20 June 2023 will be sunny"),
]
DAY_AS_SUBJECT_HELD_OUT = [
    ("Yesterday's hike was the best one yet", "18 June 2023's hike was the best one yet"),
    ("Next month is going to be hectic at work", "July 2023 is going to be hectic at work"),
    ("Ok so tomorrow's the big interview", "Ok so 20 June 2023 is the big interview"),
    ("Last Monday was my first day at the new job", "12 June 2023 was my first day at the new job"),
    ("Honestly, yesterday felt like a week", "Honestly, 18 June 2023 felt like a week"),
    ("My sister says next year will be our year", "My sister says 2024 will be our year"),
]
#: The day is when something else happened: its preposition stays.
DAY_AS_TIME_DEV = [
    ("What I did yesterday was amazing", "What I did on 18 June 2023 was amazing"),
    ("Tomorrow I fly to Rome", "on 20 June 2023 I fly to Rome"),
    ("I saw her yesterday", "I saw her on 18 June 2023"),
]
DAY_AS_TIME_HELD_OUT = [
    ("The package I ordered yesterday is still missing", "The package I ordered on 18 June 2023 is still missing"),
    ("Yesterday I finally finished the book", "on 18 June 2023 I finally finished the book"),
    ("The concert we saw last year was incredible", "The concert we saw in 2022 was incredible"),
]


@pytest.mark.parametrize(("said", "kept"), DAY_AS_SUBJECT_DEV + DAY_AS_SUBJECT_HELD_OUT)
def test_a_day_said_as_the_subject_is_the_date_itself(said: str, kept: str) -> None:
    assert resolve_dates(said, SAID_ON) == kept


@pytest.mark.parametrize(("said", "kept"), DAY_AS_TIME_DEV + DAY_AS_TIME_HELD_OUT)
def test_a_day_said_as_the_time_of_something_keeps_its_preposition(said: str, kept: str) -> None:
    assert resolve_dates(said, SAID_ON) == kept


COMPOUND_DEV = [("I'm carving out some me-time each day", "Mel is carving out some me-time each day")]
COMPOUND_HELD_OUT = [
    ("Sunday is my me-day", "Sunday is Mel's me-day"),
    ("My daughter is a total mini-me", "Mel's daughter is a total mini-me"),
    ("Me-time matters to me", "Me-time matters to Mel"),
]


@pytest.mark.parametrize(("said", "kept"), COMPOUND_DEV + COMPOUND_HELD_OUT)
def test_a_pronoun_inside_a_compound_is_a_word_not_the_speaker(said: str, kept: str) -> None:
    assert third_person(said, "Mel") == kept


def _kept_of(text: str) -> str:
    """What Rui's turn leaves, after a remark of Ana's that asks nothing (so no answer's allowance)."""
    told = session(("Ana", "I finally got the tickets sorted."), ("Rui", text))
    return " | ".join(f.content for f in LocalExtractor().extract(told).facts if "Rui" in f.content)


SHORT_FEELING_DEV = [
    ("Thanks, Ana! I'm excited! It's been a wild ride, but I'm feeling good about the launch.", "excited"),
    ("I'm so nervous! The recital is on Saturday and I've practiced every day.", "nervous"),
]
SHORT_FEELING_HELD_OUT = [
    ("I'm proud of it! Took me three months to finish the quilt for my niece.", "proud"),
    ("Feeling hopeful. The doctor said the new treatment is working for my dad.", "hopeful"),
    ("I'm exhausted. We moved the whole apartment to Leeds over the weekend.", "exhausted"),
    ("Loved every minute. The hike up to the lake with my brother took six hours.", "Loved every minute"),
]
#: Not read: a present verb said without its "I" reads as an imperative unless it rarely is one
#: (``implicit_subject.with_subject``), and "appreciate" is not among those.
SHORT_FEELING_NOT_READ = [("They're a real support to me and the kids. Appreciate them a lot.", "ppreciate")]
#: Fillers and replies keep nothing of their own; the rest of the turn is kept as before.
FILLER_DEV = [
    ("Haha yeah. I know. My brother still talks about the trip to Porto we took in May.", "know"),
    ("Sure. I agree. The new manager at my office changed the whole schedule.", "agree"),
]
FILLER_HELD_OUT = [
    ("Me too! My cousin is flying in from Lisbon for the wedding next month.", "too"),
    ("I guess. The landlord finally fixed the heating in my flat.", "guess"),
    ("Right, I see. My team moved the release to the end of the quarter.", "see"),
]


@pytest.mark.parametrize(("text", "word"), SHORT_FEELING_DEV + SHORT_FEELING_HELD_OUT)
def test_a_short_feeling_is_kept_with_the_rest_of_the_turn(text: str, word: str) -> None:
    assert word in _kept_of(text)


@pytest.mark.xfail(strict=True, reason="a subjectless 'Appreciate …' reads as an imperative")
@pytest.mark.parametrize(("text", "word"), SHORT_FEELING_NOT_READ)
def test_a_short_feeling_in_an_imperative_form_is_not_read(text: str, word: str) -> None:
    assert word in _kept_of(text)


@pytest.mark.parametrize(("text", "word"), FILLER_DEV + FILLER_HELD_OUT)
def test_a_filler_beside_the_turn_is_not_kept(text: str, word: str) -> None:
    kept = _kept_of(text)
    assert kept and word not in kept.lower()


@pytest.mark.parametrize("text", ["I'm excited!", "So nervous. Can't wait!", "Glad to hear it. Me too!"])
def test_a_short_feeling_alone_is_still_no_memory(text: str) -> None:
    assert _kept_of(text) == ""
