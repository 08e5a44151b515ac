"""How each write-path family builds its cases: one builder per kind of statement (change, negation,
retraction, confirmation, addition, compound fact, forget request, "moved to").

Split from :mod:`evaluation.writepath.cases` (which lists the families and their splits) so that each
stays short; a builder knows nothing of which split its family is in.
"""

from __future__ import annotations

from collections.abc import Callable

from evaluation.writepath.values import DOMAINS, ID_FACTS, OPENERS, PLACES, THINGS, Domain, Gen

_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")


def fill(template: str, d: Domain, old: str, new: str) -> str:
    return template.format(o=d.art + old, n=d.art + new, old=old, new=new, verb=d.verb, noun=d.noun)


def intro_of(gen: Gen, d: Domain, value: str) -> str:
    return gen.pick((d.have.format(v=value), f"I {d.verb} {d.art}{value}.", f"I {d.verb} {d.art}{value} these days."))


def change_case(*templates: str, domains: tuple[str, ...] = ()) -> Callable[[Gen, int], dict[str, object]]:
    """Session 1 states the old value; session 2 changes it with one of the family's phrasings."""

    def build(gen: Gen, i: int) -> dict[str, object]:
        pool = [d for d in DOMAINS if not domains or d.name in domains]
        d = pool[i % len(pool)]
        old, new = gen.pair(d)
        said = fill(templates[i % len(templates)], d, old, new)
        return {"sessions": ((intro_of(gen, d, old),), (said,)), "new": (new,), "old": (old,), "verbatim": (new,),
                "question": d.question}  # fmt: skip

    return build


Builder = Callable[[Gen, int], dict[str, object]]


def negation_case(*templates: str, values: tuple[str, ...], intro: tuple[str, ...]) -> Builder:
    """Session 1 states a fact; session 2 says it is no longer true (no new value)."""

    def build(gen: Gen, i: int) -> dict[str, object]:
        value, name = values[i % len(values)], gen.person().split()[0]
        first = intro[i % len(intro)].format(v=value, name=name)
        return {"sessions": ((first,), (templates[i % len(templates)].format(v=value),)), "old": (value,)}

    return build


def retraction_case(first: str, *fixes: str) -> Callable[[Gen, int], dict[str, object]]:
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


def confirm_case(*templates: str) -> Callable[[Gen, int], dict[str, object]]:
    """Session 2 repeats what session 1 said: nothing new to store (IGNORE)."""

    def build(gen: Gen, i: int) -> dict[str, object]:
        d = DOMAINS[i % len(DOMAINS)]
        value = gen.pick(d.values)
        said = templates[i % len(templates)].format(v=d.art + value, value=value, verb=d.verb, noun=d.noun)
        return {"sessions": ((d.have.format(v=value),), (said,)), "keep": (value,), "single": True,
                "verbatim": (value,)}  # fmt: skip

    return build


def add_case(second: str) -> Callable[[Gen, int], dict[str, object]]:
    """Session 2 states a fact about another attribute: both stay (ADD)."""

    def build(gen: Gen, i: int) -> dict[str, object]:
        d1, d2 = DOMAINS[i % len(DOMAINS)], DOMAINS[(i + 3) % len(DOMAINS)]
        v1, v2 = gen.pick(d1.values), gen.pick(d2.values)
        said = second.format(v=d2.art + v2, verb=d2.verb, noun=d2.noun, value=v2)
        return {"sessions": ((d1.have.format(v=v1),), (said,)), "keep": (v1, v2), "verbatim": (v1, v2)}

    return build


def fact_case(*templates: str) -> Callable[[Gen, int], dict[str, object]]:
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


def forget_case(*templates: str) -> Callable[[Gen, int], dict[str, object]]:
    """Session 1 gives an identifier; session 2 asks to forget it: no active memory may keep it."""

    def build(gen: Gen, i: int) -> dict[str, object]:
        code = gen.code()
        what, clause = ID_FACTS[i % len(ID_FACTS)]
        first = f"{OPENERS[i % len(OPENERS)]}, and {clause.format(c=code)}."
        return {"sessions": ((first,), (templates[i % len(templates)].format(what=what),)), "old": (code,)}

    return build


def bare(value: str) -> str:
    return value.split(" ", 1)[1] if value.startswith(("a ", "the ")) else value


def moved_thing(*templates: str) -> Builder:
    """Session 1 says what the user is on; session 2 moves to another one: a change, never a residence."""

    def build(gen: Gen, i: int) -> dict[str, object]:
        intro, values = THINGS[i % len(THINGS)]
        old, new = gen.rng.sample(values, 2)
        said = templates[i % len(templates)].format(n=new)
        return {"sessions": ((intro.format(v=old),), (said,)), "new": (bare(new),), "old": (bare(old),),
                "verbatim": (bare(new),), "absent": ("lives in",)}  # fmt: skip

    return build


def moved_place(*templates: str) -> Builder:
    """Session 1 says where the user lives; session 2 moves: the new place is where they live."""

    def build(gen: Gen, i: int) -> dict[str, object]:
        old, new = gen.rng.sample(PLACES, 2)
        said = templates[i % len(templates)].format(n=new)
        return {"sessions": ((f"I live in {old}.",), (said,)), "new": (bare(new),), "old": (bare(old),),
                "verbatim": (bare(new),)}  # fmt: skip

    return build


#: A plan, what a cancellation calls it, the plan's own wording, and a memory sharing a name with it that
#: must stay ("my sister lives in Lisbon" is not the Lisbon trip).
_PLANS = (
    ("I'm planning a trip to {x} in {month}.", "the {x} trip", "planning a trip", "My sister lives in {x}.", "sister"),
    ("I booked a table at {x} for Friday.", "the {x} dinner", "booked a table", "My cousin works at {x}.", "cousin"),
    ("I got tickets for the {x} concert next week.", "the {x} concert", "got tickets", "I listen to {x} a lot.",
     "listen"),
    ("We're throwing a barbecue for the {x} team on Saturday.", "the barbecue", "throwing a barbecue",
     "I love barbecue ribs.", "ribs"),
)  # fmt: skip


def cancel_case(*templates: str) -> Builder:
    """Session 1 states a plan and a memory sharing its name; session 2 calls the plan off: the plan
    stops being current, the other memory stays."""

    def build(gen: Gen, i: int) -> dict[str, object]:
        plan, called, own, other, mark = _PLANS[i % len(_PLANS)]
        x = bare(gen.pick(PLACES)).title() if i % len(_PLANS) == 0 else gen.brand()
        month = gen.date().split()[1]
        said = templates[i % len(templates)].format(what=called.format(x=x), What=called.format(x=x).capitalize())
        first = (plan.format(x=x, month=month), other.format(x=x))
        return {"sessions": (first, (said,)), "old": (own,), "keep": (mark,)}

    return build
