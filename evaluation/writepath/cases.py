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

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from evaluation.writepath.values import DOMAINS, ID_FACTS, OPENERS, PLACES, THINGS, Domain, Gen

Split = Literal["dev", "heldout"]
Kind = Literal["change", "negation", "retraction", "confirm", "add", "fact", "forget"]
CASES_PER_FAMILY = 12
_POSSESSIONS = ("car", "phone")
_DIETS = ("vegetarian", "vegan", "pescatarian", "teetotal", "keto", "gluten-free")
_PETS = ("cat", "dog", "ferret", "axolotl", "tortoise", "parakeet", "hedgehog")
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")


@dataclass(frozen=True)
class Case:
    case_id: str
    family: str
    split: Split
    kind: Kind
    sessions: tuple[tuple[str, ...], ...]
    new: tuple[str, ...] = ()
    old: tuple[str, ...] = ()
    keep: tuple[str, ...] = ()
    verbatim: tuple[str, ...] = ()
    single: bool = False
    question: str = ""
    #: Wording no active memory may hold ("lives in" after moving to the night shift).
    absent: tuple[str, ...] = ()


@dataclass(frozen=True)
class Family:
    name: str
    split: Split
    kind: Kind
    build: Callable[[Gen, int], dict[str, object]]
    domains: tuple[str, ...] = field(default=())


def _fill(template: str, d: Domain, old: str, new: str) -> str:
    return template.format(o=d.art + old, n=d.art + new, old=old, new=new, verb=d.verb, noun=d.noun)


def _intro(gen: Gen, d: Domain, value: str) -> str:
    return gen.pick((d.have.format(v=value), f"I {d.verb} {d.art}{value}.", f"I {d.verb} {d.art}{value} these days."))


def _change(*templates: str, domains: tuple[str, ...] = ()) -> Callable[[Gen, int], dict[str, object]]:
    """Session 1 states the old value; session 2 changes it with one of the family's phrasings."""

    def build(gen: Gen, i: int) -> dict[str, object]:
        pool = [d for d in DOMAINS if not domains or d.name in domains]
        d = pool[i % len(pool)]
        old, new = gen.pair(d)
        said = _fill(templates[i % len(templates)], d, old, new)
        return {"sessions": ((_intro(gen, d, old),), (said,)), "new": (new,), "old": (old,), "verbatim": (new,),
                "question": d.question}  # fmt: skip

    return build


Builder = Callable[[Gen, int], dict[str, object]]


def _negation(*templates: str, values: tuple[str, ...], intro: tuple[str, ...]) -> Builder:
    """Session 1 states a fact; session 2 says it is no longer true (no new value)."""

    def build(gen: Gen, i: int) -> dict[str, object]:
        value, name = values[i % len(values)], gen.person().split()[0]
        first = intro[i % len(intro)].format(v=value, name=name)
        return {"sessions": ((first,), (templates[i % len(templates)].format(v=value),)), "old": (value,)}

    return build


def _retraction(first: str, *fixes: str) -> Callable[[Gen, int], dict[str, object]]:
    """One session: a fact, then the user takes it back and gives the right value."""

    def build(gen: Gen, i: int) -> dict[str, object]:
        kind = i % 3
        if kind == 0:
            old, new = gen.rng.sample(_DAYS, 2)
        elif kind == 1:
            old, new = gen.number(), gen.number()
        else:
            old, new = gen.code(), gen.code()
        what = ("my appointment is on", "my room number is", "my booking code is")[kind]
        said = f"{first.format(what=what, v=old)} {fixes[i % len(fixes)].format(v=new)}"
        return {"sessions": ((said,),), "new": (new,), "old": (old,), "verbatim": (new,)}

    return build


def _confirm(*templates: str) -> Callable[[Gen, int], dict[str, object]]:
    """Session 2 repeats what session 1 said: nothing new to store (IGNORE)."""

    def build(gen: Gen, i: int) -> dict[str, object]:
        d = DOMAINS[i % len(DOMAINS)]
        value = gen.pick(d.values)
        said = templates[i % len(templates)].format(v=d.art + value, value=value, verb=d.verb, noun=d.noun)
        return {"sessions": ((d.have.format(v=value),), (said,)), "keep": (value,), "single": True,
                "verbatim": (value,)}  # fmt: skip

    return build


