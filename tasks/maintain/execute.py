"""Running a pass: :func:`execute` plans it and writes it (:mod:`tasks.maintain.write`), whole or partitioned.

With ``partition_buckets`` (or the Dask task runner) a pass that reads per tenant (every pass but upkeep,
which works on whole tables) is split into (app, user-hash bucket) partitions, each planned and committed
on its own (:mod:`tasks.maintain.partitions`). A dry run reads only, so it is never partitioned.
"""

from __future__ import annotations

from datetime import datetime

from tasks.clock import now as wall_clock
from tasks.clock import utc
from tasks.maintain import write
from tasks.maintain.common import PassName, PassReport, log, pass_run_id, report_part
from tasks.maintain.partitions import run_partitioned
from tasks.maintain.write import Applier, Planner
from tasks.partitioning import buckets
from tasks.settings import Settings
from tasks.store.lock import store_lock
from tasks.store.tables import open_store, run_scope


def execute(
    settings: Settings, name: PassName, planner: Planner, *, now: datetime | None, app: str | None, user: str | None,
    dry_run: bool, apply: Applier | None = None,
) -> PassReport:  # fmt: skip
    """Plan the pass and, unless ``dry_run``, write the plan under the writer lock and record the run."""

    at = utc(now) if now is not None else wall_clock()
    report = PassReport(pass_name=name, run_id=pass_run_id(name, at, app, user), now=at, dry_run=dry_run,
                        app_name=app, user_id=user)  # fmt: skip
    started = wall_clock()
    if dry_run:  # reads only: no lock, no runs row, no table version moves
        with run_scope():
            store = open_store(settings)
            if store.existing():
                for part in planner(store, report):
                    report_part(report, part)
                report.versions_before = report.versions_after = store.versions()
    elif apply is None and buckets(settings):
        run_partitioned(settings, report, started)
    else:
        with store_lock(settings, f"maintain {name} {report.run_id}"), run_scope():
            store = open_store(settings)
            if store.existing():
                before = report.versions_before = store.versions()
                write.write_plans(store, planner(store, report), report, at)
                if apply is not None:
                    apply(store, report)
                write.record_run(store, report, before, started)  # looked up here: the crash tests replace it
                report.versions_after = store.versions()
    report.seconds = (wall_clock() - started).total_seconds()
    log.info("%s", report.summary())
    return report
