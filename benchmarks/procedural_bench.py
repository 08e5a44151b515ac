"""Procedural memory: scripted tasks of three types, success rate and steps with and without offered procedures.

A simulated tool environment (not an LLM): each task type has tools whose calls fail until the call they
depend on has succeeded (a product page needs a search first), and succeeds when its goal tool works
within the step budget. In the weather tasks the old forecast tool is retired part-way through (every
call to it fails from then on), so a procedure built on it must be demoted and a new one learned.

- without: the agent knows nothing of the task's order; it tries tools it has not yet got to work, in a
  seeded random order (a stand-in for an agent exploring the tool list);
- with: the same agent is offered the best procedures for the task type (``offer_procedures``); it follows
  the first one's steps and explores only if a step fails. Every run is recorded (``record_run``) and
  procedures are rebuilt after each (``consolidate_procedures``), on a real Lance store.

    python benchmarks/procedural_bench.py --json     # last line: the JSON summary
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from tasks.procedures.consolidate import consolidate_procedures
from tasks.procedures.models import Step, Trace, arg_shape, read_outcome
from tasks.procedures.recall import offer_procedures
from tasks.procedures.record import record_run
from tasks.settings import Settings

APP, USER = "procedural-bench", "operator"
T0 = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
BUDGET = 6


@dataclass(frozen=True)
class TaskType:
    name: str
    #: tool -> the tool that must have succeeded before it works (None: works at once).
    needs: dict[str, str | None]
    goal: str
    #: tool -> the episode from which it always fails (retired).
    retired: dict[str, int]


TASKS = (
    TaskType("price_lookup", {"search_catalog": None, "open_product": "search_catalog", "read_price": "open_product",
                              "check_stock": "open_product", "open_reviews": "open_product", "ask_user": None},
             "read_price", {}),
    TaskType("paper_citation", {"search_papers": None, "open_paper": "search_papers", "extract_citation": "open_paper",
                                "format_citation": "extract_citation", "translate": "open_paper", "summarize": None},
             "format_citation", {}),
    TaskType("weather_report", {"geocode": None, "forecast_v1": "geocode", "forecast_v2": "geocode",
                                "summarize_forecast": "forecast", "radar_image": "geocode"},
             "summarize_forecast", {"forecast_v1": 8}),
)  # fmt: skip


def works(task: TaskType, tool: str, done: set[str], episode: int) -> bool:
    if episode >= task.retired.get(tool, 10**9):
        return False
    need = task.needs[tool]
    if need == "forecast":  # either forecast tool
        return any(t.startswith("forecast") for t in done)
    return need is None or need in done


def run_task(task: TaskType, episode: int, rng: random.Random, plan: list[str]) -> list[Step]:
    """One run: follow ``plan`` while it works, then explore tools not yet working, up to the budget."""
    done: set[str] = set()
    steps: list[Step] = []
    failed: set[str] = set()
    queue = list(plan)
    while len(steps) < BUDGET and task.goal not in done:
        if queue:
            tool = queue.pop(0)
        else:
            options = sorted(t for t in task.needs if t not in done and t not in failed)
            if not options:
                options = sorted(t for t in task.needs if t not in done)
            tool = rng.choice(options)
        ok = works(task, tool, done, episode)
        steps.append(Step(tool=tool, args=arg_shape({"input": "x"}), ok=ok, duration_ms=50.0, tokens=120))
        if ok:
            done.add(tool)
            failed.clear()  # what failed before may work now
        else:
            failed.add(tool)
            queue = []  # the plan broke: explore from here
    return steps


def plan_of(offered: list[Any]) -> tuple[list[str], str | None]:
    if not offered:
        return [], None
    steps = json.loads(offered[0].steps)
    tools: list[str] = []
    for s in steps:
        if s.get("ok", True) and (not tools or tools[-1] != s["tool"]):
            tools.append(s["tool"])
    return tools, offered[0].procedure_id


def simulate(settings: Settings | None, episodes: int, seed: int) -> dict[str, dict[str, Any]]:
    """Per task type: successes, steps, per-episode outcomes; with ``settings`` procedures are used."""
    out: dict[str, dict[str, Any]] = {t.name: {"ok": [], "steps": [], "followed": 0} for t in TASKS}
    for episode in range(episodes):
        for k, task in enumerate(TASKS):
            rng = random.Random(seed * 1000 + episode * 10 + k)  # the same exploration draws in both modes
            plan: list[str] = []
            procedure_id: str | None = None
            if settings is not None:
                plan, procedure_id = plan_of(offer_procedures(settings, APP, USER, task.name))
            steps = run_task(task, episode, rng, plan)
            status = "success" if steps and steps[-1].tool == task.goal and steps[-1].ok else "failure"
            outcome, signal = read_outcome(steps, final_status=status)
            out[task.name]["ok"].append(outcome == "success")
            out[task.name]["steps"].append(len(steps))
            out[task.name]["followed"] += bool(plan)
            if settings is not None:
                when = T0 + timedelta(hours=episode * len(TASKS) + k)
                trace = Trace(run_id=f"{task.name}-{episode}", task_type=task.name, context=task.name.replace("_", " "),
                              steps=tuple(steps), outcome=outcome, signal=signal, procedure_id=procedure_id,
                              duration_ms=sum(s.duration_ms for s in steps), tokens=sum(s.tokens for s in steps),
                              ended_at=when)  # fmt: skip
                record_run(settings, APP, USER, trace)
                consolidate_procedures(settings, APP, USER, now=when)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--episodes", type=int, default=16, help="runs per task type")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    without = simulate(None, args.episodes, args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(store_uri=str(Path(tmp) / "store"))
        with_ = simulate(settings, args.episodes, args.seed)
        final = consolidate_procedures(settings, APP, USER, now=T0 + timedelta(days=30))
    per_type: dict[str, Any] = {}
    print(f"{'task type':<16} {'success without':>16} {'success with':>13} {'steps without':>14} {'steps with':>11}")
    for task in TASKS:
        a, b = without[task.name], with_[task.name]
        row = {"success_without": round(sum(a["ok"]) / len(a["ok"]), 3),
               "success_with": round(sum(b["ok"]) / len(b["ok"]), 3),
               "steps_without": round(sum(a["steps"]) / len(a["steps"]), 2),
               "steps_with": round(sum(b["steps"]) / len(b["steps"]), 2),
               "runs_following_a_procedure": b["followed"]}  # fmt: skip
        per_type[task.name] = row
        print(f"{task.name:<16} {row['success_without']:>16.1%} {row['success_with']:>13.1%} "
              f"{row['steps_without']:>14.2f} {row['steps_with']:>11.2f}")  # fmt: skip
    for p in final:
        print(f"procedure {p.task_type}: {p.signature} - {p.successes} ok / {p.failures} failed, {p.status}")
    total = len(TASKS) * args.episodes
    summary = {
        "task_types": len(TASKS), "episodes_per_type": args.episodes,
        "success_without": round(sum(sum(v["ok"]) for v in without.values()) / total, 3),
        "success_with": round(sum(sum(v["ok"]) for v in with_.values()) / total, 3),
        "steps_without": round(sum(sum(v["steps"]) for v in without.values()) / total, 2),
        "steps_with": round(sum(sum(v["steps"]) for v in with_.values()) / total, 2),
        "types_improved": sum(v["success_with"] > v["success_without"] for v in per_type.values()),
        "demoted": sorted(p.signature for p in final if p.status == "demoted"), "per_type": per_type,
    }  # fmt: skip
    if args.json:
        print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
