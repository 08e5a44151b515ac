"""The people (and things) in a user's life, by name: "my brother Tom" in one session lets "Tom is
allergic to shellfish" in a later one be kept as "User's brother Tom is allergic to shellfish".

Said alone, a statement about a third person reads as chit-chat and the local extractor drops it;
tied to the user, it is about their life (an allergy of a guest, a partner's diet). Ties come from
what the user said themselves ("my brother Tom", "Tom, my brother,", "my sister (Ann)") in earlier
turns of the batch, and from the user's active memories that state one ("User's brother Tom ...");
names said in passing ("our twins are called Ria and Sam", "we shop at Lidl") count too, without a
relation. Reading them from active memories only means a tie the user had erased ties nothing any
more. What is said of a tied person is read by the user's own rules as theirs (:func:`attribute_of`),
so that their home, employer or diet changes apart from the user's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from tasks.providers.clause_shape import DATE_WORDS
from tasks.providers.extraction_rules import RULES
from tasks.providers.wording import OPENERS, STOP
from tasks.textrules import ASKED, WEEKDAYS

#: Who someone can be to the user: relatives, partners, friends, people at work or next door, pets.
RELATIONS = frozenset({
    "wife", "husband", "partner", "spouse", "fiance", "fiancee", "boyfriend", "girlfriend", "son", "daughter",
    "kid", "child", "baby", "stepson", "stepdaughter", "mum", "mom", "mother", "dad", "father", "stepmom",
    "stepdad", "brother", "sister", "sibling", "twin", "grandma", "grandmother", "grandpa", "grandfather",
    "grandson", "granddaughter", "aunt", "uncle", "cousin", "niece", "nephew", "friend", "bestie", "flatmate",
    "roommate", "housemate", "neighbour", "neighbor", "colleague", "coworker", "boss", "manager", "mentor",
    "teacher", "doctor", "therapist", "lead", "landlord", "landlady",
    "dog", "cat", "puppy", "kitten", "parrot", "rabbit", "hamster", "horse",
})  # fmt: skip
#: The relation as said ("best friend", "team lead"); its last word must be one of RELATIONS. Shared with
#: :mod:`tasks.providers.in_passing`, which reads "he" after "my best friend Kenji".
RELATION_SAID = r"((?:best |little |older |younger |big |baby |twin |team |tech |line )?[a-z]+)"
_NAME = r"([A-Z][a-z]+)(?![\w'’-]*\s+[A-Z][a-z])"  # a first name, not the first word of "Tom Hanks"


def _forms(owner: str) -> tuple[re.Pattern[str], ...]:
    """The ways a tie is said, for ``owner`` ("my" in a turn, "User's" in a memory): relation then
    name ("my brother Tom", "my brother, Tom,", "my brother (Tom)"), or name then relation ("Tom, my brother")."""
    return (
        re.compile(rf"\b{owner} {RELATION_SAID}(?:,\s*| \(| (?:is )?(?:called|named) | ){_NAME}"),
        # an apposition: "Sam, my brother Tom" is two people
        re.compile(rf"\b{_NAME}, {owner} {RELATION_SAID}(?=[,.;!?)]|$)"),
    )


_TURN_FORMS = _forms(r"(?:[Mm]y|[Oo]ur)")


def _pairs(text: str, forms: tuple[re.Pattern[str], ...]) -> Iterable[tuple[str, str]]:
    relation_first, name_first = forms
    for m in relation_first.finditer(text):
        yield m[2], m[1].lower()
    for m in name_first.finditer(text):
        yield m[1], m[2].lower()


def ties(texts: Iterable[str], owner: str | None = None) -> dict[str, str]:
    """Name → relation for the ties stated in ``texts`` (turns with ``owner`` None, else memories of
    ``owner``, e.g. "User"). A name tied to two different relations is left out: it is ambiguous."""
    forms = _TURN_FORMS if owner is None else _forms(re.escape(owner) + "'s")
    found: dict[str, set[str]] = {}
    for text in texts:
        for name, relation in _pairs(text, forms):
            if relation.split()[-1] in RELATIONS and name.lower() not in STOP and name.lower() not in OPENERS:
                found.setdefault(name, set()).add(relation)
    return {name: next(iter(rel)) for name, rel in found.items() if len(rel) == 1}


#: "their" in a memory of the user is the user's "our" as reported speech writes it ("Took our dog
#: Biscuit to the vet" → "User mentioned that they took their dog Biscuit ..."), unless someone else is
#: named before it ("User's neighbour Jess said their son Max ...", "dinner with the Patels, their son Max"):
#: a name said before it (:func:`mentioned`), places after "in / to / from / at / near" aside.
_THEIR = re.compile(r"\btheir\b")
_PLACE = re.compile(r"\b(?:in|to|from|at|near|around|across|through|of) (?:the )?[A-Z][a-z]+")


def _owners_their(text: str, owner: str) -> str:
    if not text.startswith(owner) or (m := _THEIR.search(text)) is None:
        return text
    return text if mentioned([_PLACE.sub("", text[: m.start()])]) else _THEIR.sub(f"{owner}'s", text)


def memory_ties(contents: Iterable[str], owner: str = "User") -> dict[str, str]:
    """Name → relation for the ties the ``owner``'s memories state: "User's brother Tom", and "their
    dog Biscuit" in a memory about the owner (the owner's "our"). Ambiguous names are left out."""
    # Only a text saying "<owner>'s", or an owner's memory saying "their", can state a tie: the rest are
    # skipped before the patterns run (recall reads ~30 candidates a query; 0.4 ms of its p50).
    said = f"{owner}'s"
    return ties(
        [_owners_their(t, owner) for t in contents if said in t or (t.startswith(owner) and "their" in t)],
        owner=owner,
    )


