"""Forget requests by area that reach the people and pets of the area, whose things a request says, and a number.

Round 39 (from the forget probe's DEV misses, tasks/providers/forget_areas.py): a memory about someone of
the user's was never the user's own ("my health stuff" is not the dog's hip dysplasia), so "Forget my work
stuff" kept "User's manager keeps scheduling …" and "Forget everything about my pets" kept "User's cat Luna
is fourteen": a person or pet that is itself of the area (a boss for work, a dog for pets, a partner for a
love life) is the user's area now. "…, mine or my family's" said after the target was cut off as a reason;
"when I turn 40" named nothing specific (a number is a specific word now). DEV and HELD-OUT are mine, written
together before the rules; HELD-OUT was run once after them; look-alikes keep their memory.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_forgotten_repeats import active_after

KEPT = "User loves hiking in the Alps"


def _active_after(tmp_path: Path, said: str, asked: str) -> list[str]:
    return active_after(tmp_path, said, asked, "I love hiking in the Alps.")


DEV = [
    ("My manager keeps scheduling meetings at 7am.", "Forget my work stuff."),
    ("My cat Luna is fourteen.", "Forget everything about my pets."),
    ("My mother has diabetes.", "Forget all health stuff, mine or my family's."),
]
HELD_OUT = [
    ("My coworker Dana takes credit for my work.", "Please delete the job-related stuff."),
    ("My puppy Max chewed my shoes.", "Drop what you know about my pets."),
    ("My dad had heart surgery in June.", "Forget the medical things, mine and my family's."),
    pytest.param("I'm planning a trip to Peru for my 40th.", "Forget the trip for when I turn 40.",
                 marks=pytest.mark.xfail(strict=True, reason="the guard reads 'Forget the trip' as a task on the "
                                         "agent's work and refuses, in doubt, as it should")),
]  # fmt: skip
#: Written after HELD-OUT's one run (2 of 4: "mine and my family's" was split into a second request, fixed in
#: forget_said._TWO; the trip is the xfail above), so not a held-out figure: the trip said as a memory.
AFTER = [("I'm planning a trip to Peru for my 40th.", "Forget what you know about the trip for when I turn 40.")]
LOOK_ALIKES = [
    ("My brother has a cat named Tom.", "Forget everything about my pets."),
    ("My sister's boss is awful.", "Forget my work stuff."),
    ("My mother has diabetes.", "Forget all my health stuff."),
]


@pytest.mark.parametrize(("said", "asked"), [*DEV, *HELD_OUT, *AFTER])
def test_the_areas_people_and_whose_things_are_forgotten(tmp_path: Path, said: str, asked: str) -> None:
    active = _active_after(tmp_path, said, asked)
    assert active == [KEPT], active


@pytest.mark.parametrize(("said", "asked"), LOOK_ALIKES)
def test_someone_elses_area_stays(tmp_path: Path, said: str, asked: str) -> None:
    active = _active_after(tmp_path, said, asked)
    assert len(active) == 2 and KEPT in active, active
