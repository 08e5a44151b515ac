"""What a user's statement is about, without a lexicon: its frame, its value and its change cues.

A frame is the attribute a clause states ("my car is X" → frame ``car``; "I drive X" → ``drive``;
"I'm X" → ``be``; "I have X" → ``have``), the value is what follows. Cue words say whether the
clause replaces something ("switched", "no longer", "instead", "sold", "now"…) and which words
name the old value ("I sold *the Fiat*"). The consolidator combines these with the embedder's
similarity; no list of values (brands, sports, drinks) is needed for any of it. The one list is of kinds
of arrangement a date moved may name by kind alone ("the holiday", "the wedding": :data:`_KINDS`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from tasks.dates import MONTHS
from tasks.providers.wording import content_words
from tasks.textrules import WEEKDAYS

#: A plan called off ("the Lisbon trip got cancelled", "the deal fell through"), or said to be off ("Trip's
#: off", "The barbecue is off"; not "off to", "off work", "off sick", "off school").
_CALLED_OFF = (
    r"cancell?ed|called off|fell through|scrapped|(?<=\w)(?: is|['’]s| are|['’]re) off(?!\s+(?:to|work|sick|school|"
    r"on|for|until|till|today|tomorrow|this|next|the|my|our|his|her|their|duty|limits|guard)\b)"
)
#: What is sold is the user's own ("sold the Jazz", "selling my piano", "selling up"), not a trade ("selling
#: candles on Etsy", "sold 40 cupcakes at the market"), which ends nothing.
_OWNED = r"(?= (?:my|our|the|User's|their|his|her|him|it|them|this|that|both|up|off)\b|(?<=been sold)|(?<=was sold))"
#: A clause that replaces an earlier statement whatever its value.
STRONG_CUE = re.compile(
    rf"\b(?:switch(?:ed|ing)?|no longer|any ?more|instead|quit|(?:sold|selling){_OWNED}|(?:have |'ve )?moved|relocated|"
    r"changed (?:my|\w+'s) mind|got rid|gave up|given up|stopped|(?:is|are) (?:gone|over(?! the moon| here| there))|"
    r"from now on|nowadays|no more|"
    rf"{_CALLED_OFF})\b",
    re.I,
)
#: A plan called off: it closes a plan, never a fact that shares its name ("the Lisbon trip got cancelled"
#: leaves "my sister lives in Lisbon").
CANCEL_CUE = re.compile(rf"\b(?:{_CALLED_OFF})\b", re.I)
#: Wording of a plan or an arrangement: what a cancellation can close.
PLAN_WORDS = re.compile(
    r"\b(?:plan(?:s|ned|ning)?|book(?:ed|ing)|reserv(?:ed|ation)|tickets?|going to|gonna|will|'ll|scheduled|"
    r"appointment|meeting|throwing|hosting|organi[sz]ing|trip|visit(?:ing)?|flight|party|dinner|wedding|concert|"
    r"tomorrow|tonight|next (?:week|month|year|\w+day)|(?:on|this|for) (?:mon|tues|wednes|thurs|fri|satur|sun)day|"
    r"(?:is|are|['’]re|am|['’]m) (?:taking|flying|driving|heading|travelling|traveling)\b.{0,40}\bto [A-Za-z]\w*)\b",
    re.I,
)
#: A date moved: "the surgery has been postponed to 18 May", "pushed the wedding back to September", "brought
#: the launch forward to 1 March", "the dentist moved my appointment to Thursday" (not "moved to Lisbon").
_RESCHEDULED = re.compile(
    r"(?P<before>.*?)\b(?:moved|postponed|rescheduled|delayed|pushed|put|brought)\b(?P<what>(?: [\w'’-]+){0,4}?)"
    r"(?: back| forward)? (?:to|until|till) (?:the |next |on |early |mid-?|late )?"
    rf"(?:\d|(?:{'|'.join(MONTHS)}|{'|'.join(WEEKDAYS)})\b|tomorrow\b|next\b)",
    re.I,
)
_TELLER = content_words("User mentioned that they we got has have been was were is are being")
#: A time an arrangement is said to be at: what a date moved can move ("wedding budget" has none).
_A_TIME = re.compile(
    rf"\b(?:\d{{1,2}}(?:st|nd|rd|th)?|\d{{4}}|{'|'.join(MONTHS)}|{'|'.join(WEEKDAYS)}|tomorrow|tonight|"
    r"next (?:week|month|year|term)|this (?:week|month|year|weekend|summer|winter|spring|autumn|term))\b",
    re.I,
)
#: Arrangements called by their kind, each with the words that say one of that kind: "the holiday" moved is
#: "booked Madeira for the 14th of March", "the wedding" is "getting married 15 December".
_KINDS = tuple(
    content_words(words)
    for words in (
        "wedding married marry marrying",
        "holiday trip vacation booked flights nights getaway",
        "op operation surgery procedure",
        "party birthday celebration",
        "exam test",
    )
)


def rescheduled(text: str) -> Callable[[str], bool] | None:
    """When ``text`` moves something to another time (not "moved to Lisbon"), the test of which arrangement
    it moves: one it names ("the surgery", "the dentist moved User's appointment"), and whose it is when
    someone else's ("User's brother's wedding" is not the user's)."""
    m = _RESCHEDULED.search(text)
    if m is None:
        return None
    moved = f"{m['before']} {m['what']}"
    named = content_words(moved) - _TELLER
    named |= frozenset().union(*(kind for kind in _KINDS if kind & named))
    owners = content_words(" ".join(re.findall(r"\b(\w+)['’]s\b", moved))) - _TELLER

    def moves(said: str) -> bool:
        words = content_words(said)
        return bool(named & words) and owners <= words and _A_TIME.search(said) is not None

    return moves


#: Time words that mark a statement as the current state, weaker evidence of a change.
WEAK_CUE = re.compile(r"\b(?:now|these days|currently|lately|at the moment)\b", re.I)
#: The words after a cue that names what is no longer true ("sold *the Fiat*", "instead of *korfball*").
_OLD_SPAN = re.compile(
    r"\b(?:sold|quit|stopped|gave up|given up|got rid of|no longer \w+(?: to| with)?|instead of|switched from|"
    r"changed (?:my|\w+'s) mind about|not|no more|"
    r"(?:do not|don't|doesn't|does not) (?:(?:really|even|actually|\w+ly) )?\w+(?: to| with)?)\s+"
    r"((?:[\w'-]+\s?){1,4})"
    r"|\b((?:[\w'-]+\s?){1,3}) (?:is|are) (?:gone|over|history)\b|\b([\w-]+)(?:['’]s| has| have) been sold\b"
    # A plan called off: "we cancelled *the Nopa dinner*", "*the Dublin trip* got cancelled / fell through".
    r"|\b(?:cancell?ed|called off|scrapped)\s+((?:[\w'-]+\s?){1,4})"
    r"|\b((?:[\w'-]+\s?){1,3}) (?:(?:got|was|were|has been|have been|is|are) (?:cancell?ed|called off|scrapped)|"
    r"fell through|is off)\b|\b([\w-]+)['’]s (?:off|cancell?ed|called off|scrapped)\b",
    re.I,
)
#: Clause boundaries inside a sentence (the extractor's fact units).
CLAUSE_BREAK = re.compile(
    r"\s*;\s*|\s+-\s+"
    # "while" contrasts people ("I like tea while my wife likes coffee"); before a thing it says when
    # ("while the pool is closed") and stays with its statement.
    r"|,?\s+(?:(?:and|but|so|which means)\s+(?=(?:my|the|our|its|I)\b)|while\s+(?=(?:my|I)\b))(?!I (?:are|were|both)\b)"
    # a list's last item is not a clause: "me, my husband and our twins", "my laptop and the charger"
    r"(?!(?:my|the|our|its) (?:\w+ )?\w+\s*(?:[,.;!?)]|$))",
    re.I,
)
#: Identifiers, numbers and proper names: never dropped, always verbatim.
SPECIFIC = re.compile(r"\b[A-Z]{1,4}-?\d[\w-]*\b|\d|\b(?<!^)(?<![.!?] )[A-Z][a-z]+", re.M)
_TAIL_WORDS = re.compile(
    r"(?:\s+(?:now|these days|anymore|any more|instead|like before|on weekends|from now on|too|as well|again|"
    r"lately|currently|for me|sadly))+\s*$",
    re.I,
)
_MY = re.compile(
    r"\b(?:my|our|User's) ((?:[a-z-]+ ){0,2}[a-z-]+) (?:is|are|runs? on|uses)(?: now| still)? "
    r"(?P<v>[^,;.!?]{1,80})",
    re.I,
)
_I_VERB = re.compile(
    r"\b(?:I|User)(?: (?:now|still|also|usually|just|recently|finally|mostly|often))? "
    r"(?!(?:just|recently|finally|mostly|often|usually|also|still|now|"
    r"am|was|do|did|don't|doesn't|have|has|had|will|would|can|"
    r"could|sold|quit|stopped|switched|moved|changed|got|gave|no|not|never|is|said|mentioned)\b)"
    r"([a-z]+(?: (?:to|with|at|for))?) "
    r"(?P<v>[^,;.!?]{1,80})",
    re.I,
)
_I_AM = re.compile(r"\b(?:I'm|I am|User is)(?: now| still)? (?!not\b)(?P<v>[^,;.!?]{1,60})", re.I)
#: A perfect's participle: "I have lived here", "I have seen it" state no possession.
_PARTICIPLE = (
    r"[a-z]{3,}ed|used|seen|done|gone|taken|given|written|eaten|known|driven|made|found|lost|met|read|run|won"
    r"|bought|brought|taught|thought|told|sold|kept|felt|heard|left|spent|paid|built|become|come|begun|flown|grown|thrown|worn"
    r"|broken|chosen|forgotten|spoken|ridden|fallen|stolen|shown|sung|swum|drunk|tried|studied"
)
#: "I have a dog", "I have two kids", and a condition said bare: "I have asthma", "I have bad knees"; not "I have
#: to", "I have been", "I have lived", "I have no idea", "I have time".
_I_HAVE = re.compile(
    r"\b(?:I|User) (?:have|has)(?: got)? (?P<v>(?:an?|one|two|three|\d+) [^,;.!?]{1,60}"
    r"|(?!(?:to|been|had|got|gotten|no|not|nothing|any|some|time|fun|questions?|plans?|this|that|it|them|him|her"
    r"|you|us|everything|lots|so|too|always|never|just|already|also|still|ever|" + _PARTICIPLE + r")\b)"
    r"[a-z][\w-]*(?: [\w-]+){0,3})",
    re.I,
)
_ARTICLE = re.compile(r"^(?:a|an|the|my|User's)\s+", re.I)


@dataclass(frozen=True)
class Frame:
    """What a clause states: the attribute (``name``) and its value."""

    name: str
    value: str


def _value(text: str) -> str:
    text = re.split(r"\s+(?:instead of|rather than|because|since|after|but|and|like before)\b", text, maxsplit=1)[0]
    return _ARTICLE.sub("", _TAIL_WORDS.sub("", text.strip(" ,.!?")))


def _verb_root(verb: str) -> str:
    words = verb.lower().split()
    head = words[0]
    for suffix in ("ies", "es", "s"):
        if head.endswith(suffix) and len(head) > len(suffix) + 2 and head not in {"uses", "goes"}:
            head = head[: -len(suffix)] + ("y" if suffix == "ies" else "")
            break
    head = {"uses": "use", "goes": "go"}.get(head, head)
    return " ".join([head, *words[1:]])


def frame_of(clause: str) -> Frame | None:
    """The attribute and value a first- or third-person clause states, if it has that shape."""
    if m := _MY.search(clause):  # "my new manager" and "my manager" name one attribute; "my old one" another
        return Frame(re.sub(r"^(?:new|current|present) ", "", m.group(1).lower()), _value(m.group("v")))
    if m := _I_HAVE.search(clause):
        return Frame("have", _value(m.group("v")))
    if m := _I_AM.search(clause):
        return Frame("be", _value(m.group("v")))
    if m := _I_VERB.search(clause):
        return Frame(_verb_root(m.group(1)), _value(m.group("v")))
    return None


def old_words(text: str) -> str:
    """The words of a clause that name what stopped being true (after "sold", "no longer", "instead of"...)."""
    return " ".join(next(g for g in m.groups() if g) for m in _OLD_SPAN.finditer(text))


def is_specific(text: str) -> bool:
    """The clause carries an identifier, a number or a proper name: it is kept whatever its length."""
    return SPECIFIC.search(text) is not None


#: Something in progress and what ends it: work and its finishing ("working on a migration", "finished the
#: migration"), a choice being weighed and its making ("leaning towards a MacBook Air", "bought the MacBook Air").
_WHAT = r"\s+(?:(?P<doing>(?-i:[a-z])\w*ing)\s+)?(?P<what>[^,.!?;(]{2,60})"
_ENDINGS = tuple(
    (
        re.compile(rf"\b(?:is|are|am) (?:still |currently |now )?(?P<verb>{going}){_WHAT}", re.I),
        re.compile(rf"\b(?:{ended}){_WHAT}", re.I),
    )
    for going, ended in (
        (
            "working on|in the middle of|halfway through|busy with|training for",
            "finished|completed|wrapped up|done with",
        ),
        ("leaning towards|thinking of|considering|looking at", "bought|ordered|booked|picked|chose|went with"),
        # A doing with its object: "reading The Name of the Wind", "knitting a jumper for my dad".
        ("reading|watching|playing|knitting|sewing|writing|building|painting|making", "finished|completed|done with"),
    )
)
#: "hasn't finished", "not yet completed", "never finished": nothing done.
_NOT_DONE = re.compile(r"(?:n't|\bnot|\bnever|\byet to)(?: \w+)?\s*$", re.I)


def finishes(fact: str, memory: str) -> bool:
    """``fact`` ends what ``memory`` has in progress: what was worked on or weighed is named again ("finished
    the ClickHouse migration" for "working on a migration to ClickHouse"; two of its words, or its one), and
    a doing said with it is the same ("finished reading a novel" does not finish "working on User's novel")."""
    for progress, ending in _ENDINGS:
        done = ending.search(fact)  # the fact first: it is read against every candidate, and rarely ends anything
        going = None if done is None else progress.search(memory)
        if done is None or going is None or _NOT_DONE.search(fact[: done.start()]):
            continue
        doing = going["doing"] or (going["verb"] if going["verb"].endswith("ing") else "")
        if done["doing"] and doing.lower() != done["doing"].lower():
            continue
        if names_again(going["what"], done["what"]):
            return True
    return False


def names_again(pending: str, done: str) -> bool:
    """What was pending is named again: two of its words, or its one."""
    words = content_words(pending)
    return len(words & content_words(done)) >= min(2, len(words)) > 0


#: A break said as one ("taking a break from swimming", "on hold", "paused"), or a stop with the time it
#: lasts ("no gym for a few weeks", "not running until my knee heals", "skipping yoga this week").
_BREAK = re.compile(
    r"\b(?:(?:taking|take|took|on) (?:a |some )?(?:break|time off|hiatus)|on hold|paused?|pausing)\b", re.I
)
_STOP = re.compile(r"\b(?:no(?! longer| more)|not|n't|skipping|skip|skipped|off|without|stopped|stopping)\b", re.I)
_BOUNDED = re.compile(
    r"\b(?:for (?:a|the|one|two|three|\d+|a few|a couple of|a couple|several|some) (?:days?|weeks?|months?|while)|"
    r"this (?:week|weekend|month)|until|till|for the time being|temporarily|while)\b",
    re.I,
)


def pauses(text: str) -> bool:
    """``text`` says something is paused for a while, not ended ("No gym for a few weeks, I sprained my
    ankle"): the habit it names stays the user's."""
    if any(cue.lower() not in {"stopped", "stop"} for cue in STRONG_CUE.findall(text)):
        return False  # "no longer at Google, left this month", "quit for good": an end
    return bool(_BREAK.search(text) or (_STOP.search(text) and _BOUNDED.search(text)))
