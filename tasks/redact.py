"""Optional PII redaction before anything is stored: emails, phone numbers, card numbers, own patterns.

Off by default (``settings.redact_pii``). Card numbers are checked with the Luhn sum, so order or
booking numbers of the same length are left alone; phone numbers need a separator pattern or a
leading ``+`` so that years, prices and times stay.
"""

from __future__ import annotations

import re
from functools import lru_cache

from tasks.models import Session
from tasks.settings import Settings

EMAIL = re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b")
CARD = re.compile(r"\b(?:\d[ -]?){12,18}\d\b")
PHONE = re.compile(
    r"(?<![\w+])(?:\+\d{1,3}[\s.-]?)?(?:\(\d{1,4}\)[\s.-]?)?\d{2,4}(?:[\s.-]\d{2,4}){2,4}(?![\w-])"
    r"|(?<![\w+])\+\d{7,14}\b"
)


def luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        n = int(ch) * (2 if i % 2 else 1)
        total += n - 9 if n > 9 else n
    return total % 10 == 0


def _card(match: re.Match[str]) -> str:
    digits = re.sub(r"\D", "", match.group())
    return "[CARD]" if 13 <= len(digits) <= 19 and luhn_ok(digits) else match.group()


def _phone(match: re.Match[str]) -> str:
    digits = re.sub(r"\D", "", match.group())
    return "[PHONE]" if 7 <= len(digits) <= 15 else match.group()


@lru_cache(maxsize=32)
def _custom(patterns: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(p) for p in patterns)


def redact(text: str, settings: Settings) -> str:
    """``text`` with PII replaced by placeholders when redaction is on; unchanged when off."""
    if not settings.redact_pii or not text:
        return text
    text = EMAIL.sub("[EMAIL]", text)
    text = CARD.sub(_card, text)
    text = PHONE.sub(_phone, text)
    for pattern in _custom(tuple(settings.redact_patterns)):
        text = pattern.sub("[REDACTED]", text)
    return text


def redact_session(session: Session, settings: Settings) -> Session:
    """The session as extraction should read it: every event text redacted (the same session when off).

    Give this copy to the extractor and summarizer only; the ledger must keep the original
    session's content hash, or the session would look changed on every run.
    """
    if not settings.redact_pii:
        return session
    events = tuple(e.model_copy(update={"text": redact(e.text, settings)}) for e in session.events)
    summaries = tuple(redact(s, settings) for s in session.compaction_summaries)
    return session.model_copy(update={"events": events, "compaction_summaries": summaries})
