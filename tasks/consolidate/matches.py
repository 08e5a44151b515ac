"""What consolidation decides and records against: a scored memory, a statement's source, stable ids."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from tasks.clock import utc
from tasks.models import Action, Decision, Fact, ForgetRequest, Relation, Session, stable_id
from tasks.rows import MemoryRow

#: What decides a fact against its related memories: the consolidator, or a schedule's precomputed answer.
Decide = Callable[[Fact, Sequence["MemoryMatch"]], Decision]


@dataclass(slots=True)
class MemoryMatch:
    """A memory with its cosine similarity to a fact or forget request (the ScoredMemory protocol).

    Not frozen: the protocol declares plain (settable) attributes, which a frozen class fails.
    """

    memory: MemoryRow
    similarity: float


@dataclass(frozen=True)
class Statement:
    """Where a verdict comes from: the session, the events, the statement and its time."""

    session: Session
    events: tuple[str, ...]
    text: str
    at: datetime


def new_memory_id(session: Session, fact: Fact) -> str:
    """Lineage id of a memory first stated in ``session``: stable across re-runs."""
    return stable_id("memory", session.app_name, session.user_id, session.session_id, fact.content)


#: The audit reason of a forget request that matched no memory (an IGNORE on no memory, counted in the run).
UNMATCHED_FORGET = "unmatched forget request"


#: The audit reason of a request to forget the whole user: erased by the same path as ``erase-user``.
ERASE_USER = "erase the whole user on request"
#: The words a request for everything may say besides the user: self-reference, quantifiers, generic heads.
_SELF = frozenset({"me", "myself", "my", "mine", "i"})
_WHOLE = _SELF | frozenset(
    {"about", "of", "on", "everything", "anything", "all", "whatever", "data", "info", "information", "details",
     "profile", "stuff", "things", "memories", "you", "u", "know", "have", "remember", "the", "that", "what"}
)  # fmt: skip


#: Words that make a request about the user a request for all of it ("forget about me, let's focus on my son"
#: names the user, but asks for nothing to be erased).
_ALL = frozenset({"everything", "all", "anything", "whatever", "data", "info", "information", "details", "profile"})


def erases_everything(request: ForgetRequest, said: str = "") -> bool:
    """A request whose object is the user as a whole ("everything you know about me", "all my data"): no
    word of it names a thing, it names the user, and it or the turn it cites (``said``) asks for all of it.
    Such a request is not matched memory by memory."""
    words = set(re.findall(r"[a-z']+", request.query.lower()))
    asked_all = words | set(re.findall(r"[a-z']+", said.lower()))
    return bool(words) and words <= _WHOLE and bool(words & _SELF) and bool(asked_all & _ALL)


def forget_reason(request: ForgetRequest) -> str:
    """The ``status_reason`` of a forgotten memory: the user's own words, with when they were said."""
    return f'forgotten on request ({utc(request.stated_at).date().isoformat()}): "{request.query}"'


def settled_reason(session: Session, fact: Fact) -> str:
    """The status reason of a memory ``fact`` settled besides its target (a plan carried out): names the
    fact's memory id, so a re-run finds what it closed."""
    return f"settled by {new_memory_id(session, fact)}"


def forgettable(rows: Iterable[MemoryRow]) -> list[MemoryRow]:
    """What a forget request is judged against: each memory's latest version when it is active, or closed by
    another memory ("User's partner is Sam", settled by "Sam and I split up, I'm seeing Alex now"): its words
    are still the user's to have forgotten. Older versions go with their memory; deleted ones are gone."""
    latest: dict[str, MemoryRow] = {}
    for row in rows:
        if row.memory_id not in latest or row.version > latest[row.memory_id].version:
            latest[row.memory_id] = row
    return [r for r in latest.values() if r.status in ("active", "superseded")]


class Logged:
    """What the parts of :class:`tasks.consolidate.working.UserMemories` kept in their own modules
    (:mod:`~tasks.consolidate.replay`, :mod:`~tasks.consolidate.remains`) read and write through."""

    rows: dict[str, MemoryRow]

    def _log(
        self, src: Statement, action: Action, relation: Relation, on: MemoryRow | str, old: str | None,
        new: str | None, reason: str,
    ) -> None:  # fmt: skip
        raise NotImplementedError

    def kept_of(self, src: Statement, old: MemoryRow) -> MemoryRow | None:
        """The memory ``src`` wrote of what it kept of ``old`` (:mod:`~tasks.consolidate.remains`)."""
        raise NotImplementedError
