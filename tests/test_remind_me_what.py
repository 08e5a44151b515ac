""" "Remind me what my dentist's name is" asks what is known; it is no reminder to keep.

"(Can you) remind me to / that / about …" is a standing request worth keeping; "remind me what / who /
which / where / how …" asks the assistant to look something up now, and was stored as "User asked to be
reminded: what User's dentist's name is" among the explicit instructions. Round 40 (HELD-OUT 5/5 on its
first run for "no instruction"; 4/5 for "no memory at all", fixed by reading it as a request for the agent).
DEV was read while writing the rule; HELD-OUT was written with it and run once after; look-alikes are
reminders, kept.
"""

from __future__ import annotations

import pytest

from evaluation.wording import facts_of

INSTRUCTIONS = "explicit_instructions"

DEV = [
    "Can you remind me what my dentist's name is?",
    "Remind me who my landlord is?",
    "remind me where I parked?",
]
HELD_OUT = [
    "Could you remind me which hotel I booked in Rome?",
    "Remind me how much I paid for the sofa.",
    "Can you remind me what my sister's kids are called?",
    "pls remind me whats my gym code",
    "Would you remind me whether I already paid the plumber?",
]
REMINDERS = [  # look-alikes: reminders, kept as instructions
    "Remind me to call Mum at 6.",
    "Can you remind me about the dentist on Friday?",
    "Remind me that the bins go out on Tuesday.",
    "Please remind me when it's time to renew my passport.",
    "Remind me what to pack for the trip on Friday.",
    "Could you remind me what I need to bring on Saturday?",  # added after round 9's "what I need for the dentist"
]


def _topics(text: str) -> list[str]:
    return [f.topic for f in facts_of(text)]


@pytest.mark.parametrize("text", DEV)
def test_asking_what_is_known_is_no_reminder_dev(text: str) -> None:
    assert _topics(text) == []  # a question: it tells nothing to keep


@pytest.mark.parametrize("text", HELD_OUT)
def test_asking_what_is_known_is_no_reminder_held_out(text: str) -> None:
    assert _topics(text) == []


@pytest.mark.parametrize("text", REMINDERS)
def test_a_reminder_stays_an_instruction(text: str) -> None:
    assert INSTRUCTIONS in _topics(text)
