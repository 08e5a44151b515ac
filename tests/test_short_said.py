"""Short words kept as said: a day named as a clause's subject ("Tomorrow's gonna be a big night" is "20 June
2023 is gonna be …", not "on 20 June 2023's gonna be …") and a pronoun inside a compound ("me-time").

Cases written before the rules (round 37): DEV read while writing them, HELD-OUT run once after (6/6 and
3/3 look-alikes for the day, 3/3 for the compound, on their first run).
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tasks.textrules import resolve_dates
from tasks.third_person import third_person

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
    ("Tomorrow I fly to Rome", "On 20 June 2023 I fly to Rome"),
    ("I saw her yesterday", "I saw her on 18 June 2023"),
]
DAY_AS_TIME_HELD_OUT = [
    ("The package I ordered yesterday is still missing", "The package I ordered on 18 June 2023 is still missing"),
    ("Yesterday I finally finished the book", "On 18 June 2023 I finally finished the book"),
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
