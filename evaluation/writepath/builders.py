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


_RELATIVES = ("brother", "sister", "daughter", "son", "partner", "wife", "husband", "mum", "dad", "friend",
              "colleague", "neighbour", "cousin", "boss", "grandmother", "flatmate")  # fmt: skip
#: What is later said of them: (predicate, the value that must survive in the tied memory).
_ABOUT = (
    ("is allergic to shellfish", "shellfish"), ("started a new job at {brand}", "{brand}"),
    ("can't eat dairy", "dairy"), ("moved to {place}", "{place}"), ("hates loud restaurants", "loud restaurants"),
    ("is training for a marathon", "marathon"), ("is flying in from {place}", "{place}"),
    ("got a puppy called {brand}", "{brand}"), ("broke a wrist skiing", "wrist"),
)  # fmt: skip


def person_case(intros: tuple[str, ...], facts: tuple[str, ...]) -> Builder:
    """Session 1 mentions someone in the user's life by relation and first name; session 2 says something
    of them by the name alone. One active memory must tie what was said to the relation ("User's brother
    Tom is allergic to shellfish"): said alone, it was read as chit-chat and lost."""

    def build(gen: Gen, i: int) -> dict[str, object]:
        rel, name = _RELATIVES[i % len(_RELATIVES)], gen.person().split()[0]
        brand, place = gen.brand(), bare(gen.pick(PLACES)).title()
        pred, value = (p.format(brand=brand, place=place) for p in _ABOUT[i % len(_ABOUT)])
        first = intros[i % len(intros)].format(rel=rel, name=name)
        said = facts[i % len(facts)].format(name=name, pred=pred)
        return {"sessions": ((first,), (said,)), "new": (f"{rel} {name} {' '.join(pred.split()[:2])}",),
                "keep": (value,), "verbatim": (value,)}  # fmt: skip

    return build


#: (the user's own statement, the person's old state, the change, the user's value, old, new) per domain.
_PERSON_CHANGES = (
    ("I live in {mine}.", "My {rel} {name} lives in {old}.", "{name} moved to {new} last month.", "places"),
    ("I work at {mine}.", "My {rel} {name} works at {old}.", "{name} just started at {new}.", "brands"),
    ("I'm {mine}.", "My {rel} {name} is {old}.", "{name} is {new} now.", "diets"),
)
_DIET_PAIRS = (
    ("vegan", "vegetarian", "pescatarian"), ("vegetarian", "vegan", "keto"), ("pescatarian", "keto", "vegan"),
)  # fmt: skip


def person_change_case(intros: tuple[str, ...] = (), changes: tuple[str, ...] = ()) -> Builder:
    """Session 1: the user's own value and someone's of theirs; session 2: that person's value changes.
    The person's old value stops being current, the new one is said, and the user's own value stays."""

    def build(gen: Gen, i: int) -> dict[str, object]:
        own, intro, change, kind = _PERSON_CHANGES[i % len(_PERSON_CHANGES)]
        rel, name = _RELATIVES[(i + 3) % len(_RELATIVES)], gen.person().split()[0]
        if kind == "places":
            mine, old, new = (bare(p).title() for p in gen.rng.sample(PLACES, 3))
        elif kind == "brands":
            mine, old, new = gen.brand(), gen.brand(), gen.brand()
        else:
            mine, old, new = _DIET_PAIRS[(i // 3) % len(_DIET_PAIRS)]
        intro = intros[i % len(intros)] if intros else intro
        said = changes[i % len(changes)] if changes else change
        fill = {"rel": rel, "name": name, "old": old, "new": new, "mine": mine, "verb": _VERBS[kind]}
        first = (own.format(**fill), intro.format(**fill))
        return {"sessions": (first, (said.format(**fill),)), "new": (new,), "old": (old,), "keep": (mine,)}

    return build


_VERBS = {"places": "lives in", "brands": "works at", "diets": "is"}


#: Something the user names in passing (session 1), then says more of by the name alone (session 2):
#: (intro, a dev statement, a held-out statement, the value that must be kept).
_MENTIONS = (
    ("We always shop at {x} on Saturdays.", "{x} got too expensive, so we're looking around.",
     "Oh, {x} is too expensive now, apparently.", "expensive"),
    ("Our twins are called {x} and Sam.", "{x}'s allergist said it's only peanuts.",
     "Turns out {x} is only allergic to peanuts.", "peanuts"),
    ("I'm halfway through {x}, the new thriller.", "{x} was a letdown after that twist.",
     "{x} was a letdown in the end, honestly.", "letdown"),
    ("Our gym is {x}, near the station.", "{x} is closing for repairs in June.",
     "Apparently {x} closes for repairs next month.", "repairs"),
)  # fmt: skip


def mention_case(heldout: bool = False) -> Builder:
    """Session 1 names someone or something without a tie ("our twins are called Ria and Sam", "we shop
    at Lidl"); session 2 says something of it by the name: kept, not dropped as talk about someone else."""

    def build(gen: Gen, i: int) -> dict[str, object]:
        intro, dev, held, value = _MENTIONS[i % len(_MENTIONS)]
        x = gen.person().split()[0] if "twins" in intro else gen.brand()
        said = (held if heldout else dev).format(x=x)
        return {"sessions": ((intro.format(x=x),), (said,)), "new": (value,), "keep": (value,)}

    return build


#: A duty or plan and the user's later word that it is done: (what to do, the past tense, the thing).
_DUTIES = (
    ("renew my passport", "renewed", "passport"), ("book the vet for Rex", "booked", "vet"),
    ("repaint the fence", "repainted", "fence"), ("call the plumber about the leak", "called", "plumber"),
    ("return the library books", "returned", "library books"), ("update my CV", "updated", "CV"),
)  # fmt: skip


def done_case(plans: tuple[str, ...], dones: tuple[str, ...]) -> Builder:
    """Session 1 says something is to be done; session 2 says it was done: the duty stops being current
    ("User needs to renew ..." is closed) and what was done is said."""

    def build(gen: Gen, i: int) -> dict[str, object]:
        todo, past, thing = _DUTIES[i % len(_DUTIES)]
        base = todo.split()[0]
        done = f"{past} {todo.split(' ', 1)[1].replace('my ', 'the ')}"
        said = dones[i % len(dones)].format(done=done, Done=done[:1].upper() + done[1:])
        return {"sessions": ((plans[i % len(plans)].format(todo=todo),), (said,)), "old": (f"{base} ",),
                "new": (past,), "keep": (thing,)}  # fmt: skip

    return build


def other_negation_case(templates: tuple[tuple[str, str], ...]) -> Builder:
    """One session: a plan with two friends, then one of them can't do something. The negation is
    about the friend, so the plan stays current (it was closed as "contradicted")."""

    def build(gen: Gen, i: int) -> dict[str, object]:
        a, b = gen.person().split()[0], gen.person().split()[0]
        place = bare(gen.pick(PLACES)).title()
        plan, said = templates[i % len(templates)]
        return {"sessions": ((plan.format(a=a, b=b, place=place), said.format(a=a, b=b, place=place)),),
                "keep": (place,), "new": ("can't",), "single": False}  # fmt: skip

    return build