#: A capitalised word inside a sentence: a name of someone or something ("the twins, Ria and Sam", "Lidl").
_MENTION = re.compile(r"(?<=[\w,;:)] )([A-Z][a-z]+(?:[A-Z][a-z]+)*)\b(?!')")
_NOT_NAMES = DATE_WORDS | {f"{d.capitalize()}s" for d in WEEKDAYS}  # "on Saturdays"


def mentioned(texts: Iterable[str]) -> dict[str, str]:
    """Names said inside the user's sentences, with no relation (name -> ""): what the user later says
    of them by the name alone ("Ria's allergist said ...") is about their life, not chit-chat."""
    found: dict[str, str] = {}
    for text in texts:
        for m in _MENTION.finditer(ASKED.sub("", text)):  # the quoted question's words are the agent's
            if m[1] not in _NOT_NAMES and m[1].lower() not in STOP and m[1].lower() not in OPENERS:
                found[m[1]] = ""
    return found


def merged(*sources: Mapping[str, str]) -> dict[str, str]:
    """Names from several sources, later ones winning for a name they both know (a tie over a mention)."""
    out: dict[str, str] = {}
    for source in sources:
        out.update(source)
    return out


#: A clause that opens by naming someone with their tie: "My son Elif lives ...", "Elif, my son, lives ...".
_LEADS = (
    re.compile(rf"^(?:[Mm]y|[Oo]ur) {RELATION_SAID},? {_NAME},?\s+(?=\w)"),
    re.compile(rf"^{_NAME}, (?:my|our) {RELATION_SAID},\s+(?=\w)"),
)
_BACK = {"is": "am", "has": "have", "does": "do", "isn't": "am not", "doesn't": "don't", "hasn't": "haven't"}


def named_lead(clause: str) -> tuple[str, str, str] | None:
    """(name, relation, what is said of them) when ``clause`` opens with someone and their tie."""
    for index, form in enumerate(_LEADS):
        if (m := form.match(clause)) is not None:
            relation, name = (m[1], m[2]) if index == 0 else (m[2], m[1])
            if relation.split()[-1].lower() in RELATIONS:
                return name, relation.lower(), clause[m.end() :]
    return None


def as_first_person(said: str) -> str:
    """What is said of someone as if they said it ("lives in Oslo" → "I live in Oslo"), so that the
    user's own rules read its attribute (home, employer, diet) and value."""
    m = re.match(r"((?:just|recently|now|also|still|finally) )?(\S+)(.*)", said, re.S)
    if m is None:
        return f"I {said}"
    adverb, verb, tail = m[1] or "", m[2], m[3]
    low = verb.lower()
    if low in _BACK:
        verb = _BACK[low]
    elif low.endswith("ies"):
        verb = verb[:-3] + "y"
    elif re.search(r"(?:ss|sh|ch|x|z|o)es$", low):
        verb = verb[:-2]
    elif low.endswith("s") and not low.endswith(("ss", "us")):
        verb = verb[:-1]
    return f"I {adverb}{verb}{tail}"


