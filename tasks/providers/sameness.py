"""Does a fact say again what a memory says, or only look like it does?

Cosine alone answers both wrongly. "User is learning Spanish and Italian" is 0.90 from "User is
learning Spanish", and "User plays football" 0.85 from "User's son plays football": judged duplicates,
the new language and the user's own sport were lost. "Utrecht is where User lives, by the way" is only
0.88 from "User lives in Utrecht": judged distinct, a restatement became a second memory that takes a
second slot in every recall about it. So a repeat is judged by words: the fact names nothing the memory
does not (talk about talking — "as I said", "by the way", "remember" — aside), and of the same person.
"""

from __future__ import annotations

import re
from datetime import timedelta
from functools import lru_cache

from tasks.models import Fact
from tasks.providers.clause_shape import TOLD, WHEN_TOLD
from tasks.providers.people import RELATIONS
from tasks.providers.wording import content_words, has_change_cue, is_negated, strip_annotation
from tasks.rows import MemoryRow
from tasks.textrules import ASKED
from tasks.third_person import IRREGULAR_PAST

#: Statements further apart than this are of different occasions (sessions last hours).
OCCASION = timedelta(hours=12)
#: A memory's opening quoted question, if any: '(Asked by the agent: "What's the job?") ...'.
_QUOTED = r"^\s*(?:\([^)]*\)\s*)?"
#: Asides about the telling, not the thing told: "as I said", "like I told you before", "just so you know"
#: (said of the speaker in the third person, anywhere; the extractor drops them at a sentence's start).
_WHEN_TOLD = rf"(?: (?:{WHEN_TOLD}|already))?"
_ASIDE = re.compile(
    rf"\b(?:like|as) (?:\w+ )?(?:has |have |had )?(?:already )?(?:{TOLD}|says|knows?){_WHEN_TOLD}\b"
    rf"|\b\w+ (?:has |have |had )?(?:already )?told you{_WHEN_TOLD}(?: that)?\b|\b(?:just )?so you know\b"
    r"|\bby the way\b|\bdon't forget\b|\bas always\b|\bfor the record\b",
    re.I,
)
#: Words about the telling left once the asides are out: "User mentioned that", "remember", "still", "again".
TELLING = content_words("mention mentioned remember reminder still again fyi btw")
#: The words of a clause that only comments on the telling: "Same as before", "Nothing's changed", "Yeah".
_COMMENT = content_words(
    "same before nothing changed change usual ever again still yes yeah yep right okay ok well anyway "
    "said say told tell know"
)
#: How often a habit or taste holds, said for emphasis: "always prefers an aisle seat" is "prefers an aisle seat".
_EMPHASIS = content_words("always usually normally generally definitely")
#: Whose the memory is: "User's son ...", "Melanie's kids ..." (its first words, past a quoted question).
_OWNER = re.compile(rf"{_QUOTED}[\w-]+'s ([a-z]+(?:-[a-z]+)*)\b")
#: People a memory may be about beyond the named relations: "User's parents", "User's in-laws", "User's family".
_KIN = frozenset({"parent", "grandparent", "in-law", "family", "folk", "relative", "grandchild", "grandkid"})
_PLURALS = {"children": "child", "grandchildren": "grandchild", "wives": "wife", "families": "family"}
#: The telling's own frame before what is told: a quoted question, "User mentioned that", "User asked to remember:".
TELLING_FRAME = rf"{_QUOTED}(?:[\w'’-]+ (?:mentioned(?: that|:)|asked to remember:)\s*)?"
#: The frame compiled, for those that strip it off a memory before reading what it says.
TELLING_RE = re.compile(TELLING_FRAME)
#: What may stand beside a name said alone as a repeat: "Still Zedwin", "It's Zedwin", "Yes, Zedwin again".
_ALONE = re.compile(r"|still|again|yes|yeah|yep|it's|it|is|a|an|the|same", re.I)
_CLAUSES = re.compile(r"\s*[,:;]\s+")
#: Past participles that name or place, not something done: "a cat named Miso", "a firm based in Leeds".
_NAMING = frozenset({"named", "called", "nicknamed", "based", "located"})
#: Words after which a past form is a state ("is married", "has played for years"), not something done.
_STATE_BEFORE = frozenset({"is", "are", "was", "were", "be", "been", "has", "have", "had", "am", "get", "got"})


