"""The shape of a user's clause: what it names (codes, numbers, names), whether it goes on about a fact,
whether a rule's fact already holds it. Pure string rules shared by :mod:`tasks.providers.user_clauses`."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from tasks.providers.statements import CLAUSE_BREAK, STRONG_CUE, WEAK_CUE, is_specific
from tasks.providers.wording import content_words as stems
from tasks.providers.wording import is_negated
from tasks.textrules import ASKED, REQUEST, SMALL_TALK, SO_FILLER, USER_CLAUSE, WEEKDAYS, clauses, content_words
from tasks.third_person import third_person

#: A code, a long number or a year ("A123", "#4521", "2021"), not a count ("3 months").
IDENTIFIER_WORD = re.compile(r"(?=[\w-]*\d)[\w-]{3,}")
_MONTHS = (f"{datetime(2000, m, 1):%B}" for m in range(1, 13))
#: Capitalised words that are never a name of someone or something: months, days, the speaker labels.
DATE_WORDS = frozenset((*_MONTHS, *(w.capitalize() for w in WEEKDAYS), "User", "I"))


@dataclass(frozen=True)
class Asked:
    """The question a turn answers: who asked, and the prefix a memory of the answer carries."""

    event_id: str
    prefix: str


#: Saying that something was said before, and when: "said", "told you" ... "last week" (the speaker's asides).
TOLD = r"(?:said|mentioned|told you)"
WHEN_TOLD = r"before|earlier|last \w+|yesterday|the other day"
#: The speaker's aside about the telling: "as I said before", "like I've already told you", "as you know".
_ASIDE = rf"(?:as|like) I(?:'ve)? (?:already )?{TOLD}(?: (?:{WHEN_TOLD}))?|as you know|(?:just )?so you know"
#: An aside about the telling that closes a sentence: "I drive a Fiat, as I said", "..., like I told you before".
TRAILING_ASIDE = re.compile(rf"[,;]?\s*(?:{_ASIDE})(?=[.!?]*$)", re.I)
#: Words that open a clause and say nothing of it ("btw", "Quick update:", "Good news,", "Again,", "To repeat:").
FILLER = re.compile(
    rf"^(?:quick update|update|fyi|by the way|btw|also|and|{SO_FILLER}|well|anyway|honestly|actually|{_ASIDE}|"
    r"I (?:already )?(?:said|told you)(?: before| earlier| already)?(?: that)?(?=,? I\b)|"
    r"for the record|for context|for (?:your|ur) information|fwiw|(?:just )?(?:a )?heads up|"
    r"nothing changed|yes|yeah|yep|yup|nah|nope|no(?=\s*[,:;!.-])|sorry|ok|okay|change of plans?|plan change|"
    r"(?:big |good |great |small |quick |some )?(?:news|change)(?=\s*[,:;!.-])|"
    r"(?:(?:once )?again|once more|as (?:always|usual|ever)|(?:just )?to (?:repeat|reiterate)|repeating myself"
    r"(?:,? but)?)(?=\s*[,:;!.-]|(?<=but) ))\b(?!-\w)"  # not a part of a compound ("Well-being", "So-called")
    r"[,:;!.\s-]*",
    re.I,
)

#: A note-taking opener, which asks the same as "Remember that": "Make a note:", "note to self:", "Jot this
#: down:", "Please note that", "For future reference,".
_NOTED = re.compile(
    r"^(?:(?:please|pls|plz|also|and|ok|okay|so|oh) )*(?:(?:make|take) a (?:quick )?note(?: of (?:this|that))?"
    r"|note to self|note|(?:jot|write|put) (?:this|that|it) down|add (?:this |that )?to (?:my|your|ur) notes"
    r"|for future reference|remember(?: this)?|keep in mind)\s*(?:[:;,-]|(?<=note|mind) that\b)\s*(?=\S)",
    re.I,
)


def noted(sentence: str) -> str:
    """``sentence`` with a note-taking opener said as "Remember that", which the instruction rule reads: the
    opener is not what the user told ("User mentioned that Make a note: ...")."""
    return _NOTED.sub("Remember that ", sentence, count=1)


def names_day(clause: str) -> bool:
    """The clause names a day or a month as said ("Tuesday works", "March is better"), not one the write
    path resolved."""
    return any(word in DATE_WORDS and word != "User" for word in re.findall(r"[A-Z]\w+", clause))


_OWN_QUESTION = re.compile(r"^(?:and |so )?(my [\w' -]{2,40}?)\s*\?$", re.I)


def answered(parts: list[str]) -> list[str]:
    """A question the user answers themself ("My favourite music? Jazz.") is one statement ("My ... is Jazz.")."""
    out: list[str] = []
    for part in parts:
        if out and (m := _OWN_QUESTION.match(out[-1])) and not part.rstrip().endswith("?"):
            out[-1] = f"{m.group(1)[:1].upper()}{m.group(1)[1:]} is {part}"
        else:
            out.append(part)
    return out


def specifics(text: str) -> set[str]:
    """Codes, numbers and capitalised names in a text (not the dates resolve_dates wrote in)."""
    found = set(re.findall(r"\b[\w-]*\d[\w-]*\b|(?<=\w )[A-Z][\w'-]+", text))
    return {w.rstrip("'s") for w in found if w not in DATE_WORDS and not w.startswith("I'")  # "I've" is no name
            and not re.fullmatch(r"(?:19|20)\d\d|\d{1,2}", w)}  # fmt: skip


def elaborates(clause: str) -> bool:
    """A clause that says more about its sentence's fact without a subject of its own ("near the
    river", "Milo and Luna"): two content words at least, and not a question or a request."""
    return not clause.endswith("?") and not REQUEST.match(clause) and len(content_words(clause)) >= 2


