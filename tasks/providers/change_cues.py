"""Is a new statement a change, a confirmation or something new? Similarity plus cues, no word list.

The embedder's cosine says which of the user's active memories the statement is about; the
statement's own words say what it does to it:
- it names the old value after a cue ("sold *the Fiat*", "instead of *korfball*", "not *vegan*
  any more") → it closes that memory, whatever its topic or slot;
- a change cue ("switched", "no longer", "now", "these days"…) or a negation, and the memory is
  close enough (same frame earns a bonus) → it supersedes the closest one;
- the same attribute stated with another value ("my car is X" after "my car is Y") → contradicts;
- its value is already what the memory says, with no cue → a confirmation (IGNORE).
Anything else is left to the consolidator's general rules.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import timedelta
from typing import Literal

from tasks.dates import stated_spans
from tasks.models import Fact
from tasks.providers.amounts import amount_changed
from tasks.providers.base import ScoredMemory
from tasks.providers.negated import negated_heads, negated_spans
from tasks.providers.sameness import (
    confirms,
    done_verb,
    inflected,
    names_new_holder,
    owner,
    restates,
)
from tasks.providers.settling import carries_out, completes_study, only_history
from tasks.providers.statements import (
    CANCEL_CUE,
    PLAN_WORDS,
    STRONG_CUE,
    WEAK_CUE,
    finishes,
    old_words,
    rescheduled,
)
from tasks.providers.wording import content_words, is_negated, strip_annotation
from tasks.rows import MemoryRow
from tasks.textrules import ASKED, WEEKDAYS

#: The topic of whatever fits no other: two facts under it need not be about one thing.
CATCH_ALL = "key_conversation_details"
Verdict = tuple[Literal["IGNORE", "supersedes", "contradicts"], MemoryRow, str]
#: Lowest cosine (plus bonuses) at which a statement with a change cue replaces a memory.
STRONG_AT, WEAK_AT = 0.3, 0.3
#: Lowest cosine at which an amount given anew for the same subject replaces the old one.
AMOUNT_AT = 0.6
#: Below this score a change must be clearly closer to one memory than to the next (populated stores).
CLEAR_AT, MARGIN = 0.5, 0.05
#: "Moved / switched / changed to X" says a value was replaced: the memory holding the old one may be less similar.
REPLACED_AT = 0.2
_TO_VALUE = re.compile(
    r"\b(?:moved|switched|changed|gone|went|upgraded|downgraded|migrated|transferred|traded)"
    r"(?: over| back| up| down)? to\b",
    re.I,
)
#: A clause's subject that is someone in the user's life ("User's daughter Nora can't eat dairy"): what
#: changes is the rest; the person alone does not make it about another memory of theirs.
_PERSON_SUBJECT = re.compile(r"^\s*\w+'s (?:\w+ ){1,2}?[A-Z][a-z]+\b")


#: Words of how often (a rhythm), which two unrelated habits share.
_TIMING = content_words(
    "once twice daily weekly monthly week day month year morning evening night weekend time always usually often every"
    " mornings evenings nights " + " ".join(f"{day} {day}s" for day in WEEKDAYS)
)
#: Frames that take one value at a time only when said as "my X is": verbs may take several.
_VERB_FRAMES = frozenset({"be", "have"})


def _called_off(text: str, said: str, named: frozenset[str]) -> bool:
    """``said`` is a plan that ``text`` (a cancellation) can call off: it names what ``text`` names, if that
    names anything, and is of the same person ("User's sister's gig got cancelled" leaves the user's gig)."""
    if PLAN_WORDS.search(said) is None or owner(text) != owner(said):
        return False
    return not named or bool(named & content_words(said))


def _happened(memory: MemoryRow) -> bool:
    """The memory tells something that happened on a day up to when it was said (an event, not a
    state): a day the write path wrote for "today" / "yesterday" ("(15 March 2025)", "on 14 May 2025")."""
    said = memory.stated_at.date()
    return any(
        end - start == timedelta(days=1) and start.date() <= said
        for start, end in stated_spans(strip_annotation(memory.content))
    )


def change_decision(fact: Fact, related: Sequence[ScoredMemory], duplicate_threshold: float) -> Verdict | None:
    text = fact.content
    strong, weak = bool(STRONG_CUE.search(text)), bool(WEAK_CUE.search(text))
    replaced = _TO_VALUE.search(text) is not None
    spans = negated_spans(_REPORTED.sub("", text))
    negated_words = frozenset().union(*(content_words(span) for span, _ in spans)) if spans else None
    heads = negated_heads(span for span, after_negation in spans if after_negation)
    value_words = content_words(fact.value or "")
    named_old = content_words(old_words(text)) - value_words
    if named_old and not any(named_old & content_words(claim(s.memory.content)) for s in related):
        # It names what it replaces, and no memory says that: the old value was never stored, so a memory
        # that is merely similar is not it (with few memories, the closest one is often unrelated).
        strong = negated_any = False
    else:
        negated_any = negated_words is not None
    if CANCEL_CUE.search(text):  # a plan called off closes a plan (the one it names, of whose it is), not a memory
        related = [s for s in related if _called_off(text, strip_annotation(s.memory.content), named_old)]
    if (moves := rescheduled(text)) is not None:  # a date moved changes the arrangement it names, and only it
        strong, related = True, [s for s in related if moves(claim(s.memory.content))]
    found: list[tuple[float, Verdict]] = []
    for scored in sorted(related, key=lambda s: s.similarity, reverse=True):
        memory, sim = scored.memory, scored.similarity
        if memory.status != "active" or (memory.speaker or "").lower() != (fact.speaker or "").lower():
            continue
        said = claim(memory.content)
        words = content_words(_REPORTED.sub("", said))
        new_holder = names_new_holder(fact, memory)  # "User's new manager is Omar" after "... is Priya"
        if only_the_person(text, words) and not new_holder:
            continue
        if is_negated(memory.content) and restates(text, said):  # "doesn't drink alcohol" again
            return "IGNORE", memory, f"restates a current memory (similarity {sim:.2f})"
        # A negation changes this memory only when it is about it: "don't judge" beside a new fact is not.
        # ... and says what it negates: "not a morning person" is not about "chose a morning slot".
        negated = negated_any and bool(negated_words and negated_words & words and (heads or words) & words)
        same_frame = memory.slot == fact.slot and fact.slot != "about:"
        tag = f"similarity {sim:.2f}"
        if named_old and named_old & words and (strong or negated):
            relation: Literal["supersedes", "contradicts"] = "contradicts" if negated else "supersedes"
            return relation, memory, f"names the old value ({', '.join(sorted(named_old & words))}; {tag})"
        duty = carries_out(text, strip_annotation(memory.content), bool(value_words & words))
        if duty:  # "renewed" after "need to renew": the duty is done, not confirmed
            return "supersedes", memory, f"done: {duty} ({tag})"
        if sim >= AMOUNT_AT and (unit := amount_changed(text, said)):  # "down to 79kg" after "at 82kg"
            return "supersedes", memory, f"another amount in {unit} ({tag})"
        # "finished the ClickHouse migration" after "working on" it; "graduated" after "doing a master's"
        if finishes(text, memory.content) or completes_study(text, said):
            return "supersedes", memory, f"finished what was in progress ({tag})"
        if (
            value_words
            and value_words <= words
            and not (strong or negated)
            and (same_frame or sim >= 0.4)
            and confirms(fact, memory, said, _frame(fact.slot))
        ):
            return "IGNORE", memory, f"confirms a current memory ({tag})"
        # "is" and "has" frame anything ("is learning Japanese", "is vegetarian"): no closeness of their own.
        kin_frame = same_frame and _frame(fact.slot) not in _VERB_FRAMES
        score = sim + (0.15 if kin_frame else 0.0)
        # A replacement ("moved to X") closes a memory that holds a value of its own, at a lower similarity.
        floor = REPLACED_AT if replaced and strong and memory.value else STRONG_AT
        # "Now" alone is as often the time of speaking ("had surgery, resting now"): it changes a state
        # ("plays the kalimba"), not a detail that happened on a day ("went hiking today (15 March 2025)").
        weak_kin = memory.topic != CATCH_ALL or kin_frame or not _happened(memory)
        weak_change = weak and weak_kin and score >= WEAK_AT and _same_thing(fact, memory, sim, kin_frame)
        # Something done stays done ("passed grade 3" after "switched teachers"), unless done again ("moved"),
        # or it also says how things stand ("hurt User's knee, so no gym") or what is booked ahead.
        # ... but an arrangement whose date is moved is no history ("booked a trip to Lisbon", then "moved it").
        history = moves is None and done_verb(said) not in {None, done_verb(text)} and only_history(memory, said, text)
        if (((strong or negated) and score >= floor) or weak_change) and not history:
            verdict: Verdict = ("contradicts" if negated else "supersedes", memory, f"states a change ({tag})")
        elif same_frame and not value_words <= words and (new_holder or not _is_verb_frame(fact.slot or "", text)):
            verdict = ("contradicts", memory, f"{(fact.slot or '')[6:]} changed to {fact.value} ({tag})")
        elif sim >= duplicate_threshold and not (strong or negated) and confirms(fact, memory, said):
            verdict = ("IGNORE", memory, f"duplicate of a current memory ({tag})")
        else:
            continue
        found.append((score, verdict))
    found.sort(key=lambda f: f[0], reverse=True)
    if not found:
        return None
    score, verdict = found[0]
    if verdict[0] == "supersedes" and score < CLEAR_AT and len(found) > 1 and score - found[1][0] < MARGIN:
        return None  # two memories about as close: do not guess which one changed
    return verdict


#: An answer that is only "yes" or "no": its question says what it is about.
_BARE_ANSWER = re.compile(r"^\w+ said (?:yes|no)\W*$")


def claim(content: str) -> str:
    """What a memory says, without its notes: the question an answer quotes ('(Asked by the agent: "Would
    you prefer a morning or evening slot?") User mentioned that before 9') is the asker's words, so "not
    a morning person" later names nothing the user said there; only a bare "yes" or "no" keeps it."""
    said = strip_annotation(content)
    answer = ASKED.sub("", said, count=1)
    return said if answer == said or _BARE_ANSWER.match(answer) else answer


def _same_thing(fact: Fact, memory: MemoryRow, sim: float, kin_frame: bool) -> bool:
    """A cue word alone ("now", "lately") says when, not what changed: the memory must be of the same
    thing by its frame or its words. Two things going on at once are common ("reading sci-fi these
    days", then "sleeping badly lately"); a rhythm ("twice a week", "twice a day") is no such word; and
    what someone in the user's life does ("User's son is learning the piano") is not changed by what the
    user does now ("User is learning to knit lately"), nor the other way round ("User's son loves cricket
    now" leaves "User hates cricket"). A verb said of "it" alone names nothing (probe 10:
    "I love it now" had closed "User's car is a blue Golf")."""
    text = fact.content
    told = content_words(WEAK_CUE.sub("", text))
    if len(told) < 2 and re.search(r"\b(?:it|that|this|them)\b", text):  # "User loves it now": nothing named
        return False
    shared = told & content_words(WEAK_CUE.sub("", memory.content))
    kin = kin_frame or sim >= CLEAR_AT or _kin_slots(fact.slot, memory, text) or bool(shared - _TIMING)
    if not kin or _other_doing(fact, memory):
        return False
    return bool(owner(text)) == bool(owner(memory.content))


#: What the user is doing, said as a progressive ("is reading", "has been sleeping", "is mostly reading").
_PROGRESSIVE = re.compile(r"\b(?:is|are|was|were|am|has been|have been)\s+(?:\w+ly\s+)?([a-z]+ing)\b")


def _frame(slot: str | None) -> str:
    """The frame of a generic slot ("about:play" → "play"); "" for none or a lexicon slot."""
    return slot[6:] if slot and slot.startswith("about:") else ""


def _doing(content: str, slot: str | None) -> str | None:
    """The verb of a fact that says what someone does: its verb frame ("about:play"), or a progressive."""
    if _frame_kind(slot, content) == "verb":
        return _frame(slot).split()[0]
    found = _PROGRESSIVE.search(strip_annotation(content))
    return found[1] if found else None


def _other_doing(fact: Fact, memory: MemoryRow) -> bool:
    """Both say what the user does, with verbs that are not one verb inflected."""
    new, old = _doing(fact.content, fact.slot), _doing(memory.content, memory.slot)
    if new is None or old is None:
        return False
    return not (inflected(new, old.removesuffix("ing"), 2) or inflected(old, new.removesuffix("ing"), 2))


def _frame_kind(slot: str | None, text: str) -> str:
    """ "verb" ("about:play"), "noun" ("my sport is": "about:sport"), "be" (is / has), or "none"."""
    frame = _frame(slot)
    if not frame:
        return "none"
    if frame in _VERB_FRAMES:
        return "be"
    return "verb" if _is_verb_frame(slot or "", text) else "noun"


def _kin_slots(slot: str | None, memory: MemoryRow, text: str) -> bool:
    """One names the thing, the other the doing ("my instrument is the kalimba", "plays the theremin"),
    or a doing follows a memory of no frame (a change already told: "quit Helix (previously …)")."""
    said = strip_annotation(memory.content)
    new, old = _frame_kind(slot, text), _frame_kind(memory.slot, said)
    return {new, old} == {"noun", "verb"} or ((old, new) == ("none", "verb") and said != memory.content)


#: People whose changes are made to the user's things ("User's doctor upped the metformin to 1000mg").
_ACTS_FOR_USER = frozenset({"boss", "manager", "mentor", "teacher", "doctor", "therapist", "lead", "landlord",
                            "landlady"})  # fmt: skip


def about_someone(text: str) -> bool:
    """``text`` opens with someone in the user's life ("User's daughter Maya quit swimming")."""
    return _PERSON_SUBJECT.match(text) is not None


def only_the_person(text: str, memory_words: frozenset[str]) -> bool:
    """True when ``text`` opens with someone in the user's life and cannot change the memory: the memory
    does not name them ("User's husband Dev started eating fish" leaves "User eats everything"), or
    shares nothing with it but them ("User's partner Sam is gluten-free these days" leaves "Sam is
    coming along")."""
    subject = _PERSON_SUBJECT.match(text)
    if subject is None:  # someone unnamed ("User's brother moved to Valencia") changes no memory without them
        kin = owner(text)
        whose, _, rest = text.partition("'s ")  # ... unless what they changed is the speaker's ("sold User's car")
        if not kin or kin in _ACTS_FOR_USER or f"{whose}'s " in rest:
            return False
        return not any(inflected(w, kin) or inflected(kin, w) for w in memory_words)
    person = content_words(subject[0])
    if subject[0].split()[-1].lower() not in memory_words:
        return True
    said, theirs = content_words(text) - person, memory_words - person
    return not any(inflected(a, b) or inflected(b, a) for a in said for b in theirs)


#: The wording's own frame ("User mentioned that ..."): two memories sharing it share no content.
_REPORTED = re.compile(r"\b[A-Z][\w'’-]* mentioned(?: that|:)\s*")


def _is_verb_frame(slot: str, text: str) -> bool:
    """ "I play X" may add a second thing played; "my sport is X" names the one value."""
    frame = slot[6:]
    return frame in _VERB_FRAMES or f"'s {frame} " not in f"{text} "