def _add(second: str) -> Callable[[Gen, int], dict[str, object]]:
    """Session 2 states a fact about another attribute: both stay (ADD)."""

    def build(gen: Gen, i: int) -> dict[str, object]:
        d1, d2 = DOMAINS[i % len(DOMAINS)], DOMAINS[(i + 3) % len(DOMAINS)]
        v1, v2 = gen.pick(d1.values), gen.pick(d2.values)
        said = second.format(v=d2.art + v2, verb=d2.verb, noun=d2.noun, value=v2)
        return {"sessions": ((d1.have.format(v=v1),), (said,)), "keep": (v1, v2), "verbatim": (v1, v2)}

    return build


def _fact(*templates: str) -> Callable[[Gen, int], dict[str, object]]:
    """One session, a compound sentence whose later clause carries an identifier, number, name or date."""

    def build(gen: Gen, i: int) -> dict[str, object]:
        code, number, person, date = gen.code(), gen.number(), gen.person(), gen.date()
        _, clause = ID_FACTS[i % len(ID_FACTS)]
        said = templates[i % len(templates)].format(
            opener=OPENERS[i % len(OPENERS)], clause=clause.format(c=code), c=code, n=number, person=person,
            date=date,
        )  # fmt: skip
        found = tuple(v for v in (code, number, person, date) if v in said)
        return {"sessions": ((said,),), "new": found[:1], "keep": found, "verbatim": found}

    return build


def _forget(*templates: str) -> Callable[[Gen, int], dict[str, object]]:
    """Session 1 gives an identifier; session 2 asks to forget it: no active memory may keep it."""

    def build(gen: Gen, i: int) -> dict[str, object]:
        code = gen.code()
        what, clause = ID_FACTS[i % len(ID_FACTS)]
        first = f"{OPENERS[i % len(OPENERS)]}, and {clause.format(c=code)}."
        return {"sessions": ((first,), (templates[i % len(templates)].format(what=what),)), "old": (code,)}

    return build


def _bare(value: str) -> str:
    return value.split(" ", 1)[1] if value.startswith(("a ", "the ")) else value


def _moved_thing(*templates: str) -> Builder:
    """Session 1 says what the user is on; session 2 moves to another one: a change, never a residence."""

    def build(gen: Gen, i: int) -> dict[str, object]:
        intro, values = THINGS[i % len(THINGS)]
        old, new = gen.rng.sample(values, 2)
        said = templates[i % len(templates)].format(n=new)
        return {"sessions": ((intro.format(v=old),), (said,)), "new": (_bare(new),), "old": (_bare(old),),
                "verbatim": (_bare(new),), "absent": ("lives in",)}  # fmt: skip

    return build


def _moved_place(*templates: str) -> Builder:
    """Session 1 says where the user lives; session 2 moves: the new place is where they live."""

    def build(gen: Gen, i: int) -> dict[str, object]:
        old, new = gen.rng.sample(PLACES, 2)
        said = templates[i % len(templates)].format(n=new)
        return {"sessions": ((f"I live in {old}.",), (said,)), "new": (_bare(new),), "old": (_bare(old),),
                "verbatim": (_bare(new),)}  # fmt: skip

    return build


