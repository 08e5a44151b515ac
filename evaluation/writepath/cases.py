"""The write-path cases: templates grouped into phrasing families, each ``dev`` or ``heldout``.

A family is one way of saying something (a change said with "switched to", a retraction said
with "scratch that"...). Rules are developed against the ``dev`` families only; ``heldout``
families were written before any rule change and are only ever measured, never read while
writing rules, so their score says how the rules do on language they were not written for.

A case is 1–2 sessions of user turns and what must be true after the last one:
``new`` values stated by an active memory, ``old`` values no active memory states as current,
``keep`` values still active (exactly once when ``single``), ``verbatim`` strings that survived
(in an active memory, or in the episode sentence citing their turn).
"""

from __future__ import annotations

from evaluation.writepath.builders import (
    add_case,
    change_case,
    confirm_case,
    fact_case,
    forget_case,
    moved_place,
    moved_thing,
    negation_case,
    retraction_case,
)
from evaluation.writepath.model import Case, Family, Kind, Split
from evaluation.writepath.recent import RECENT_FAMILIES
from evaluation.writepath.values import Gen

__all__ = ["CASES_PER_FAMILY", "FAMILIES", "ORIGINAL_FAMILIES", "Case", "Family", "Kind", "Split", "build_cases"]

CASES_PER_FAMILY = 12
#: The first 30 families are the suite as measured before round 4; figures are also reported on them alone.
ORIGINAL_FAMILIES = 30
_POSSESSIONS = ("car", "phone")
_DIETS = ("vegetarian", "vegan", "pescatarian", "teetotal", "keto", "gluten-free")
_PETS = ("cat", "dog", "ferret", "axolotl", "tortoise", "parakeet", "hedgehog")


