"""The report folder of a run: ``report.md``, ``metrics.json`` and two PNG plots.

The markdown says what each number means, because "recall" here is evidence-turn coverage, not
answer correctness, and readers comparing with published LoCoMo scores need to know that.
"""

from __future__ import annotations

import json
from pathlib import Path

from evaluation.results import CategoryMetrics, EvaluationResult, SystemMetrics

PLOTS = ("recall_at_k.png", "recall_vs_tokens.png", "budget_curve.png")
#: The cut-offs the per-category tables are printed at (when measured).
CATEGORY_KS = (5, 10, 20)

EXPLANATION = """\
## What the numbers mean
- **recall@k**: share of the question's gold evidence turns covered by the source turns of the top-k
  items (a memory counts for every turn it was extracted from). **precision@k**: share of returned
  items (at most k) that come from an evidence turn. **hit@k**: any relevant item in the top k.
  **MRR** / **nDCG@k**: rank quality (nDCG gains only for newly covered evidence turns).
- **answer-token recall@k**: share of the gold answer's content words (lower-cased, no punctuation,
  no stop words) found in the context text. LLM-free; it rewards contexts that literally contain the
  answer, so it under-rates paraphrased memories and over-rates long contexts.
- **context tokens**: cl100k tokens of what the system would put in a prompt (pipeline: one
  "<date> - <content>" line per recalled item; baselines: their dated, speaker-prefixed turns);
  **savings** = 1 − tokens / full-context tokens.
- **sources/memory**: mean number of source turns behind one retrieved item.
- **latency**: per question, query embedding included; ingest time for the pipeline is the whole
  extract → embed → consolidate → write run.
- Unanswerable questions (LoCoMo category 5, forgotten facts) are excluded from the retrieval scores
  and reported as the rate at which an item with cosine ≥ the threshold is still returned.
"""


def _f(value: float | None, digits: int = 3) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def summary_rows(result: EvaluationResult) -> list[dict[str, str | float | None]]:
    """One row per system with the headline numbers (also used for the Prefect table artifact)."""
    return [
        {
            "system": name,
            f"recall@{result.k}": round(s.recall_at_k, 4),
            f"precision@{result.k}": round(s.precision_at_k, 4),
            f"answer_recall@{result.k}": round(s.answer_recall_at_k, 4),
            "mrr": round(s.mrr, 4),
            f"ndcg@{result.k}": round(s.ndcg_at_k, 4),
            "context_tokens": round(s.mean_context_tokens, 1),
            "token_savings": round(s.token_savings_vs_full, 4),
            "sources_per_item": round(s.mean_sources_per_memory, 2),
            "p50_ms": round(s.recall_p50_ms, 2),
            "p95_ms": round(s.recall_p95_ms, 2),
        }
        for name, s in result.systems.items()
    ]


def _table(rows: list[dict[str, str | float | None]]) -> list[str]:
    if not rows:
        return ["(no systems)"]
    head = list(rows[0])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(str(r[h]) for h in head) + " |" for r in rows]
    return lines


def _per_k(systems: dict[str, SystemMetrics], ks: list[int]) -> list[str]:
    lines = [
        "| system | " + " | ".join(f"R@{k} / ans@{k} / tok@{k}" for k in ks) + " |",
        "|---|" + "---|" * len(ks),
    ]
    for name, s in systems.items():
        cells = [
            f"{_f(s.per_k[str(k)].recall)} / {_f(s.per_k[str(k)].answer_recall)} / "
            f"{s.per_k[str(k)].mean_context_tokens:.0f}"
            for k in ks
        ]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return lines


def _categories_at(systems: dict[str, SystemMetrics], k: int, run_k: int) -> list[str]:
    """Per-category recall / answer-token recall at one k (the run's own k falls back to ``per_category``)."""

    def at_k(s: SystemMetrics) -> dict[str, CategoryMetrics]:
        return s.per_category_k.get(str(k)) or (s.per_category if k == run_k else {})

    cats = sorted({c for s in systems.values() for c in at_k(s)})
    lines = ["| system | " + " | ".join(cats) + " |", "|---|" + "---|" * len(cats)]
    for name, s in systems.items():
        at = at_k(s)
        cells = [
            "–" if c not in at else f"{_f(at[c].recall_at_k)} / {_f(at[c].answer_recall_at_k)} (n={at[c].questions})"
            for c in cats
        ]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return lines


