"""What chat says in passing around a question: of someone the question names, in a hedge, or in a
fragment that follows the news it belongs to.

- "help me write a toast for my best friend Kenji's 40th, he's obsessed with fly fishing": the
  request is dropped, and with it what the user said of Kenji, since "he" names no one on its own.
  :func:`said_of_them` writes the pronoun out as the person (or thing) the request named: "my best
  friend Kenji is obsessed with fly fishing", a sentence of its own.
- "i think i might be gluten sensitive??": a self-statement typed with a question mark is a hedge,
  not a question to the agent (:func:`unhedged`); "i think i should quit my job?" still asks.
- "just got into a PhD program!!! computational biology at UW": a piece with no subject and no verb
  says more of the sentence before it (:func:`fragments_joined`), where alone it was too thin to keep.
"""

from __future__ import annotations

import re
from collections.abc import Collection

import tasks.providers.clause_shape as shape
from tasks.providers.implicit_subject import FINITE, with_subject
from tasks.providers.people import RELATION_SAID, RELATIONS
from tasks.textrules import FIRST_PERSON, REQUEST, content_words
from tasks.third_person import IRREGULAR_PAST

#: Relations that "she" / "he" cannot mean.
_FEMALE = frozenset({
    "wife", "girlfriend", "fiancee", "daughter", "stepdaughter", "mum", "mom", "mother", "stepmom", "sister",
    "grandma", "grandmother", "granddaughter", "aunt", "niece",
})  # fmt: skip
_MALE = frozenset({
    "husband", "boyfriend", "fiance", "son", "stepson", "dad", "father", "stepdad", "brother", "grandpa",
    "grandfather", "grandson", "uncle", "nephew",
})  # fmt: skip
#: Someone the user names as theirs: "my best friend Kenji", "my mom", "my sister's", "my new kitten" (name
#: optional).
_PERSON = re.compile(rf"\b[Mm]y (?:new )?{RELATION_SAID}(?:,? ((?:(?:Mrs|Mr|Ms|Dr|Miss)\.? )?[A-Z][a-z]+))?")
#: Something of theirs ("my essay", "my cover letter", "my laptop"): up to two words, not a person.
_THING = re.compile(r"\b[Mm]y ([a-z]{3,}(?: (?!for|to|in|on|at|with|and|or|from|about|this|that|by)[a-z]{3,})?)\b")
#: A pronoun opening what is said of them, and its verb: "he's", "she loves", "it's due".
_PRONOUN = re.compile(r"^(he|she|it|they)(?:(['’]s|['’]re)\s+(\w+)|\s+(?=\w))", re.I)
_HAS = frozenset({"been", "got", "gotten", "had", "gone"})
#: Where what is said of them starts inside the asking sentence: after a comma, a semicolon or a dash.
_BREAK = r"\s*(?:[,;]|\s[—–-])\s+"
_AFTER = re.compile(rf"{_BREAK}(?=(?:he|she|it|they)\b)", re.I)
#: The user's own statement after a request: "help me with a speech, we grew up together in Vancouver".
_AFTER_OWN = re.compile(rf"{_BREAK}(?=(?:I|we|my|our)\b(?!\s+(?:can|could|should|would|do)\b))")
#: Chat's short names for a partner or a friend, written out after "my".
_SHORT = {"bf": "boyfriend", "gf": "girlfriend", "bff": "best friend", "hubby": "husband", "wifey": "wife"}
_SHORT_SAID = re.compile(rf"\b([Mm]y) ({'|'.join(_SHORT)})\b")


#: A task set for the agent without "can you": "plan a party for ...", "pick a gift for ...".
_TASK = re.compile(
    r"(?:pls |please )?(?:plan|organi[sz]e|pick|choose|brainstorm|come up with|make|create|buy|get|find)"
    r" (?:me |us )?(?:a|an|some|the|something)\b",
    re.I,
)


def _asks(sentence: str) -> bool:
    """A question or a request to the agent, where a pronoun after it can only mean someone it names."""
    return sentence.rstrip().endswith("?") or REQUEST.match(sentence) is not None or _TASK.match(sentence) is not None


