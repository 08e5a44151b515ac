"""Sources: where ended sessions come from, behind one small protocol chosen in settings.

A source yields raw sessions (flat, unvalidated, with their origin) and quarantine records for
what it cannot read; validation, selection and everything after are the same for every source.
A new source implements :class:`SessionSource` and is added to :func:`build_source`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Protocol

from tasks.errors import SourceError
from tasks.models import QuarantineRecord
from tasks.settings import Settings
from tasks.sources.raw import RawSession


class SessionSource(Protocol):
    """Yields every session it has to offer, unreadable ones as quarantine records."""

    def pull(self, max_raw: int) -> Iterator[RawSession | QuarantineRecord]: ...


def build_source(settings: Settings) -> SessionSource:
    """The source named in settings (``session_source``)."""
    if settings.session_source == "files":
        from tasks.sources.files import FileSource

        return FileSource(settings.sessions_uri)
    raise SourceError(f"unknown session source {settings.session_source!r}")