def _budget_table(result: EvaluationResult, answer: bool) -> list[str]:
    """One row per budget, one column per ranked system, and the verdict against the turn baselines."""
    systems = {n: s for n, s in result.systems.items() if s.budget_curve}
    verdicts = {v.budget: v for v in result.budget_comparison}
    head = "| budget | " + " | ".join(systems) + (" | pipeline above both |" if verdicts else " |")
    lines = [head, "|---|" + "---|" * (len(systems) + (1 if verdicts else 0))]
    for j, budget in enumerate(result.budgets):
        cells = []
        for s in systems.values():
            p = s.budget_curve[j]
            value = p.answer_recall if answer else p.recall
            cells.append(f"{_f(value)} (k={p.k}, {p.mean_context_tokens:.0f} tok)")
        if budget in verdicts:
            v = verdicts[budget]
            cells.append("yes" if (v.answer_recall_above if answer else v.recall_above) else "**no**")
        lines.append(f"| {budget} | " + " | ".join(cells) + " |")
    return lines


def _budget_section(result: EvaluationResult) -> list[str]:
    if not result.budgets or not any(s.budget_curve for s in result.systems.values()):
        return []
    verdicts = result.budget_comparison
    missed = [v.budget for v in verdicts if not v.recall_above]
    if not verdicts:
        verdict = "The pipeline or a turn baseline was not run: no verdict."
    else:
        verdict = (
            f"The pipeline's evidence recall is above both turn baselines at {len(verdicts) - len(missed)} of "
            f"{len(verdicts)} budgets" + (f"; not at {missed}." if missed else ".")
        )
    return [
        "## Recall at matched context budgets",
        "Items in rank order while they fit in the budget (cl100k tokens; item tokens + 1 per line break); "
        "each cell is the k with the best mean evidence recall at that budget, and the mean tokens used.",
        "",
        verdict,
        "",
        "### Evidence recall",
        *_budget_table(result, answer=False),
        "",
        "### Answer-token recall",
        *_budget_table(result, answer=True),
        "",
        "![recall at matched budgets](budget_curve.png)",
        "",
    ]


