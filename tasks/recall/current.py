"""Which recalled items hold the current value, and which an earlier one (shown "earlier (<date>): …").

Why: when the write path could not tell that a newer statement replaced an older one, both memories
stay active, and the verbatim turns under them always stay; an agent reading the older value first took
it as current (LongMemEval dev knowledge-update: an outdated value shown as current in 12 of 14). So
recall presents what it shows in time order, by general means only (no word lists):

* (a memory the write path superseded is not searched at all; an ``as_of`` recall's versions are
  judged as of that time, the one valid then being its current value);
* a verbatim turn whose memories were all replaced after it was said (each cited lineage's active
  version is valid from a later time, or none is active) is not current;
* of two items shown from different sessions whose vectors are close (the shipped embedder:
  ``settings.recall_current_slot_cosine``) and about equally close to the question (the question names
  the slot: ``settings.recall_current_query_margin``), the older is not current: they say the same of
  the same slot, so the newer one is what holds now (a restatement is labelled too: true, and harmless);
* a turn all of whose memories shown are not current is not current either, nor is an episode that
  shows replaced turns only (some turn of it cited by a non-current item, none by a current one); an
  episode that shows both stays current, its replaced sentences labelled inside it.

A non-current item keeps its place and its words; its ``content`` begins :func:`earlier_label`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta

import numpy as np

from tasks.models import RecallHit
from tasks.relative_dates import fmt_date
from tasks.textrules import joined

#: Two items said this close together are one statement (a session's turns and its memories).
SAME_TIME = timedelta(hours=1)


def earlier_label(when: datetime) -> str:
    """The prefix of a non-current item: ``earlier (7 May 2023): ``."""
    return f"earlier ({fmt_date(when)}): "


def said(hit: RecallHit) -> datetime:
    return hit.stated_at or hit.created_at


def outdated_turns(evidence: Sequence[RecallHit], lineages: Mapping[str, datetime | None]) -> set[str]:
    """Ids of the passages whose every cited memory lineage was replaced after they were said:
    ``lineages`` maps a lineage to when its active version became valid (None: none is active)."""
    out = set()
    for hit in evidence:
        cited = [lineages[m] for m in hit.memory_ids if m in lineages]
        if cited and all(valid is None or valid > said(hit) + SAME_TIME for valid in cited):
            out.add(hit.id)
    return out


def same_slot_older(items: Sequence[RecallHit], min_cosine: float, margin: float = 0.1) -> set[str]:
    """Ids of the items that a newer item of another session says the same of (cosine >= ``min_cosine``),
    the newer being about as close to the question (within ``margin``): the question names the slot, and
    a newer item of another slot ("my cousin plays the violin" for "what is my sister learning?") is not
    its new value."""
    with_vectors = [h for h in items if h.vector is not None and h.kind != "episode"]
    if len(with_vectors) < 2:
        return set()
    matrix = np.asarray([h.vector for h in with_vectors], dtype=np.float32)
    matrix /= np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-9)
    sims = matrix @ matrix.T
    out = set()
    for i, a in enumerate(with_vectors):
        for j, b in enumerate(with_vectors):
            if (
                i != j
                and sims[i, j] >= min_cosine
                and a.session_id != b.session_id
                and said(b) - said(a) > SAME_TIME
                and b.current
                and _asked(b) >= _asked(a) - margin
            ):
                out.add(a.id)
                break
    return out


def _asked(hit: RecallHit) -> float:
    """The item's cosine to the question."""
    return float(hit.score_parts.get("cosine", 0.0))


def marked(
    hits: Sequence[RecallHit],
    evidence: Sequence[RecallHit],
    lineages: Mapping[str, datetime | None],
    min_cosine: float | None,
    margin: float = 0.1,
) -> tuple[list[RecallHit], list[RecallHit]]:
    """``hits`` and ``evidence`` with ``current`` set and non-current items labelled (module docstring);
    ``min_cosine`` None: no two items are compared (only replaced turns are earlier)."""
    stale = outdated_turns(evidence, lineages)
    if min_cosine is not None:
        stale |= same_slot_older([h for h in [*hits, *evidence] if h.id not in stale], min_cosine, margin)
    by_turn: dict[str, list[RecallHit]] = {}
    for h in hits:
        if h.kind == "memory":
            for turn in h.source_event_ids:
                by_turn.setdefault(turn, []).append(h)
    for e in evidence:
        citing = [m for turn in e.source_event_ids for m in by_turn.get(turn, [])]
        if citing and all(m.id in stale for m in citing):
            stale.add(e.id)
    items = [h for h in [*hits, *evidence] if h.kind != "episode"]
    old_turns = {t for h in items if h.id in stale for t in h.source_event_ids}
    now_turns = {t for h in items if h.id not in stale for t in h.source_event_ids}
    out = []
    for h in hits:  # an episode shows what its session said: its replaced sentences are labelled
        if h.kind == "episode":
            h = _episode(h, old_turns, now_turns)
        out.append(h if h.kind == "episode" else _as(h, h.id not in stale))
    return out, [_as(e, e.id not in stale) for e in evidence]


def _replaced(turns: Iterable[str], old_turns: set[str], now_turns: set[str]) -> bool:
    """Turns some non-current item cites and no current one does."""
    mine = set(turns)
    return bool(mine & old_turns) and not mine & now_turns


def _episode(hit: RecallHit, old_turns: set[str], now_turns: set[str]) -> RecallHit:
    """An episode that shows replaced turns only is earlier; one that shows some labels those sentences."""
    if not hit.sentences:
        return _as(hit, not _replaced(hit.source_event_ids, old_turns, now_turns))
    replaced = [_replaced(s.source_event_ids, old_turns, now_turns) for s in hit.sentences]
    if all(r for r, s in zip(replaced, hit.sentences, strict=True) if s.source_event_ids) and any(replaced):
        return _as(hit, False)
    if not any(replaced):
        return hit
    label = earlier_label(said(hit))
    return hit.model_copy(update={"content": joined(
        (label + s.text) if r else s.text for r, s in zip(replaced, hit.sentences, strict=True)
    )})  # fmt: skip


def _as(hit: RecallHit, current: bool) -> RecallHit:
    if current:
        return hit if hit.current else hit.model_copy(update={"current": True})
    if not hit.current and hit.content.startswith(earlier_label(said(hit))):
        return hit
    return hit.model_copy(update={"current": False, "content": earlier_label(said(hit)) + hit.content})
