"""``memory-pipeline evaluate``: the pipeline against full-context and RAG baselines on one dataset."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from evaluation.gate import EvaluationThresholdError, Thresholds, check_thresholds
from evaluation.report import summary_rows
from evaluation.results import DEFAULT_SYSTEMS, SYSTEM_NAMES, EvaluationResult
from evaluation.runner import DEFAULT_ABSTAIN_THRESHOLD, DEFAULT_LOCOMO, DEFAULT_LONGMEMEVAL, run_evaluation
from evaluation.synthetic import SyntheticConfig
from flows.cli_common import add_store_arg, print_json, settings_from_args


def register(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "evaluate", help="score the pipeline and baselines on a labelled dataset", description=__doc__
    )
    parser.add_argument("--dataset", choices=("synthetic", "locomo", "longmemeval"), required=True)
    parser.add_argument(
        "--path",
        type=Path,
        default=None,
        help=f"LoCoMo folder (default: {DEFAULT_LOCOMO}) or LongMemEval folder of question files "
        f"(default: {DEFAULT_LONGMEMEVAL})",
    )
    parser.add_argument("--k", type=int, default=10, help="headline cut-off (1, 5, 10, 20 are always measured)")
    parser.add_argument("--out", type=Path, default=None, help="write report.md, metrics.json and plots here")
    parser.add_argument("--json", action="store_true", help="print one JSON object with every metric")
    parser.add_argument("--users", type=int, default=SyntheticConfig().users, help="synthetic: users")
    parser.add_argument(
        "--sessions",
        type=int,
        default=SyntheticConfig().sessions_per_user,
        help="synthetic: sessions per user",
    )
    parser.add_argument("--seed", type=int, default=SyntheticConfig().seed, help="synthetic: random seed")
    parser.add_argument(
        "--systems",
        default=",".join(DEFAULT_SYSTEMS),
        type=_systems,
        help=f"comma-separated subset of {','.join(SYSTEM_NAMES)} (default: all but pipeline_reranked)",
    )
    parser.add_argument(
        "--abstain-threshold", type=float, default=DEFAULT_ABSTAIN_THRESHOLD,
        help="cosine at which an item returned for an unanswerable question counts as an answer",
    )  # fmt: skip
    for name, what in (("recall", "recall@k"), ("answer-recall", "answer-token recall@k"),
                       ("token-savings", "token savings vs full context")):  # fmt: skip
        parser.add_argument(f"--min-{name}", type=float, default=0.0, help=f"fail when the pipeline's {what} is lower")
    # Benchmark scale: parallel units, resume from --out's cache, a stratified subset, progress.
    parser.add_argument("--workers", type=int, default=1, help="worker processes (one scope per task)")
    parser.add_argument("--limit", type=int, default=None, help="a stratified, seeded subset of N questions")
    parser.add_argument("--limit-seed", type=int, default=0, help="seed of the --limit subset")
    parser.add_argument(
        "--progress", action=argparse.BooleanOptionalAction, default=None,
        help="progress bars per system with an ETA (default: when stderr is a terminal)",
    )  # fmt: skip
    parser.add_argument(
        "--writepath", action=argparse.BooleanOptionalAction, default=True,
        help="synthetic: also score the write path's decisions on its case families (minutes; default on)",
    )  # fmt: skip
    # -- the LLM write path and judge with a real model (evaluation/llm_local.py) --
    parser.add_argument("--llm", choices=("local", "openai"), default=None,
                        help="LLM extractor, summarizer, consolidator and judge: 'local' serves --model (a GGUF "
                             "file) itself, 'openai' uses openai_base_url (vLLM, Ollama, llama.cpp)")  # fmt: skip
    parser.add_argument("--model", type=Path, default=None, help="--llm local: GGUF file; --llm openai: model name")
    add_store_arg(parser)
    parser.set_defaults(handler=run_evaluate)


def _systems(value: str) -> list[str]:
    """The --systems list, refused by argparse (a usage error) when it names an unknown system."""
    names = [s.strip() for s in value.split(",") if s.strip()]
    unknown = sorted(set(names) - set(SYSTEM_NAMES))
    if unknown or not names:
        choices = ",".join(SYSTEM_NAMES)
        raise argparse.ArgumentTypeError(f"unknown system(s) {unknown or [value]}; choose from {choices}")
    return names


def run_evaluate(args: argparse.Namespace) -> int:
    """Without --store the pipeline ingests into a temporary store, never the configured one."""
    settings = settings_from_args(args)
    if args.llm:
        from evaluation.llm_local import llm_settings

        settings = llm_settings(settings, args.llm, args.model)
    systems = args.systems
    with _measured(args.llm) as llm_figures:
        result = run_evaluation(
            args.dataset,
            path=args.path,
            k=args.k,
            out_dir=args.out,
            settings=settings,
            synthetic=SyntheticConfig(users=args.users, sessions_per_user=args.sessions, seed=args.seed),
            systems=systems,
            store_uri=args.store,
            abstain_threshold=args.abstain_threshold,
            workers=args.workers,
            limit=args.limit,
            seed=args.limit_seed,
            writepath=args.writepath,
            progress=sys.stderr.isatty() if args.progress is None else args.progress,
        )
    failures = check_thresholds(
        result,
        Thresholds(min_pipeline_recall=args.min_recall, min_pipeline_answer_recall=args.min_answer_recall,
                   min_token_savings=args.min_token_savings),
    )  # fmt: skip
    if args.json:
        print_json(result.model_dump(mode="json") | ({"llm_throughput": llm_figures} if args.llm else {}))
    else:
        _print_summary(result)
        if args.llm:
            from evaluation.llm_local import throughput_line

            print(throughput_line(llm_figures, result.ingest.sessions, result.ingest.seconds))
            print(f"judge: {result.llm_judge}")
    if failures:
        raise EvaluationThresholdError("evaluation below thresholds: " + "; ".join(failures))
    return 0


@contextmanager
def _measured(llm: str | None) -> Iterator[dict[str, float | int]]:
    """The LLM throughput of the evaluation, when --llm is given."""
    if llm is None:
        yield {}
        return
    from evaluation.llm_local import measured

    with measured() as figures:
        yield figures


def _print_summary(result: EvaluationResult) -> None:
    rows = summary_rows(result)
    if rows:
        print("  ".join(f"{h:>14}" for h in rows[0]))
        for row in rows:
            print("  ".join(f"{v!s:>14}" for v in row.values()))
    print(
        f"ingest: {result.ingest.sessions} sessions, {result.ingest.memories} memories, "
        f"{result.ingest.seconds:.1f} s; {result.scored_questions} scored questions"
    )
    run = result.run
    print(
        f"run: {run.wall_seconds:.1f} s wall, {run.cpu_seconds:.1f} s CPU, {run.workers} worker(s), "
        f"{run.tasks_run} task(s) run, {run.tasks_resumed} resumed from the cache"
    )
    if result.report_dir:
        print(f"report: {Path(result.report_dir) / 'report.md'}")