#: A condition said before its fact: "When you book flights for me, I always want a window seat".
_CONDITION = re.compile(r"(?:when|whenever|if|once|unless|before|after|as long as)\b", re.I)


def is_condition(clause: str) -> bool:
    """A condition of its sentence's fact ("Whenever you schedule meetings for me"), not a fact of its own."""
    return _CONDITION.match(clause) is not None and not clause.endswith("?")


def with_details(content: str, details: list[str], who: str) -> str:
    """A rule's fact with the clauses that say more of it: a condition before it, as said ("When you book
    flights for User, User always wants a window seat"), the rest after it ("…, mostly on search")."""
    said = [third_person(d, who).rstrip(". ") for d in details]
    first = [d for d in said if is_condition(d)]
    after = [d for d in said if not is_condition(d)]
    return ", ".join([*first, content.rstrip(". "), *after])


def _forms(word: str) -> set[str]:
    """A word with its inflection taken off as it may be ("hates" → "hate", "boxes" → "box", "liked" → "like")."""
    return {word, *(word[: -len(end)] for end in ("s", "es", "d", "ed", "ing") if word.endswith(end))}


def covered_by(clause: str, covered: str) -> bool:
    """A rule's fact already holds the clause's words (and every identifier in it): all but one of them, and
    one at least when the clause has a subject of its own ("I'm colourblind" is not covered by "Never rely on
    colours in charts", nor "my bf isn't" by "User is vegan"; "I hate them" is by "…, the user hates them",
    and "no more fish" by "User has gone fully vegetarian")."""
    words = {w for w in content_words(clause) if "'" not in w}
    have = set(content_words(covered))
    specifics = re.findall(r"\b[\w-]*\d[\w-]*\b", clause)
    shared = {f for w in words for f in _forms(w)} & {f for w in have for f in _forms(w)}
    own_subject = re.match(r"\W*(?:I|[Mm]y|[Oo]ur|[Ww]e)\b", clause) is not None and not shared
    return len(words - have) <= 1 and not (words and own_subject) and all(s in covered for s in specifics)


#: What opens a short answer ("Probably the 14th", "Around 600 euros", "3x a week", "The 14-inch one").
_FRAGMENT_START = re.compile(
    r"(?:\d|(?:probably|maybe|perhaps|like|around|about|roughly|approximately|nearly|almost|just|only|mostly|"
    r"usually|the|a|an|some|no|not|under|over|between|at least|at most|less than|more than)\b)",
    re.I,
)
#: A subject or a finite verb form: with one, a clause is a sentence of its own, not an answer's fragment
#: ("it's", not the possessive "Dr Okafor's").
_SENTENCE_WORD = re.compile(
    r"\b(?:am|is|are|was|were|be|been|has|have|had|do|does|did|will|would|can|could|should|may|might|must|"
    r"i|we|you|he|she|it|they|there)\b|\w'(?:re|ve|ll|d|m)\b|n't\b"
    r"|\b(?:it|that|he|she|there|here|what|who|where|this|everyone|everything|nothing|something)'s\b",
    re.I,
)


