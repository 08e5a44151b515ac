"""Issue 11, fourth round: forget requests from general cues, and changes said without "I" or at a distance.

Real parts only: the local extractor and guard, the local providers and LanceDB in tmp_path for ingest.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from evaluation.writepath.runner import states_current
from tasks.consolidate.forget_guard import accept_forget
from tasks.models import Event, Session
from tasks.providers.forget_request import forget_target
from tasks.providers.local_extractor import LocalExtractor
from tasks.third_person import third_person
from tests.test_writepath import active, ingest, session


def _accepted(text: str) -> list[str]:
    at = datetime(2025, 5, 1, 9, tzinfo=UTC)
    event = Event(id="e1", author="user", role="user", text=text, timestamp=at)
    one = Session(app_name="a", user_id="u", session_id="s", started_at=at, ended_at=at, events=(event,))
    return [r.query for r in LocalExtractor().extract(one).forgets if accept_forget(r, one)[0]]


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("Wipe my locker code.", "locker code"),
        ("Please scrub my customer ID from your records.", "customer ID"),
        ("Forget my booking reference, please.", "booking reference"),
        ("I'd like my ticket number deleted.", "ticket number"),
        ("My customer ID - delete it, please.", "customer ID"),
        ("Don't store my locker code.", "locker code"),
        ("Delete all records of my policy number, thanks.", "policy number"),
        ("Take my booking reference out of your memory.", "booking reference"),
    ],
)
def test_requests_to_remove_a_memory_or_an_identifier_are_forget_requests(text: str, target: str) -> None:
    assert _accepted(text) == [target]


@pytest.mark.parametrize(
    "text",
    [
        "Wipe the whiteboard before the meeting.",
        "Clear the cache please.",
        "Drop the hotel from the plan.",
        "Purge the old emails in my inbox.",
        "Delete the ticket number from the spreadsheet.",
        "I don't want my ticket number deleted.",
        "Don't wipe my booking reference.",
        "Don't keep me waiting.",
        "Clear my calendar for Friday.",
    ],
)
def test_removal_of_a_task_object_or_a_negated_request_forgets_nothing(text: str) -> None:
    assert _accepted(text) == []


def test_take_needs_the_memory_as_its_place() -> None:
    assert forget_target("I take my passport number with me everywhere.") is None


def test_changes_said_without_i_close_the_old_fact(tmp_path: Path) -> None:
    settings = ingest(
        tmp_path,
        session("s1", 0, "My phone contract is the basic plan.", "I have a hedgehog called Kofi."),
        session("s2", 30, "Just moved to the family plan, so that changed.", "No more hedgehog for me."),
    )
    memories = active(settings)
    assert any("family plan" in m for m in memories), memories
    assert not [m for m in memories if states_current(m, "basic plan")], memories
    assert not [m for m in memories if states_current(m, "hedgehog")], memories


def test_moving_over_to_a_version_replaces_the_one_in_use(tmp_path: Path) -> None:
    settings = ingest(
        tmp_path,
        session("s1", 0, "Our backend runs on Node 20."),
        session("s2", 30, "I recently moved over to Postgres 16."),
    )
    memories = active(settings)
    assert any("Postgres 16" in m for m in memories) and not any(states_current(m, "Node 20") for m in memories)
    assert not any("lives in" in m for m in memories), memories


def test_a_changed_mind_reads_in_the_third_person() -> None:
    assert third_person("I changed my mind about it.", "User") == "User changed their mind about it."
