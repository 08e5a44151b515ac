"""A forget request that names where the user lives by its area: "Forget my city", "Delete my location".

"Forget my city, please." deleted nothing of "User lives in Berlin": no word is shared, and no area of the
forget lexicon (tasks/providers/forget_areas.py) named a home. DEV was read while writing the area; HELD-OUT
was written with it and run once after; look-alikes keep their memory (someone else's home, "live music",
an office).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_forgotten_repeats import active_after


def _active_after(tmp_path: Path, said: str, asked: str) -> list[str]:
    return active_after(tmp_path, said, asked, "I work as a nurse.")


DEV = [
    ("I live in Berlin.", "Forget my city, please."),
    ("I'm based in Lisbon these days.", "Delete my location."),
    ("My address is 12 Baker Street.", "Forget my address."),
]
HELD_OUT = [
    ("We live near Utrecht.", "Please forget my town."),
    ("I just moved to Leeds for good.", "Remove my location info."),
    ("I've lived in Denver for ten years.", "Forget which city I'm in."),
]
LOOK_ALIKES = [
    ("My sister lives in Oslo.", "Forget my city, please."),
    ("I love live music.", "Forget my location."),
    ("I work in an office downtown.", "Forget my address."),
]


@pytest.mark.parametrize(("said", "asked"), [*DEV, *HELD_OUT])
def test_a_home_named_by_its_area_is_forgotten(tmp_path: Path, said: str, asked: str) -> None:
    active = _active_after(tmp_path, said, asked)
    assert active == ["User works as a nurse"], active  # the home goes, nothing else does


@pytest.mark.parametrize(("said", "asked"), LOOK_ALIKES)
def test_what_is_not_the_users_home_stays(tmp_path: Path, said: str, asked: str) -> None:
    assert len(_active_after(tmp_path, said, asked)) == 2
