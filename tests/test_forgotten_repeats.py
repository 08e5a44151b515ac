"""A forgotten memory leaves no episode that says it again in other words.

"I live in Berlin." then, a session later, "Still in Berlin, as I said." (a repeat: one memory, confirmed)
and "Please forget where I live.": the memory was deleted and every sentence stating it scrubbed from the
episodes, but the second session's episode still said "User is still in Berlin.", and recall found it. The
statements counted as repeats of a memory (its audit trail's IGNORE "duplicates" rows) are scrubbed with it,
when the user asks to forget it in a session and when an operator erases it.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tasks.control.forget import forget
from tasks.ingest.run import ingest_sessions
from tasks.models import Event, Session
from tasks.recall.recaller import recall
from tasks.settings import Settings
from tasks.store.tables import EPISODES, MEMORIES, open_store

T0 = datetime(2024, 3, 1, 9, tzinfo=UTC)
QUESTION = "Which city does the user live in?"


def session(day: int, *texts: str) -> Session:
    """Session ``s<day>``: the user's turns, a minute apart."""
    at = T0 + timedelta(days=day)
    events = tuple(Event(id=f"s{day}-e{i}", author="user", role="user", text=t, timestamp=at + timedelta(minutes=i))
                   for i, t in enumerate(texts))  # fmt: skip
    return Session(app_name="a", user_id="u", session_id=f"s{day}", started_at=at,
                   ended_at=at + timedelta(minutes=9), events=events)  # fmt: skip


def active_after(tmp_path: Path, said: str, asked: str, beside: str) -> list[str]:
    """The active memories after ``said`` (with ``beside``, a sentence of no area) and, a session later, ``asked``."""
    settings = Settings(store_uri=str(tmp_path / "store"))
    ingest_sessions([session(0, said, beside), session(1, asked)], settings)
    return [r["content"] for r in open_store(settings).rows(MEMORIES) if r["status"] == "active"]


#: (the repeat, the forget request): DEV read while writing the fix; HELD-OUT written with it, run once after.
DEV = [
    ("Still in Berlin, as I said.", "Please forget where I live."),
    ("Berlin is where I live, by the way.", "Please forget where I live."),
]
HELD_OUT = [
    ("Like I told you, I live in Berlin.", "Forget my city, please."),  # deleted nothing before the "home" area
    ("I still live in Berlin.", "Delete where I live."),
    ("As I mentioned, Berlin is home.", "Can you forget that I live in Berlin?"),
]


@pytest.mark.parametrize(("repeat", "asked"), [*DEV, *HELD_OUT])
def test_a_forget_request_scrubs_the_repeats_too(tmp_path: Path, repeat: str, asked: str) -> None:
    settings = Settings(store_uri=str(tmp_path / "store"))
    said = [session(0, "I live in Berlin.", "I work as a nurse."), session(1, repeat, "I also started pottery.")]
    ingest_sessions(said, settings)
    ingest_sessions([session(2, asked)], settings)
    episodes = " ".join(r["summary"] for r in open_store(settings).rows(EPISODES))
    assert "Berlin" not in episodes and "pottery" in episodes  # the repeat goes, the rest of its episode stays
    assert not any("Berlin" in h.content for h in recall(QUESTION, "a", "u", settings=settings, k=10))


def test_an_erasure_scrubs_the_repeats_too(tmp_path: Path) -> None:
    settings = Settings(store_uri=str(tmp_path / "store"))
    said = [session(0, "I live in Berlin."), session(1, "Still in Berlin, as I said.", "I also started pottery.")]
    ingest_sessions(said, settings)
    (berlin,) = [r for r in open_store(settings).rows(MEMORIES) if "Berlin" in r["content"]]
    forget(settings, "a", "u", berlin["memory_id"])
    episodes = " ".join(r["summary"] for r in open_store(settings).rows(EPISODES))
    assert "Berlin" not in episodes and "pottery" in episodes


@pytest.mark.parametrize("asked", ["Please forget where I live.", "Forget my city, please."])
def test_a_forget_request_scrubs_the_memorys_earlier_values_too(tmp_path: Path, asked: str) -> None:
    """ "I live in Berlin", later "I moved to Munich", then a forget request: the first session's episode
    said "User lives in Berlin (later changed: User lives in Munich)", both cities, after the memory was
    forgotten; every version of a forgotten memory leaves the episodes."""
    settings = Settings(store_uri=str(tmp_path / "store"))
    said = [session(0, "I live in Berlin.", "I work as a nurse."), session(1, "I moved to Munich last month.")]
    ingest_sessions([*said, session(2, asked)], settings)
    episodes = " ".join(r["summary"] for r in open_store(settings).rows(EPISODES))
    assert "Berlin" not in episodes and "Munich" not in episodes and "nurse" in episodes
    hits = recall(QUESTION, "a", "u", settings=settings, k=10)
    assert not any("Berlin" in h.content or "Munich" in h.content for h in hits)


def test_an_erasure_scrubs_the_memorys_earlier_values_too(tmp_path: Path) -> None:
    settings = Settings(store_uri=str(tmp_path / "store"))
    ingest_sessions([session(0, "I live in Berlin.", "I work as a nurse."), session(1, "I moved to Munich.")], settings)
    (munich,) = [r for r in open_store(settings).rows(MEMORIES) if "Munich" in r["content"]]
    forget(settings, "a", "u", munich["memory_id"])
    episodes = " ".join(r["summary"] for r in open_store(settings).rows(EPISODES))
    assert "Berlin" not in episodes and "Munich" not in episodes and "nurse" in episodes


#: Other facts whose value changed, then forgotten (HELD-OUT: written with the fix, run once after: 0 of 3. The
#: first kept "I work as a nurse." beside them, which "Forget where I work" rightly takes too, so the kept
#: sentence is now one of no area; the other two requests deleted nothing at all, the forget rules' gaps, closed
#: in round 39: a vehicle area, a partner and "seeing <name> now" as dating, and a memory closed by another one
#: ("User's partner is Sam", settled by the split) forgotten too: tests/test_forget_car_dating.py).
CHANGED_HELD_OUT = [
    ("I work at Google.", "I switched jobs, I'm at Meta now.", "Forget where I work.", ("Google", "Meta")),
    ("My partner is Sam.", "Sam and I split up, I'm seeing Alex now.", "Forget everything about my dating life.",
     ("Sam", "Alex")),
    ("I drive a Honda Civic.", "I sold the Civic and bought a Tesla.", "Please forget what car I drive.",
     ("Civic", "Tesla")),
]  # fmt: skip


@pytest.mark.parametrize(("first", "changed", "asked", "values"), CHANGED_HELD_OUT)
def test_a_changed_then_forgotten_fact_leaves_no_value(
    tmp_path: Path, first: str, changed: str, asked: str, values: tuple[str, str]
) -> None:
    settings = Settings(store_uri=str(tmp_path / "store"))
    said = [session(0, first, "I love hiking in the Alps."), session(1, changed), session(2, asked)]
    ingest_sessions(said, settings)
    episodes = " ".join(r["summary"] for r in open_store(settings).rows(EPISODES))
    assert not any(v in episodes for v in values) and "hiking" in episodes, episodes
