"""What else a new statement settles besides the memory it changes (``Decision.closes``).

"Moved to Warsaw!" changes where the user lives, and it also carries out "is moving to Warsaw in June",
which would otherwise stay current beside the new home. These settle a memory: a plan carried out or
work finished (:func:`carries_out`, :func:`~tasks.providers.statements.finishes`); a course finished
("graduated" for "doing a master's"); an attribute changed to the value a plan was heading to ("User lives
in Warsaw"); something arranged for a day after it was said, or due, told later as done ("Went to the
dentist today" for "has a dentist appointment on Friday"); a milestone of the household, for the state it
ends (:mod:`~tasks.providers.milestones`: a birth, a return to work, a relapse, retiring); and a death,
for what was said of the one who died as going on. The readers of plans and doings live here too:
the change cues use :func:`carries_out` for a duty done ("renewed" after "need to renew the passport").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from tasks.dates import stated_spans
from tasks.providers.endings import ends
from tasks.providers.job_ends import job_ends
from tasks.providers.milestones import milestone_ends
from tasks.providers.people import RELATIONS
from tasks.providers.sameness import TELLING_FRAME, TELLING_RE, done, inflected, is_past
from tasks.providers.statements import CANCEL_CUE, PLAN_WORDS, finishes, names_again, old_words
from tasks.providers.wording import content_words, strip_annotation
from tasks.rows import MemoryRow
from tasks.textrules import RESOLVED_DATE, WEEKDAYS
from tasks.third_person import IRREGULAR_BASE

#: A duty or a plan, its verb and what it is about: "need to renew the passport", "planning to adopt a dog".
_DUTY = re.compile(
    r"\b(?:(?:need|needs|have|has|got|must|going|plan|plans|want|wants|should|remember|remind \w+|reminded:)(?: to)?"
    r"|(?:planning|about|hoping|hope|hopes|intend|intends|intending|decided) to|gonna) (\w+)(?P<what>[^,.;!?()]*)",
    re.I,
)
#: Where the object of a doing ends: a preposition or another clause ("a dance studio 'cause ...").
_PREPOSITION = re.compile(
    r"\s(?:for|in|at|on|by|with|to|from|about|next|this|before|after|until|and|but|or|so|because|'cause|cause|"
    r"that|which|who|what|while|when|where)\s",
    re.I,
)
#: Something under way, said as going on: "is moving to Warsaw in June", "'m starting at KPMG next month".
_DOING = re.compile(r"\b(?:is|are|am|'re|'m) (?:\w+ly )?(?!going\b)([a-z]{2,}?)ing\b(?P<what>[^,.;!?()]*)", re.I)
#: What the teller says they did: "User renewed the passport", "they've finally adopted a dog".
_DID = re.compile(
    rf"{TELLING_FRAME}\w+(?:['’]ve| has| have| is| are|['’]re)? (?:just |finally |already |officially |now )?(\w+)\b"
    r"(?P<what>[^,.;!?()]*)",  # "is retired", "are married": the state a plan reaches is its doing done
    re.I,
)
#: A plan with no object, only when ("is retiring at the end of the school year", "planning to retire next
#: summer"): its verb alone says what was to be done.
_NO_OBJECT = re.compile(r"\s*(?:$|(?:at|in|on|by|next|this|before|after|until|soon|later|early)\b)", re.I)


def carries_out(fact: str, memory: str, named: bool = False) -> str | None:
    """The duty or plan of ``memory`` that ``fact`` says was done ("renewed the passport" after "need to renew
    the passport"; "bought an e-bike" after "planning to buy an e-bike"): its verb, or None. What was to be
    done must be named again, unless the caller knows the fact's value is among the memory's words (``named``)."""
    did = _DID.match(fact)
    if did is None:
        return None
    verb = did[1].lower()
    base = IRREGULAR_BASE.get(verb)
    if base is None and not verb.endswith("ed"):
        return None
    for duty in (*_DUTY.finditer(memory), *_DOING.finditer(memory)):
        wanted = duty[1].lower()
        # a plan said as going on needs its time ("is retiring at the end of …"; "is inspiring" is no plan)
        alone = named or (_NO_OBJECT.match(duty["what"]) is not None and (duty.re is _DUTY or duty["what"].strip()))
        if (wanted == base or inflected(verb, wanted, 3)) and (alone or names_again(_object(duty), _object(did))):
            return wanted
    return None


def done_object(fact: str) -> frozenset[str]:
    """The words of what ``fact`` says the teller did ("dentist" of "User went to the dentist today"); empty
    when it says nothing done, or nothing it was done to."""
    did = _DID.match(fact)
    if did is None or not is_past(did[1].lower()):
        return frozenset()
    return content_words(RESOLVED_DATE.sub(" ", _object(did))) - _WHEN_DONE


#: Words of when something was done, not of what: "went to the dentist today".
_WHEN_DONE = content_words("today yesterday tonight this morning afternoon evening night last week weekend ago earlier")


def _object(said: re.Match[str]) -> str:
    """What a doing is done to or where, before any other phrase: "the vet" of "book the vet for Rex",
    "Warsaw" of "moving to Warsaw in June"."""
    # a leading preposition, or the particle of a phrasal verb ("sent off the form", "handed in the essay")
    what = re.sub(r"^\s*(?:to|at|in|into|on|for|from|with|off|out|up|back)\s+", " ", said["what"], flags=re.I)
    return _PREPOSITION.split(what, maxsplit=1)[0]


def heading_to(memory: str, value: str) -> bool:
    """A plan or doing of ``memory`` heads to ``value`` ("is moving to Warsaw in June" to "Warsaw")."""
    words = content_words(value)
    heading = (_object(m) for m in (*_DUTY.finditer(memory), *_DOING.finditer(memory)))
    return bool(words) and any(content_words(to) == words for to in heading)


#: Lowest cosine at which something told as done is what a memory had arranged.
HAPPENED_AT = 0.6
#: A day named for something arranged: "on Friday", "next Thursday", "on 14 March", "on April 3rd", "on the 12th".
_DAY = re.compile(
    rf"\b(?:on|next|this) (?:{'|'.join(WEEKDAYS)})\b|\bon \d{{1,2}}(?:st|nd|rd|th)? [A-Z][a-z]+\b(?! \d{{4}})"
    r"|\bon [A-Z][a-z]+ \d{1,2}(?:st|nd|rd|th)\b|\b(?:on|for) the \d{1,2}(?:st|nd|rd|th)\b",
    re.I,
)

#: Something due by a time, whatever the time: "User's thesis is due in August", "the deadline is 3 March".
_DUE = re.compile(r"\b(?:is|are|was|were) due\b|\bdue (?:on|in|by|to)\b|\bdeadline\b", re.I)


def _ahead(memory: MemoryRow, said: str, days: str | None = None) -> bool:
    """``said`` arranges something for later than it was said: a date after it, or a day named (in ``days``,
    its part that can say one: not "arrived on Tuesday", a day that is past)."""
    dates = stated_spans(strip_annotation(memory.content))
    named = _DAY.search(said if days is None else days) is not None
    return any(start.date() > memory.stated_at.date() for start, _ in dates) or named


def only_history(memory: MemoryRow, said: str, fact: str = "") -> bool:
    """``said`` (something done) tells nothing else that ``fact`` (a later statement) could change: nothing
    arranged ahead ("booked the flights, they fly on April 3rd"), and no second clause ("hurt User's knee,
    so no gym for a few weeks") unless ``fact`` shares none of its words ("Baby Noah arrived on Tuesday,
    3.4kg!" is left by "Noah is sleeping through the night now"). Such a memory stays; others may change."""
    rest = re.split(r"[,;]|\bso\b", said, maxsplit=1)
    beside = len(rest) > 1 and (not fact or bool(content_words(rest[1]) & content_words(fact)))
    return not beside and not _ahead(memory, said, rest[1] if len(rest) > 1 else "")


#: A course the user is taking, and its kind: "doing a part-time master's", "in User's final year of a law degree".
_STUDYING = re.compile(
    r"\b(?:doing|studying(?: for)?|taking|enrolled (?:in|on)|in (?:User's|their|the) (?:\w+ )?year of) "
    r"(?:a |an |the |User's )?(?:[\w'-]+ ){0,3}?(?P<kind>degree|master's|masters|msc|mba|phd|doctorate|ba|bsc|ma|hnd|"
    r"hnc|pgce|nvq|btec|a-levels|gcses|bachelor's|course|apprenticeship|bootcamp|diploma|certificate|programme|"
    r"program|residency|qualification)\b"
    # a subject studied, or an apprentice: "User is studying nursing at Cardiff", "an apprentice electrician"
    r"|\bstudying (?P<subject>[a-z]+)\b|\b(?P<apprentice>apprentice)\b",
    re.I,
)
#: The user says they finished a course: "User graduated with distinction", "User completed the course".
_COMPLETED = re.compile(
    rf"(?:^{TELLING_FRAME}|; )(?:User|[Tt]hey)(?:['’]ve| has| have)? (?:just |finally |officially )?"
    r"(?:(?P<graduated>graduated)|finished|completed|passed)\b(?P<what>[^,.;!?()]*)"
)
#: A part of a course, which finishing leaves the rest of it going on: "year 2 of the degree", "my first term".
_PART = re.compile(r"\b(?:year|term|semester|trimester|module|unit|placement|rotation|block|exams?|modules)\b", re.I)


#: Words of a course's taking, not of its name.
_VERBS = "doing studying taking enrolled year apprentice"


def _course(course: re.Match[str]) -> tuple[str, frozenset[str]]:
    """A course's kind ("degree", "nursing", "apprentice") and the words of its name ("open", "university")."""
    kind = course["kind"] or course["subject"] or course["apprentice"]
    return kind.lower(), content_words(course[0]) - content_words(_VERBS)


def completes_study(fact: str, said: str) -> bool:
    """``fact`` finishes the course ``said`` has the user taking: graduating (from where they studied, if
    said) ends any; finishing or completing names its kind ("finished User's nursing degree")."""
    done = _COMPLETED.search(fact)  # the fact first (as in drops_study): it rarely completes anything
    course = None if done is None else _STUDYING.search(said)
    if course is None or done is None:
        return False
    (kind, named), what = _course(course), done["what"].lower()
    if _PART.search(what.partition(kind)[0]):  # "finished year 1 of the degree", "my first term of the MBA"
        return False
    if done["graduated"]:
        where = content_words(RESOLVED_DATE.sub(" ", what.partition(" from ")[2])) - _WHEN_DONE
        return not where or bool(where & content_words(said))
    # its kind ("apprentice": "apprenticeship"), or a word of the course's name ("User's Open University degree")
    return re.search(rf"\b{re.escape(kind)}", what) is not None or bool(named & content_words(what))


#: The user gave up a course: "User dropped out of the access course", "User quit User's MSc".
_DROPPED = re.compile(
    rf"^{TELLING_FRAME}(?:User|[Tt]hey)(?:['’]ve| has| have)?(?: just| finally| officially)? "
    r"(?:dropped out of|quit|withdrew from|pulled out of|gave up|given up|left) (?P<what>[^,.;!?()]*)"
)


def drops_study(fact: str, said: str) -> bool:
    """``fact`` gives up the course ``said`` has the user taking, named by its kind or a word of it."""
    dropped = _DROPPED.search(fact)
    course = None if dropped is None else _STUDYING.search(said)
    if course is None or dropped is None:
        return False
    what, (kind, named) = content_words(dropped["what"]), _course(course)
    return content_words(kind) <= what or bool(what & named)


def calls_off(fact: str, said: str) -> bool:
    """A plan called off closes every arrangement that names it ("Lisbon's cancelled": the booking and the
    trip moved to April alike), not only the closest."""
    named = content_words(old_words(fact)) if CANCEL_CUE.search(fact) else frozenset()
    return bool(named) and named <= content_words(said) and PLAN_WORDS.search(said) is not None


def settles(fact: str, memory: MemoryRow, said: str, similarity: float, new_value: str = "") -> bool:
    """``fact`` settles ``memory`` (which says ``said``, its claim): one of the module's shapes."""
    if carries_out(fact, said) is not None or finishes(fact, said) or completes_study(fact, said):
        return True
    if drops_study(fact, said) or ends(fact, said) or calls_off(fact, said) or job_ends(fact, said):
        return True
    if new_value and heading_to(said, new_value):
        return True
    return (
        milestone_ends(fact, said) or died(fact, said) or (similarity >= HAPPENED_AT and _happened(fact, memory, said))
    )


#: Someone said to have died, and who: "User's cat Luna died on Sunday", "User's grandad passed away".
_DIED = re.compile(
    rf"{TELLING_FRAME}(?P<who>.{{2,40}}?) (?:has |had )?(?:died|passed away|was put down|was put to sleep)\b"
)
_ANIMAL = r"(?:dog|cat|puppy|kitten|horse|pony|rabbit|hamster|guinea pig|parrot|bird|pet)"
_NAMED = r"[A-Z][a-z]+(?: [A-Z][a-z]+)?"
_OWNED = rf"(?:(?:User's|our|their) )?(?:{_ANIMAL}(?: {_NAMED})?|{_NAMED})"
_THEY = rf"{TELLING_FRAME}(?:User|[Tt]hey|[Ww]e|I)(?: (?:just|sadly|finally))? "
#: The user's household had an animal put down, or lost someone: "they had to put Rex down", "had Biscuit
#: put to sleep", "lost User's grandmother on Sunday", "lost Uncle Ray". A pet is put down only when they
#: "had" it done ("put the kids to sleep" is bedtime); "lost" is a death only of someone, and not "in the
#: crowd" or "the match".
_THEY_LOST = (
    re.compile(rf"{_THEY}had to put (?P<who>{_OWNED}) (?:down|to sleep)\b"),
    re.compile(rf"{_THEY}had (?:to have )?(?P<who>{_OWNED}) put (?:down|to sleep)\b"),
    re.compile(
        rf"{_THEY}lost (?P<who>(?:User's|our|their) (?:{'|'.join(RELATIONS)}|{_ANIMAL})(?: {_NAMED})?|{_NAMED})"
        r"(?=[.,;!]| (?:on|this|last|yesterday|today|to|after|in (?!the\b))\b|$)"
    ),
)


def _departed(fact: str) -> set[str]:
    """Who ``fact`` says died: their name when it gives one and they are the user's ("Rex", "our dog Rex"),
    else every word of who they are ("grandmother", "neighbour's dog": someone else's is not the user's)."""
    found = _DIED.match(fact) or next((m for form in _THEY_LOST if (m := form.match(fact))), None)
    if found is None:
        return set()
    words = {w.lower() for w in found["who"].split()} - {"user's", "user", "our", "my", "their", "sadly", "sadly,"}
    names = {w.lower() for w in re.findall(r"\b[A-Z][a-z]+\b", found["who"]) if w not in ("User", "Sadly")}
    return names if names and not any(w.endswith("'s") for w in words) else words


def died(fact: str, memory: str) -> bool:
    """``fact`` says that the one ``memory`` is about died: what it said of them as going on ("has kidney
    disease", "lives in a care home") is history. The one must open the memory."""
    who = _departed(fact)
    if not who or done(memory):
        return False
    opening = {w.lower().strip(",.") for w in TELLING_RE.sub("", memory).split()[:4]}
    return who <= opening


def without_departed(content: str, said: Iterable[str]) -> str:
    """A move's new home without those of its household whom other memories (``said``) say died: "with
    User's two cats, Pixel and Byte" after "Byte died" is "with User's cat Pixel"."""
    now, paren, before = content.partition(" (")  # "(previously …)" stays as it was
    moved, joint, home = now.rpartition(", with ")
    departed = [_departed(text) for text in said]
    for name in {n for who in departed if not any(w.endswith("'s") for w in who) for n in who}:  # not another's
        listed = re.compile(rf",? and \b{name}\b|, \b{name}\b|\b{name}(?:,| and) ", re.I)
        home, found = listed.subn("", home, count=1)
        if found and not re.search(r"\b[A-Z][a-z]+(?:,| and) [A-Z]", home):  # one named left: "User's cat Pixel"
            home = re.sub(r"\b(?:two |both |2 )?([a-z]+?)s,? (?=[A-Z][a-z]+\b)", r"\1 ", home, count=1)
    return moved + joint + home + paren + before


def _happened(fact: str, memory: MemoryRow, said: str) -> bool:
    """``said`` arranged something ahead (a plan's words, or a day after it was said) that ``fact`` tells
    as done, what was done being what was arranged ("went to the dentist", "passed the MRCP")."""
    did = done_object(fact)
    if not did or done(said) or re.search(r"[.!?]\s+\S", said.strip()):  # one arrangement, not a story
        return False
    if not _ahead(memory, said) and _DUE.search(said) is None:
        return False
    arranged = content_words(PLAN_WORDS.sub(" ", RESOLVED_DATE.sub(" ", said)))
    return did <= arranged  # what was done is what was arranged: "the dentist", "User's driving test"
