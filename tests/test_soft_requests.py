"""A request said softly is read as the plain request it is ("I'd appreciate it if you kept replies under
3 sentences" is "Please keep replies under 3 sentences"): the same memory, a standing instruction when the
plain request is one, nothing when it is a one-off task ("It would be great if you could book the table").

Cases written before the rule (round 37): DEV read while writing it, HELD-OUT run once after. The
expected memory is never written out: it is whatever the plain request gives.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from evaluation.wording import memories_of
from tasks.models import Event, Session
from tasks.providers.local_extractor import LocalExtractor

STANDING_DEV = [
    ("I'd appreciate it if you kept replies under 3 sentences.", "Please keep replies under 3 sentences."),
    ("It would help if you always included the total price.", "Please always include the total price."),
    ("It would be great if you could use metric units.", "Please use metric units."),
    ("I'd prefer it if you didn't use emojis.", "Please don't use emojis."),
    ("Would you mind keeping answers short from now on?", "Please keep answers short from now on."),
    ("If you could always double-check the dates, that would be great.", "Please always double-check the dates."),
    ("I'd rather you didn't mention my ex.", "Please don't mention my ex."),
    ("Can you stop sending me recipe suggestions?", "Please stop sending me recipe suggestions."),
    ("Can you stop cc'ing my manager on these emails?", "Please stop cc'ing my manager on these emails."),
]
STANDING_HELD_OUT = [
    ("I'd really appreciate it if you always answered in Spanish.", "Please always answer in Spanish."),
    ("It'd be nice if you kept the summaries brief.", "Please keep the summaries brief."),
    ("It would be really helpful if you could list the sources for every claim.",
     "Please list the sources for every claim."),
    ("I would prefer it if you didn't schedule anything before 9am.", "Please don't schedule anything before 9am."),
    ("Would you mind not using so much jargon?", "Please don't use so much jargon."),
    ("If you could stop apologizing all the time, that would be great.", "Please stop apologizing all the time."),
    ("I'd rather you called me by my first name.", "Please call me by my first name."),
    ("Could you stop adding emojis to my messages?", "Please stop adding emojis to my messages."),
]  # fmt: skip
ONE_OFF_DEV = [
    ("It would be great if you could book the 7pm table.", "Please book the 7pm table."),
    ("I'd appreciate it if you sent me the report by Friday.", "Please send me the report by Friday."),
    ("Would you mind checking the weather for tomorrow?", "Please check the weather for tomorrow."),
]
ONE_OFF_HELD_OUT = [
    ("It would be great if you could order a pizza for tonight.", "Please order a pizza for tonight."),
    ("I'd appreciate it if you booked a taxi for 6.", "Please book a taxi for 6."),
    ("Would you mind looking up the train times to York?", "Please look up the train times to York."),
]
T0 = datetime(2024, 3, 1, 9, tzinfo=UTC)
#: Wishes about others, and the speaker's own plans: no request to the assistant.
NOT_ASKED_DEV = ["It would help if I slept more.", "I'd rather not talk about work today."]
NOT_ASKED_HELD_OUT = [
    "It would be great if my brother could visit.",
    "I'd rather stay home tonight.",
    "It would help if the bus came on time.",
]


def _instructions(text: str) -> list[str]:
    event = Event(id="e1", author="user", role="user", text=text, timestamp=T0)
    said = Session(app_name="a", user_id="u", session_id="s", started_at=T0, ended_at=T0, events=(event,))
    return [f.content for f in LocalExtractor().extract(said).facts if f.topic == "explicit_instructions"]


#: Plain requests the instruction rules do not read as standing ones (found by this file's first run): a
#: request about how to address the user with more than a name, and "list" (as often a one-off task).
PLAIN_NOT_READ = {"Please list the sources for every claim.", "Please call me by my first name."}


@pytest.mark.parametrize(("soft", "plain"), STANDING_DEV + STANDING_HELD_OUT)
def test_a_soft_standing_request_is_the_plain_one(soft: str, plain: str) -> None:
    assert memories_of(soft) == memories_of(plain)
    if plain not in PLAIN_NOT_READ:
        assert _instructions(soft), "a standing request is an instruction"


@pytest.mark.parametrize(("soft", "plain"), ONE_OFF_DEV + ONE_OFF_HELD_OUT)
def test_a_soft_one_off_request_is_no_instruction(soft: str, plain: str) -> None:
    assert _instructions(plain) == []
    assert _instructions(soft) == []


@pytest.mark.parametrize("text", NOT_ASKED_DEV + NOT_ASKED_HELD_OUT)
def test_a_wish_about_someone_else_is_no_instruction(text: str) -> None:
    assert _instructions(text) == []
