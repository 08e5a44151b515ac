"""Object-store options from settings reach every connection to the store, and never show in logs or reports."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from tasks.maintain import run_pass
from tasks.settings import Settings
from tasks.store.schema import EPISODES
from tasks.store.tables import MEMORIES, RUNS, open_store, storage_options
from tests.maintain_fixtures import NOW, mem, seed

SECRET = "wJalrXUtnFEMI-not-a-real-key-7731"
#: Options the local backend honours: the first decides the file format of the tables it creates
#: (observable on disk), the second stands for a credential (accepted and unused by local files).
OPTIONS = {"new_table_data_storage_version": "2.1", "aws_secret_access_key": SECRET}


def test_storage_options_reach_the_tables_and_stay_secret(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    plain = Settings(store_uri=str(tmp_path / "plain"))
    seed(plain, [mem("ann", "k0", "Ann likes tea")])
    default_format = open_store(plain).table(MEMORIES).to_lance().data_storage_version
    assert default_format != "2.1"  # so the option below is what made the difference

    settings = Settings(store_uri=str(tmp_path / "store"), storage_options=OPTIONS, cluster_min_rows=4)  # type: ignore[arg-type]
    assert SECRET not in repr(settings) and SECRET not in settings.model_dump_json()
    assert storage_options(settings) == OPTIONS
    store = seed(settings, [mem(u, f"{u}{i}", f"{u} fact {i}") for i in range(3) for u in ("bob", "ann")])
    assert store.db.storage_options == OPTIONS and SECRET not in repr(store)

    caplog.set_level(logging.DEBUG)
    report = run_pass(settings, "upkeep", now=NOW)  # clustering writes fragments and commits through the dataset
    assert report.details["done"][MEMORIES]["rows_clustered"] == 6
    reopened = open_store(settings)
    for name in (MEMORIES, RUNS):
        assert reopened.table(name).to_lance().data_storage_version == "2.1", name
    assert sorted(r["user_id"] for r in reopened.rows(MEMORIES)) == ["ann"] * 3 + ["bob"] * 3
    assert SECRET not in caplog.text and SECRET not in report.model_dump_json()
    assert not reopened.has(EPISODES)


def test_storage_options_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMORY_PIPELINE_STORAGE_OPTIONS", json.dumps({"aws_endpoint": "http://127.0.0.1:9000"}))
    assert storage_options(Settings()) == {"aws_endpoint": "http://127.0.0.1:9000"}
    monkeypatch.delenv("MEMORY_PIPELINE_STORAGE_OPTIONS")
    monkeypatch.setenv("MEMORY_PIPELINE_STORAGE_OPTIONS__AWS_REGION", "eu-west-1")
    assert storage_options(Settings()) == {"aws_region": "eu-west-1"}