def inflected(word: str, stem: str, shortest: int = 4) -> bool:
    """``word`` is ``stem`` or an inflection of it ("swimming" / "swim", "driving" / "drive", "drives"), also
    as the stemmer leaves them ("swimm" / "swim")."""
    if word == stem:
        return True
    for base in {stem, stem[:-1] if stem.endswith("e") else stem}:
        if len(base) < shortest or not word.startswith(base):
            continue
        rest = word[len(base) :]
        doubled = rest[:1] == base[-1] and rest[1:] in {"", "ing", "ed", "er"}  # "swimming", "swimm"
        if doubled or rest in {"s", "es", "d", "ed", "ing", "er", "ers"}:
            return True
    return False


def owner(text: str) -> str:
    """The person in the user's life a memory is about ("son"), or "" for the speaker themselves."""
    found = _OWNER.match(strip_annotation(text))
    if found is None:
        return ""
    word = found[1].lower()
    head = word.split("-")[0] if word.split("-")[0] in RELATIONS else word  # "mother-in-law"
    for form in (head, _PLURALS.get(head, head), head.removesuffix("s")):
        if form in RELATIONS or form in _KIN:
            return form
    return ""


#: Someone the speaker has, said with what is told of them: "User has a son who plays football".
_HAS = re.compile(rf"{_QUOTED}[\w-]+ has (?:a|an|one|two|three|\w+) ([a-z-]+) (?:who|that|named|called)\b")


def holder(text: str) -> str:
    """Whom a memory tells about: its :func:`owner`, or someone the speaker has ("User has a cat named
    Miso" is about the cat, as "User's cat is named Miso" is; "User has a son who plays football" is not
    "User plays football")."""
    text = TELLING_RE.sub("", strip_annotation(text), count=1)
    found = owner(text)
    if found or (had := _HAS.match(text)) is None:
        return found
    return owner(f"User's {had[1]}")


#: A role said to have someone new: "User's new manager is Omar", "their new landlord is Mrs Okafor".
_NEW_ONE = re.compile(r"\b(?:new|current) ((?:[a-z-]+ ){0,2}[a-z-]+) (?:is|are) (?:Dr |Mr |Mrs |Ms )?[A-Z]")


def names_new_holder(fact: Fact, memory: MemoryRow) -> bool:
    """``fact`` names someone new in the role ``memory`` names someone in (both values names)."""
    found = _NEW_ONE.search(fact.content)
    role = f"about:{found[1]}" if found else ""
    return bool(role) and memory.slot == fact.slot == role and (memory.value or "")[:1].isupper()


def _spelled(word: str) -> str:
    """One spelling for British and American forms: "favourite" / "favorite", "organise" / "organize"; one
    word for a name given ("called" / "named")."""
    if word == "call":
        return "nam"
    if len(word) > 5:
        word = word.replace("our", "or")
        word = word[:-2] + "iz" if word.endswith("is") else word
    return word


@lru_cache(maxsize=1 << 16)
def _said(text: str) -> frozenset[str]:
    told = content_words(_ASIDE.sub(" ", ASKED.sub("", strip_annotation(text), count=1))) - TELLING - _EMPHASIS
    return frozenset(_spelled(w) for w in told)


def _unsaid(words: frozenset[str], old: frozenset[str]) -> frozenset[str]:
    """``words`` that ``old`` holds in no inflection. Two different words are kin only when both have four
    letters or more and share the first four (:func:`inflected`), so each word is tried against those only."""
    unsaid = [w for w in words if w not in old]
    if not unsaid:
        return frozenset()
    by_prefix: dict[str, list[str]] = {}
    for o in old:
        if len(o) >= 4:
            by_prefix.setdefault(o[:4], []).append(o)
    return frozenset(w for w in unsaid if len(w) < 4 or not any(_kin(w, o) for o in by_prefix.get(w[:4], ())))


@lru_cache(maxsize=1 << 18)
def _kin(word: str, other: str) -> bool:
    """One word is an inflection of the other (each pair read once: a LoCoMo-dev run asks ~3.6M times)."""
    return inflected(word, other) or inflected(other, word)


def _opening_aside(clause: str, old: frozenset[str]) -> bool:
    """A first clause that only comments on the telling ("Same as before", "Nothing's changed", "User said it
    before", "Yeah"): at most two words, all of them words about sameness or telling, none of the memory's.
    "That's cool" or a speaker's name ("Melanie: ...") is something said, not an aside."""
    said = _said(clause)
    return len(said) <= 2 and said <= _COMMENT and _unsaid(said, old) == said and not re.search(r"\d", clause)


@lru_cache(maxsize=1 << 16)
def _old(memory: str) -> frozenset[str]:
    """The memory's content words as :func:`_said` spells them (each memory is read against many facts)."""
    return frozenset(_spelled(w) for w in content_words(strip_annotation(memory)))


