"""Deployments, CLI and flows of issue 13: prefect.yaml validates, backfill resumes, the nightly flow runs."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from prefect.client.schemas.schedules import CronSchedule

from flows.cli import main as cli_main
from flows.serve import build_deployments, deployment_specs, load_entrypoint
from tasks.settings import Settings
from tasks.store.tables import LEDGER, MEMORIES, RUNS, open_store
from tests.maintain_fixtures import NOW, mem, seed

pytestmark = pytest.mark.slow  # end to end: `make test-fast` leaves it out

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sessions"


def test_prefect_yaml_deployments_load_and_validate() -> None:
    specs = {s["name"]: s for s in deployment_specs()}
    assert {"ingest-every-15-minutes", "maintain-nightly", "evaluate-weekly"} <= set(specs)
    assert specs["ingest-every-15-minutes"]["schedules"][0]["cron"] == "*/15 * * * *"
    for spec in specs.values():
        flow = load_entrypoint(spec["entrypoint"])
        flow.validate_parameters(spec.get("parameters") or {})  # raises on a parameter the flow does not take
        for schedule in spec["schedules"]:
            CronSchedule(cron=schedule["cron"])
        assert spec.get("concurrency_limit") == 1
    nightly = load_entrypoint(specs["maintain-nightly"]["entrypoint"])
    params = nightly.validate_parameters(specs["maintain-nightly"]["parameters"])["params"]
    assert params.passes == ["ttl", "decay", "capacity", "merge", "upkeep"]
    with pytest.raises(Exception, match="passes"):
        nightly.validate_parameters({"params": {"passes": ["vacuum"]}})
    served = build_deployments()
    assert [d.name for d in served] == list(specs)


@pytest.fixture
def direct() -> Iterator[None]:
    """No Prefect API for the command: its stages run directly, as on a machine without one.

    The harness's API stays configured for the rest of the session once a test has started it, and a
    command goes through Prefect when an API is configured: without this, which path a CLI test took
    depended on the tests run before it in the same worker. The flows themselves run through Prefect in
    the tests below (and the ingest command in tests/test_ingest_flow.py).
    """
    from prefect.settings import PREFECT_API_URL, get_current_settings, temporary_settings

    with temporary_settings(restore_defaults={PREFECT_API_URL}):
        assert not get_current_settings().api.url
        yield


def test_maintain_cli_dry_run_json(direct: None, settings: Settings, capsys: pytest.CaptureFixture[str]) -> None:
    seed(settings, [mem("u", "old", "Gate 4.", days_ago=400), mem("u", "keep", "Likes tea.", topic="user_preferences")])
    before = open_store(settings).versions()
    code = cli_main(["maintain", "--store", settings.store_uri, "--dry-run", "--json", "--now", NOW.isoformat()])
    assert code == 0 and open_store(settings).versions() == before
    reports = json.loads(capsys.readouterr().out)
    assert [r["pass_name"] for r in reports] == ["ttl", "decay", "capacity", "merge", "upkeep"]
    assert reports[0]["counts"] == {"EXPIRE": 1} and reports[0]["items"][0]["reason"].startswith("expired")
    code = cli_main(["maintain", "--store", settings.store_uri, "--pass", "ttl", "--now", NOW.isoformat()])
    assert code == 0 and "ttl: scanned 2, changed 1 expire" in capsys.readouterr().out


def test_backfill_in_event_time_order_resumes_after_a_partial_run(
    direct: None, settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copytree(SAMPLE, settings.sessions_uri)
    args = ["backfill", "--sessions", settings.sessions_uri, "--store", settings.store_uri, "--json"]
    assert cli_main([*args, "--from", "2025-03-01", "--to", "2025-04-01", "--batch-size", "1"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["processed"] == 2 and first["batches"] == 2  # alice 03-02, bob 03-15 (carol's ADK session later)
    ledger = open_store(settings).rows(LEDGER)
    assert sorted(r["session_id"] for r in ledger) == ["alice-2025-03-02", "bob-2025-03-15"]
    assert cli_main([*args, "--from", "2025-01-01", "--to", "2026-01-01", "--dry-run"]) == 0
    dry = json.loads(capsys.readouterr().out)
    assert dry["already_done"] == 2 and dry["processed"] == 0 and dry["to_process"] == dry["sessions_in_range"] - 2
    assert cli_main([*args, "--from", "2025-01-01", "--to", "2026-01-01"]) == 0
    rest = json.loads(capsys.readouterr().out)
    assert rest["processed"] == dry["to_process"]
    # Ingest runs only: a run that forgot something is followed by its purge's own runs row.
    runs = sorted((r for r in open_store(settings).rows(RUNS) if r["flow"] == "ingest"), key=lambda r: r["started_at"])
    assert len(runs) == 3


def test_nightly_flow_runs_passes_in_order(prefect_harness: None, settings: Settings) -> None:
    from flows.maintain import MaintainParams, maintain_flow

    weak = mem("u", "weak", "Weather.", days_ago=900, importance=0.1, topic="user_preferences")
    seed(settings, [mem("u", "old", "Gate 4.", days_ago=400), weak])
    reports = maintain_flow(MaintainParams(store_uri=settings.store_uri, now=NOW + timedelta(days=1)))
    assert [r.pass_name for r in reports] == ["ttl", "decay", "capacity", "merge", "upkeep"]
    assert reports[0].counts == {"EXPIRE": 1} and reports[1].counts == {"ARCHIVE": 1}
    statuses = {r["content"]: r["status"] for r in open_store(settings).rows(MEMORIES)}
    assert statuses == {"Gate 4.": "expired", "Weather.": "archived"}
    flows = {r["flow"] for r in open_store(settings).rows(RUNS)}
    assert flows == {f"maintain:{p}" for p in ("ttl", "decay", "capacity", "merge", "upkeep")}


def test_backfill_flow_reports_progress_in_prefect(prefect_harness: None, settings: Settings) -> None:
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import ArtifactFilter, ArtifactFilterKey

    from flows.backfill import BackfillParams, backfill_flow

    shutil.copytree(SAMPLE, settings.sessions_uri)
    params = BackfillParams(start=NOW.replace(year=2025, month=1), end=NOW.replace(year=2026), batch_size=2,
                            sessions_uri=settings.sessions_uri, store_uri=settings.store_uri)  # fmt: skip
    report = backfill_flow(params)
    assert report.processed == report.to_process == report.sessions_in_range > 0 and report.batches >= 2
    with get_client(sync_client=True) as client:
        found = client.read_artifacts(artifact_filter=ArtifactFilter(key=ArtifactFilterKey(any_=["backfill-progress"])))
    # The newest write of the key is this run's last update (other runs may have written it before).
    latest = max(found, key=lambda a: a.updated or a.created)
    assert latest.data == 100.0
