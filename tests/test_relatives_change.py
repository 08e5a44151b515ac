"""A relative's change is theirs: "My brother moved to Valencia" leaves "User lives in Porto" current.

Before, a change cue ("moved", "quit", "switched") with a relative unnamed as its subject superseded the user's
own memory of the same kind: the consolidator read "User's brother moved to Valencia" as the user's move.
DEV cases were written and run while the rule was written; HELD-OUT cases were written before it and run
once, after (5 of 5 kept on that first run; 4 of 5 had superseded the user's memory before the rule).
LOOK-ALIKES are changes that must still apply: the relative's own earlier memory, and "we" moving. People who
act for the user ("My doctor upped the metformin to 1000mg") keep the old reading: the rule's first form caught
that one (`evaluation.life_changes` DEV), so doctors, managers, landlords and the like are left out of it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tasks.ingest.run import ingest_sessions
from tasks.settings import Settings
from tasks.store.tables import CHANGES, MEMORIES, open_store
from tests.test_focused_episodes import _session

DEV = [
    ("I live in Porto with my partner Rui.", "My brother moved to Valencia last year."),
    ("I live in Porto.", "My sister just moved to Berlin."),
    ("I play the piano every evening.", "My daughter stopped playing the piano."),
]
HELD_OUT = [
    ("I live in Leeds with my two cats.", "My daughter moved to Glasgow in September."),
    ("I'm based in Austin.", "My parents relocated to Phoenix last spring."),
    ("I drive a Honda Civic.", "My wife switched to an electric car."),
    ("I go swimming every morning.", "My son quit swimming after the summer."),
    ("I work at Siemens as an engineer.", "My partner started a new job at Bosch."),
]
LOOK_ALIKES = [
    ("My brother lives in Madrid.", "My brother moved to Valencia last year.", "Madrid"),
    ("My sister lives in Lyon.", "My sister moved to Nantes a few weeks ago.", "Lyon"),
    ("I live in Cork.", "We moved to Galway last week.", "Cork"),
]


def _two_sessions(tmp_path: Path, first: str, second: str) -> tuple[list[str], int]:
    settings = Settings(store_uri=str(tmp_path / "store"))
    ingest_sessions([_session("s1", 0, first), _session("s2", 3, second)], settings)
    store = open_store(settings)
    active = [r["content"] for r in store.rows(MEMORIES, "status = 'active'", ["content"])]
    return active, len(store.rows(CHANGES, "action = 'UPDATE'", ["action"]))


@pytest.mark.parametrize(("own", "theirs"), DEV + HELD_OUT, ids=[f"{i}" for i in range(len(DEV + HELD_OUT))])
def test_a_relatives_change_leaves_the_users_own_memory(tmp_path: Path, own: str, theirs: str) -> None:
    active, updates = _two_sessions(tmp_path, own, theirs)
    assert updates == 0, active
    assert len(active) == 2 and not any("previously" in m for m in active), active


@pytest.mark.parametrize(("before", "after", "old"), LOOK_ALIKES, ids=["brother", "sister", "we"])
def test_the_same_persons_change_still_supersedes(tmp_path: Path, before: str, after: str, old: str) -> None:
    active, updates = _two_sessions(tmp_path, before, after)
    assert updates == 1 and len(active) == 1 and "previously: " in active[0] and old in active[0], active
