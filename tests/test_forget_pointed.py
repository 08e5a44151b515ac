"""Forget requests that do not repeat what they take back, typed as people type (round 41).

The forget probe's third set (110 requests and look-alikes written blind by a helper, `python -m
evaluation.forget_probe --set 3`) scored 25 of 55 on its DEV half before this round: most requests either
were not read as requests ("can you stop keeping anything about …", "no need to remember …", "can we pretend I
never said …", "About the fender bender I brought up... can that go?", "cna you forgrt …") or named their
memory in other words ("the dropout thing" for "User dropped out of community college"). Now the memory a
request points at is the one nearest to it by a clear margin (`tasks/providers/forget_pointed.py`), typos of
the words requests are read by are corrected (`chat_speak`), and the soft and pointing forms are read
(`forget_said`, the guard). DEV is mine, written while writing the rules; HELD-OUT is mine, written after
them and run once (first run: see the module's history note in CHANGELOG.md); look-alikes keep their memory.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_forgotten_repeats import active_after

KEPT = "User loves hiking in the Alps"


def _active_after(tmp_path: Path, said: str, asked: str) -> list[str]:
    return active_after(tmp_path, said, asked, "I love hiking in the Alps.")


#: (what was said, the request, a word of the memory that must go)
DEV = [
    ("I dropped out of my nursing program in March.", "forget the dropout thing, please", "nursing"),
    ("Every Thursday I go to a support group at St. Jude's.", "The weekly group I mentioned, forget that one.",
     "St. Jude"),
    ("I kept a wallet I found on the bus.", "cna you forgrt the wallet thign pls", "wallet"),
    ("I sleep with a nightlight because I'm scared of the dark.", "can you stop keeping the nightlight stuff?",
     "nightlight"),
]  # fmt: skip
HELD_OUT = [
    ("I cheated on my final exam in college.", "that exam thing I told you about, please wipe it", "exam"),
    ("I was fined for fishing without a license.", "Can we pretend I never said that about the fishing ticket?",
     "fishing"),
    ("I lost my wedding ring at the beach in July.", "no need to remember the ring story going forward", "ring"),
    ("I still sleep with my childhood teddy bear.", "yo forget the teddy thing fr", "teddy"),
    ("I once got stuck in an elevator for six hours.", "About the elevator story I brought up... can that go?",
     "elevator"),
]  # fmt: skip
#: (what was said, a request that takes nothing back of it, a word that must stay)
LOOK_ALIKES = [
    ("I'm allergic to peanuts.", "Please forget my cat allergy, it turned out to be dust.", "peanuts"),
    ("I hate onions.", "Remove the onions from that recipe, please.", "onions"),
    ("I ran the Boston marathon in April and the Chicago marathon in October.", "forget the race thing",
     "marathon"),
    ("My sister lives in Dublin.", "Forget my sister's wedding plans.", "Dublin"),
]  # fmt: skip


@pytest.mark.parametrize(("said", "asked", "gone"), [*DEV, *HELD_OUT])
def test_what_a_request_points_at_is_forgotten(tmp_path: Path, said: str, asked: str, gone: str) -> None:
    active = _active_after(tmp_path, said, asked)
    assert KEPT in active and not any(gone in m for m in active), active


@pytest.mark.parametrize(("said", "asked", "stays"), LOOK_ALIKES)
def test_a_request_for_something_else_takes_nothing(tmp_path: Path, said: str, asked: str, stays: str) -> None:
    active = _active_after(tmp_path, said, asked)
    assert KEPT in active and any(stays in m for m in active), active
