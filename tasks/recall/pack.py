"""Packing: episodes show only what the better-ranked hits have not already said.

Episodes repeat a session's most important memories, so a plain top k spends much of its context
on the same turns twice (an episode line cost ~220 tokens on LoCoMo-dev and mostly restated memories
above it). Packing walks the ranked hits; an episode keeps only its cited sentences that add a
source turn not yet covered, and is dropped (its slot going to the next hit) when none does; when
no hit is left to take the slot, the dropped episodes fill it after all (whole: nothing else competes).
A memory is dropped only when it says again, word for word, a line already shown with no turn of its
own (a one-turn session's episode is its memory): two memories of one turn can say different things
(dropping those cost answer words on LoCoMo-dev for no recall).

Focused packing (what recall shows; the abstention verdict reads the unfocused pack) also makes an
episode say what its session said about the question: its sentences were picked at write time, without
the question, so a list question ("What events has Caroline attended?") found the session and missed
the turn it asks about. The episode shows, best-ranked first, as many sentences as it would have shown,
drawn from its own sentences and its session's memories ranked below it; a memory shown so takes no
slot of its own.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from tasks.models import EpisodeSentence, RecallHit
from tasks.providers.local_summarizer import excerpt
from tasks.textrules import joined

#: The rank of a sentence no ranked memory cites: after every memory.
_UNRANKED = 1 << 30


def pack(hits: Sequence[RecallHit], k: int, *, focus: bool = False) -> list[RecallHit]:
    """The first ``k`` of ``hits`` (best first), episodes cut to their sentences that add turns; with
    ``focus``, an episode's sentences are its session's best-ranked ones (see the module's docstring)."""
    ranks, sessions = _ranked_memories(hits) if focus else ({}, {})
    covered: set[str] = set()
    said: set[str] = set()
    shown_in_episode: set[str] = set()
    out: list[RecallHit] = []
    skipped: list[RecallHit] = []
    for position, hit in enumerate(hits):
        if len(out) >= k:
            break
        if hit.id in shown_in_episode:
            continue
        if hit.kind == "memory" and _key(hit.content) in said and not set(hit.source_event_ids) - covered:
            skipped.append(hit)
            continue
        if hit.kind == "episode" and hit.sentences:
            kept = [s for s in hit.sentences if set(s.source_event_ids) - covered]
            if focus:
                later = [(p, m) for p, m in sessions.get(hit.session_id, ()) if p > position]
                kept = _focused(hit, kept, later, covered, ranks, shown_in_episode)
            if not kept:
                skipped.append(hit)
                continue
            hit = showing(hit, kept)
        covered.update(hit.source_event_ids)
        said.update(_key(t) for t in _lines(hit))
        out.append(hit)
    return out + skipped[: max(k - len(out), 0)]


def _focused(
    episode: RecallHit,
    kept: list[EpisodeSentence],
    later: list[tuple[int, RecallHit]],
    covered: set[str],
    ranks: dict[str, int],
    shown_in_episode: set[str],
) -> list[EpisodeSentence]:
    """The episode's sentences to show, best-ranked first: its own that add turns and its session's
    later-ranked memories, as many as it would show unfocused (its cited sentences when none is new).

    A sentence ranks as the best-ranked memory citing one of its turns. The memories taken are added
    to ``shown_in_episode``.
    """
    wanted = len(kept) or sum(1 for s in episode.sentences if s.source_event_ids)
    own: list[tuple[int, EpisodeSentence | RecallHit]] = [
        (min((ranks.get(e, _UNRANKED) for e in s.source_event_ids), default=_UNRANKED), s) for s in kept
    ]
    theirs: list[tuple[int, EpisodeSentence | RecallHit]] = list(later)
    seen = set(covered)
    out: list[EpisodeSentence] = []
    for _, item in sorted(own + theirs, key=lambda pair: pair[0]):
        if len(out) >= wanted:
            break
        if not set(item.source_event_ids) - seen:
            continue
        if isinstance(item, RecallHit):
            shown_in_episode.add(item.id)
            item = EpisodeSentence(text=excerpt(item.content), source_event_ids=tuple(item.source_event_ids))
        seen.update(item.source_event_ids)
        out.append(item)
    return out


def _ranked_memories(hits: Sequence[RecallHit]) -> tuple[dict[str, int], dict[str, list[tuple[int, RecallHit]]]]:
    """Each turn's best position among the ranked memories citing it; each session's memories with
    their positions."""
    ranks: dict[str, int] = {}
    sessions: dict[str, list[tuple[int, RecallHit]]] = {}
    for position, hit in enumerate(hits):
        if hit.kind == "memory":
            sessions.setdefault(hit.session_id, []).append((position, hit))
            for turn in hit.source_event_ids:
                ranks.setdefault(turn, position)
    return ranks, sessions


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
