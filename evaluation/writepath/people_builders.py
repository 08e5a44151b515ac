"""How the round-9 write-path families build their cases: the people in a user's life (named before,
their own changes, named in passing, what a friend can't do) and duties done. Split from
:mod:`evaluation.writepath.builders` (the earlier kinds) so that each stays short."""

from __future__ import annotations

from evaluation.writepath.builders import Builder, bare
from evaluation.writepath.values import PLACES, Gen

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
