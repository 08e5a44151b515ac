"""End to end: the evaluate CLI's JSON and the Prefect flow (report, artifacts, threshold gate)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from evaluation.results import DEFAULT_SYSTEMS
from evaluation.synthetic import SyntheticConfig
from evaluation.writepath.cases import FAMILIES as WRITEPATH_FAMILIES
from flows.cli import main
from flows.evaluate import EvaluateParams, EvaluateSummary, EvaluationThresholdError, evaluate_flow

pytestmark = pytest.mark.slow  # end to end: `make test-fast` leaves it out

HEADLINE = (
    "precision_at_k", "recall_at_k", "answer_recall_at_k", "mrr", "ndcg_at_k", "mean_sources_per_memory",
    "mean_context_tokens", "token_savings_vs_full", "recall_p50_ms", "recall_p95_ms",
)  # fmt: skip
#: The smallest run that still has every category: one user's two sessions, one question of each of the
#: six categories (``--limit``: stratified, seeded). The tests check shapes and plumbing, not figures.
SMALL = SyntheticConfig(users=1, sessions_per_user=2)
LIMIT = 6


def test_cli_json_shape_on_small_synthetic(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code = main(
        [
            "evaluate",
            "--dataset",
            "synthetic",
            "--users",
            "1",
            "--sessions",
            "2",
            "--limit",
            str(LIMIT),
            "--json",
            "--no-writepath",
            "--store",
            str(tmp_path / "store"),
        ]
    )
    assert code == 0
    out = json.loads(capsys.readouterr().out)  # exactly one JSON object on stdout
    assert out["dataset"] == "synthetic" and out["k"] == 10
    assert out["questions"] == LIMIT  # --limit reached the runner
    assert set(out["systems"]) == set(DEFAULT_SYSTEMS)
    for name, system in out["systems"].items():
        for key in HEADLINE:
            assert isinstance(system[key], int | float), (name, key)
        assert set(system["per_k"]) == {"1", "5", "10", "20"}
        assert {"updated", "personal_info"} <= set(system["per_category"])
        assert 0.0 <= system["recall_at_k"] <= 1.0
    assert out["systems"]["full_context"]["recall_at_k"] == 1.0
    assert out["systems"]["full_context"]["token_savings_vs_full"] == pytest.approx(0.0)
    assert out["systems"]["pipeline"]["token_savings_vs_full"] > 0.0
    assert out["systems"]["chunk_rag"]["mean_sources_per_memory"] == pytest.approx(5.0)
    ingest = out["ingest"]
    assert ingest["sessions"] == 2 and ingest["memories"] > 0 and ingest["seconds"] > 0
    assert out["extraction"]["gold_facts"] > 0
    assert (tmp_path / "store").is_dir()  # --store keeps the evaluation store for inspection
    assert out["writepath"] is None  # --no-writepath: the case families are not run


@pytest.fixture(scope="module")
def flow_run(prefect_harness: None, tmp_path_factory: pytest.TempPathFactory) -> tuple[EvaluateSummary, Path]:
    """One real flow run with the flow's defaults (every default system, the write path on)."""
    report = tmp_path_factory.mktemp("flow") / "report"
    params = EvaluateParams(
        dataset="synthetic", out_dir=str(report), synthetic=SMALL, limit=LIMIT, min_pipeline_recall=0.05
    )
    assert params.writepath and params.systems == list(DEFAULT_SYSTEMS)  # the defaults under test
    return evaluate_flow(params), report


def test_flow_writes_report_and_returns_summary(flow_run: tuple[EvaluateSummary, Path]) -> None:
    summary, report = flow_run
    assert isinstance(summary, EvaluateSummary) and summary.passed and not summary.failures
    assert set(summary.recall_at_k) == set(DEFAULT_SYSTEMS)
    for name in ("report.md", "metrics.json", "recall_at_k.png", "recall_vs_tokens.png"):
        assert (report / name).stat().st_size > 0, name
    metrics = json.loads((report / "metrics.json").read_text())
    assert metrics["systems"]["pipeline"]["recall_at_k"] == pytest.approx(summary.recall_at_k["pipeline"])
    assert metrics["questions"] == LIMIT
    assert "| pipeline |" in (report / "report.md").read_text()
    writepath = metrics["writepath"]  # on by default: the write path's decisions on its case families
    assert writepath["cases"] == len(WRITEPATH_FAMILIES)  # a limited run: one case of every family
    assert set(writepath["decision"]) == set(writepath["survived"]) == {"dev", "heldout"}


def test_flow_raises_when_a_threshold_is_breached(flow_run: tuple[EvaluateSummary, Path], tmp_path: Path) -> None:
    """A second flow run on the same units: the pipeline's answers come from the first run's cache (the
    gate is under test here, not the ingest), and the report is still written before it fails."""
    summary, first = flow_run
    out = tmp_path / "report"
    shutil.copytree(first / "cache", out / "cache")
    params = EvaluateParams(
        dataset="synthetic",
        out_dir=str(out),
        systems=["pipeline"],
        synthetic=SMALL,
        limit=LIMIT,
        min_token_savings=0.9999,
        writepath=False,
    )
    with pytest.raises(EvaluationThresholdError, match="token savings"):
        evaluate_flow(params)
    assert (out / "report.md").exists()  # the evidence is written before failing
    metrics = json.loads((out / "metrics.json").read_text())
    assert metrics["run"]["tasks_resumed"] == 1 and metrics["run"]["tasks_run"] == 0
    assert metrics["systems"]["pipeline"]["token_savings_vs_full"] == pytest.approx(
        summary.token_savings_vs_full["pipeline"]
    )
    assert metrics["writepath"] is None
