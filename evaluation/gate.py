"""The regression gate: minimums an evaluation must meet, shared by the Prefect flow and the CLI.

A run below a floor fails after its report is written, so the cause is visible next to the verdict.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from evaluation.results import EvaluationResult
from tasks.errors import PipelineError


class EvaluationThresholdError(PipelineError):
    """The evaluated pipeline fell below a configured minimum."""


class Thresholds(BaseModel):
    """Minimums for the pipeline's headline figures; 0 (the default) never fails."""

    min_pipeline_recall: float = Field(default=0.0, ge=0.0, le=1.0)
    min_pipeline_answer_recall: float = Field(default=0.0, ge=0.0, le=1.0)
    min_token_savings: float = Field(default=0.0, le=1.0)


def check_thresholds(result: EvaluationResult, floors: Thresholds) -> list[str]:
    """Human-readable breaches of the configured minimums (empty when the run passes)."""
    pipeline = result.systems.get("pipeline")
    if pipeline is None:
        wanted = floors.min_pipeline_recall or floors.min_pipeline_answer_recall or floors.min_token_savings
        return ["thresholds are set but the pipeline was not evaluated"] if wanted else []
    k = result.k
    checks = (
        (f"pipeline recall@{k}", pipeline.recall_at_k, floors.min_pipeline_recall),
        (f"pipeline answer-token recall@{k}", pipeline.answer_recall_at_k, floors.min_pipeline_answer_recall),
        ("pipeline token savings vs full context", pipeline.token_savings_vs_full, floors.min_token_savings),
    )
    return [f"{name} {value:.3f} < minimum {floor:.3f}" for name, value, floor in checks if value < floor]
