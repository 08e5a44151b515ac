"""Physical layout of the scoped tables: rows clustered by (app, user), so a recall reads few pages.

Why: every recall is filtered to one user. Rows are appended in time order, so after many runs a
user's rows lie scattered over the whole table and each search gathers them one page at a time
(at 1M memories the user-filtered vector scan took 27 ms scattered against 7 ms clustered).
Clustering rewrites the table's fragments with rows sorted by scope, a few whole tenants at a time
(:func:`cluster_by_scope`), so its memory is bounded by a chunk and a write, not by the table; ingest's
index step and the upkeep pass both use it.

The rewrite is committed as a Lance ``Rewrite`` transaction against the version it read, the
operation Lance's own compaction uses: rows appended meanwhile survive, and a concurrent update or
delete of the same rows makes the commit fail (the next run tries again) instead of losing it.
The table's indexes then cover none of the new fragments; the caller rebuilds them (searches stay
correct meanwhile, only slower). The ids of the clustered fragments are kept in the table's config,
so the share of rows written since (not clustered) is cheap to tell.
"""

from __future__ import annotations

import logging
from collections.abc import Container, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import Any

import lancedb
import numpy as np
import numpy.typing as npt
import pyarrow as pa

log = logging.getLogger(__name__)

#: Table config key holding the comma-separated ids of fragments written by the last clustering.
CLUSTERED_KEY = "memory_pipeline.clustered_fragments"
SCOPE_ORDER = ("app_name", "user_id")
#: Rows per read of the clustering (whole tenants): ~10k rows kept its peak ~170 MB lower than 50k.
CLUSTER_CHUNK_ROWS = 10_000
#: Rows handed to one fragment write (each its own fragment; all committed in the one Rewrite).
WRITE_ROWS = 100_000


@dataclass(frozen=True)
class LayoutStats:
    """Physical rows (deleted ones included, as they are still read past) in and out of clustered fragments."""

    clustered_rows: int
    unclustered_rows: int

    @property
    def unclustered_share(self) -> float:
        total = self.clustered_rows + self.unclustered_rows
        return self.unclustered_rows / total if total else 0.0


def layout_stats(tbl: lancedb.table.Table) -> LayoutStats:
    dataset = tbl.to_lance()
    clustered = _clustered_ids(dataset.config())
    inside = outside = 0
    for fragment in dataset.get_fragments():
        rows = fragment.metadata.physical_rows or 0
        if fragment.fragment_id in clustered:
            inside += rows
        else:
            outside += rows
    return LayoutStats(inside, outside)


def needs_clustering(tbl: lancedb.table.Table, min_rows: int, max_unclustered_share: float) -> bool:
    """Large enough to matter, and enough rows written since the last clustering."""
    stats = layout_stats(tbl)
    if stats.clustered_rows + stats.unclustered_rows < min_rows:
        return False
    return stats.unclustered_share > max_unclustered_share


def tenant_chunks(counts: Mapping[tuple[str, str], int], chunk_rows: int) -> Iterator[tuple[str, list[str]]]:
    """(app, users) groups in scope order, each about ``chunk_rows`` rows (a tenant is never split)."""
    for app, pairs in groupby(sorted(counts), key=lambda p: p[0]):
        users: list[str] = []
        size = 0
        for _, user in pairs:
            if users and size + counts[(app, user)] > chunk_rows:
                yield app, users
                users, size = [], 0
            users.append(user)
            size += counts[(app, user)]
        if users:
            yield app, users


def scope_addresses(
    dataset: Any, where: str | None = None, wanted: Container[tuple[str, str]] | None = None
) -> dict[tuple[str, str], npt.NDArray[np.uint64]]:
    """Row addresses of each (app, user)'s live rows matching ``where`` (only the ``wanted`` tenants, if
    given), from a scan of the two scope columns: what a chunk of tenants then takes directly."""
    found: dict[tuple[str, str], list[npt.NDArray[np.uint64]]] = {}
    scanner = dataset.scanner(columns=list(SCOPE_ORDER), filter=where, batch_size=8192, with_row_id=True)
    for batch in scanner.to_batches():
        part = pa.Table.from_batches([batch]).sort_by([(c, "ascending") for c in SCOPE_ORDER])
        apps, users = part.column("app_name").to_pylist(), part.column("user_id").to_pylist()
        rowids = part.column("_rowid").to_numpy()
        start = 0
        for k in range(1, len(users) + 1):
            if k == len(users) or users[k] != users[start] or apps[k] != apps[start]:
                key = (apps[start], users[start])
                if wanted is None or key in wanted:
                    found.setdefault(key, []).append(rowids[start:k])
                start = k
    return {key: np.concatenate(spans) for key, spans in found.items()}