def _referent(ask: str, pronoun: str) -> str | None:
    """The person or thing a pronoun after ``ask`` means: its last mention that agrees with it."""
    pronoun = pronoun.lower()
    if pronoun == "it":
        things = [m for m in _THING.finditer(ask) if m[1].split()[0] not in RELATIONS and not m[1].endswith("s")]
        return f"my {things[-1][1]}" if things else None
    for person in reversed(list(_PERSON.finditer(ask))):
        head = person[1].split()[-1]
        plural = (head.endswith("s") and head[:-1] in RELATIONS) or head == "parents"
        if head not in RELATIONS and not plural:
            continue
        agrees = {"he": head not in _FEMALE and not plural, "she": head not in _MALE and not plural}
        if agrees.get(pronoun, plural):
            return " ".join(p for p in ("my", person[1], person[2]) if p)
    return None


def _about(piece: str, ask: str) -> str | None:
    """``piece`` with its opening pronoun written out as what ``ask`` named, or None."""
    opening = _PRONOUN.match(piece)
    if opening is None or (who := _referent(ask, opening[1])) is None:
        return None
    if not opening[2]:
        return f"{who} {piece[opening.end() :]}"
    if opening[2][1:] == "re":
        return f"{who} are {opening[3]}{piece[opening.end() :]}"
    verb = "has" if opening[3].lower() in _HAS else "is"
    return f"{who} {verb} {opening[3]}{piece[opening.end() :]}"


def said_of_them(sentences: list[str]) -> list[str]:
    """Each sentence; what follows a request or a question about someone it names, as said of them."""
    out: list[str] = []
    ask: str | None = None
    for sentence in sentences:
        if ask is not None and (about := _about(sentence, ask)) is not None:
            out.append(about)  # "what should i get my mom? she's into gardening"
            ask = None
            continue
        head, *rest = _AFTER.split(sentence, maxsplit=1)
        if rest and _asks(head) and (about := _about(rest[0], head)) is not None:
            # "plan a party for my daughter Mia, she loves unicorns": a task set for the agent is not kept
            out += [about] if _TASK.match(head) else [head, about]
            ask = None
            continue
        own = _AFTER_OWN.split(sentence, maxsplit=1)
        if own[1:] and _asks(own[0]):  # "help me with a speech, we grew up together in Vancouver"
            out += own[1:] if _TASK.match(own[0]) else own  # the request is dropped later, the statement kept
        else:
            out.append(sentence)
        ask = sentence if _asks(sentence) else None
    return out + _named(out)


def _named(sentences: list[str]) -> list[str]:
    """Who a request names as the user's, when nothing else is said of them: "can you write to my landlady
    Mrs. Okafor?" tells that the landlady is Mrs. Okafor."""
    named: list[str] = []
    for sentence in (s for s in sentences if _asks(s)):
        for person in _PERSON.finditer(sentence):
            if person[2] and person[1].split()[-1] in RELATIONS:
                told = [s for s in sentences if person[2] in s and s is not sentence]
                named += [] if told else [f"My {person[1]}'s name is {person[2]}."]
    return named


#: A hedged self-statement: "i think i might be ...", "pretty sure i'm ...", "maybe i have ...".
_HEDGE = re.compile(
    r"^(?:(?:i think|i guess|i suspect|i feel like|pretty sure|maybe|probably|possibly)\s+)?i"
    r"(?:['’]?m|\s+am|\s+(?:might|may|could) (?:be|have)|\s+have)\b(?!\s+(?:to|i)\b)",
    re.I,
)


def unhedged(sentence: str) -> str:
    """A self-statement typed with "?" or "??" as a hedge, with its question marks made a full stop."""
    opener = _HEDGE.match(sentence)
    if not sentence.endswith("?") or opener is None or not re.match(r"\w+\s+\w+\s+\w", sentence):
        return sentence
    asked = re.compile(r"\b(?:should|can|could|would|do|does|is|are|what|how|why|when|where)\b", re.I)
    if asked.search(sentence, opener.end()):
        return sentence  # "i think i should quit?", "i'm flying friday, what should i pack?"
    return sentence.rstrip("?").rstrip() + "."


