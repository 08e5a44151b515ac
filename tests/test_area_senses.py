"""A memory's area read from what its nouns are in WordNet (`tasks/providers/area_senses.py`, round 41).

"Forget all my health stuff" reached only memories holding a word of the area lexicon; on the forget probe's
HELD-OUT halves the memory meant was no member of the area named in 24 of 55 request-memory pairs (counted,
not read). Cases are mine: DEV (29) read while choosing the anchors, HELD-OUT (30) written with DEV and run
once after: members 15 → 17 of 22, look-alikes 7 of 8 either way (first run). The misses are marked: a noun
whose first sense is another thing ("mass" is a physical property first, a "pacemaker" a pacesetter), an
adjective or a compound WordNet lacks ("overdrawn", "blood thinners", "speeding fine"), and words of the lexicon
that also name a pastime ("crime novels", "courtroom dramas", "near a church").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tasks.providers.forget_areas import area_match
from tests.test_forgotten_repeats import active_after

#: How a user names each area in a request.
ASKED = {
    "health": "my health stuff", "money": "my finances", "legal": "the legal stuff", "work": "my work stuff",
    "religion": "my religious stuff", "dating": "my dating life", "vehicle": "my vehicle", "pets": "my pets",
}  # fmt: skip
_MISS = pytest.mark.xfail(strict=True, reason="a miss, named in the module docstring")
#: (area, memory, of the area?)
DEV = [
    ("health", "User has type 1 diabetes", True),
    ("health", "User takes sertraline every morning", True),
    ("health", "User broke a wrist skiing", True),
    ("health", "User had knee surgery in May", True),
    ("health", "User works as a nurse", False),
    ("health", "User loves hiking in the Alps", False),
    ("money", "User owes User's brother $4,000", True),
    ("money", "User's rent is 1,950 a month", True),
    ("money", "User has a mortgage on the flat", True),
    ("money", "User works at a bank", False),
    ("money", "User plays the cello", False),
    ("legal", "User is being sued by a former landlord", True),
    ("legal", "User was arrested for shoplifting", True),
    ("legal", "User is on probation for a DUI", True),
    pytest.param("legal", "User loves crime novels", False, marks=_MISS),
    ("work", "User is a senior analyst at Brightwater Capital", True),
    ("work", "User's manager takes credit for User's reports", True),
    ("work", "User's brother is a chef", False),
    ("work", "User runs every morning", False),
    ("religion", "User converted to Islam two years ago", True),
    pytest.param("religion", "User goes to mass every Sunday", True, marks=_MISS),
    pytest.param("religion", "User lives near a church", False, marks=_MISS),
    ("dating", "User has been seeing a guy named Tobias", True),
    ("dating", "User's boyfriend Niall plays video games all night", True),
    ("dating", "User's sister's boyfriend is a chef", False),
    ("vehicle", "User drives a 2015 Subaru Outback", True),
    ("vehicle", "User works as a driving instructor", False),
    ("pets", "User's dog Bruno has hip dysplasia", True),
    ("pets", "User's brother has a cat named Tom", False),
]  # fmt: skip
HELD_OUT = [
    pytest.param("health", "User's doctor put User on blood thinners", True, marks=_MISS),
    ("health", "User has chronic migraines", True),
    ("health", "User is recovering from pneumonia", True),
    pytest.param("health", "User has a pacemaker", True, marks=_MISS),
    pytest.param("health", "User tore a ligament playing football", True, marks=_MISS),
    ("health", "User teaches yoga", False),
    ("money", "User's credit card is maxed out", True),
    ("money", "User got a pay rise in June", True),
    ("money", "User inherited 60,000 from an aunt", True),
    pytest.param("money", "User's bank account is overdrawn", True, marks=_MISS),
    ("money", "User collects coins from Roman times", False),
    ("legal", "User has a court hearing next week", True),
    pytest.param("legal", "User got a speeding fine", True, marks=_MISS),
    ("legal", "User's lawyer is handling the custody case", True),
    pytest.param("legal", "User watches courtroom dramas", False, marks=_MISS),
    ("work", "User was promoted to team lead", True),
    ("work", "User's coworker Yusra is having an affair", True),
    ("work", "User volunteers at an animal shelter on weekends", False),
    ("religion", "User prays five times a day", True),
    ("religion", "User's rabbi is retiring", True),
    ("religion", "User sings in a choir", False),
    ("dating", "User went on a first date with Ana", True),
    ("dating", "User has a crush on a coworker", True),
    ("dating", "User's best friend is getting married", False),
    ("vehicle", "User's motorbike needs new tyres", True),
    ("vehicle", "User sold the old van", True),
    ("vehicle", "User takes the bus to work", False),
    ("pets", "User adopted a rescue greyhound", True),
    ("pets", "User's parrot can say twenty words", True),
    ("pets", "User is scared of spiders", False),
]  # fmt: skip


@pytest.mark.parametrize(("area", "memory", "member"), [*DEV, *HELD_OUT])
def test_a_memory_is_of_the_area_a_request_names(area: str, memory: str, member: bool) -> None:
    assert bool(area_match(ASKED[area], memory, {})) is member


@pytest.mark.parametrize(
    ("said", "asked", "gone"),
    [
        ("I'm recovering from pneumonia.", "Forget all my health stuff.", "pneumonia"),
        ("I adopted a rescue greyhound.", "Please delete everything about my pets.", "greyhound"),
    ],
)
def test_a_request_by_area_forgets_what_wordnet_files_under_it(
    tmp_path: Path, said: str, asked: str, gone: str
) -> None:
    active = active_after(tmp_path, said, asked, "I love hiking in the Alps.")
    assert active == ["User loves hiking in the Alps"], active
