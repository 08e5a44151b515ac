"""Re-clustering by (app, user) that streams: a few tenants at a time instead of the whole table.

:func:`tasks.store.layout.cluster_by_scope` sorts the whole table in memory (about 1.7 GB per million
384-dim memories). Here the tenants are listed from a scan of the two scope columns, then read in
chunks of whole tenants (up to ``chunk_rows`` rows, found by the scope indexes), each chunk sorted,
and written :data:`WRITE_ROWS` rows at a time as new fragments; peak memory is about one write. The commit is the same
``Rewrite`` transaction against the version read (rows appended meanwhile survive; a concurrent
update of the same rows makes it fail, to be retried), and the new fragment ids are recorded in
the same table config key, so :func:`tasks.store.layout.needs_clustering` reads them as before.
"""

from __future__ import annotations

import logging
from typing import Any

import lancedb
import pyarrow as pa

from tasks.maintain.common import tenant_chunks
from tasks.store.filters import all_of, eq, is_in
from tasks.store.layout import SCOPE_ORDER, commit_rewrite

log = logging.getLogger(__name__)


#: Rows handed to one fragment write. Lance's writer takes in a whole stream before the file is done
#: (a single write of 1M rows peaked at ~1.4 GB), so the rows go out in writes of this size, each
#: its own fragment, all committed together in the one Rewrite.
WRITE_ROWS = 100_000


def _write(parts: list[pa.Table], dataset: Any) -> list[Any]:
    import lance

    data = pa.concat_tables(parts)
    fragments: list[Any] = lance.fragment.write_fragments(data, dataset, max_rows_per_file=max(data.num_rows, 1))
    return fragments


def cluster_streaming(tbl: lancedb.table.Table, key: str, chunk_rows: int = 50_000) -> int:
    """Rewrite the live rows sorted by (app, user, ``key``); returns rows written (0: nothing, or lost a race)."""
    dataset = tbl.to_lance()
    read_version = dataset.version
    fragments = dataset.get_fragments()
    if not fragments:
        return 0
    counts: dict[tuple[str, str], int] = {}
    for batch in dataset.scanner(columns=list(SCOPE_ORDER), batch_size=8192).to_batches():
        groups = pa.Table.from_batches([batch]).group_by(list(SCOPE_ORDER)).aggregate([([], "count_all")])
        for app, user, n in zip(*(groups.column(c).to_pylist() for c in (*SCOPE_ORDER, "count_all")), strict=True):
            counts[(app, user)] = counts.get((app, user), 0) + n
    total = sum(counts.values())
    if not total:
        return 0
    cols = SCOPE_ORDER

    sort = [(c, "ascending") for c in (*SCOPE_ORDER, key)]
    new_fragments: list[Any] = []
    pending: list[pa.Table] = []
    size = 0
    for app, users in tenant_chunks(counts, chunk_rows):
        where = all_of(eq("app_name", app, cols), is_in("user_id", users, cols))
        part = dataset.to_table(filter=where).sort_by(sort)
        pending.append(part)
        size += part.num_rows
        if size >= WRITE_ROWS:
            new_fragments += _write(pending, dataset)
            pending, size = [], 0
    if pending:
        new_fragments += _write(pending, dataset)
    if not commit_rewrite(tbl, dataset, read_version, fragments, new_fragments):
        return 0
    tbl.checkout_latest()  # type: ignore[no-untyped-call]
    log.info("clustered %s: %d rows in chunks of %d", tbl.name, total, chunk_rows)
    return total
