"""Forget requests that name a vehicle or a love life by its area: "Forget what car I drive", "my dating life".

"Please forget what car I drive." deleted nothing of "User drives a Honda Civic" (no area of the forget lexicon,
tasks/providers/forget_areas.py, named a vehicle), and "Forget everything about my dating life" kept "User's
partner is Sam" and "User is seeing Alex now" ("partner" and "seeing <name>" were no dating words). DEV was read
while writing the areas; HELD-OUT was written with DEV, before the rules, and run once after them; look-alikes
keep their memory (someone else's car, a driving job, a business partner, seeing a dentist or a city).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_forgotten_repeats import active_after

KEPT = "User works as a nurse"


def _active_after(tmp_path: Path, said: str, asked: str) -> list[str]:
    return active_after(tmp_path, said, asked, "I work as a nurse.")


DEV = [
    ("I drive a Honda Civic.", "Please forget what car I drive."),
    ("My car is a 2015 Subaru Outback.", "Forget my car."),
    ("I just bought a used Vespa scooter.", "Delete anything about my vehicle."),
    ("I'm seeing Jordan now.", "Forget my love life."),
    ("My partner Chris and I broke up last month.", "Delete my relationship stuff."),
]
HELD_OUT = [
    ("I ride a Yamaha motorbike to work.", "Forget what I ride."),
    ("My truck is a Ford F-150.", "Please forget my vehicle details."),
    ("I lease a Tesla Model 3.", "Remove what I drive."),
    ("I've been seeing Priya for two months.", "Please forget my dating life."),
    ("My partner is called Robin.", "Forget my relationship details."),
    ("Taylor and I split up last week.", "Forget my love life."),
]
#: Written after HELD-OUT's one run (5 of 6: "User's partner is called Robin" was read as about someone else,
#: as "User's sister has asthma" is), before the fix, and run once after it.
HELD_OUT_2 = [
    ("My boyfriend Marco is a chef.", "Forget my love life."),
    ("My fiancée and I finally set a wedding date.", "Forget my relationship stuff."),
    ("I'm seeing Sam again.", "Forget my romantic life."),
]
LOOK_ALIKES = [
    ("My sister drives a Prius.", "Forget my car."),
    ("I work as a driving instructor.", "Forget my vehicle."),
    ("My business partner runs the bakery with me.", "Forget my relationship stuff."),
    ("I'm seeing the dentist on Friday.", "Forget my dating life."),
    ("I'm seeing Paris next spring!", "Forget my love life."),
    ("My sister's boyfriend is a chef.", "Forget my love life."),
]


@pytest.mark.parametrize(("said", "asked"), [*DEV, *HELD_OUT, *HELD_OUT_2])
def test_a_car_or_a_love_life_named_by_its_area_is_forgotten(tmp_path: Path, said: str, asked: str) -> None:
    active = _active_after(tmp_path, said, asked)
    assert active == [KEPT], active  # the named area goes, nothing else does


@pytest.mark.parametrize(("said", "asked"), LOOK_ALIKES)
def test_what_is_not_the_users_car_or_love_life_stays(tmp_path: Path, said: str, asked: str) -> None:
    active = _active_after(tmp_path, said, asked)
    assert len(active) == 2 and KEPT in active, active