FAMILIES: tuple[Family, ...] = (
    # -- developed on ------------------------------------------------------------------------------
    Family(
        "change/switched",
        "dev",
        "change",
        _change("I switched from {o} to {n}.", "I've switched to {n} now.", "Switched from {old} to {new} last month."),
    ),
    Family(
        "change/now",
        "dev",
        "change",
        _change("I {verb} {n} now.", "Now I {verb} {n}.", "Quick update: I {verb} {n} now."),
    ),
    Family(
        "change/sold",
        "dev",
        "change",
        _change(
            "I sold the {old} last week, I {verb} {n} now.", "Sold my {old}, so now I {verb} {n}.", domains=_POSSESSIONS
        ),
    ),
    Family("change/moved-to", "dev", "change", _change("I moved to {n} for my {noun}.", "I've moved to {n}.")),
    Family(
        "negation/not-anymore",
        "dev",
        "negation",
        _negation(
            "I'm not {v} anymore.", "I'm not {v} any more.", values=_DIETS, intro=("I'm {v}.", "I am {v} these days.")
        ),
    ),
    Family(
        "retraction/scratch-that",
        "dev",
        "retraction",
        _retraction("{what} {v}.", "Scratch that, it's {v}.", "Scratch that: {v}."),
    ),
    Family("confirm/still", "dev", "confirm", _confirm("Yes, I still {verb} {v}.", "I still {verb} {v}.")),
    Family("add/have", "dev", "add", _add("My {noun} is {v}.")),
    Family("fact/and", "dev", "fact", _fact("{opener}, and {clause}.", "{opener} and {clause}.")),
    Family(
        "fact/numbers",
        "dev",
        "fact",
        _fact("I'm staying in room {n} and my badge code is {c}.", "I paid {n} euros for it, and {clause}."),
    ),
    Family("forget/please", "dev", "forget", _forget("Please forget my {what}.", "Forget my {what}, please.")),
    # -- held out: written before the rules changed, only ever measured -------------------------------
    Family(
        "change/no-longer",
        "heldout",
        "change",
        _change("I no longer {verb} {o}; I {verb} {n} these days.", "I no longer {verb} {o}, it's {n} now."),
    ),
    Family(
        "change/anymore",
        "heldout",
        "change",
        _change("I don't {verb} {o} anymore, I {verb} {n}.", "Not {old} anymore: I {verb} {n}."),
    ),
    Family(
        "change/these-days", "heldout", "change", _change("These days I {verb} {n}.", "These days my {noun} is {new}.")
    ),
    Family(
        "change/instead",
        "heldout",
        "change",
        _change("I {verb} {n} instead of {o} now.", "Instead of {o}, I {verb} {n}."),
    ),
    Family(
        "change/changed-mind",
        "heldout",
        "change",
        _change("I changed my mind about {o}: I {verb} {n} now.", "Changed my mind, my {noun} is {new} from now on."),
    ),
    Family(
        "change/quit",
        "heldout",
        "change",
        _change("I quit {o} and {verb} {n} now.", "I quit {o} last month. I {verb} {n} now."),
    ),
    Family(
        "change/got-rid",
        "heldout",
        "change",
        _change(
            "Got rid of the {old}, I {verb} {n} now.", "The {old} is gone; my {noun} is {n} now.", domains=_POSSESSIONS
        ),
    ),
    Family(
        "negation/dont-have-now",
        "heldout",
        "negation",
        _negation(
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
        _retraction("{what} {v}.", "Sorry, I meant {v}.", "Correction: it's {v}.", "Wait, no, it's {v}."),
    ),
    Family(
        "confirm/as-said",
        "heldout",
        "confirm",
        _confirm("As I said before, my {noun} is {value}.", "Nothing changed, I {verb} {v} like before."),
    ),
    Family("add/also", "heldout", "add", _add("Also, I {verb} {v} on weekends.")),
    Family("fact/but", "heldout", "fact", _fact("{opener} but {clause}, so keep that.", "{opener}, but {clause}.")),
    Family("fact/semicolon", "heldout", "fact", _fact("{opener}; {clause}.", "{opener} - {clause}.")),
    Family(
        "fact/names-dates",
        "heldout",
        "fact",
        _fact(
            "My new dentist is {person} and the check-up is on {date}.",
            "I met {person} at the conference, and the follow-up call is on {date}.",
        ),
    ),
    Family(
        "forget/delete",
        "heldout",
        "forget",
        _forget("Delete what I told you about the {what}.", "I don't want you to keep my {what}, remove it."),
    ),
    # -- added with the "moved to" rule: not a place unless it reads as one ------------------------
    Family("moved/thing", "dev", "change", _moved_thing("I moved to {n}.", "I've moved to {n} since March.")),
    Family("moved/place", "dev", "change", _moved_place("I moved to {n}.", "I've just moved to {n} with my family.")),
    Family(
        "moved/thing-2",
        "heldout",
        "change",
        _moved_thing("We finally moved to {n} last month.", "Quick update: moved over to {n}, so far so good."),
    ),
    Family(
        "moved/place-2",
        "heldout",
        "change",
        _moved_place("We moved to {n} in the spring.", "Big change: I moved to {n} for work."),
    ),
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