def take_tenants(
    dataset: Any, places: Mapping[tuple[str, str], npt.NDArray[np.uint64]], columns: Sequence[str] | None,
    chunk_rows: int,
) -> Iterator[tuple[str, pa.Table]]:  # fmt: skip
    """(app, rows) per chunk of whole tenants (about ``chunk_rows`` rows), taken by address in storage
    order, with their addresses as ``_rowid``. A filtered read per chunk (``user_id IN (...)``) would
    be answered by the scope indexes only on indexed fragments and scan every other fragment in full,
    per chunk: after a pass's closures (hundreds of small unindexed fragments) that took 10x longer at
    1M memories and held ~300 MB more."""
    counts = {key: len(ids) for key, ids in places.items()}
    for app, users in tenant_chunks(counts, chunk_rows):
        ids = pa.array(np.sort(np.concatenate([places[(app, u)] for u in users])), pa.uint64())
        part = dataset._take_rows(ids, columns=list(columns) if columns is not None else None)
        yield app, part.append_column("_rowid", ids)


def _write(parts: list[pa.Table], dataset: Any) -> list[Any]:
    import lance

    data = pa.concat_tables(parts)
    fragments: list[Any] = lance.fragment.write_fragments(data, dataset, max_rows_per_file=max(data.num_rows, 1))
    return fragments


def cluster_by_scope(tbl: lancedb.table.Table, key: str, chunk_rows: int | None = None) -> int:
    """Rewrite the live rows sorted by (app, user, ``key``), streaming; returns rows written (0: nothing to
    do, or lost a race to a concurrent update of the same rows).

    The tenants' row addresses come from a scan of the two scope columns; chunks of whole tenants
    (about ``chunk_rows`` rows, default :data:`CLUSTER_CHUNK_ROWS`) are then taken by address, sorted,
    and handed to Lance's writer :data:`WRITE_ROWS` rows at a time (its writer takes in a whole stream
    before a file is done: one write of 1M rows peaked at ~1.4 GB). Every written fragment goes into
    the one Rewrite commit.
    """
    chunk_rows = chunk_rows or CLUSTER_CHUNK_ROWS
    dataset = tbl.to_lance()
    read_version = dataset.version
    fragments = dataset.get_fragments()
    if not fragments:
        return 0
    places = scope_addresses(dataset)
    total = sum(len(ids) for ids in places.values())
    if not total:
        return 0
    sort = [(c, "ascending") for c in (*SCOPE_ORDER, key)]
    new_fragments: list[Any] = []
    pending: list[pa.Table] = []
    size = 0
    for _, part in take_tenants(dataset, places, None, chunk_rows):
        part = part.drop_columns(["_rowid"]).sort_by(sort)
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
    log.info("clustered %s: %d rows by %s in chunks of %d", tbl.name, total, ", ".join((*SCOPE_ORDER, key)),
             chunk_rows)  # fmt: skip
    return total


def commit_rewrite(
    tbl: lancedb.table.Table, dataset: Any, read_version: int, fragments: list[Any], new_fragments: list[Any]
) -> bool:
    """Commit ``new_fragments`` in place of ``fragments`` as one Lance Rewrite against the version read,
    and record them as clustered; False (and nothing changed) when a concurrent update of the same
    rows won. Rows appended meanwhile survive: a Rewrite only replaces the fragments it names."""
    import lance
    from lance import LanceOperation

    group = LanceOperation.RewriteGroup([f.metadata for f in fragments], new_fragments)
    try:
        committed = lance.LanceDataset.commit(
            dataset, LanceOperation.Rewrite([group], []), read_version=read_version, max_retries=3
        )
    except (OSError, RuntimeError, ValueError) as exc:  # a concurrent update of the same rows
        log.warning("clustering %s skipped: %s", tbl.name, exc)
        return False
    # Fragment ids are assigned at commit: ours are the ones holding the files we wrote.
    written = {f.path for fragment in new_fragments for f in fragment.files}
    ours = [f.fragment_id for f in committed.get_fragments() if {d.path for d in f.metadata.files} <= written]
    committed.update_config({CLUSTERED_KEY: ",".join(str(i) for i in sorted(ours))})
    return True


def _clustered_ids(config: dict[str, str]) -> set[int]:
    raw = config.get(CLUSTERED_KEY, "")
    return {int(part) for part in raw.split(",") if part.strip().isdigit()}
