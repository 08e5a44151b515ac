"""``python -m evaluation.ablation``: what each rule module of ``tasks/providers/`` is worth, one switched off.

Each row runs in its own process (``--row NAME``), where :mod:`evaluation.rule_switch` turns the module's
functions into their "did not fire" answers before anything runs, and measures: the write-path suite
(``evaluation.writepath``, ``--per-family`` cases of each family, dev and held-out), the time-aware
families (``evaluation.timeaware``, dev and held), LongMemEval's dev split (oracle haystacks, a seeded
``--lme`` question subset: recall@5 and hit@5 of the pipeline) and LoCoMo-dev (``--locomo`` questions:
recall@10 and hit@10). Rows are cached in ``--out`` (JSON), so an interrupted run resumes; the table
``docs/ablation.md`` is rewritten from the cache after every row. ``--only a,b`` switches off several
modules in one row (named ``a+b``): a whole set that costs nothing together is safe to delete together.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from evaluation.rule_switch import (
    ablatable,
    load_defaults,
    record_defaults,
    rule_lines,
    signature_note,
    switch_off,
    trace_firing,
)
from evaluation.writepath.model import Case

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "docs" / "ablation.json"
TABLE = ROOT / "docs" / "ablation.md"
DEFAULTS = Path(__file__).parent / "ablation_defaults.json"
FIRING = ROOT / "docs" / "ablation_firing.json"
FIRING_PROBES = ROOT / "docs" / "ablation_firing_probes.json"
#: The datasets beside the checkout (``../shared``); ``--shared`` points elsewhere (a copy of the code in /tmp).
SHARED = ROOT.parent / "shared"
SUITES = ("cases", "longmemeval", "locomo")
#: A difference smaller than this (absolute, in points of a share) is within the run-to-run noise: none here
#: is random, so any change is the module's; the threshold only keeps a one-case flip of a big suite visible.
COST = 0.0


def _suite_cases(per_family: int) -> list[Case]:
    """``per_family`` cases of each write-path family, then every time-aware case."""
    from evaluation.timeaware import cases as timeaware_cases
    from evaluation.writepath.cases import build_cases

    seen: dict[str, int] = {}
    chosen = []
    for case in build_cases(11):
        if seen.get(case.family, 0) < per_family:
            seen[case.family] = seen.get(case.family, 0) + 1
            chosen.append(case)
    return chosen + timeaware_cases()


def _cases(per_family: int) -> dict[str, float]:
    """The write-path subset and the time-aware families in one ingest (every case its own user)."""
    from evaluation.timeaware import measure
    from evaluation.writepath.runner import run_writepath

    chosen = _suite_cases(per_family)
    results = run_writepath(cases=chosen).results
    ta_ids = {c.case_id for c in chosen if c.case_id.startswith("timeaware")}
    out: dict[str, float] = {}
    for split, short in (("dev", "dev"), ("heldout", "held")):
        wp = [r.decision_ok for r in results if r.split == split and r.case_id not in ta_ids]
        out[f"wp_{short}"] = sum(wp) / len(wp)
    figures = measure([r for r in results if r.case_id in ta_ids], chosen)
    for split, groups in figures.items():
        for group, (right, total) in groups.items():
            out[f"ta_{split[:4]}_{group}"] = right / total
    return out


#: The project's own probes (``python -m evaluation.<name> [args]``): run for the firing trace, their
#: printed figures kept as they are.
PROBES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("forget_probe", ("--set", "1")), ("forget_probe", ("--set", "2")), ("forget_probe", ("--set", "3")),
    ("life_endings", ()), ("asked_now", ()), ("chat_probe", ("--probe", "11")), ("chat_probe", ("--probe", "12")),
    ("chat_probe", ("--probe", "13")), ("chat_probe", ("--probe", "14")), ("session_probe", ()),
    ("session_probe", ("--written",)),
)  # fmt: skip


def _probes() -> dict[str, str]:
    """Every probe of :data:`PROBES` in this process (so a switch or a trace applies), its output as printed."""
    import contextlib
    import importlib
    import io

    out: dict[str, str] = {}
    for name, argv in PROBES:
        printed = io.StringIO()
        saved = sys.argv
        sys.argv = [name, *argv]
        try:
            with contextlib.redirect_stdout(printed):
                importlib.import_module(f"evaluation.{name}").main()
        except Exception as error:
            printed.write(f"error: {error!r}")
        finally:
            sys.argv = saved
        out[" ".join([name, *argv])] = printed.getvalue().strip()
    return out


def _retrieval(dataset: str, limit: int, k: int, shared: Path = SHARED) -> dict[str, float]:
    from evaluation.runner import run_evaluation
    from tasks.settings import Settings

    sets = shared / "datasets"
    path = sets / "longmemeval-dev" / "oracle" if dataset == "longmemeval" else sets / "locomo-dev"
    result = run_evaluation(
        dataset,  # type: ignore[arg-type]
        path=path, k=k, settings=Settings(), systems=("pipeline",), writepath=False, limit=limit,
    )  # fmt: skip
    m = result.systems["pipeline"]
    short = "lme" if dataset == "longmemeval" else "locomo"
    return {f"{short}_recall@{k}": m.recall_at_k, f"{short}_hit@{k}": m.hit_at_k}


def measure_row(names: list[str], suites: list[str], args: argparse.Namespace) -> dict[str, Any]:
    """Switch ``names`` off in this process and run ``suites``: one row of the table."""
    began = time.perf_counter()
    switched = {n: switch_off(n, load_defaults(DEFAULTS)) for n in names}
    figures: dict[str, float] = {}
    if "cases" in suites:
        figures |= _cases(args.per_family)
    if "longmemeval" in suites:
        figures |= _retrieval("longmemeval", args.lme, 5, args.shared)
    if "locomo" in suites:
        figures |= _retrieval("locomo", args.locomo, 10, args.shared)
    return {"figures": figures, "switched": switched, "seconds": time.perf_counter() - began}


def _row_name(names: list[str]) -> str:
    return "+".join(names) if names else "baseline"


def _run_subprocess(names: list[str], suites: list[str], args: argparse.Namespace) -> dict[str, Any]:
    cmd = [sys.executable, "-m", "evaluation.ablation", "--row", ",".join(names) or "baseline",
           "--suites", ",".join(suites), "--per-family", str(args.per_family), "--lme", str(args.lme),
           "--locomo", str(args.locomo), "--shared", str(args.shared)]  # fmt: skip
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        return {"error": (done.stderr.strip().splitlines() or ["no output"])[-1][:300]}
    row: dict[str, Any] = json.loads(lines[-1])
    return row


def _fmt(value: float | None) -> str:
    return "" if value is None else f"{value:+.3f}"


def _firing(path: Path) -> dict[str, dict[str, int]]:
    if not path.is_file():
        return {}
    modules: dict[str, dict[str, int]] = json.loads(path.read_text(encoding="utf-8")).get("modules", {})
    return modules


def never_fired(firing: Sequence[dict[str, dict[str, int]]]) -> list[str]:
    """Modules every given trace saw called or not, and never answer otherwise than switched off."""
    if not firing:
        return []
    names = set.intersection(*(set(f) for f in firing))
    return sorted(n for n in names if all(f[n]["fired"] == 0 for f in firing) and any(f[n]["calls"] for f in firing))


def write_table(rows: dict[str, dict[str, Any]], path: Path = TABLE, firing: Sequence[Path] = ()) -> None:
    """``docs/ablation.md`` from the cached rows: each figure as the change from the baseline row, and per
    module how often it fired in each firing trace (``fired/calls``)."""
    base = rows.get("baseline", {}).get("figures", {})
    keys = list(base)
    loaded = [(p.stem.removeprefix("ablation_firing").strip("_") or "suites", _firing(p)) for p in firing]
    labels = [label for label, t in loaded if t]
    traces = [t for _, t in loaded if t]
    free = set(never_fired(traces))
    lines = [
        "# Rule-module ablation",
        "",
        "Regenerated by `python -m evaluation.ablation` (see its docstring). Each row switches one module of",
        '`tasks/providers/` off (its functions answer "did not fire", see `evaluation/rule_switch.py`) and gives',
        "the change of each figure from the baseline (all on); `lines` is the module's size; `off` how many of its",
        "functions the switch replaced. `wp_*` the write-path suite (dev / held-out families, a few cases each),",
        "`ta_*` the time-aware families (`evaluation/cases/timeaware_*.jsonl`), `lme_*` LongMemEval dev (oracle",
        "subset), `locomo_*` LoCoMo-dev (question subset). A row that errs broke the pipeline when switched off.",
        "`fired` gives, per firing trace (`--trace`; the suites each trace ran are in its JSON beside this file),",
        "the calls whose answer differed from the switched-off one, over all calls: a module that never fired",
        "leaves every traced suite exactly as it was when switched off (the pipeline is deterministic).",
        "Traces: `suites` (`ablation_firing.json`: the whole write-path suite, the time-aware families, LongMemEval",
        "and LoCoMo-dev subsets), `probes` (`ablation_firing_probes.json`: the project's probes, figures inside).",
        "",
        "| module | lines | off | fired | " + " | ".join(keys) + " | verdict |",
        "|---|---:|---:|---|" + "---:|" * len(keys) + "---|",
        "| baseline | | | | " + " | ".join(f"{base[k]:.3f}" for k in keys) + " | |",
    ]
    names = [n for n in rows if n != "baseline"] + [n for n in ablatable() if n not in rows]
    for name in names:
        row = rows.get(name, {})
        parts = name.split("+")
        size = sum(rule_lines([p]) for p in parts if (ROOT / "tasks" / "providers" / f"{p}.py").is_file())
        fired = " · ".join(f"{t[name]['fired']}/{t[name]['calls']}" if name in t else "-" for t in traces)
        if "error" in row:
            lines.append(
                f"| {name} | {size} | | {fired} | " + " | ".join("" for _ in keys) + f" | breaks: {row['error']} |"
            )
            continue
        fig = row.get("figures", {})
        deltas = [fig[k] - base[k] if k in fig else None for k in keys]
        switched = row.get("switched", {}).values()
        off = sum(len(s["off"]) for s in switched)
        total = off + sum(len(s["kept_on"]) for s in switched)
        costs = any(d is not None and d < -COST for d in deltas)
        traced = any(t.get(name, {}).get("calls", 0) for t in traces)
        if costs:
            verdict = "costs"
        elif name in free:
            verdict = "free (never fired)"
        elif traces and not traced and not fig:
            verdict = "not traced (classes, constants or functions without a no-op)"
        elif quiet := [label for label, t in zip(labels, traces, strict=True)
                       if t.get(name, {}).get("calls") and not t[name]["fired"]]:  # fmt: skip
            verdict = f"never fired on {', '.join(quiet)}" + ("; free on measured" if fig else "")
        else:
            verdict = "free on measured" if fig else "not measured"
        cells = " | ".join(_fmt(d) for d in deltas)
        share = f"{off}/{total}" if switched else (signature_note(name) if len(parts) == 1 and size else "")
        lines.append(f"| {name} | {size} | {share} | {fired} | {cells} | {verdict} |")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--row", help="measure one row in this process: 'baseline' or module[,module]")
    parser.add_argument("--suites", default="cases", help="cases, longmemeval, locomo (comma-separated)")
    parser.add_argument("--modules", default="", help="rows to run (default: every ablatable module)")
    parser.add_argument("--only", default="", help="one extra row switching all these modules off together")
    parser.add_argument("--per-family", type=int, default=2)
    parser.add_argument("--lme", type=int, default=20, help="LongMemEval oracle questions")
    parser.add_argument("--locomo", type=int, default=60, help="LoCoMo-dev questions")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--shared", type=Path, default=SHARED, help="the folder holding datasets/")
    parser.add_argument("--record-defaults", action="store_true", help="record the predicates' usual answers")
    parser.add_argument("--trace", action="store_true", help="count, per module, the calls that fired on the suites")
    parser.add_argument("--table", action="store_true", help="only rewrite docs/ablation.md from the cache")
    args = parser.parse_args()
    suites = [s for s in args.suites.split(",") if s]
    if args.record_defaults:
        majorities = record_defaults(ablatable())
        _cases(args.per_family)
        DEFAULTS.write_text(json.dumps(majorities(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
        return
    if args.trace:
        fired = trace_firing(ablatable(), load_defaults(DEFAULTS))
        done: dict[str, Any] = {"per_family": args.per_family, "suites": suites}
        if "cases" in suites:
            done["cases"] = _cases(args.per_family)
            FIRING.write_text(json.dumps(done | {"modules": fired()}, indent=1) + "\n", encoding="utf-8")
        if "probes" in suites:
            done["probes"] = _probes()
            FIRING_PROBES.write_text(json.dumps(done | {"modules": fired()}, indent=1) + "\n", encoding="utf-8")
            return
        if "longmemeval" in suites:
            done["longmemeval"] = _retrieval("longmemeval", args.lme, 5, args.shared)
        if "locomo" in suites:
            done["locomo"] = _retrieval("locomo", args.locomo, 10, args.shared)
        done["modules"] = fired()
        FIRING.write_text(json.dumps(done, indent=1) + "\n", encoding="utf-8")
        return
    if args.row:
        names = [] if args.row == "baseline" else args.row.split(",")
        print(json.dumps(measure_row(names, suites, args)))
        return
    rows: dict[str, dict[str, Any]] = json.loads(args.out.read_text()) if args.out.is_file() else {}
    todo: list[list[str]] = [[]] + [[m] for m in (args.modules.split(",") if args.modules else ablatable())]
    if args.only:
        todo.append(args.only.split(","))
    if args.table:
        todo = []
    for names in todo:
        name = _row_name(names)
        if name in rows:
            continue
        rows[name] = _run_subprocess(names, suites, args)
        args.out.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
        write_table(rows, firing=(FIRING, FIRING_PROBES))
        print(name, json.dumps(rows[name].get("figures", rows[name].get("error"))), flush=True)
    write_table(rows, firing=(FIRING, FIRING_PROBES))


if __name__ == "__main__":
    main()
