"""Packing: episodes show only what the better-ranked hits have not already said.

Episodes repeat a session's most important memories, so a plain top k spends much of its context
on the same turns twice (an episode line cost ~220 tokens on LoCoMo-dev and mostly restated memories
above it). Packing walks the ranked hits; an episode keeps only its cited sentences that add a
source turn not yet covered, and is dropped (its slot going to the next hit) when none does; when
no hit is left to take the slot, the dropped episodes fill it after all (whole: nothing else competes).
A memory is dropped only when it says again, word for word, a line already shown with no turn of its
own (a one-turn session's episode is its memory): two memories of one turn can say different things
(dropping those cost answer words on LoCoMo-dev for no recall).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from tasks.models import EpisodeSentence, RecallHit
from tasks.textrules import joined


def pack(hits: Sequence[RecallHit], k: int) -> list[RecallHit]:
    """The first ``k`` of ``hits`` (best first), episodes cut to their sentences that add turns."""
    covered: set[str] = set()
    said: set[str] = set()
    out: list[RecallHit] = []
    skipped: list[RecallHit] = []
    for hit in hits:
        if len(out) >= k:
            break
        if hit.kind == "memory" and _key(hit.content) in said and not set(hit.source_event_ids) - covered:
            skipped.append(hit)
            continue
        if hit.kind == "episode" and hit.sentences:
            kept = [s for s in hit.sentences if set(s.source_event_ids) - covered]
            if not kept:
                skipped.append(hit)
                continue
            hit = showing(hit, kept)
        covered.update(hit.source_event_ids)
        said.update(_key(t) for t in _lines(hit))
        out.append(hit)
    return out + skipped[: max(k - len(out), 0)]


def showing(episode: RecallHit, sentences: Sequence[EpisodeSentence]) -> RecallHit:
    """The episode cut to ``sentences`` (in the order given), citing only their turns."""
    return episode.model_copy(
        update={
            "content": joined(s.text for s in sentences),
            "source_event_ids": list(dict.fromkeys(e for s in sentences for e in s.source_event_ids)),
            "sentences": tuple(sentences),
        }
    )


def _lines(hit: RecallHit) -> Iterable[str]:
    """What a hit shows, line by line: an episode's cited sentences, a memory's content."""
    return [s.text for s in hit.sentences] if hit.kind == "episode" and hit.sentences else [hit.content]


def _key(text: str) -> str:
    """A line compared without case, spacing or closing punctuation."""
    return re.sub(r"\W+", " ", text).strip().lower()
