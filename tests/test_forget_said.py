"""Forget requests said softly, pointing back, two at once, or by area and person (round 29).

The sentences below were written for these tests, not taken from the forget probe's cases: the unit
tests pin the readers (``forget_said``, ``forget_areas``), and the last test plays requests through the
real ingest (extractor, guard, consolidator, LanceDB on a temporary folder).
"""

from __future__ import annotations

import pytest

from evaluation.writepath.model import Case
from evaluation.writepath.runner import run_writepath
from tasks.providers.forget_areas import area_match, named_kin, names_area_or_kin
from tasks.providers.forget_said import forget_asks


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        # asked softly: the assistant not keeping something
        (["Could you please not keep my salary details?"], {0: ["my salary details"]}),
        (["I'd rather you didn't store the custody stuff."], {0: ["the custody stuff"]}),
        (["pls don't hang onto anything about my landlord dispute"], {0: ["my landlord dispute"]}),
        # two at once
        (["forget my knee surgery and also anything about my brother"], {0: ["knee surgery", "my brother"]}),
        # pointing back at what the user told, in the same sentence or the one before
        (["the poker thing, can you just forget it?"], {0: ["the poker thing"]}),
        (
            ["I regret telling you about my visa situation.", "Can you get rid of it?"],
            {0: [], 1: ["my visa situation"]},
        ),
        # "forget that" alone: kept for the guard, which reads what it points at in the session
        (["Please forget that."], {0: ["that"]}),
    ],
)
def test_forget_asks_reads_the_target(said: list[str], expected: dict[int, list[str]]) -> None:
    assert forget_asks(said) == expected


@pytest.mark.parametrize(
    "said",
    [
        ["There's a stray comma in my cover letter, can you take it out?"],
        ["I love hiking in the fall."],
    ],
)
def test_a_pointing_request_about_the_agents_work_asks_nothing(said: list[str]) -> None:
    assert forget_asks(said) == {}


def test_an_area_or_person_names_a_memory_without_its_words() -> None:
    names = {"Priya": "ex-girlfriend"}
    assert area_match("all my medical stuff", "User was diagnosed with asthma in 2019", {})
    assert area_match("everything about my ex", "User still has Priya's guitar", names)
    assert area_match("anything about my ex", "User's ex-girlfriend moved to Leeds", {})
    # an area said alone is the user's own, not their dog's
    assert not area_match("all my medical stuff", "User's dog Rufus has hip dysplasia", {})
    # a specific word must be in the memory
    assert not area_match("my tax stuff from 2021", "User filed their taxes late in 2023", {})
    assert not area_match("all my medical stuff", "User runs 5k every Saturday", {})
    assert names_area_or_kin("the legal thing") and not names_area_or_kin("the museum")
    assert named_kin("my husband's mom") == ["mother-in-law", "spouse"]


def test_forget_requests_said_in_other_ways_delete_through_ingest() -> None:
    """Each case: a first session states facts, a later one asks; ``old`` must leave, ``keep`` stay."""

    def case(n: int, said: tuple[str, ...], ask: str, old: tuple[str, ...], keep: tuple[str, ...]) -> Case:
        return Case(f"t#{n}", "forget-said", "dev", "forget", (said, (ask,)), old=old, keep=keep)

    cases = [
        case(0, ("I was diagnosed with celiac disease last year.", "I play bass in a jazz trio."),
             "Actually, could you not keep anything medical about me?", ("celiac",), ("bass",)),
        case(1, ("My ex Tomasz still owes me 300 dollars.", "I work as a paramedic."),
             "please forget everything about my ex", ("Tomasz",), ("paramedic",)),
        case(2, ("I'm saving up for a motorbike.", "My sister Ines lives in Porto."),
             "The motorbike stuff, can you delete it?", ("motorbike",), ("Porto",)),
        case(3, ("I'm allergic to shellfish.", "I moved to Denver in March."),
             "Forget the Denver trip, let's plan Boston instead.", (), ("shellfish", "Denver")),
        case(4, ("I'm writing a cover letter for a bakery job.", "I have two cats."),
             "The second paragraph is too long, can you delete it?", (), ("bakery", "cats")),
        case(5, ("I take insulin twice a day.", "I coach my son's soccer team."),
             "the soccer thing, forget it, we'll talk about it next week", (), ("insulin", "soccer")),
    ]  # fmt: skip
    results = run_writepath(cases=cases).results
    assert [r.why for r in results if not r.decision_ok] == []