def attribute_of(name: str, said: str) -> tuple[str, str] | None:
    """(slot, value) when what is said of ``name`` states an attribute the user's own rules read
    ("lives in Oslo" → ``name:location``, "Oslo"), else None."""
    rule = next((r for fn in RULES if (r := fn(as_first_person(said), name)) and r.slot and r.value), None)
    return (f"{name.lower()}:{rule.slot}", rule.value) if rule is not None and rule.slot and rule.value else None


def opens_with_name(clause: str, names: Mapping[str, str]) -> bool:
    """The clause opens with one of ``names`` ("Ria's allergist said ..."), not a longer name ("Ria Lopez")."""
    name = re.match(r"([A-Z][a-z]+(?:[A-Z][a-z]+)*)\b(?!\s+[A-Z][a-z])", clause)
    return name is not None and name[1] in names


_MY_SOMEONE = re.compile(rf"\b[Mm]y {RELATION_SAID}")


def says_relative(clause: str) -> bool:
    """The clause speaks of someone in the speaker's life ("My brother just got engaged", "my kids"):
    news of theirs is worth keeping in fewer words than a remark of the speaker's own."""
    heads = (m[1].split()[-1] for m in _MY_SOMEONE.finditer(clause))
    return any(head in RELATIONS or head.removesuffix("s") in RELATIONS for head in heads)


#: Who moves house with the user: a partner, their children, their pets (not a flatmate, nor their parents).
_HOUSEHOLD = frozenset({
    "wife", "husband", "partner", "spouse", "fiance", "fiancee", "boyfriend", "girlfriend", "son", "daughter", "kid",
    "child", "children", "baby", "babies", "stepson", "stepdaughter", "twin", "dog", "cat", "puppy", "puppies",
    "kitten", "parrot", "rabbit", "hamster", "family",
})  # fmt: skip
#: What a residence says the user lives with, to the end of its clause ("with User's two cats, Pixel and Byte").
_WITH = re.compile(
    r"\bwith ((?:User's|their|our) .+?)(?=[.;(]|,?\s+(?:and|but|who|where|since)\s+(?!User's|their|our|[A-Z])|$)"
)


def household(residence: str) -> str:
    """Those a residence says the user lives with, if all are their household ("User's partner Sam", "User's
    two cats, Pixel and Byte"): a move takes them along. Empty when none is said, or one is not (a flatmate)."""
    found = _WITH.search(residence)
    if found is None:
        return ""
    said = [w.removesuffix("s") for w in re.findall(r"[a-z]+", found[1])]
    heads = [w for w in said if w in RELATIONS or w in _HOUSEHOLD]
    return found[1].strip() if heads and all(h in _HOUSEHOLD for h in heads) else ""


#: An answer that opens with someone of the user's: "my husband, Theo", "no, my daughter", "it's my dad".
_ANSWERED_AS = re.compile(rf"^\W*(?:(?:no|nope|actually|well|it['’]s)[,!.]?\s+)*[Mm]y {RELATION_SAID}\b")


def renamed(question: str, answer: str) -> str | None:
    """``question`` with the one person of the user's it names ("What does your wife enjoy?") replaced by
    the other the answer names ("my husband, Theo"), so that a stored answer does not repeat whom the
    agent got wrong; None when the answer names no one else."""
    said = _ANSWERED_AS.match(answer)
    if said is None or said[1].split()[-1] not in RELATIONS:
        return None
    asked = [m for m in re.finditer(rf"\byour {RELATION_SAID}\b", question) if m[1].split()[-1] in RELATIONS]
    if len(asked) != 1 or asked[0][1] == said[1]:
        return None
    return question[: asked[0].start(1)] + said[1] + question[asked[0].end(1) :]


#: The answer's own "yes" said with the person: "my brother is, yes", "my dad does".
_ECHOED = re.compile(
    rf"^\W*(?:(?:no|nope|actually|well)[,!.]?\s+)*[Mm]y {RELATION_SAID}\s+(?:is|does|will|has|can|did|was)\b"
    r"[,.!]*\s*(?:(?:yes|yeah|yep)\b[,.!]*\s*)?"
)


def echoed(answer: str) -> str:
    """An answer that only says yes with the person it names ("my brother is, yes") as the "yes" it says,
    so that it is kept with the question it answers; any other answer as it is ("my dad does, ten minutes
    away" says more, with whom it is about)."""
    said = _ECHOED.match(answer)
    if said is None or said[1].split()[-1] not in RELATIONS or answer[said.end() :].strip(" .!"):
        return answer
    return "yes"
