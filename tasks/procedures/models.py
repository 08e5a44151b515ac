"""A finished run's action sequence (a trace) and how its outcome is read from the signals there are."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Outcome = Literal["success", "failure"]
Signal = Literal["feedback", "final_status", "tool_error", "none"]


class Step(BaseModel):
    """One action: the tool, the shape of its arguments (name -> JSON type), whether it worked, its cost."""

    model_config = ConfigDict(frozen=True)

    tool: str
    args: dict[str, str] = Field(default_factory=dict)
    ok: bool = True
    duration_ms: float = 0.0
    tokens: int = 0


class Trace(BaseModel):
    """A finished run of one task type; ``procedure_id`` the procedure it was offered and followed, if any."""

    model_config = ConfigDict(frozen=True)

    run_id: str
    task_type: str
    context: str = ""
    steps: tuple[Step, ...]
    outcome: Outcome
    signal: Signal
    procedure_id: str | None = None
    duration_ms: float = 0.0
    tokens: int = 0
    ended_at: datetime


def json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "array"
    return "object" if isinstance(value, Mapping) else type(value).__name__


def arg_shape(args: Mapping[str, Any]) -> dict[str, str]:
    """What a procedure keeps of a call's arguments: their names and types, never their values."""
    return {str(k): json_type(v) for k, v in sorted(args.items())}


def read_outcome(steps: Sequence[Step], *, feedback: bool | None = None,
                 final_status: str | None = None) -> tuple[Outcome, Signal]:  # fmt: skip
    """The run's outcome from its strongest signal: explicit feedback, else the agent's own final status
    ("success" / "failure"), else whether its last action failed (a tool error it did not recover from)."""
    if feedback is not None:
        return ("success" if feedback else "failure"), "feedback"
    if final_status in ("success", "failure"):
        return final_status, "final_status"  # type: ignore[return-value]
    if steps and not steps[-1].ok:
        return "failure", "tool_error"
    return "success", "none"


def signature(steps: Sequence[Step], *, ok_only: bool = True) -> tuple[str, ...]:
    """The tool order with immediate repeats collapsed (three searches in a row are one search step);
    failed calls left out unless ``ok_only`` is off (a failed run is matched on what it tried)."""
    tools: list[str] = []
    for step in steps:
        if (step.ok or not ok_only) and (not tools or tools[-1] != step.tool):
            tools.append(step.tool)
    return tuple(tools)
