"""A participant's imperative is advice to the other person, kept as said (round 34).

In a chat between two people ("Ana" and "Rui" below) "Never give up, buddy!" is said to the other person,
not to the assistant. It was stored as "Rui's instruction: never give up, buddy", under the instructions
topic, where each newer one superseded the last as if both were one setting; "Don't forget to take breaks"
became "Rui asked to remember: to take breaks". The user's own imperatives stay instructions.

DEV cases were written with the rule; HELD-OUT ones before running it, and run once after (6 of 6).
"""

from __future__ import annotations

import pytest

from tasks.providers.local_extractor import LocalExtractor
from tests.test_extraction import session

#: (what the participant says, a word the memory keeps)
DEV = (("Never give up, buddy!", "give up"),
       ("Don't forget to take breaks when work gets heavy.", "breaks"),
       ("Always trust your gut on these things.", "gut"),
       ("Remember to drink water during the hike.", "water"),
       ("Keep pushing, you're almost at the finish line!", "finish line"))  # fmt: skip
HELD = (("Never stop painting, it's what makes you happy.", "painting"),
        ("Don't forget to send me the photos from the wedding!", "photos"),
        ("Always bring a spare charger on long trips.", "charger"),
        ("Please remember to call your mom on her birthday.", "mom"),
        ("Never let anyone tell you your dreams are too big.", "dreams"),
        ("Stop worrying so much about the exam.", "exam"))  # fmt: skip


@pytest.mark.parametrize(("text", "kept"), DEV + HELD)
def test_a_participants_advice_is_kept_as_said(text: str, kept: str) -> None:
    out = LocalExtractor().extract(session(("Ana", "I've had a rough week."), ("Rui", text)))
    assert out.forgets == []
    said = [f for f in out.facts if f.speaker == "Rui"]
    assert any(kept in f.content for f in said), said
    assert all(f.topic != "explicit_instructions" for f in said), said


def test_two_pieces_of_advice_are_two_memories_not_one_superseding_the_other() -> None:
    told = session(("Ana", "I failed the audition."), ("Rui", "Never give up, buddy!"),
                   ("Ana", "Thanks."), ("Rui", "Never stop singing, your voice is lovely."))  # fmt: skip
    said = [f.content for f in LocalExtractor().extract(told).facts if f.speaker == "Rui"]
    assert any("give up" in c for c in said) and any("singing" in c for c in said), said


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("Always use British spelling.", "Always use British spelling"),
        ("Don't forget that I'm allergic to nuts.", "User asked to remember"),
    ],
)
def test_the_users_own_imperative_is_still_an_instruction(text: str, content: str) -> None:
    out = LocalExtractor().extract(session(("agent", "Anything else?"), ("user", text)))
    assert any(f.topic == "explicit_instructions" and f.content.startswith(content) for f in out.facts), out.facts
