"""What an extraction rule finds: a fact's topic, text and importance, and the slot it fills, if any."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RuleFact:
    topic: str
    content: str
    importance: float
    slot: str | None = None
    value: str | None = None
