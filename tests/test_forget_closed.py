"""A forget request reaches memories another memory closed, not only the active ones.

"My partner is Sam.", then "Sam and I split up, I'm seeing Alex now." (a new memory that settles the first: it
is closed as superseded), then "Forget everything about my dating life.": only the active memory was judged,
so "User's partner is Sam." stayed in the table and in the episode ("… (later changed: …)"). Each memory's
latest version is judged now when it is active or closed by another (:func:`tasks.consolidate.matches.forgettable`);
a closed one keeps the time it was closed as its ``valid_to``, and a run killed after its write and run again
ends with the same tables as one that was not.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tasks.ingest.run import run_ingest
from tasks.settings import Settings
from tasks.store.tables import EPISODES, MEMORIES, open_store
from tests.reliability.crash import KEEP_FORGOTTEN, killed_like_clean
from tests.test_forgotten_repeats import session

SAID = [
    session(0, "My partner is Sam.", "I love hiking in the Alps."),
    session(1, "Sam and I split up, I'm seeing Alex now."),
    session(2, "Forget everything about my dating life."),
]


def _settings(tmp_path: Path, name: str) -> Settings:
    sessions = tmp_path / "sessions.jsonl"
    if not sessions.exists():
        sessions.write_text("".join(json.dumps(s.model_dump(mode="json")) + "\n" for s in SAID))
    return Settings(store_uri=str(tmp_path / name), sessions_uri=str(sessions), **KEEP_FORGOTTEN)


def test_a_memory_closed_by_another_is_forgotten_with_it(tmp_path: Path) -> None:
    settings = _settings(tmp_path, "store")
    run_ingest(settings)
    store = open_store(settings)
    rows = store.rows(MEMORIES)
    partner = [r for r in rows if r["content"] == "User's partner is Sam."]
    assert [r["status"] for r in partner] == ["deleted"], rows
    assert partner[0]["valid_to"].date() == SAID[1].started_at.date()  # closed by the split, not the request
    assert [r["content"] for r in rows if r["status"] == "active"] == ["User loves hiking in the Alps"]
    episodes = " ".join(r["summary"] for r in store.rows(EPISODES))
    assert "Sam" not in episodes and "Alex" not in episodes and "hiking" in episodes, episodes


@pytest.mark.slow
def test_a_run_killed_after_its_write_forgets_the_closed_memory_once(tmp_path: Path) -> None:
    killed_like_clean(SAID, tmp_path)