def fragments_joined(sentences: list[str]) -> list[str]:
    """Each sentence, a piece with no subject and no verb joined to the user's statement before it."""
    out: list[str] = []
    for sentence in sentences:
        prev = out[-1] if out else ""
        stated = prev and not _asks(prev) and (FIRST_PERSON.search(prev) or with_subject(prev) is not None)
        if stated and _thin(sentence):
            out[-1] = f"{prev.rstrip('!. ')}: {sentence}"  # "got into a PhD program: computational biology at UW"
        else:
            out.append(sentence)
    return out


#: A past form, or a name and its verb: "Byte died", "Pixel handles the trip", "Pixel handled it".
_SAID_VERB = re.compile(
    r"\b[a-z]{2,}ed\b|\b[A-Z]\w* (?:[a-z]+ly )?[a-z]{2,}s\b"
    r"|(?<=\w )[A-Z][a-z]+ (?!(?:and|or|at|in|on|for|with|from|to|of|by)\b)[a-z]+"  # "Sadly Byte died"
)


def _thin(sentence: str) -> bool:
    """No subject and no verb, yet two content words: "Golden retriever, 8 weeks old"; not "So relieved"
    (which is "I'm so relieved") nor "Thanks so much"."""
    return (
        not _asks(sentence)
        and ":" not in sentence  # "Allergies: peanuts", a list's item under its header, says what it is of
        and shape.is_verbless(sentence)
        and FINITE.search(sentence) is None
        and _SAID_VERB.search(sentence) is None  # "Sadly Byte died last month", "Pixel handles it fine"
        and not any(w in IRREGULAR_PAST for w in re.findall(r"[a-z]+", sentence.lower()))
        and with_subject(sentence) is None
        and not shape.is_small_talk(sentence)
        and len(content_words(sentence)) >= 2
    )


#: Present verbs a part after the user's own clause opens with ("..., bike everywhere", "..., work nights").
_DOES = re.compile(
    r"(?:(?:mostly|mainly|usually|also|still|just) )?(?:bike|cycle|walk|drive|commute|work|live|teach|study|cook|"
    r"train|swim|run|play|eat|drink|smoke|read|watch|go|take|have|own|love|like|hate|need|want|miss|use)\s",
    re.I,
)


_TASTES = re.compile(r"I (?:really |also |just )?(?:love|like|hate|enjoy|prefer|adore|dislike)\b")


def carried(sentence: str, names: Collection[str] = ()) -> str:
    """The user's "I" said again where a later part of their sentence leaves it out: "I'm a nurse, work
    nights mostly", "I don't drink coffee anymore, switched to green tea". A list ("I bought apples,
    pears, sliced bread") carries nothing: one short part without a verb stops it."""
    if not re.match(r"I\b", sentence):
        return sentence
    head, *parts = re.split(r",\s+", sentence)
    out = [head]
    for part in parts:
        if len(part.split()) < 2 or (shape.is_verbless(part) and len(part.split()) < 3 and not _DOES.match(part)):
            return ", ".join([*out, *parts[len(out) - 1 :]])
        if _TASTES.match(sentence) and _TASTES.match(f"I {part}"):
            out.append(part)  # "I love hiking, hate running": one list of tastes, which third_person reads as one
            continue
        said = with_subject(part, names) or (f"I {part[:1].lower()}{part[1:]}" if _DOES.match(part) else None)
        out.append(said or part)
    return ", ".join(out)


def in_passing(sentences: list[str]) -> list[str]:
    """The user's sentences with hedges, what is said of someone asked about, and fragments read as said."""
    written = [_SHORT_SAID.sub(lambda m: f"{m[1]} {_SHORT[m[2]]}", s) for s in sentences]  # "my bf Marcus"
    return fragments_joined(said_of_them([unhedged(s) for s in written]))
