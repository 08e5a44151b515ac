"""The evaluate flow: run the evaluation, publish it as Prefect artifacts, fail on a quality regression.

Thresholds make the flow usable as a gate (nightly or in CI): a run whose pipeline recall or token
savings falls below the floor raises, after the report and artifacts are written so the cause is visible.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from prefect import flow, get_run_logger
from prefect.artifacts import create_markdown_artifact, create_table_artifact
from pydantic import BaseModel, Field

from evaluation.report import render_markdown, summary_rows
from evaluation.results import SYSTEM_NAMES, EvaluationResult
from evaluation.runner import run_evaluation
from evaluation.synthetic import SyntheticConfig
from tasks.errors import PipelineError
from tasks.settings import load_settings


class EvaluationThresholdError(PipelineError):
    """The evaluated pipeline fell below a configured minimum."""


class EvaluateParams(BaseModel):
    """Flow parameters; thresholds of 0 (the default) never fail."""

    dataset: Literal["synthetic", "locomo"] = "synthetic"
    path: str | None = None
    k: int = Field(default=10, ge=1)
    out_dir: str | None = None
    store_uri: str | None = None
    systems: list[str] = Field(default_factory=lambda: list(SYSTEM_NAMES))
    synthetic: SyntheticConfig = Field(default_factory=SyntheticConfig)
    min_pipeline_recall: float = Field(default=0.0, ge=0.0, le=1.0)
    min_pipeline_answer_recall: float = Field(default=0.0, ge=0.0, le=1.0)
    min_token_savings: float = Field(default=0.0, le=1.0)


class EvaluateSummary(BaseModel):
    """What the flow returns: the headline numbers, the verdict and where the report is."""

    dataset: str
    k: int
    recall_at_k: dict[str, float]
    answer_recall_at_k: dict[str, float]
    token_savings_vs_full: dict[str, float]
    failures: list[str]
    passed: bool
    report_dir: str | None
    result: EvaluationResult


def check_thresholds(result: EvaluationResult, params: EvaluateParams) -> list[str]:
    """Human-readable breaches of the configured minimums (empty when the run passes)."""
    pipeline = result.systems.get("pipeline")
    if pipeline is None:
        wanted = params.min_pipeline_recall or params.min_pipeline_answer_recall or params.min_token_savings
        return ["thresholds are set but the pipeline was not evaluated"] if wanted else []
    k = result.k
    checks = (
        (f"pipeline recall@{k}", pipeline.recall_at_k, params.min_pipeline_recall),
        (f"pipeline answer-token recall@{k}", pipeline.answer_recall_at_k, params.min_pipeline_answer_recall),
        ("pipeline token savings vs full context", pipeline.token_savings_vs_full, params.min_token_savings),
    )
    return [f"{name} {value:.3f} < minimum {floor:.3f}" for name, value, floor in checks if value < floor]


@flow(name="evaluate-memory", log_prints=False)
def evaluate_flow(params: EvaluateParams | None = None) -> EvaluateSummary:
    params = params or EvaluateParams()
    logger = get_run_logger()
    settings = load_settings()
    result = run_evaluation(
        params.dataset,
        path=Path(params.path) if params.path else None,
        k=params.k,
        out_dir=Path(params.out_dir) if params.out_dir else None,
        settings=settings,
        synthetic=params.synthetic,
        systems=params.systems,
        store_uri=params.store_uri,
    )
    failures = check_thresholds(result, params)
    key = f"evaluation-{params.dataset}"
    verdict = "passed" if not failures else "FAILED: " + "; ".join(failures)
    create_markdown_artifact(
        key=key,
        markdown=render_markdown(result),
        description=f"memory evaluation on {params.dataset}: {verdict}",
    )
    create_table_artifact(
        key=f"{key}-table",
        table=summary_rows(result),
        description=f"systems at k={result.k} on {params.dataset}",
    )
    for name, s in result.systems.items():
        logger.info(
            "%s: recall@%d %.3f, answer recall %.3f, %.0f tokens, savings %.3f",
            name, result.k, s.recall_at_k, s.answer_recall_at_k,
            s.mean_context_tokens, s.token_savings_vs_full,
        )  # fmt: skip
    if failures:
        raise EvaluationThresholdError("evaluation below thresholds: " + "; ".join(failures))
    return EvaluateSummary(
        dataset=result.dataset,
        k=result.k,
        recall_at_k={n: s.recall_at_k for n, s in result.systems.items()},
        answer_recall_at_k={n: s.answer_recall_at_k for n, s in result.systems.items()},
        token_savings_vs_full={n: s.token_savings_vs_full for n, s in result.systems.items()},
        failures=failures,
        passed=not failures,
        report_dir=result.report_dir,
        result=result,
    )