def _told(fact: str, old: frozenset[str]) -> str:
    """``fact`` without its frame and opening asides."""
    clauses = _CLAUSES.split(TELLING_RE.sub("", strip_annotation(fact), count=1))
    while len(clauses) > 1 and _opening_aside(clauses[0], old):
        clauses = clauses[1:]
    return ", ".join(clauses)


def told_words(text: str) -> frozenset[str]:
    """The content words of what ``text`` tells, its frame and asides about the telling left out."""
    return _said(_told(text, frozenset()))


def new_words(fact: str, memory: str) -> frozenset[str]:
    """The content words of ``fact`` that ``memory`` does not say, in any inflection, opening asides aside."""
    old = _old(memory)
    return _unsaid(_said(_told(fact, old)), old)


def repeats(fact: str, memory: str, frame: str = "") -> bool:
    """``fact`` names nothing ``memory`` does not, of the same person: confirming it loses nothing. The
    fact's ``frame`` may differ ("User still plays kabaddi" repeats "User's sport is kabaddi")."""
    verbs = [v[:-1] if v.endswith("y") else v for v in content_words(frame)]  # "fly" / "flies", "go" / "goes"
    said = {w for w in new_words(fact, memory) if not any(w.startswith(v) and len(w) - len(v) <= 2 for v in verbs)}
    return holder(fact) == holder(memory) and not said


def confirms(fact: Fact, memory: MemoryRow, said: str, frame: str = "") -> bool:
    """IGNORE of ``fact`` as ``memory`` (which says ``said``) loses nothing: it repeats it, or is another
    view of the same turn ("User likes the job" beside "after eight years as a nurse User still likes the
    job", whose nurse the occupation keeps). Something done is news beside what was only planned or going on
    ("User passed the MRCP" beside "User has got the MRCP exam on 14 March")."""
    if set(fact.source_event_ids) & set(memory.source_event_ids):
        return True
    return repeats(fact.content, said, frame) and not (done(fact.content) and not done(said))


def _bare(word: str) -> str:
    return re.sub(r"[^\w'’]", "", word).lower()


def is_past(word: str) -> bool:
    return ((len(word) > 3 and word.endswith("ed")) or word in IRREGULAR_PAST) and word not in _NAMING


def done(text: str) -> bool:
    """``text`` says something was done on an occasion ("User went hiking", "User's son booked the vet"):
    a past form among its first words, not after "is" or "has", nor one that names ("a cat named Miso")."""
    return done_verb(text) is not None


def done_verb(text: str) -> str | None:
    """The past form :func:`done` found ("went"), or None."""
    told = _ASIDE.sub(" ", TELLING_RE.sub("", strip_annotation(text), count=1)).lower().split()[:5]
    for i, word in enumerate(told):
        if is_past(_bare(word)) and (i == 0 or told[i - 1] not in _STATE_BEFORE):
            return _bare(word)
    return None


def restates(fact: str, memory: str) -> bool:
    """``fact`` says ``memory`` again in other words ("Utrecht is where User lives, by the way" for "User
    lives in Utrecht"): it repeats it, says at least two of its words and half of them, with the same
    polarity and no change cue, and is a state, not something done again on another occasion. A name
    said alone ("Still Zedwin, as I said") is enough of it."""
    memory_words = _old(memory)
    told = _told(fact, memory_words)
    said, old = _said(told), _said(memory)
    rest = [w for w in _ASIDE.sub(" ", told).split() if not w[:1].isupper()]
    named = len(said) == 1 and all(_ALONE.fullmatch(w.strip(",.;:!")) for w in rest)
    if not (named or (len(said) >= 2 and 2 * len(said) >= len(old))):
        return False
    if holder(fact) != holder(memory) or _unsaid(said, memory_words):  # what repeats() asks, on words read once
        return False
    return is_negated(fact) == is_negated(memory) and not has_change_cue(fact) and not done(told)


def extends(fact: str, memory: str) -> bool:
    """``fact`` says all ``memory`` says and more, of the same state ("User is learning Spanish and Italian"
    for "User is learning Spanish"): the memory restates it, and the fact is no change and nothing done
    again ("User went hiking in Snowdonia with Sam" is another hike), nor adds something done ("volunteers at
    the shelter and gave a talk there": the talk is an event of its own day)."""
    added = new_words(fact, memory)
    if not added or has_change_cue(fact) or done(_told(fact, _old(memory))):
        return False
    if any(said & added for said in _past_said(fact)):
        return False
    return restates(memory, fact)


@lru_cache(maxsize=1 << 14)
def _past_said(fact: str) -> tuple[frozenset[str], ...]:
    """The words of each past form in ``fact`` (a fact is read against each of its candidates)."""
    return tuple(_said(w) for w in map(_bare, strip_annotation(fact).split()) if is_past(w))
