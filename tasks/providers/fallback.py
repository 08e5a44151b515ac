"""The offline provider takes over a stage whose LLM call failed, for that session (or fact) only.

Why: a small local model returns JSON cut off at the token limit, renamed keys, or nothing, and a
deterministic model fails the same way on every retry, so quarantining the session for the next run
would lose it for good. After the client's one repair attempt (and its retries, and one restart of the
project's own server), the local rules do that stage instead; the run counts it as ``fallbacks`` of
the provider in its ``llm_usage`` (stored with the run's counts) and the log names the session.

Chosen by the factory (:mod:`tasks.providers`) when :func:`~tasks.providers.local_server.fallback_enabled`.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence

import openai

from tasks.errors import ProviderCallError, ProviderReplyError
from tasks.models import Decision, Episode, Extraction, Fact, ForgetRequest, Session
from tasks.providers.base import CallingConsolidator, Consolidator, Extractor, ScoredMemory, Summarizer
from tasks.providers.openai_usage import count_event

log = logging.getLogger(__name__)
#: What an LLM stage may fail with that the offline provider can stand in for: a reply invalid after its
#: repair, an endpoint down after the retries, or a request the server refused (a session longer than its
#: context answers HTTP 400).
LLM_FAILURES = (ProviderReplyError, ProviderCallError, openai.APIError)


def _noted(provider: str, what: str, exc: Exception) -> None:
    count_event(provider, "fallbacks")
    log.warning("%s %s: %s: %s; the offline %s does it instead", provider, what, type(exc).__name__,
                str(exc)[:200], provider)  # fmt: skip


class FallbackExtractor:
    """An LLM extractor with the local rules behind it."""

    def __init__(self, primary: Extractor, offline: Extractor) -> None:
        self.primary, self.offline = primary, offline

    def extract(self, session: Session, people: Mapping[str, str] | None = None) -> Extraction:
        try:
            return self.primary.extract(session, people)
        except LLM_FAILURES as exc:
            _noted("extractor", f"session {session.session_id}", exc)
            return self.offline.extract(session, people)


class FallbackSummarizer:
    """An LLM summarizer with the local one behind it."""

    def __init__(self, primary: Summarizer, offline: Summarizer) -> None:
        self.primary, self.offline = primary, offline

    def summarize(self, session: Session, facts: Sequence[Fact] | None = None) -> Episode:
        try:
            return self.primary.summarize(session, facts)
        except LLM_FAILURES as exc:
            _noted("summarizer", f"session {session.session_id}", exc)
            return self.offline.summarize(session, facts)


class FallbackConsolidator:
    """An LLM consolidator with the local one behind it; still a :class:`CallingConsolidator`, so the
    engine keeps overlapping its requests (the key is the LLM request's: a failing request fails alike)."""

    def __init__(self, primary: CallingConsolidator, offline: Consolidator) -> None:
        self.primary, self.offline = primary, offline
        self.related_threshold = primary.related_threshold

    def decision_key(self, fact: Fact, related: Sequence[ScoredMemory]) -> str | None:
        return self.primary.decision_key(fact, related)

    def decide(self, fact: Fact, related: Sequence[ScoredMemory]) -> Decision:
        try:
            return self.primary.decide(fact, related)
        except LLM_FAILURES as exc:
            _noted("consolidator", "decide", exc)
            return self.offline.decide(fact, related)

    def forget(self, request: ForgetRequest, related: Sequence[ScoredMemory]) -> list[Decision]:
        try:
            return self.primary.forget(request, related)
        except LLM_FAILURES as exc:
            _noted("consolidator", "forget", exc)
            return self.offline.forget(request, related)
