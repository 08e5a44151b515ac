"""What the user says is not to be kept is never stored (tasks.providers.off_record).

Cases written before the rule: DEV read while writing it, HELD-OUT run once after (7 of 7 kept nothing
of what was taken back on that run, one leaving a stray "Never store that please" instruction, mended
after); before the rule all 14 were stored. Turns are separated by "||", an agent's "Noted." between them.
KEPT must stay stored: reminders, "remember that", and thanks.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import lancedb
import pytest

from tasks.ingest.run import ingest_sessions
from tasks.models import Event, Extraction, Session
from tasks.providers.local_extractor import LocalExtractor
from tasks.settings import Settings

T0 = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)

DEV = [
    ("I'm seeing a therapist. Please don't remember that.", "therapist"),
    ("My PIN is 1234. || Please forget that.", "1234"),
    ("I'm job hunting, but don't save that.", "job hunting"),
    ("Our Wi-Fi password is on the fridge, don't store it.", "Wi-Fi"),
    ("Off the record, I'm job hunting.", "job hunting"),
    ("Don't save this, but my PIN is 1234.", "1234"),
    ("I owe my brother 500 dollars. Actually, can you not store that?", "500"),
]
HELD_OUT = [
    ("I failed my driving test again. Please forget I said that.", "driving test"),
    ("My salary is 85k. || Actually, delete that.", "85k"),
    ("I had a panic attack at work today - don't keep that on file.", "panic"),
    ("Just between us, I'm thinking of quitting.", "quitting"),
    ("Don't write this down, but my brother is in rehab.", "rehab"),
    ("My ex lives on Baker Street. Don't remember it, please.", "Baker"),
    ("I'm on antidepressants. || Hmm, don't store that please.", "antidepressants"),
]
KEPT = [
    ("I'm learning Spanish. Don't let me forget that!", "Spanish"),
    ("I moved to Berlin. Remember that.", "Berlin"),
    ("The meeting with Dana is at 3pm Friday. Don't forget it.", "Dana"),
    ("My daughter is turning 5. I can't believe that!", "daughter"),
    ("I'm vegetarian. || Great, thanks for noting that.", "vegetarian"),
]


def told(said: str, user: str = "u", *, reply: str = "Noted.") -> Session:
    events: list[Event] = []
    for i, turn in enumerate(said.split("||")):
        at = T0 + timedelta(minutes=2 * i)
        events.append(Event(id=f"{user}-u{i}", author="user", role="user", text=turn.strip(), timestamp=at))
        events.append(
            Event(id=f"{user}-a{i}", author="agent", role="agent", text=reply, timestamp=at + timedelta(seconds=30))
        )
    return Session(app_name="app", user_id=user, session_id=f"{user}-s", started_at=T0, ended_at=events[-1].timestamp,
                   events=tuple(events))  # fmt: skip


def extracted(session: Session) -> Extraction:
    return LocalExtractor().extract(session)


@pytest.mark.parametrize(("said", "secret"), DEV + HELD_OUT)
def test_what_is_taken_back_is_not_extracted(said: str, secret: str) -> None:
    out = extracted(told(said))
    assert not [f.content for f in out.facts if secret.lower() in f.content.lower()]
    assert not [f.content for f in out.facts if "store" in f.content or "remember" in f.content]
    assert out.forgets == []  # nothing stored, nothing to delete


@pytest.mark.parametrize(("said", "kept"), KEPT)
def test_reminders_and_thanks_keep_what_was_said(said: str, kept: str) -> None:
    assert any(kept in f.content for f in extracted(told(said)).facts)


def test_the_rest_of_the_message_is_kept() -> None:
    out = extracted(told("I'm seeing a therapist. Please don't remember that. I live in Oslo. || I'm vegan."))
    assert sorted(f.content for f in out.facts) == ["User is vegan", "User lives in Oslo"]


def test_a_pointer_after_the_agent_brings_up_a_memory_is_left_to_the_forget_path() -> None:
    """ "I remember you're vegan" then "Please forget that": the message before it is not what "that" means."""
    session = told("I'm planning a trip to Rome. || Please forget that.",
                   reply="Great! I remember you're vegan, so I'll look for vegan places.")  # fmt: skip
    out = extracted(session)
    assert [f.content for f in out.facts] == ["User is planning a trip to Rome."]
    assert [r.query for r in out.forgets] == ["that"]


def test_nothing_taken_back_reaches_the_store(tmp_path: Path) -> None:
    """End to end on LanceDB: neither memories nor the episodes' summaries hold what was taken back."""
    settings = Settings(store_uri=str(tmp_path / "store"))
    cases = DEV + HELD_OUT
    ingest_sessions([told(said, f"u{i}") for i, (said, _) in enumerate(cases)], settings)
    db = lancedb.connect(settings.store_uri)
    texts = (
        [r["content"] for r in db.open_table("memories").to_arrow().to_pylist()]
        if "memories" in db.table_names()
        else []
    )
    texts += [r["summary"] for r in db.open_table("episodes").to_arrow().to_pylist()]
    for _, secret in cases:
        assert not [t for t in texts if secret.lower() in t.lower()], secret


@pytest.mark.parametrize(
    "said",
    ["Can you delete the bit about me living in Nairobi? Don't store that.",
     "Please forget my address. Don't store it anymore."],
)  # fmt: skip
def test_a_pointer_after_a_forget_request_restates_it(said: str) -> None:
    """The request before it stays a request (this one deleted nothing on the rule's first run); the
    pointer adds no fact of its own."""
    out = extracted(told(said))
    assert out.facts == [] and len(out.forgets) == 1
