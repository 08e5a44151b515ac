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
the turn it asks about. The episode shows, best-ranked first, as many sentences as it showed unfocused,
drawn from its own and from its session's memories that did not make the top k. Nothing else shown
changes: a memory in the top k keeps its own line, whole.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from tasks.models import EpisodeSentence, RecallHit
from tasks.providers.local_summarizer import excerpt
from tasks.recall.lines import one_line
from tasks.textrules import joined

#: The rank of a sentence no ranked memory cites: after every memory.
_UNRANKED = 1 << 30


def pack(hits: Sequence[RecallHit], k: int, *, focus: bool = False) -> list[RecallHit]:
    """The first ``k`` of ``hits`` (best first), episodes cut to their sentences that add turns; with
    ``focus``, an episode also shows its session's best-ranked memories left out (see the module's docstring)."""
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
    packed = out + skipped[: max(k - len(out), 0)]
    return focused(packed, hits) if focus else packed


def focused(packed: list[RecallHit], hits: Sequence[RecallHit]) -> list[RecallHit]:
    """Each episode shown with as many sentences as before, best-ranked first: its own, and its session's
    memories that are not shown and add a turn nothing shown cites (ranked by :func:`_rank`)."""
    ranks, sessions = ranked_memories(hits)
    shown = {h.id for h in packed}
    covered = {turn for h in packed for turn in h.source_event_ids}
    out: list[RecallHit] = []
    for hit in packed:
        if hit.kind != "episode" or not hit.sentences:
            out.append(hit)
            continue
        own: list[tuple[int, EpisodeSentence | RecallHit]] = [
            (_rank(s.source_event_ids, ranks), s) for s in hit.sentences
        ]
        theirs: list[tuple[int, EpisodeSentence | RecallHit]] = [
            (p, m) for p, m in sessions.get(hit.session_id, ()) if m.id not in shown
        ]
        sentences: list[EpisodeSentence] = []
        for _, item in sorted(own + theirs, key=lambda pair: pair[0]):  # stable: its own first on a tie
            if len(sentences) >= len(hit.sentences):
                break
            if isinstance(item, RecallHit):
                if not set(item.source_event_ids) - covered:
                    continue
                covered.update(item.source_event_ids)
                shown.add(item.id)
                item = EpisodeSentence(text=excerpt(item.content), source_event_ids=tuple(item.source_event_ids))
            sentences.append(item)
        out.append(showing(hit, sentences))
    return out


RankedMemories = tuple[dict[str, int], dict[str, list[tuple[int, RecallHit]]]]


def ranked_memories(hits: Sequence[RecallHit]) -> RankedMemories:
    """Each turn's best position among the ranked memories citing it, and each session's memories with
    their positions."""
    ranks: dict[str, int] = {}
    sessions: dict[str, list[tuple[int, RecallHit]]] = {}
    for position, hit in enumerate(hits):
        if hit.kind == "memory":
            sessions.setdefault(hit.session_id, []).append((position, hit))
            for turn in hit.source_event_ids:
                ranks.setdefault(turn, position)
    return ranks, sessions


def read_as(episode: RecallHit, ranked: RankedMemories) -> str:
    """What a reader (the cross-encoder) reads of an episode for this question: its opening, then as many
    of its session's best-ranked statements as it cites, best first (its own sentences and the session's
    ranked memories, each adding a turn). Read as written, an episode is judged by what its summary picked
    without the question; read so, by what its session said about it (LoCoMo-dev reranked recall@10
    0.867 -> 0.882, multi-hop 0.692 -> 0.703)."""
    ranks, sessions = ranked
    cited = [s for s in episode.sentences if s.source_event_ids]
    opening = [s.text for s in episode.sentences if not s.source_event_ids]
    own = [(_rank(s.source_event_ids, ranks), 0, s.text, s.source_event_ids) for s in cited]
    theirs = [(p, 1, excerpt(m.content), tuple(m.source_event_ids)) for p, m in sessions.get(episode.session_id, ())]
    seen: set[str] = set()
    best: list[str] = []
    for _, _, text, turns in sorted(own + theirs, key=lambda item: (item[0], item[1])):
        if len(best) >= len(cited):
            break
        if set(turns) - seen:
            seen.update(turns)
            best.append(text)
    return one_line(joined([*opening, *best]))


def _rank(turns: Iterable[str], ranks: dict[str, int]) -> int:
    """A sentence's rank: the best-ranked memory citing one of its turns (after every memory when none does)."""
    return min((ranks.get(turn, _UNRANKED) for turn in turns), default=_UNRANKED)


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
