"""A forget request that says what to keep deletes only the rest of a memory.

"You can keep that I'm a loan officer, but forget the salary number" deleted the whole of "User works at
Meridian Bank as a loan officer and make $85k" (both forget probes count such a case as a false deletion). The
memory is deleted as any forgotten one is, and the clauses the user keeps become a memory of their own, its
vector embedded from its own text (`tasks/providers/forget_parts.py`, `tasks/consolidate/remains.py`). DEV
was read while writing it; HELD-OUT was written with DEV and run once after. Only the first DEV case reaches
the clause split: the local extractor stores the other three sentences as two memories each already.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tasks.ingest.run import ingest_sessions
from tasks.providers import build_embedder
from tasks.providers.forget_parts import kept_of
from tasks.settings import Settings
from tasks.store.tables import EPISODES, MEMORIES, open_store
from tests.reliability.crash import killed_like_clean
from tests.test_forgotten_repeats import session

HIKING = "I love hiking in the Alps."

#: (said, asked, what must stay, what must go)
DEV = [
    ("I work at Meridian Bank as a loan officer and make $85k.",
     "You can keep that I'm a loan officer, but forget the salary number.", "loan officer", "85k"),
    ("I'm a nurse at St Mary's and I have type 2 diabetes.",
     "Keep that I'm a nurse, but please forget my health stuff.", "nurse", "diabetes"),
]  # fmt: skip
HELD_OUT = [
    ("I teach piano and I owe about 20k on my credit card.",
     "It's fine to remember that I teach piano, but forget the debt.", "piano", "20k"),
    ("I live in Leeds and I'm going through a divorce.",
     "Keep that I live in Leeds, but forget everything about my marriage.", "Leeds", "divorce"),
]  # fmt: skip


def _store(tmp_path: Path, said: str, asked: str) -> Settings:
    settings = Settings(store_uri=str(tmp_path / "store"))
    ingest_sessions([session(0, said, HIKING), session(1, asked)], settings)
    return settings


@pytest.mark.parametrize(("said", "asked", "stays", "goes"), [*DEV, *HELD_OUT])
def test_what_the_request_keeps_stays_and_the_rest_goes(
    tmp_path: Path, said: str, asked: str, stays: str, goes: str
) -> None:
    settings = _store(tmp_path, said, asked)
    store = open_store(settings)
    active = [r for r in store.rows(MEMORIES) if r["status"] == "active"]
    assert any(stays in r["content"] for r in active) and not any(goes in r["content"] for r in active), active
    assert not any(goes in r["summary"] for r in store.rows(EPISODES))
    (kept,) = [r for r in active if stays in r["content"]]
    assert goes not in (kept["value"] or "")  # a kept memory's value is not what was forgotten
    fresh = build_embedder(settings).embed([kept["content"]])[0]
    assert float(np.dot(np.asarray(kept["vector"]), fresh)) > 0.999  # its own text's vector, not the old one's


def test_a_memory_that_is_what_the_user_keeps_stays(tmp_path: Path) -> None:
    settings = _store(tmp_path, "I'm a loan officer.", "You can keep that I'm a loan officer, but forget my salary.")
    active = [r["content"] for r in open_store(settings).rows(MEMORIES) if r["status"] == "active"]
    assert "User is a loan officer." in active


def test_one_clause_saying_both_goes_whole(tmp_path: Path) -> None:
    settings = _store(
        tmp_path, "I earn 85k as a loan officer.", "You can keep that I'm a loan officer, but forget my salary."
    )
    active = [r["content"] for r in open_store(settings).rows(MEMORIES) if r["status"] == "active"]
    assert active == ["User loves hiking in the Alps"], active


@pytest.mark.slow
def test_a_run_killed_after_its_write_keeps_the_rest_once(tmp_path: Path) -> None:
    killed_like_clean([session(0, DEV[0][0], HIKING), session(1, DEV[0][1])], tmp_path)


@pytest.mark.parametrize(
    ("content", "keep", "expected"),
    [
        ("User works at Meridian Bank as a loan officer and make $85k.", "I'm a loan officer",
         ("User works at Meridian Bank as a loan officer.", False)),
        ("User coaches the under-12s, and User's knee surgery is on 3 May.", "that I coach",
         ("User coaches the under-12s.", False)),  # words are compared as stems: "coach" / "coaches"
        ("User's knee surgery is on 3 May, and User coaches the under-12s.", "that I coach",
         (None, False)),  # the kept clause is not the first: what is left would not say who
        ("User teaches piano; User owes 20k on a credit card.", "that I teach piano",
         ("User teaches piano.", False)),
        ("User is a loan officer", "I'm a loan officer", ("User is a loan officer", True)),
        ("User earns 85k as a loan officer", "I'm a loan officer", (None, False)),
    ],
)  # fmt: skip
def test_kept_of_reads_a_memory_clause_by_clause(content: str, keep: str, expected: tuple[str | None, bool]) -> None:
    assert kept_of(content, keep) == expected
