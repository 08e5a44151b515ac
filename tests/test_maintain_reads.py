"""The passes' tenant reads: rows taken by address equal a filtered read, across indexed, unindexed,
updated and deleted rows, a chunk of whole tenants at a time."""

from __future__ import annotations

from collections import Counter

from tasks.maintain.common import tenant_tables
from tasks.settings import Settings
from tasks.store.filters import eq
from tasks.store.indexes import ensure_indexes
from tasks.store.tables import MEMORIES
from tests.maintain_fixtures import mem, seed

USERS = ("ann", "bob", "cy", "dee")


def test_tenant_tables_reads_each_tenants_rows_by_address(settings: Settings) -> None:
    store = seed(settings, [mem(u, f"{u}{i}", f"{u} fact {i}") for i in range(4) for u in USERS])
    ensure_indexes(store, settings.model_copy(update={"cluster_min_rows": 0}))  # the first rows are indexed
    store.upsert(MEMORIES, [mem(u, f"{u}-late", f"{u} late fact") for u in USERS])  # unindexed fragment
    store.upsert(MEMORIES, [mem("bob", "bob1", "bob fact 1", status="archived")])  # updated: moved
    store.table(MEMORIES).delete("row_id = '%s'" % mem("cy", "cy2", "").row_id)  # noqa: UP031 - fixed test id
    active = eq("status", "active", ("status",))
    counts = Counter({("app", u): 1 for u in ("ann", "bob", "cy")})  # dee is not asked for

    got = list(tenant_tables(store, MEMORIES, counts, active, ["row_id", "content", "status"], chunk_rows=2))

    assert [u for _, u, _ in got] == ["ann", "bob", "cy"]
    for _, user, rows in got:
        where = f"user_id = '{user}' AND status = 'active'"
        expected = {r["row_id"]: r["content"] for r in store.rows(MEMORIES, where)}
        assert dict(zip(rows.column("row_id").to_pylist(), rows.column("content").to_pylist(), strict=True)) == expected
        assert set(rows.column("user_id").to_pylist()) == {user}
    assert [r.num_rows for _, _, r in got] == [5, 4, 4]  # 4 + late; bob and cy lost one each
    first = got[0][2]  # the addresses given are the rows' own
    taken = store.table(MEMORIES).to_lance()._take_rows(first.column("_rowid").to_pylist(), columns=["row_id"])
    assert taken.column("row_id").to_pylist() == first.column("row_id").to_pylist()
