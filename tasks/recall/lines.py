"""What a prompt line says of a recalled item, shared by the context block and the reranker that reads it."""

from __future__ import annotations

from tasks.models import RecallHit
from tasks.recall.current import earlier_label, said
from tasks.textrules import unlabelled


def point_text(hit: RecallHit) -> str:
    """What a prompt line says of a hit: its content on one line, quoted questions without their
    "Asked by" label (the asker is the other participant; ~20 tokens a line, no answer word lost on LoCoMo-dev).
    A verbatim turn says who said it: "<speaker>: <words>"."""
    if hit.kind == "evidence":
        label, words = split_label(hit)
        return f"{label}{hit.speaker}: {' '.join(words.split())}"
    return one_line(hit.content)


def split_label(hit: RecallHit) -> tuple[str, str]:
    """A non-current hit's "earlier (<date>): " label and the words after it ("" and the content otherwise)."""
    label = earlier_label(said(hit)) if not hit.current else ""
    if label and hit.content.startswith(label):
        return label, hit.content[len(label) :]
    return "", hit.content


def one_line(text: str) -> str:
    """``text`` as :func:`point_text` shows it: on one line, without "Asked by" labels."""
    return " ".join(unlabelled(text).split())
