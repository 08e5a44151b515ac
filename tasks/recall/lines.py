"""What a prompt line says of a recalled item, shared by the context block and the reranker that reads it."""

from __future__ import annotations

from tasks.models import RecallHit
from tasks.textrules import unlabelled


def point_text(hit: RecallHit) -> str:
    """What a prompt line says of a hit: its content on one line, quoted questions without their
    "Asked by" label (the asker is the other participant; ~20 tokens a line, no answer word lost on LoCoMo-dev).
    A verbatim turn says who said it: "<speaker>: <words>"."""
    if hit.kind == "evidence":
        return f"{hit.speaker}: {' '.join(hit.content.split())}"
    return one_line(hit.content)


def one_line(text: str) -> str:
    """``text`` as :func:`point_text` shows it: on one line, without "Asked by" labels."""
    return " ".join(unlabelled(text).split())
