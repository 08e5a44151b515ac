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

from evaluation.gate import EvaluationThresholdError, Thresholds, check_thresholds
from evaluation.report import render_markdown, summary_rows
from evaluation.results import DEFAULT_SYSTEMS, EvaluationResult
from evaluation.runner import run_evaluation
from evaluation.synthetic import SyntheticConfig
from tasks.settings import load_settings


class EvaluateParams(Thresholds):
    """Flow parameters; thresholds (from :class:`Thresholds`) of 0, the default, never fail."""

    dataset: Literal["synthetic", "locomo", "longmemeval"] = "synthetic"
    path: str | None = None
    k: int = Field(default=10, ge=1)
    out_dir: str | None = None
    store_uri: str | None = None
    systems: list[str] = Field(default_factory=lambda: list(DEFAULT_SYSTEMS))
    synthetic: SyntheticConfig = Field(default_factory=SyntheticConfig)
    #: Benchmark scale (issue 68): worker processes, a stratified seeded subset.
    workers: int = Field(default=1, ge=1)
    limit: int | None = Field(default=None, ge=1)
    limit_seed: int = 0
    #: Synthetic runs also score the write path on its case families (the longest part of a small run).
    writepath: bool = True


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
        workers=params.workers,
        limit=params.limit,
        seed=params.limit_seed,
        writepath=params.writepath,
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
