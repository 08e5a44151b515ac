"""Maintenance passes over the memory store: TTL, decay, capacity, merge and table upkeep (issue 13).

Each pass is a plain function ``run_<pass>(settings, *, now, app=None, user=None, dry_run=False)``
returning a :class:`~tasks.maintain.common.PassReport` of what it changed (or, dry, would change).
Passes read per tenant or in batches, close memories by status and ``valid_to`` (never delete them
until ``closed_retention_days`` later), audit every change in ``memory_changes``, hold the store's
writer lock, and record a ``runs`` row (``flow="maintain:<pass>"``) whose id tags the versions they
made. Thin Prefect flows in ``flows/maintain.py`` and the ``memory-pipeline maintain`` command call
:func:`run_pass`. Lookups are lazy so importing the package loads no pass module.
"""

from __future__ import annotations

import importlib
from datetime import datetime

from tasks.maintain.common import PASSES, PassName, PassReport
from tasks.settings import Settings

__all__ = ["PASSES", "PassName", "PassReport", "run_pass", "run_passes"]


def run_pass(
    settings: Settings, name: PassName, *, now: datetime | None = None, app: str | None = None,
    user: str | None = None, dry_run: bool = False,
) -> PassReport:  # fmt: skip
    """Run one pass by name (``tasks.maintain.<name>.run_<name>``)."""
    if name not in PASSES:
        raise ValueError(f"unknown pass {name!r}; one of {', '.join(PASSES)}")
    module = importlib.import_module(f"tasks.maintain.{name}")
    report: PassReport = getattr(module, f"run_{name}")(settings, now=now, app=app, user=user, dry_run=dry_run)
    return report


def run_passes(
    settings: Settings, names: tuple[PassName, ...] = PASSES, *, now: datetime | None = None,
    app: str | None = None, user: str | None = None, dry_run: bool = False,
) -> list[PassReport]:  # fmt: skip
    """The passes in order (the nightly sequence: ttl → decay → capacity → merge → upkeep)."""
    return [run_pass(settings, n, now=now, app=app, user=user, dry_run=dry_run) for n in names]
