"""The evidence layer's write side: every turn of a session kept verbatim, split into passages (issue 70).

Why: recall answered from extracted memories only, and what extraction did not keep (the agent's
words, an aside, the exact list) was gone. Each turn becomes one row, or several when it is long
(split on sentence boundaries, so a passage is a readable unit and the embedder sees all of it);
rows are embedded in the run's one embedding call and written in the same run as the memories.
Text the store cannot hold well is cleaned, never a crashed batch: control characters are dropped,
an empty turn is skipped, and a turn longer than the passage bound keeps its first passages and
is reported in quarantine with the reason.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from tasks.models import Event, QuarantineRecord, Session, stable_id
from tasks.rows import EvidenceRow
from tasks.textrules import sentences

#: A passage is at most this many characters (about 100 tokens: the local embedder reads 128).
PASSAGE_CHARS = 480
#: Passages kept per turn; the rest of a longer turn is quarantined with its reason (a 200 KB paste).
MAX_PASSAGES = 48
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufffe\uffff]")


@dataclass(frozen=True)
class Passage:
    """One passage of one turn, before it is embedded."""

    event: Event
    turn: int
    passage: int
    text: str


def clean_text(text: str) -> str:
    """``text`` without control characters and with its whitespace runs made single (NFC)."""
    text = unicodedata.normalize("NFC", _CONTROL.sub(" ", text))
    return " ".join(text.split())


def split_passages(text: str, limit: int = PASSAGE_CHARS) -> list[str]:
    """``text`` cut on sentence boundaries into passages of at most ``limit`` characters
    (a sentence longer than that is cut on word boundaries, a word longer still by characters)."""
    out: list[str] = []
    current = ""
    for sentence in sentences(text) or [text]:
        for piece in _pieces(sentence, limit):
            if current and len(current) + 1 + len(piece) > limit:
                out.append(current)
                current = piece
            else:
                current = f"{current} {piece}" if current else piece
    if current:
        out.append(current)
    return out


def _pieces(sentence: str, limit: int) -> Iterable[str]:
    if len(sentence) <= limit:
        yield sentence
        return
    current = ""
    for word in sentence.split():
        while len(word) > limit:
            if current:
                yield current
                current = ""
            yield word[:limit]
            word = word[limit:]
        if current and len(current) + 1 + len(word) > limit:
            yield current
            current = word
        else:
            current = f"{current} {word}" if current else word
    if current:
        yield current


def passages_of(session: Session, max_passages: int = MAX_PASSAGES) -> tuple[list[Passage], list[QuarantineRecord]]:
    """Every turn of ``session`` as passages, and a quarantine record for each turn cut short."""
    out: list[Passage] = []
    bad: list[QuarantineRecord] = []
    for turn, event in enumerate(session.events):
        text = clean_text(event.text)
        if not text:
            continue
        parts = split_passages(text)
        if len(parts) > max_passages:
            reason = (f"session {session.session_id} turn {event.id}: {len(text)} characters; evidence keeps the "
                      f"first {max_passages} of its {len(parts)} passages")  # fmt: skip
            bad.append(QuarantineRecord(source=session.source or session.key, line=turn, reason=reason,
                                        raw=" ".join(parts[max_passages:])))  # fmt: skip
            parts = parts[:max_passages]
        out += [Passage(event, turn, i, p) for i, p in enumerate(parts)]
    return out, bad


def evidence_id(session: Session, event_id: str, passage: int) -> str:
    return stable_id("evidence", session.app_name, session.user_id, session.session_id, event_id, str(passage))


def evidence_rows(
    session: Session, passages: Sequence[Passage], vectors: Sequence[list[float]], run_id: str, at: datetime
) -> list[EvidenceRow]:
    """The session's evidence rows (not yet linked to memories: :func:`cite`)."""
    return [
        EvidenceRow(
            evidence_id=evidence_id(session, p.event.id, p.passage), app_name=session.app_name,
            user_id=session.user_id, session_id=session.session_id, event_id=p.event.id, turn=p.turn,
            passage=p.passage, author=p.event.author, role=p.event.role, text=p.text, vector=list(v),
            timestamp=p.event.timestamp, memory_ids=[], redacted=False, run_id=run_id, created_at=at,
        )
        for p, v in zip(passages, vectors, strict=True)
    ]  # fmt: skip


def cite(rows: Sequence[EvidenceRow], memories: Iterable[Mapping[str, Any]]) -> list[EvidenceRow]:
    """``rows`` with ``memory_ids`` set: the memories whose source turns they are (both directions
    of the citation: a memory's ``source_event_ids`` name the turns, the turn names the memories)."""
    by_turn: dict[tuple[str, str, str], set[str]] = defaultdict(set)
    for m in memories:  # a memory confirmed by a later session cites turns of both
        for event_id in m["source_event_ids"] or []:
            by_turn[(m["app_name"], m["user_id"], event_id)].add(m["memory_id"])
    out = []
    for row in rows:
        cited = by_turn.get((row.app_name, row.user_id, row.event_id))
        out.append(row.model_copy(update={"memory_ids": sorted(cited)}) if cited else row)
    return out
