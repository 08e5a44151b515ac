"""End to end: the evaluate CLI's JSON and the Prefect flow (report, artifacts, threshold gate)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaluation.results import DEFAULT_SYSTEMS
from evaluation.synthetic import SyntheticConfig
from flows.cli import main
from flows.evaluate import EvaluateParams, EvaluateSummary, EvaluationThresholdError, evaluate_flow

pytestmark = pytest.mark.slow  # end to end: `make test-fast` leaves it out

HEADLINE = (
    "precision_at_k", "recall_at_k", "answer_recall_at_k", "mrr", "ndcg_at_k", "mean_sources_per_memory",
    "mean_context_tokens", "token_savings_vs_full", "recall_p50_ms", "recall_p95_ms",
)  # fmt: skip


def test_cli_json_shape_on_small_synthetic(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code = main(
        [
            "evaluate",
            "--dataset",
            "synthetic",
            "--users",
            "1",
            "--sessions",
            "4",
            "--json",
            "--no-writepath",
            "--store",
            str(tmp_path / "store"),
        ]
    )
    assert code == 0
    out = json.loads(capsys.readouterr().out)  # exactly one JSON object on stdout
    assert out["dataset"] == "synthetic" and out["k"] == 10
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
    assert ingest["sessions"] == 4 and ingest["memories"] > 0 and ingest["seconds"] > 0
    assert out["extraction"]["gold_facts"] > 0
    assert (tmp_path / "store").is_dir()  # --store keeps the evaluation store for inspection
    assert out["writepath"] is None  # --no-writepath: the case families are not run


def test_flow_writes_report_and_returns_summary(prefect_harness: None, tmp_path: Path) -> None:
    params = EvaluateParams(
        dataset="synthetic",
        out_dir=str(tmp_path / "report"),
        synthetic=SyntheticConfig(users=1, sessions_per_user=2),
        min_pipeline_recall=0.05,
    )
    summary = evaluate_flow(params)
    assert isinstance(summary, EvaluateSummary) and summary.passed and not summary.failures
    assert set(summary.recall_at_k) == set(DEFAULT_SYSTEMS)
    report = tmp_path / "report"
    for name in ("report.md", "metrics.json", "recall_at_k.png", "recall_vs_tokens.png"):
        assert (report / name).stat().st_size > 0, name
    metrics = json.loads((report / "metrics.json").read_text())
    assert metrics["systems"]["pipeline"]["recall_at_k"] == pytest.approx(summary.recall_at_k["pipeline"])
    assert "| pipeline |" in (report / "report.md").read_text()
    writepath = metrics["writepath"]  # on by default: the write path's decisions on its case families
    assert writepath["cases"] > 0 and set(writepath["decision"]) == set(writepath["survived"])


def test_flow_raises_when_a_threshold_is_breached(prefect_harness: None, tmp_path: Path) -> None:
    params = EvaluateParams(
        dataset="synthetic",
        out_dir=str(tmp_path / "report"),
        systems=["pipeline"],
        synthetic=SyntheticConfig(users=1, sessions_per_user=2),
        min_token_savings=0.9999,
        writepath=False,
    )
    with pytest.raises(EvaluationThresholdError, match="token savings"):
        evaluate_flow(params)
    assert (tmp_path / "report" / "report.md").exists()  # the evidence is written before failing
