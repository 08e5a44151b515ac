"""A time named by an event: "Where did I go hiking after the road trip?", "before my sister's wedding".

:mod:`tasks.recall.when` reads times named by the calendar. People as often time a question by
something that happened to them, and only the memories know when that was. :func:`anchor_of` reads
the edge and the event from the question; :func:`anchored` finds the candidate that tells the event
(the question's words bring it into the pool), dates it (the date its text states, else the day it
was said) and marks the candidates on the asked side, as a calendar window would.

Only a definite event is read: "the move", "my surgery", "Anna's party", "we adopted Biscuit",
"moving into the new flat". "After a workout", "before bed", "since I'm vegan", "after that" and
"before I forget" name no told event (a habit, a reason, a filler) and get no window; nor do times
of the calendar or of the conversation ("after the long weekend", "since we last talked").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta

import numpy as np

from tasks.dates import stated_spans
from tasks.providers.wording import content_words
from tasks.recall.hits import Candidates, said_at, timely_marks
from tasks.recall.when import Window

_EDGE = re.compile(
    r"\b(?P<edge>ever since|since|after|before|until|till|prior to|following)\s+(?P<event>[^?!.,;:]+)", re.I
)
#: Where a question goes on after its event without a comma ("since the surgery what have I read").
_EVENT_END = re.compile(r"\s+(?:and|or|did|do|does|have|has|what|where|when|who|which|how|is|was|were)\b.*", re.I)
_DEFINITE = {"the", "my", "our", "his", "her", "their", "your"}
#: Whose past deeds are the user's events ("you", the assistant, tells none).
_PERSONS = {"i", "we", "he", "she", "they"}
#: Heads of nouns that are times of the calendar or of the conversation ("the weekend", "the end of
#: the day", "the last session"), not told events; and verbs of the conversation ("we talked").
_TIME_HEADS = frozenset(
    """day days week weeks weekend weekends month months year years morning afternoon evening night
    time times end beginning start middle rest hour hours minute minutes moment while session sessions
    chat chats conversation conversations one ones""".split()  # noqa: SIM905
)
_TALK = re.compile(r"(?:ask|tell|told|said|say|mention|talk|chat|spoke|speak|discuss)", re.I)
#: Words after a noun's head: a preposition or the start of a clause ("the road trip to Utah").
_NOUN_ENDS = {"of", "to", "in", "at", "on", "with", "for", "from", "by", "about", "into", "you", "that", "when"}
#: Irregular past tenses ("before we got Biscuit"); regular ones end in "-ed".
_PAST = frozenset(
    """went got had did made came left began took met bought saw found lost won broke quit became gave flew
    drove ran sold wrote fell grew spent told heard threw held kept sent built paid""".split()  # noqa: SIM905
)
_NOT_GERUNDS = {"during", "morning", "evening", "nothing", "something", "anything", "everything", "thing", "king"}
#: Words that name no particular event ("the new job": "job" does).
_WEAK = {"got", "get", "new", "old", "first", "last", "big", "little", "went", "go", "came", "did", "made"}
#: Share of the event's words a candidate must contain to be the event.
MIN_COVER = 0.5
#: Where a memory's or an episode's note of a change begins: what another memory said.
_NOTE = re.compile(r" \((?:previously:|changed from|later changed:|refined on)")


@dataclass(frozen=True)
class Anchor:
    """The edge ("before" / "after"; "since" is after, "until" before) and the event's words."""

    edge: str
    phrase: str
    words: frozenset[str]


def anchor_of(query: str) -> Anchor | None:
    """The first definite event a question times itself by, or None."""
    for m in _EDGE.finditer(query):
        event = _EVENT_END.sub("", m["event"]).strip()
        tokens = event.split()
        if not tokens or len(tokens) > 8 or not _definite(tokens):
            continue
        words = frozenset(w for w in content_words(event) if w not in _WEAK)
        if words:
            edge = m["edge"].lower()
            side = "after" if edge in ("after", "since", "ever since", "following") else "before"
            return Anchor(side, f"{m['edge']} {event}", words)
    return None