def is_fragment(clause: str) -> bool:
    """A short answer rather than a sentence: "Probably the 14th to 16th", not "the 14th is fine" (a verb
    without an auxiliary, "the kids went", is not seen: it is shown as said, which reads as well).
    Shown as "User mentioned: ..." instead of the reported "User mentioned that ...", which needs a verb."""
    return _FRAGMENT_START.match(clause) is not None and _SENTENCE_WORD.search(clause) is None


def is_verbless(clause: str) -> bool:
    """No subject and no finite verb: a piece of a sentence, not one."""
    return _SENTENCE_WORD.search(clause) is None


def is_short_answer(clause: str) -> bool:
    """A few words with no subject or finite verb ("Gluten-free", "Probably green, or teal"): what a
    question asked for, said as chat answers it."""
    return len(clause.split()) <= 8 and _SENTENCE_WORD.search(clause) is None


#: A question for something the user has, likes or is; not "How are you?" nor "Does that sound good?".
_SEEKS = re.compile(
    r"(?:what(?:'s| is| are)? (?:your|you)|which|where|who|when|any|how (?:many|much|often|long|old|far)|"
    r"do you (?:have|prefer|like|need)|are you)\b",
    re.I,
)


def seeks(prefix: str) -> bool:
    """The agent's question, as an answer's memory prefix carries it ('(Asked by the agent: "...")'),
    asks for something the user has or is ("Any allergies?", "What's your favourite colour?"), so the
    answer's first words are worth keeping even without a verb ("Gluten-free")."""
    return prefix.startswith("(Asked by the agent") and _SEEKS.match(prefix.split(': "', 1)[-1]) is not None


#: A whole turn that only says yes or no ("yep", "nope!", "no thanks").
_BARE = re.compile(
    r"^\W*(yes|yeah|yep|yup|sure|correct|exactly|right|no|nope|nah|not really)\b[\s!.,]*(?:thanks|thank you)?[\s!.]*$",
    re.I,
)
#: A no and what it goes on to say ("No, too expensive", "No, Fridays please"): a refusal or a correction.
#: A yes with more ("yes, the red one") is an answer the general rules read.
_LEADING = re.compile(r"^\W*(no|nope|nah|not really)\b[\s,.!:;-]+(.+?)[\s.!]*$", re.I)
#: Words of a yes/no question about the conversation itself ("Does that sound good?", "Anything else?").
_PROCEDURAL = frozenset({
    "sound", "good", "anything", "else", "everything", "today", "ahead", "work", "ready", "want", "okay", "fine",
    "right", "correct", "help", "need", "like", "go", "proceed", "continue", "start", "sure", "done", "happy",
    "clear", "make", "sense", "plan", "that", "this",
})  # fmt: skip


_POLITE_END = re.compile(r"[\s,]*\b(?:please|thanks|thank you)\W*$", re.I)
#: The user's own words ("my", "me") make a clause a statement about them, read by the general rules.
_OWN = re.compile(r"\b(?:my|me|mine|our|us)\b", re.I)


def quoted_question(asked: str) -> str:
    """The question an answer's '(Asked by P: "Q?")' prefix quotes ("Q?"); the text itself otherwise."""
    quoted = ASKED.search(asked)
    return quoted[1] if quoted else asked


def bare_answer(text: str, asked: str) -> str | None:
    """The user's "yes" or "no" when ``text`` only answers the yes/no question quoted in ``asked`` (an
    answer's '(Asked by P: "Q?")' prefix) and that question is about something ("Back to the 120
    budget?" "yep"); None for a wh-question, or one about the conversation itself ("Anything else?")."""
    question = quoted_question(asked)
    m = _BARE.match(text) or _LEADING.match(text)
    if m is None or re.match(r"\W*(?:what|which|when|where|who|whom|whose|why|how)\b", question, re.I):
        return None
    if not set(content_words(question)) - _PROCEDURAL:
        return None
    said = "no" if m[1].lower() in ("no", "nope", "nah", "not really") else "yes"
    if m.re is _BARE:
        return said
    # What follows a no without a subject of its own is its reason or correction; a statement is not.
    rest = _POLITE_END.sub("", m[2])
    return f"{said}, {rest}" if rest and is_short_answer(rest) and not _OWN.search(rest) else None


