"""A new value replaces only the part of a memory it is about: "vegetarian and allergic to peanuts", then "vegan".

A sentence of two facts is often one memory ("User is vegetarian and allergic to peanuts.", "User lives in
Leeds and work at Monzo."), filed under the slot of its first. A later value of that slot ("I'm vegan now",
"I moved to York") closed the whole memory, and the allergy or the employer went with it: current memories
no longer said them. Round 40. Real ingest on a LanceDB folder; DEV was read while writing the rule,
HELD-OUT was written with it and run once after. In every case the old value must not come back as current.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import lancedb
import pytest

from tasks.ingest.run import ingest_sessions
from tasks.models import Event, Session
from tasks.providers.update_parts import unchanged_part
from tasks.providers.wording import strip_annotation
from tasks.settings import Settings
from tests.reliability.crash import killed_like_clean

T0 = datetime(2024, 1, 1, tzinfo=UTC)


def _session(i: int, text: str) -> Session:
    at = T0 + timedelta(days=30 * i)
    event = Event(id=f"s{i}e0", author="user", role="user", text=text, timestamp=at)
    return Session(app_name="a", user_id="u", session_id=f"s{i}", started_at=at, ended_at=at + timedelta(minutes=5),
                   events=(event,))  # fmt: skip


def _current(store: Path, first: str, then: str) -> str:
    settings = Settings(store_uri=str(store))
    ingest_sessions([_session(0, first), _session(1, then)], settings)
    rows = lancedb.connect(str(store)).open_table("memories").to_arrow().to_pylist()
    return " | ".join(strip_annotation(r["content"]) for r in rows if r["status"] == "active").lower()


# (first said, later said, what must still be current, the old value that must not be)
DEV = [
    ("I'm vegetarian and allergic to peanuts.", "I'm vegan now.", "peanuts", "vegetarian"),
    ("I live in Leeds and work at Monzo.", "I moved to York last month.", "monzo", "leeds"),
]
HELD_OUT = [
    (
        "My favourite colour is green and my favourite food is sushi.",
        "My favourite colour is blue now.",
        "sushi",
        "green",
    ),
    ("I drink coffee every morning and I play tennis on Sundays.", "I switched to tea.", "tennis", "coffee"),
    ("I work at Google as a designer and I live in Dublin.", "I now work at Stripe.", "dublin", "google"),
    ("I'm vegan and I run marathons.", "I'm not vegan anymore, I eat meat again.", "marathons", None),
    ("I'm 34 and my wife is a teacher.", "I just turned 35.", "teacher", "34"),
]


@pytest.mark.parametrize(("first", "then", "kept", "old"), DEV)
def test_an_update_keeps_the_rest_dev(tmp_path: Path, first: str, then: str, kept: str, old: str | None) -> None:
    current = _current(tmp_path, first, then)
    assert kept in current
    assert old is None or old not in current


@pytest.mark.parametrize(("first", "then", "kept", "old"), HELD_OUT)
def test_an_update_keeps_the_rest_held_out(tmp_path: Path, first: str, then: str, kept: str, old: str | None) -> None:
    current = _current(tmp_path, first, then)
    assert kept in current
    assert old is None or old not in current


@pytest.mark.parametrize(
    ("old", "value", "new", "rest"),
    [
        ("User is vegetarian and allergic to peanuts.", "vegetarian", "User is vegan", "User is allergic to peanuts."),
        ("User lives in Leeds and work at Monzo.", "Leeds", "User lives in York", "User works at Monzo."),
        (
            "User's favorite colour is green and my favourite food is sushi",
            "green",
            "User's favorite colour is blue",
            "User's favourite food is sushi.",
        ),
        # nothing left: one clause, or every clause about the change
        ("User lives in Leeds", "Leeds", "User lives in York", None),
        ("User lives in Leeds, near the station", "Leeds", "User lives in York, near the station", None),
        # a detail of what changed goes with it
        ("User lives in Leeds, near the station", "Leeds", "User lives in York", None),
        ("User works at Google as a designer, mostly on search", "Google", "User works at Stripe", None),
        # an LLM's merged text already says the rest: nothing to keep apart
        ("User is vegetarian and allergic to peanuts.", "vegetarian", "User is vegan and allergic to peanuts", None),
        # an amount given anew is what changed, wherever it is (found by evaluation.life_changes)
        ("User is trying to lose weight, User is at 82kg right now.", None, "User is down to 79kg this week", None),
        # the old value after the first clause: what changed is not the memory's first fact
        ("User works at Monzo and lives in Leeds", "Leeds", "User lives in York", None),
    ],
)
def test_unchanged_part(old: str, value: str | None, new: str, rest: str | None) -> None:
    assert unchanged_part(old, value, new) == rest


def test_an_aside_is_no_fact_to_keep() -> None:
    """Found on the synthetic set: "User is on User's third cold brew already, don't judge." had kept "User is
    don't judge"."""
    assert unchanged_part("User is on User's third cold brew already, don't judge.", "cold brew",
                          "User is on User's third hot chocolate already") is None  # fmt: skip


def test_a_run_killed_after_its_write_keeps_the_rest_once(tmp_path: Path) -> None:
    """Killed after the memories were written, then run again: the tables of a clean run, no duplicate keys."""
    killed_like_clean([_session(0, "I'm vegetarian and allergic to peanuts."), _session(1, "I'm vegan now.")], tmp_path)