def _definite(tokens: list[str]) -> bool:
    """A determined noun ("the move", "Anna's party"), a person's past deed ("we adopted a puppy") or a
    gerund with a determined object ("moving into the new flat")."""
    first = tokens[0].lower()
    if first in _DEFINITE or re.fullmatch(r"[A-Z]\w+['’]s", tokens[0]):
        # The head ends the noun: before a preposition or a clause ("the last time we talked").
        noun = tokens[: next((i for i, t in enumerate(tokens) if t.lower() in _NOUN_ENDS | _PERSONS), len(tokens))]
        return re.sub(r"['’]s$", "", noun[-1].lower()) not in _TIME_HEADS
    if first in _PERSONS or (tokens[0][:1].isupper() and first not in _DEFINITE and len(tokens) > 1):
        verb = next((t.lower() for t in tokens[1:3] if not t.lower().endswith("ly")), "")
        return (verb.endswith("ed") or verb in _PAST) and not _TALK.match(verb)
    if first.endswith("ing") and first not in _NOT_GERUNDS:
        return any(t.lower() in _DEFINITE or t[:1].isupper() for t in tokens[1:])
    return False


def cover(anchor: Anchor, text: str) -> float:
    """Share of the event's words in ``text`` (before any note of a change: those are another's words),
    a word of 5+ letters matching its family ("graduation" / "graduated")."""
    found = content_words(_NOTE.split(text, 1)[0])
    return sum(w in found or _kin(w, found) for w in anchor.words) / len(anchor.words)


def _kin(word: str, found: frozenset[str]) -> bool:
    return len(word) >= 5 and any(len(f) >= 5 and (f.startswith(word) or word.startswith(f)) for f in found)


def anchored(found: Sequence[Candidates], anchor: Anchor, now: datetime) -> tuple[list[Candidates], Window | None]:
    """``found`` with ``timely`` set on the asked side of the event, and that window; unchanged and
    None when no candidate tells the event (at least :data:`MIN_COVER` of its words)."""
    texts = [[t or "" for t in f.rows.column(f.plan.text_col).to_pylist()] for f in found]
    covers = ((fi, i, cover(anchor, t)) for fi, ts in enumerate(texts) for i, t in enumerate(ts))
    shares = {(fi, i): share for fi, i, share in covers if share >= MIN_COVER}
    if not shares:
        return list(found), None
    similarity = [f.signals.cosine + np.maximum(f.signals.bm25, 0.0) / 10.0 for f in found]
    fi, i = max(shares, key=lambda at: (shares[at], similarity[at[0]][at[1]]))
    sessions = [f.rows.column(f.plan.session_col).to_pylist() for f in found]
    # The event's rows: its session's candidates that tell it (a memory and its episode, say).
    told = {(fj, j) for fj, j in shares if sessions[fj][j] == sessions[fi][i]}
    days = [_day(texts[fj][j], float(found[fj].said_us[j])) for fj, j in told]
    start, end = min(d[0] for d in days), max(d[1] for d in days)
    # The event's own day is on both sides: what it led to or came after is often told with it
    # ("the charity race made me realise ...").
    span = (start, now + timedelta(seconds=1)) if anchor.edge == "after" else (datetime(1900, 1, 1, tzinfo=UTC), end)
    window = Window((span,), anchor.phrase, lag=False)
    marked = [timely_marks(window, list(t), f.said_us) for f, t in zip(found, texts, strict=True)]
    others = any((fj, int(j)) not in told for fj, m in enumerate(marked) for j in np.flatnonzero(m))
    window = replace(window, empty=not others)
    return [replace(g, signals=replace(g.signals, timely=m)) for g, m in zip(found, marked, strict=True)], window


def _day(text: str, said_us: float) -> tuple[datetime, datetime]:
    """The event's date as the row states it, else the day it was said."""
    spans = stated_spans(_NOTE.split(text, 1)[0])
    said = said_at(said_us).replace(hour=0, minute=0, second=0, microsecond=0)
    return spans[0] if spans else (said, said + timedelta(days=1))
