"""A statement taken back by a wish, not an order: "My PIN is 1234. I don't want this in memory."

"Please don't remember that." right after a statement kept it out of memory; said as what the user
wants ("I don't want that remembered", "I'd rather this not be stored anywhere", "I not want this in
memory") the statement was stored, and the wish with it ("User doesn't want this in memory."). Round 40.
The expected memories are never written out: they are what the same message gives with the plain
"Please don't remember that." in the wish's place, which must itself keep the statement out. DEV was read
while writing the rule; HELD-OUT was written with it and run once after; in look-alikes the wish is about
something else (a place, an outcome, a person) and the statement stays.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tasks.models import Event, Session
from tasks.providers.local_extractor import LocalExtractor
from tasks.providers.off_record import takes_back

PLAIN = "Please don't remember that."
AT = datetime(2023, 5, 8, 12, 0, tzinfo=UTC)


def _memories(*messages: str) -> list[str]:
    events = tuple(
        Event(id=f"e{i}", author="user", role="user", text=text, timestamp=AT) for i, text in enumerate(messages)
    )
    session = Session(app_name="a", user_id="u", session_id="s", started_at=AT, ended_at=AT, events=events)
    return [f.content for f in LocalExtractor().extract(session).facts]


# (statement, wish)
DEV = [
    ("My PIN is 1234.", "I don't want this in memory."),
    ("I'm seeing a therapist for anxiety.", "I don't want that remembered."),
    ("My salary is 85k.", "I'd rather this not be stored anywhere."),
    ("My salary is 85k.", "I not want this in memory."),
]
HELD_OUT = [
    ("My ex lives on Elm Street.", "I do not want that on file."),
    ("I had a miscarriage last year.", "I'd rather that not be remembered."),
    ("I owe my brother 2k.", "I don't want it recorded."),
    ("My passport number is X1234567.", "I would prefer this not be saved."),
    ("I'm on antidepressants.", "I'd rather you not remember that."),
    ("My landlord is suing me.", "I really don't want any of that kept, ok?"),
]
LOOK_ALIKES = [  # the wish is about something else: the statement stays
    ("My bike is in the hall.", "I don't want it stored in the garage."),
    ("We're moving in June.", "I don't want this to end badly."),
    ("My sister is visiting next week.", "I don't want that kept from Mum."),
    ("I got the promotion!", "I want this remembered!"),
    ("I'm training for a marathon.", "I'd rather this not be a big deal."),
]


def _check(statement: str, wish: str) -> None:
    assert _memories(statement), "the statement alone is a memory"
    assert _memories(f"{statement} {PLAIN}") == [], "the plain form keeps it out"
    assert _memories(f"{statement} {wish}") == _memories(f"{statement} {PLAIN}")  # in one message
    assert _memories(statement, wish) == _memories(statement, PLAIN)  # the wish as the next message
    assert takes_back(wish)


@pytest.mark.parametrize(("statement", "wish"), DEV)
def test_a_wish_takes_back_dev(statement: str, wish: str) -> None:
    _check(statement, wish)


@pytest.mark.parametrize(("statement", "wish"), HELD_OUT)
def test_a_wish_takes_back_held_out(statement: str, wish: str) -> None:
    _check(statement, wish)


@pytest.mark.parametrize(("statement", "wish"), LOOK_ALIKES)
def test_a_wish_about_something_else_keeps_the_statement(statement: str, wish: str) -> None:
    kept = _memories(f"{statement} {wish}")
    assert set(_memories(statement)) <= set(kept)
    assert not takes_back(wish)


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("My PIN is 1234, I don't want it in memory.", ""),
        ("I'm seeing a therapist - I really don't want that remembered.", ""),
        ("My bike is in the hall, I don't want it stored in the garage.", "bike"),  # about the bike: kept
    ],
)
def test_a_wish_in_the_same_sentence(said: str, kept: str) -> None:
    memories = _memories(said)
    assert any(kept in m for m in memories) if kept else memories == []


@pytest.mark.parametrize(
    ("said", "target"),
    [
        ("Forget my phone number, don't store it.", "phone number"),  # lost before round 40 too
        ("Forget my phone number, I don't want it on file.", "phone number"),
        ("Delete my address, I don't want it in memory.", "address"),
    ],
)
def test_a_forget_request_with_its_reason_stays_a_request(said: str, target: str) -> None:
    events = (Event(id="e0", author="user", role="user", text=said, timestamp=AT),)
    session = Session(app_name="a", user_id="u", session_id="s", started_at=AT, ended_at=AT, events=events)
    out = LocalExtractor().extract(session)
    assert [f.query for f in out.forgets] == [target]
    assert out.facts == []
