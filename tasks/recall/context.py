"""Recalled memories as a compact text block for a prompt, under a hard token budget.

Lines are ``<date> - <point>`` ("7 May 2023 - …") so that a model can reason about when something was
said, in the form people (and answers) write dates.
Lines are taken best-first and a line that does not fit is skipped (a shorter one after it may
still fit); the whole block, headers included, is counted with the same tokenizer as the model's.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from tasks.models import RecallHit
from tasks.recall.abstain import NOTHING_KNOWN, nothing_from
from tasks.recall.evidence import interleaved
from tasks.recall.lines import point_text
from tasks.recall.recaller import Recaller, recaller_for
from tasks.settings import Settings
from tasks.textrules import fmt_date
from tasks.tokens import count_tokens, truncate_to_tokens

FACTS_HEADER = "Known facts:"
EPISODES_HEADER = "Relevant past conversations:"
EVIDENCE_HEADER = "Said in past conversations (verbatim):"
#: An episode summary is cut to this many tokens so that one long summary cannot eat the budget.
MAX_LINE_TOKENS = 80


def build_context(
    query: str,
    app_name: str,
    user_id: str,
    max_tokens: int,
    *,
    settings: Settings,
    recaller: Recaller | None = None,
    abstain: bool = False,
    now: datetime | None = None,
) -> str:
    """The context block for ``query`` within ``max_tokens`` ("" when nothing is recalled), asked at ``now``
    (default: the clock).

    With ``abstain``, a recall whose best hit is not close enough to the query gives the line
    :data:`~tasks.recall.abstain.NOTHING_KNOWN` instead of the nearest (unrelated) memories. A question
    whose time holds nothing ("what did I buy last week?") is told so first; with ``abstain``, only that.
    """
    with recaller_for(settings, recaller) as active:
        result = active.recall_result(query, app_name, user_id, now=now)
    if abstain and (not result.confident or result.untimely):
        said = nothing_from(result.untimely) if result.untimely else NOTHING_KNOWN
        return said if count_tokens(said) <= max_tokens else ""
    if result.untimely:
        note = nothing_from(result.untimely)
        return format_context(result.hits, max_tokens, wrapper=(f"{note}\n\n", ""), evidence=result.evidence) or note
    return format_context(result.hits, max_tokens, evidence=result.evidence)


def hit_line(hit: RecallHit) -> str:
    """``<D Month YYYY> - <point>``, dated by when it was said (episodes: when they started); an earlier
    value (:mod:`tasks.recall.current`) reads ``earlier (<D Month YYYY>): <point>``, its label its date."""
    when = hit.stated_at or hit.created_at
    point = point_text(hit)
    if count_tokens(point) > MAX_LINE_TOKENS:
        point = truncate_to_tokens(point, MAX_LINE_TOKENS - 1).rstrip() + "…"
    return point if not hit.current and point.startswith("earlier (") else f"{fmt_date(when)} - {point}"


def format_context(
    hits: Sequence[RecallHit],
    max_tokens: int,
    *,
    wrapper: tuple[str, str] = ("", ""),
    evidence: Sequence[RecallHit] = (),
) -> str:
    """Render hits into sections, never exceeding ``max_tokens`` (wrapper included): the memories and
    episodes first, then the verbatim ``evidence`` passages. Lines are offered a memory and a passage in
    turn (:func:`~tasks.recall.evidence.interleaved`), so a small budget still holds both layers' best."""
    sections: dict[str, list[str]] = {"memory": [], "episode": [], "evidence": []}
    for hit in interleaved(hits, evidence):
        target = sections[hit.kind]
        target.append(hit_line(hit))
        if count_tokens(_render(sections["memory"], sections["episode"], wrapper, sections["evidence"])) > max_tokens:
            target.pop()
    if not any(sections.values()):
        return ""
    return _render(sections["memory"], sections["episode"], wrapper, sections["evidence"])


def _render(facts: list[str], episodes: list[str], wrapper: tuple[str, str], said: Sequence[str] = ()) -> str:
    sections: list[str] = []
    if facts:
        sections.append("\n".join([FACTS_HEADER, *facts]))
    if episodes:
        sections.append("\n".join([EPISODES_HEADER, *episodes]))
    if said:
        sections.append("\n".join([EVIDENCE_HEADER, *said]))
    body = "\n\n".join(sections)
    head, tail = wrapper
    return "".join(part for part in (head, body, tail))