def render_markdown(result: EvaluationResult) -> str:
    k = result.k
    lines = [
        f"# Memory evaluation — {result.dataset}",
        "",
        f"{result.scored_questions} scored questions of {result.questions}; k = {k}. "
        f"Ingest: {result.ingest.sessions} sessions, {result.ingest.events} turns → "
        f"{result.ingest.memories} memories in {result.ingest.seconds:.1f} s "
        f"({result.ingest.events_per_second:.1f} turns/s).",
        "",
        "## Systems at k",
        *_table(summary_rows(result)),
        "",
        *_cost_lines(result),
        "## Recall / answer-token recall / context tokens per k",
        *_per_k(result.systems, result.ks),
        "",
        "## Per question category (recall / answer-token recall)",
        "",
    ]
    measured = {kk for s in result.systems.values() for kk in s.per_category_k}
    for kk in sorted({k, *(c for c in CATEGORY_KS if str(c) in measured)}):
        lines += [f"### k = {kk}", *_categories_at(result.systems, kk, k), ""]
    lines += [
        *_budget_section(result),
        "## Questions with no right answer",
        'Answered anyway: by the system\'s own abstention verdict where it has one (signal "system"), else '
        "when an item's cosine reaches the threshold. For a system verdict, the share of answerable questions "
        f"it abstained on and recall@{k} counting those as empty contexts.",
        "",
        "| system | questions | signal | answered anyway (rate) | mean top cosine | answerable abstained | "
        f"recall@{k} with abstention | stale-fact rate | forgotten leak rate |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, s in result.systems.items():
        u = s.unanswerable
        lines.append(
            f"| {name} | {u.questions} | {u.signal} | {_f(u.retrieved_above_threshold_rate)} | "
            f"{_f(u.mean_top_score)} | "
            f"{_f(u.answerable_abstained_rate)} | {_f(u.recall_at_k_with_abstention)} | "
            f"{_f(s.stale_fact_rate)} | {_f(s.forgotten_leak_rate)} |"
        )
    if result.extraction is not None:
        e = result.extraction
        lines += [
            "",
            "## Extraction against gold facts",
            f"{e.memories} stored memory versions, {e.gold_facts} gold facts; matched by {e.matched_by} "
            f"(threshold {e.cosine_threshold}). Precision {_f(e.precision)} (by source only "
            f"{_f(e.precision_by_source)}, by cosine only {_f(e.precision_by_cosine)}), "
            f"recall {_f(e.recall)}.",
        ]
    lines += _writepath_lines(result)
    lines += [
        "",
        EXPLANATION,
        "## Notes",
        *[f"- {n}" for n in result.notes],
        f"- LLM judge: {result.llm_judge}",
    ]
    lines += ["", "![recall@k](recall_at_k.png)", "", "![recall vs tokens](recall_vs_tokens.png)", ""]
    return "\n".join(lines)


def _cost_lines(result: EvaluationResult) -> list[str]:
    """Wall time, CPU time and peak memory per system, next to the figures (issue 68)."""
    if not result.costs:
        return []
    run = result.run
    head = [
        "## What each system cost",
        f"Run: {run.wall_seconds:.1f} s wall, {run.cpu_seconds:.1f} s CPU (this process and its workers), "
        f"{run.workers} worker(s), {run.units} unit(s); {run.tasks_run} task(s) run, {run.tasks_resumed} "
        f"resumed from the output folder's cache; {run.embedded_texts} texts embedded, "
        f"{run.embedding_cache_hits} served by the shared embedding cache. A system's wall and CPU seconds "
        "are summed over its tasks (index + every question); peak memory is the worker process's resident "
        "high-water mark during its tasks, loaded models included.",
        "",
        "| system | wall s | CPU s | peak memory MB | tasks (resumed) |",
        "|---|---|---|---|---|",
    ]
    rows = [
        f"| {name} | {c.wall_seconds:.1f} | {c.cpu_seconds:.1f} | {c.peak_rss_mb:.0f} | {c.tasks} ({c.tasks_resumed}) |"
        for name, c in result.costs.items()
    ]
    return [*head, *rows, ""]


def _writepath_lines(result: EvaluationResult) -> list[str]:
    """Write-path accuracy (evaluation/writepath), when the run measured it."""
    w = result.writepath
    if w is None:
        return []
    rows = [f"| {split} | {_f(w.decision[split])} | {_f(w.survived[split])} | {_f(w.episode[split])} |"
            for split in ("dev", "heldout")]  # fmt: skip
    head = "| families | decision right | fact survived | episode consistent |"
    return ["", f"## Write-path accuracy ({w.cases} generated cases)", head, "|---|---|---|---|", *rows]


def _plots(result: EvaluationResult, out_dir: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    for name, s in result.systems.items():
        ax.plot(result.ks, [s.per_k[str(k)].recall for k in result.ks], marker="o", label=name)
    ax.set(xlabel="k", ylabel="recall@k (evidence turns covered)", title=f"recall@k — {result.dataset}")
    ax.set_ylim(0, 1.05)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out_dir / PLOTS[0], dpi=110)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(6, 4))
    for name, s in result.systems.items():
        xs = [max(s.per_k[str(k)].mean_context_tokens, 1.0) for k in result.ks]
        ax.scatter(xs, [s.per_k[str(k)].recall for k in result.ks], label=name)
        ax.plot(xs, [s.per_k[str(k)].recall for k in result.ks], alpha=0.4)
    ax.set_xscale("log")
    ax.set(xlabel="mean context tokens per question (log)", ylabel="recall@k", title="recall vs context size")
    ax.set_ylim(0, 1.05)
    ax.legend()
    fig.tight_layout()
    fig.savefig(out_dir / PLOTS[1], dpi=110)
    plt.close(fig)

    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    for name, s in result.systems.items():
        if not s.budget_curve:
            continue
        xs = [p.budget for p in s.budget_curve]
        axes[0].plot(xs, [p.recall for p in s.budget_curve], marker=".", label=name)
        axes[1].plot(xs, [p.answer_recall for p in s.budget_curve], marker=".", label=name)
    axes[0].set(xlabel="context budget (tokens)", ylabel="evidence recall", title=f"matched budgets — {result.dataset}")
    axes[1].set(xlabel="context budget (tokens)", ylabel="answer-token recall", title="answer-token recall")
    axes[0].set_ylim(0, 1.05)
    if any(s.budget_curve for s in result.systems.values()):
        axes[0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out_dir / PLOTS[2], dpi=110)
    plt.close(fig)


def write_report(result: EvaluationResult, out_dir: Path) -> list[Path]:
    """Write report.md, metrics.json and the plots; returns the files written."""
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "metrics.json").write_text(json.dumps(result.model_dump(mode="json"), indent=2), encoding="utf-8")
    (out_dir / "report.md").write_text(render_markdown(result), encoding="utf-8")
    _plots(result, out_dir)
    return [out_dir / "report.md", out_dir / "metrics.json", *(out_dir / p for p in PLOTS)]
