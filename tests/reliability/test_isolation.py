"""Tenant isolation: with hostile app and user ids, no read path ever returns another tenant's rows or errors.

One store holds many tenants whose ids differ only by a quote, a LIKE wildcard, a backslash, case,
white space or a look-alike letter (and one of 512 characters). Hypothesis then queries every read
path (recall, the agent tool, list, history) for existing and near-miss tenants.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tasks.consolidate.history import list_memories, memory_history
from tasks.errors import InvalidFilterError
from tasks.ids import id_problem
from tasks.ingest.run import run_ingest
from tasks.recall.agent_tools import handle_recall_memory
from tasks.recall.recaller import Recaller
from tasks.settings import Settings
from tasks.store.tables import EPISODES, MEMORIES, Store, open_store
from tests.reliability.hostile import HOSTILE_IDS, line, session
from tests.reliability.test_fuzz import PROFILE, SCALE

CITIES = ("Berlin", "Paris", "Rome", "Madrid", "Lisbon", "Vienna", "Prague", "Oslo", "Dublin", "Athens", "Warsaw",
          "Zurich", "Munich", "Milan", "Porto", "Seville", "Lyon", "Krakow", "Bergen", "Tallinn", "Riga", "Vilnius",
          "Helsinki", "Geneva", "Bologna")  # fmt: skip
TENANTS = [("app", user) for user in HOSTILE_IDS] + [(app, "alice") for app in ("' OR 1=1 --", "%", "app'", "_pp")]


@pytest.fixture(scope="module")
def store_settings(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    root = tmp_path_factory.mktemp("tenants")
    (root / "sessions").mkdir()
    data = b"".join(
        line(session(app=app, user=user, sid=f"s{n}", texts=(f"I live in {CITIES[n % len(CITIES)]}.", "Nice!")))
        for n, (app, user) in enumerate(TENANTS)
    )
    (root / "sessions" / "tenants.jsonl").write_bytes(data)
    cfg = Settings(store_uri=str(root / "store"), sessions_uri=str(root / "sessions"))
    assert run_ingest(cfg).sessions_processed == len(TENANTS)
    return cfg


@pytest.fixture(scope="module")
def owners(store_settings: Settings) -> dict[str, tuple[str, str]]:
    """Every memory row id, memory id and episode id → its tenant."""
    store = open_store(store_settings)
    out: dict[str, tuple[str, str]] = {}
    for row in store.rows(MEMORIES):
        out[row["row_id"]] = out[row["memory_id"]] = (row["app_name"], row["user_id"])
    for row in store.rows(EPISODES):
        out[row["episode_id"]] = (row["app_name"], row["user_id"])
    return out


@pytest.fixture(scope="module")
def recaller(store_settings: Settings) -> Iterator[Recaller]:
    with Recaller(store_settings) as active:
        yield active


near_misses = st.one_of(
    st.sampled_from(HOSTILE_IDS),
    st.text(st.sampled_from("'\"%_\\` OR=1-aliceALICE\u0430"), min_size=1, max_size=10),
    st.sampled_from(HOSTILE_IDS).map(lambda s: (s + "%")[-512:]),
).filter(lambda s: id_problem(s) is None)
scopes = st.one_of(st.sampled_from(TENANTS), st.tuples(st.sampled_from(["app", "' OR 1=1 --", "%"]), near_misses))


def _reads(store: Store, cfg: Settings, recaller: Recaller, app: str, user: str) -> dict[str, list[Any]]:
    """The tenant of every row each read path returns for (app, user)."""
    seen: dict[str, list[Any]] = {}
    listed = list_memories(store, app, user, include_inactive=True)
    seen["list"] = [(m.app_name, m.user_id) for m in listed]
    seen["history"] = []
    for memory in listed:
        history = memory_history(store, memory.memory_id)
        seen["history"] += [(v.app_name, v.user_id) for v in history.versions]
        seen["history"] += [(c.app_name, c.user_id) for c in history.changes]
    seen["recall"] = [h.id for h in recaller.recall("Where do I live?", app, user, k=10)]
    tool = json.loads(handle_recall_memory({"query": "city I live in"}, app, user, settings=cfg, recaller=recaller))
    seen["tool"] = [m["id"] for m in tool["memories"]]
    return seen


@settings(settings.get_profile(PROFILE), max_examples=60 * SCALE)
@given(scope=scopes)
def test_no_read_path_sees_another_tenants_rows(
    store_settings: Settings, owners: dict[str, tuple[str, str]], recaller: Recaller, scope: tuple[str, str]
) -> None:
    app, user = scope
    seen = _reads(recaller.store, store_settings, recaller, app, user)
    for path in ("recall", "tool"):
        seen[path] = [owners[str(i)] for i in seen[path]]
    leaks = {path: [t for t in tenants if t != (app, user)] for path, tenants in seen.items()}
    assert not any(leaks.values()), f"{scope!r} saw other tenants: {leaks}"
    if scope in TENANTS:
        assert seen["list"] and seen["recall"], f"{scope!r} lost its own rows"


def test_every_tenant_finds_its_own_city(store_settings: Settings, recaller: Recaller) -> None:
    for n, (app, user) in enumerate(TENANTS):
        hits = recaller.recall("Where do I live?", app, user, k=3)
        assert any(CITIES[n % len(CITIES)] in h.content for h in hits), (app, user)


@pytest.mark.parametrize("bad", ["bob\x01", "a" * 513, "\ud800"])
def test_ids_the_rule_refuses_are_a_clear_error_not_a_leak(store_settings: Settings, recaller: Recaller,
                                                           bad: str) -> None:  # fmt: skip
    with pytest.raises(InvalidFilterError):
        recaller.recall("Where do I live?", "app", bad)
    with pytest.raises(InvalidFilterError):
        list_memories(recaller.store, "app", bad)
