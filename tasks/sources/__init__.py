"""Sources: where ended sessions come from, behind one small protocol chosen in settings.

A source yields raw sessions (flat, unvalidated, with their origin) and quarantine records for
what it cannot read; validation, selection and everything after are the same for every source.
A new source implements :class:`SessionSource` and is added to :func:`build_source`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Protocol

from tasks.errors import SourceError
from tasks.models import QuarantineRecord
from tasks.settings import Settings
from tasks.sources.raw import RawSession


class SessionSource(Protocol):
    """Yields every session it has to offer, unreadable ones as quarantine records."""

    def pull(self, max_raw: int) -> Iterator[RawSession | QuarantineRecord]: ...


def build_source(settings: Settings, *, now: datetime | None = None) -> SessionSource:
    """The source named in settings (``session_source``), plus the ADK memory service's spool when set.

    ``now`` is the clock of time-based pull criteria (the ADK database source's idle trigger).
    """
    sources: list[SessionSource] = []
    if settings.session_source == "files":
        from tasks.sources.files import FileSource

        sources.append(FileSource(settings.sessions_uri))
    elif settings.session_source == "adk_db":
        from tasks.sources.adk_db import AdkDbSource

        if not settings.adk_db_url:
            raise SourceError("session_source is 'adk_db' but adk_db_url is not set")
        sources.append(AdkDbSource(settings.adk_db_url, settings, now=now))
    else:
        raise SourceError(f"unknown session source {settings.session_source!r}")
    if settings.adk_spool_url and settings.adk_spool_url != settings.adk_db_url:
        from tasks.sources.adk_db import AdkDbSource

        sources.append(AdkDbSource(settings.adk_spool_url, settings, now=now, missing_ok=True))
    return sources[0] if len(sources) == 1 else ChainedSource(sources)


class ChainedSource:
    """Several sources pulled one after the other, as one."""

    def __init__(self, sources: list[SessionSource]) -> None:
        self.sources = sources

    def pull(self, max_raw: int) -> Iterator[RawSession | QuarantineRecord]:
        for source in self.sources:
            yield from source.pull(max_raw)


def pull_at(now: datetime) -> Callable[[Settings], tuple[list[RawSession], list[QuarantineRecord]]]:
    """A pull stage (for ``tasks.ingest.run.Stages``) whose time-based criteria see ``now``.

    For tests and backfills; scheduled runs use the real clock through the default pull stage.
    """

    def pull(settings: Settings) -> tuple[list[RawSession], list[QuarantineRecord]]:
        raws: list[RawSession] = []
        bad: list[QuarantineRecord] = []
        for item in build_source(settings, now=now).pull(settings.quarantine_raw_max_chars):
            (bad if isinstance(item, QuarantineRecord) else raws).append(item)  # type: ignore[arg-type]
        return raws, bad

    return pull