def is_small_talk(sentence: str) -> bool:
    """A greeting or thanks and nothing more ("Thanks!", "hi"), not one that goes on to say something
    ("Thanks, but don't send me reminders on weekends", "Thanks, see you on the 12th")."""
    return (
        SMALL_TALK.match(sentence) is not None
        and not is_specific(sentence[3:])
        and len(clauses(sentence, USER_CLAUSE)) < 2
    )


#: News told in a few words ("Got a puppy!", "Got promoted"): "got" is a stopword, yet here it is the news.
_GOT = re.compile(r"I (?:just |finally |recently |actually )?got (?!(?:it|that|this|home|up|you|ya)\b)\w", re.I)


#: A life event, which needs few words: "We broke up.", "My finger's healed.", "Paid it off!".
_LIFE_EVENT = re.compile(
    r"\b(?:broke up|split up|separated|divorced|engaged|married|healed|recovered|retired|graduated|redundant|"
    r"laid off|fired|sacked|resigned|dropped out|paid (?:it |them )?off|(?<=['’]s )(?:much |a lot |so much )?better)\b",
    re.I,
)


def is_news(clause: str) -> bool:
    """The user says something they got (a puppy, a job, promoted) or a life event: one word of content is
    enough."""
    return _GOT.match(clause) is not None or _LIFE_EVENT.search(clause) is not None


def rule_drops(clause: str, rule_content: str) -> bool:
    """The rule's fact left out a name or code the user gave ("a dog called Rex"), or words of its own
    clause ("a nurse at St Mary's *hospital*", which then came back as a second memory of the same
    thing): the fact should say the user's clause."""
    return bool(specifics(clause) - specifics(rule_content)) or _cut_short(clause, rule_content)


def _cut_short(clause: str, rule_content: str) -> bool:
    """The rule's fact is its clause with words left out: it opens the same and says nothing else (stems
    compared; an aside after a comma aside). Not a change or a negation, nor a rule that rewords
    ("asked to be reminded"), except the job rule's "works as" for "is": "User is a UX designer at a
    fintech startup" had been kept beside "User works as a UX designer", and a promotion changed only one."""
    if STRONG_CUE.search(clause) or WEAK_CUE.search(clause) or is_negated(clause):
        return False
    said = third_person(clause, "User")
    if _JOB_AS.match(rule_content) and _JOB_IS.match(said):
        rule_content = _JOB_AS.sub(r"\1is ", rule_content, count=1)
    fronted = _FRONTED.match(said)  # "For code questions User likes ...": the case it holds for
    if fronted and said[fronted.end() :].split()[:2] == rule_content.split()[:2]:
        return stems(rule_content) <= stems(said) and bool(stems(fronted[0]))
    if said.split()[:2] != rule_content.split()[:2]:
        return False
    return stems(rule_content) <= stems(said) and bool(stems(said.split(",")[0]) - stems(rule_content))


#: A case said before the subject: "For code questions, User likes ...", "On weekends User prefers ...".
_FRONTED = re.compile(r"^(?:for|on|at|in|during|after|before) [^,]{1,40}?,? (?=User\b)", re.I)
#: The job rule's wording of "User is a nurse ...", and the clause it came from.
_JOB_AS = re.compile(r"^(\w+ )works as (?=an? )")
_JOB_IS = re.compile(r"^\w+ is an? ")


def clauses_of(resolved: str, cue: bool, ruled: bool) -> list[str]:
    """A user's sentence in the clauses read apart: a change stays whole (old and new value together) unless
    rules took its facts (``ruled``), then only the rest."""
    if cue and not ruled:
        return [resolved]
    # "Sam - my wife - thinks ..." is an apposition, not three clauses: the name stays with its statement.
    resolved = re.sub(r"\s+-\s+((?:[\w']+ ){0,3}[\w']+)\s+-\s+", r" (\1) ", resolved)
    parts = [p for c in clauses(resolved) for p in clauses(c, CLAUSE_BREAK) if p]
    return [q for p in parts for q in (re.split(r",\s+", p) if ruled else [p]) if q]
