"""Per-session provider work run concurrently, for the ingest stage (``tasks.ingest.stages.extract_sessions``).

With LLM providers a session's cost is waiting on the endpoint, so sessions go out together, up to
``openai_max_in_flight`` requests at once (the semaphore in :mod:`tasks.providers.openai_client`
bounds the actual HTTP calls). An LLM summary does not need the extracted facts, so a session's
extraction and summary calls also go out at once; a local summarizer waits for the facts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tasks.models import Episode, Extraction, Session
from tasks.providers.base import Extractor, Summarizer
from tasks.providers.openai_client import map_concurrent
from tasks.settings import Settings

Outcome = tuple[Extraction, Episode] | BaseException


def extract_and_summarize(
    sessions: Sequence[Session],
    extractor: Extractor,
    summarizer: Summarizer,
    settings: Settings,
    people: Sequence[Mapping[str, str]] | None = None,
) -> list[Outcome]:
    """Each session's (extraction, episode), or the exception that stopped it, in input order;
    ``people`` are each session's known ties (see :mod:`tasks.ingest.people`)."""
    known = list(people) if people is not None else [{} for _ in sessions]
    if settings.summarizer != "openai":

        def both(item: tuple[Session, Mapping[str, str]]) -> tuple[Extraction, Episode]:
            extraction = extractor.extract(item[0], item[1])
            return extraction, summarizer.summarize(item[0], extraction.facts)

        return map_concurrent(both, list(zip(sessions, known, strict=True)), settings)

    def job(item: tuple[Session, Mapping[str, str], bool]) -> Extraction | Episode:
        session, ties, extract = item
        return extractor.extract(session, ties) if extract else summarizer.summarize(session, None)

    items = [(s, k, extract) for s, k in zip(sessions, known, strict=True) for extract in (True, False)]
    results = map_concurrent(job, items, settings)
    out: list[Outcome] = []
    for extraction, episode in zip(results[::2], results[1::2], strict=True):
        if isinstance(extraction, BaseException):
            out.append(extraction)
        elif isinstance(episode, BaseException):
            out.append(episode)
        else:
            assert isinstance(extraction, Extraction) and isinstance(episode, Episode)
            out.append((extraction, episode))
    return out
