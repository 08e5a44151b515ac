"""Serve the deployments of ``prefect.yaml`` from one process (Prefect's ``serve``): no work pool needed.

The schedules, parameters and concurrency limits are read from ``prefect.yaml`` itself, so the
served process and ``prefect deploy --all`` on a work pool run the same things on the same clock.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import yaml
from prefect import Flow

PREFECT_YAML = Path(__file__).resolve().parents[1] / "prefect.yaml"


def deployment_specs(path: Path = PREFECT_YAML) -> list[dict[str, Any]]:
    specs: list[dict[str, Any]] = yaml.safe_load(path.read_text(encoding="utf-8"))["deployments"]
    return specs


def load_entrypoint(entrypoint: str) -> Flow[Any, Any]:
    """``flows/maintain.py:maintain_flow`` → the flow object (imported as a module of this repo)."""
    file, name = entrypoint.split(":")
    module = importlib.import_module(file.removesuffix(".py").replace("/", "."))
    obj = getattr(module, name)
    if not isinstance(obj, Flow):
        raise TypeError(f"{entrypoint} is not a Prefect flow")
    return obj


def build_deployments(path: Path = PREFECT_YAML, only: list[str] | None = None) -> list[Any]:
    """Runner deployments for ``serve``, one per ``prefect.yaml`` deployment (or those named in ``only``)."""
    out = []
    for spec in deployment_specs(path):
        if only and spec["name"] not in only:
            continue
        crons = [s["cron"] for s in spec.get("schedules", []) if "cron" in s]
        out.append(load_entrypoint(spec["entrypoint"]).to_deployment(
            name=spec["name"], cron=crons or None, parameters=spec.get("parameters") or {},
            description=spec.get("description"), concurrency_limit=spec.get("concurrency_limit"),
            tags=spec.get("tags"),
        ))  # fmt: skip
    return out


def serve_all(path: Path = PREFECT_YAML, only: list[str] | None = None) -> None:
    """Serve the deployments until interrupted (needs a Prefect API: ``prefect server start`` or Cloud)."""
    from prefect import serve

    serve(*build_deployments(path, only))