FAMILIES: tuple[Family, ...] = (
    # -- developed on ------------------------------------------------------------------------------
    Family(
        "change/switched",
        "dev",
        "change",
        change_case(
            "I switched from {o} to {n}.", "I've switched to {n} now.", "Switched from {old} to {new} last month."
        ),
    ),
    Family(
        "change/now",
        "dev",
        "change",
        change_case("I {verb} {n} now.", "Now I {verb} {n}.", "Quick update: I {verb} {n} now."),
    ),
    Family(
        "change/sold",
        "dev",
        "change",
        change_case(
            "I sold the {old} last week, I {verb} {n} now.", "Sold my {old}, so now I {verb} {n}.", domains=_POSSESSIONS
        ),
    ),
    Family("change/moved-to", "dev", "change", change_case("I moved to {n} for my {noun}.", "I've moved to {n}.")),
    Family(
        "negation/not-anymore",
        "dev",
        "negation",
        negation_case(
            "I'm not {v} anymore.", "I'm not {v} any more.", values=_DIETS, intro=("I'm {v}.", "I am {v} these days.")
        ),
    ),
    Family(
        "retraction/scratch-that",
        "dev",
        "retraction",
        retraction_case("{what} {v}.", "Scratch that, it's {v}.", "Scratch that: {v}."),
    ),
    Family("confirm/still", "dev", "confirm", confirm_case("Yes, I still {verb} {v}.", "I still {verb} {v}.")),
    Family("add/have", "dev", "add", add_case("My {noun} is {v}.")),
    Family("fact/and", "dev", "fact", fact_case("{opener}, and {clause}.", "{opener} and {clause}.")),
    Family(
        "fact/numbers",
        "dev",
        "fact",
        fact_case("I'm staying in room {n} and my badge code is {c}.", "I paid {n} euros for it, and {clause}."),
    ),
    Family("forget/please", "dev", "forget", forget_case("Please forget my {what}.", "Forget my {what}, please.")),
    # -- held out: written before the rules changed, only ever measured -------------------------------
    Family(
        "change/no-longer",
        "heldout",
        "change",
        change_case("I no longer {verb} {o}; I {verb} {n} these days.", "I no longer {verb} {o}, it's {n} now."),
    ),
    Family(
        "change/anymore",
        "heldout",
        "change",
        change_case("I don't {verb} {o} anymore, I {verb} {n}.", "Not {old} anymore: I {verb} {n}."),
    ),
    Family(
        "change/these-days",
        "heldout",
        "change",
        change_case("These days I {verb} {n}.", "These days my {noun} is {new}."),
    ),
    Family(
        "change/instead",
        "heldout",
        "change",
        change_case("I {verb} {n} instead of {o} now.", "Instead of {o}, I {verb} {n}."),
    ),
    Family(
        "change/changed-mind",
        "heldout",
        "change",
        change_case(
            "I changed my mind about {o}: I {verb} {n} now.", "Changed my mind, my {noun} is {new} from now on."
        ),
    ),
    Family(
        "change/quit",
        "heldout",
        "change",
        change_case("I quit {o} and {verb} {n} now.", "I quit {o} last month. I {verb} {n} now."),
    ),
    Family(
        "change/got-rid",
        "heldout",
        "change",
        change_case(
            "Got rid of the {old}, I {verb} {n} now.", "The {old} is gone; my {noun} is {n} now.", domains=_POSSESSIONS
        ),
    ),
    Family(
        "negation/dont-have-now",
        "heldout",
        "negation",
        negation_case(
            "I don't have a {v} now.",
            "I don't have the {v} any more.",
            "No more {v} for me, sadly.",
            values=_PETS,
            intro=("I have a {v} named {name}.", "My {v} is called {name}."),
        ),
    ),
    Family(
        "retraction/meant",
        "heldout",
        "retraction",
        retraction_case("{what} {v}.", "Sorry, I meant {v}.", "Correction: it's {v}.", "Wait, no, it's {v}."),
    ),
    Family(
        "confirm/as-said",
        "heldout",
        "confirm",
        confirm_case("As I said before, my {noun} is {value}.", "Nothing changed, I {verb} {v} like before."),
    ),
    Family("add/also", "heldout", "add", add_case("Also, I {verb} {v} on weekends.")),
    Family("fact/but", "heldout", "fact", fact_case("{opener} but {clause}, so keep that.", "{opener}, but {clause}.")),
    Family("fact/semicolon", "heldout", "fact", fact_case("{opener}; {clause}.", "{opener} - {clause}.")),
    Family(
        "fact/names-dates",
        "heldout",
        "fact",
        fact_case(
            "My new dentist is {person} and the check-up is on {date}.",
            "I met {person} at the conference, and the follow-up call is on {date}.",
        ),
    ),
    Family(
        "forget/delete",
        "heldout",
        "forget",
        forget_case("Delete what I told you about the {what}.", "I don't want you to keep my {what}, remove it."),
    ),
    # -- added with the "moved to" rule: not a place unless it reads as one ------------------------
    Family("moved/thing", "dev", "change", moved_thing("I moved to {n}.", "I've moved to {n} since March.")),
    Family("moved/place", "dev", "change", moved_place("I moved to {n}.", "I've just moved to {n} with my family.")),
    Family(
        "moved/thing-2",
        "heldout",
        "change",
        moved_thing("We finally moved to {n} last month.", "Quick update: moved over to {n}, so far so good."),
    ),
    Family(
        "moved/place-2",
        "heldout",
        "change",
        moved_place("We moved to {n} in the spring.", "Big change: I moved to {n} for work."),
    ),
    # -- added in round 4, declared DEV before they were first run: general cues found while developing ---------
    # (removal verbs of a forget request, a change said without "I", a loss said as "gone" / "no more").
    Family(
        "forget/remove-verbs",
        "dev",
        "forget",
        forget_case(
            "Wipe my {what}.",
            "Erase the {what} I gave you.",
            "Please remove my {what} from your memory.",
            "I'd like my {what} deleted.",
        ),
    ),
    Family(
        "negation/gone",
        "dev",
        "negation",
        negation_case(
            "The {v} is gone now.",
            "No more {v} for me.",
            "I no longer have a {v}.",
            values=_PETS,
            intro=("I have a {v} called {name}.", "My {v} is called {name}."),
        ),
    ),
    Family(
        "moved/no-subject",
        "dev",
        "change",
        moved_thing("Moved to {n} last week.", "Just moved to {n}, so that changed.", "I recently moved over to {n}."),
    ),
    *RECENT_FAMILIES,
)


def build_cases(seed: int = 11, per_family: int = CASES_PER_FAMILY) -> list[Case]:
    """Every family's cases; one generator per family so adding a family leaves the others unchanged."""
    cases: list[Case] = []
    for f_index, family in enumerate(FAMILIES):
        gen = Gen(seed * 1000 + f_index)
        for i in range(per_family):
            spec = family.build(gen, i)
            cases.append(Case(case_id=f"{family.name}#{i}", family=family.name, split=family.split,
                              kind=family.kind, **spec))  # type: ignore[arg-type]  # fmt: skip
    return cases
