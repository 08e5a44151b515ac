"""The evaluation's units of work: each scope's systems built, asked and cached on their own.

A unit is one scope (a LoCoMo conversation, a LongMemEval question's haystack: each is its own
user), or the whole dataset when its users are small and many (the synthetic set). A task is one
unit with one group of systems (the two pipeline modes share one ingest); it indexes the unit,
asks every question once at the deepest k (or at every k of the grid when the system's ranking
depends on k), and writes what came back to the cache folder, so that an interrupted run redoes
only the tasks it had not finished. Tasks run in this process or in worker processes; any
``concurrent.futures.Executor`` will do (the seam for a Dask executor).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import resource
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from evaluation.baselines import DenseRAG, FullContext, IndexStats, RetrievalSystem, Retrieved
from evaluation.dataset import EvalDataset, EvalQuestion
from evaluation.embed_cache import CachedEmbedder, LazyEmbedder, holds_vectors
from evaluation.pipeline_system import PipelineSystem, RerankedPipelineSystem
from evaluation.turn_baselines import HybridNeighbours, LanceHybridTurns
from tasks.providers import build_embedder
from tasks.providers.base import Embedder
from tasks.settings import Settings

#: Systems that must run in one task: the reranked mode reads the plain pipeline's ingest.
GROUPS: tuple[tuple[str, ...], ...] = (("pipeline", "pipeline_reranked"),)
#: Bumped when the cached shape or the asking changes, so an old cache is never read as current.
CACHE_VERSION = 1
_SAFE = re.compile(r"[^A-Za-z0-9_.-]+")


@dataclass(frozen=True)
class RunPlan:
    """What every task of one run needs (picklable: it crosses into worker processes)."""

    settings: Settings
    k: int
    #: Every k a k-dependent system is asked at, ascending; a prefix-consistent one is asked at the last.
    grid: tuple[int, ...]
    cache_dir: Path
    chunk_size: int = 5
    chunk_stride: int = 1
    store_uri: str | None = None


@dataclass(frozen=True)
class Unit:
    id: str
    data: EvalDataset
    #: Hash of the unit's sessions, questions and the run's settings: part of every cache file name.
    digest: str


@dataclass(frozen=True)
class Task:
    unit: Unit
    systems: tuple[str, ...]


@dataclass
class Resources:
    """What a task cost: wall and CPU seconds (CPU of the whole worker process, all its threads) and
    the peak resident memory of that process while it ran (its high-water mark reset at the start)."""

    wall_seconds: float = 0.0
    cpu_seconds: float = 0.0
    peak_rss_mb: float = 0.0


@dataclass
class CachedAnswers:
    """One system's answers on one unit, as written to and read from the cache."""

    system: str
    stats: IndexStats
    returns_everything: bool
    asked: list[int]
    #: question id -> k -> (items, ms)
    runs: dict[str, dict[int, tuple[list[Retrieved], float]]]
    confident: dict[str, dict[int, bool]] | None = None
    memory_rows: list[dict[str, Any]] | None = None
    resources: Resources = field(default_factory=Resources)


def group_systems(systems: Sequence[str]) -> list[tuple[str, ...]]:
    """The run's systems as task groups, in the given order (a group where one of its members is)."""
    out: list[tuple[str, ...]] = []
    for name in systems:
        group = next((tuple(n for n in g if n in systems) for g in GROUPS if name in g), (name,))
        if group not in out:
            out.append(group)
    return out


def _digest(*parts: Any) -> str:
    text = json.dumps(parts, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def plan_units(data: EvalDataset, plan: RunPlan, *, per_scope: bool) -> list[Unit]:
    """One unit per scope (in the order questions name them), or one for the whole dataset."""
    setup = plan.settings.model_dump(mode="json", exclude={"store_uri", "sessions_uri"})
    fingerprint = (CACHE_VERSION, setup, plan.grid, plan.k, plan.chunk_size, plan.chunk_stride)
    if not per_scope:
        body = data.model_dump(mode="json")
        return [Unit(id=_SAFE.sub("_", data.name), data=data, digest=_digest(fingerprint, body))]
    order: dict[tuple[str, str], None] = {}
    for q in data.questions:
        order.setdefault((q.app_name, q.user_id), None)
    for s in data.sessions:
        order.setdefault((s.app_name, s.user_id), None)
    units: list[Unit] = []
    for app, user in order:
        part = EvalDataset(
            name=data.name,
            sessions=tuple(s for s in data.sessions if (s.app_name, s.user_id) == (app, user)),
            questions=tuple(q for q in data.questions if (q.app_name, q.user_id) == (app, user)),
            gold_facts=tuple(f for f in data.gold_facts if (f.app_name, f.user_id) == (app, user)),
        )
        body = part.model_dump(mode="json")
        units.append(Unit(id=_SAFE.sub("_", f"{app}-{user}"), data=part, digest=_digest(fingerprint, body)))
    return units


def cache_path(plan: RunPlan, unit: Unit, system: str) -> Path:
    return plan.cache_dir / f"{unit.id}-{unit.digest[:12]}__{system}.json.gz"


def _encode(answers: CachedAnswers) -> dict[str, Any]:
    return {
        "version": CACHE_VERSION,
        "system": answers.system,
        "stats": asdict(answers.stats),
        "returns_everything": answers.returns_everything,
        "asked": answers.asked,
        "runs": {
            qid: {
                str(kk): [[[i.text, list(i.source_event_ids), i.score] for i in items], ms]
                for kk, (items, ms) in by_k.items()
            }
            for qid, by_k in answers.runs.items()
        },
        "confident": None
        if answers.confident is None
        else {qid: {str(kk): v for kk, v in by_k.items()} for qid, by_k in answers.confident.items()},
        "memory_rows": answers.memory_rows,
        "resources": asdict(answers.resources),
    }


def _decode(raw: dict[str, Any]) -> CachedAnswers:
    runs = {
        qid: {int(kk): ([Retrieved(t, tuple(ids), float(s)) for t, ids, s in items], float(ms))
              for kk, (items, ms) in by_k.items()}
        for qid, by_k in raw["runs"].items()
    }  # fmt: skip
    confident = raw.get("confident")
    return CachedAnswers(
        system=str(raw["system"]),
        stats=IndexStats(**raw["stats"]),
        returns_everything=bool(raw["returns_everything"]),
        asked=[int(kk) for kk in raw["asked"]],
        runs=runs,
        confident=None
        if confident is None
        else {q: {int(kk): bool(v) for kk, v in c.items()} for q, c in confident.items()},
        memory_rows=raw.get("memory_rows"),
        resources=Resources(**raw["resources"]),
    )


def write_answers(path: Path, answers: CachedAnswers) -> None:
    """Written to a temporary name and renamed: a run killed mid-write leaves no half file behind."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with gzip.open(tmp, "wt", encoding="utf-8") as out:
        json.dump(_encode(answers), out)
    tmp.replace(path)


def read_answers(path: Path) -> CachedAnswers | None:
    """The cached answers, or None when absent or unreadable (then the task runs again)."""
    if not path.is_file():
        return None
    try:
        with gzip.open(path, "rt", encoding="utf-8") as src:
            raw = json.load(src)
        if raw.get("version") != CACHE_VERSION:
            return None
        return _decode(raw)
    except (OSError, ValueError, KeyError, TypeError, EOFError):
        return None


def asked_ks(system: RetrievalSystem, grid: Sequence[int]) -> list[int]:
    """The k values a system is asked at: all of the grid only when its ranking depends on k."""
    if not system.returns_everything and getattr(system, "ranking_depends_on_k", False):
        return sorted(grid)
    return [max(grid)]


def _reset_peak() -> bool:
    """Reset this process's peak-RSS mark (Linux ``clear_refs``), so the next read is this task's peak."""
    try:
        Path("/proc/self/clear_refs").write_text("5", encoding="ascii")
        return True
    except OSError:
        return False


def _peak_mb(reset: bool) -> float:
    if reset:
        for line in Path("/proc/self/status").read_text(encoding="ascii").splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024.0
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # KiB on Linux


def build_systems(
    names: Sequence[str], plan: RunPlan, tmp: Path, embedder: CachedEmbedder
) -> dict[str, RetrievalSystem]:
    """Fresh systems for one task, on its own temporary folder (the pipeline's store unless one is given)."""
    run_settings = plan.settings.model_copy(update={"store_uri": plan.store_uri or str(tmp / "store")})
    built: dict[str, RetrievalSystem] = {}
    for name in names:
        if name == "pipeline":
            built[name] = PipelineSystem(run_settings, embedder=embedder)
        elif name == "pipeline_reranked":
            base = built.get("pipeline")
            built[name] = RerankedPipelineSystem(
                run_settings, base=base if isinstance(base, PipelineSystem) else None, embedder=embedder
            )
        elif name == "full_context":
            built[name] = FullContext()
        elif name == "chunk_rag":
            built[name] = DenseRAG("chunk_rag", embedder, window=plan.chunk_size, stride=plan.chunk_stride)
        elif name == "turn_rag":
            built[name] = DenseRAG("turn_rag", embedder, window=1)
        elif name == "lance_hybrid_turns":
            built[name] = LanceHybridTurns(embedder, tmp / "turns")
        elif name == "hybrid_neighbours":
            built[name] = HybridNeighbours(embedder)
        else:
            raise ValueError(f"unknown system {name!r}")
    return built


def _ask_all(
    system: RetrievalSystem, questions: Iterable[EvalQuestion], ks: Sequence[int]
) -> dict[str, dict[int, tuple[list[Retrieved], float]]]:
    """Each question once per k asked (question by question, so a memo stays warm), timed per ask."""
    saved: Callable[[], float] | None = getattr(system, "extra_latency_ms", None)
    out: dict[str, dict[int, tuple[list[Retrieved], float]]] = {}
    for q in questions:
        by_k: dict[int, tuple[list[Retrieved], float]] = {}
        for kk in ks:
            start = time.perf_counter()
            items = system.retrieve(q, kk)
            elapsed = (time.perf_counter() - start) * 1000.0
            # A system that memoises work across the k grid reports what the memo saved (a recall pays it).
            by_k[kk] = (items, elapsed + (saved() if saved is not None else 0.0))
        out[q.id] = by_k
    return out


def _plain_row(row: dict[str, Any]) -> dict[str, Any]:
    """A stored memory as JSON-ready values (what extraction matching reads; no vector)."""
    columns = ("memory_id", "version", "user_id", "app_name", "content", "source_event_ids", "status", "topic")
    out: dict[str, Any] = {}
    for c in columns:
        value = row.get(c)
        out[c] = [str(v) for v in value] if c == "source_event_ids" and value is not None else value
    return out


_EMBEDDERS: dict[tuple[str, str], CachedEmbedder] = {}


def _inner_embedder(settings: Settings, cache: Path) -> Embedder:
    """The embedder behind a task's cache, built now unless the cache already holds vectors.

    A worker of a resumed run, or of a run sharing another's vectors, may find every text cached:
    the local model then loads on the first miss, if any (its load is charged to no system's cost).
    With an empty cache every task embeds, and the model is loaded before any task is timed.
    """
    if settings.embedder == "local" and holds_vectors(cache):
        from tasks.providers.onnx_embedder import MODEL_NAME, OnnxMiniLMEmbedder

        if settings.embedding_model == MODEL_NAME:  # an unknown model fails now, in build_embedder
            return LazyEmbedder(MODEL_NAME, OnnxMiniLMEmbedder.dim, lambda: build_embedder(settings))
    return build_embedder(settings)


def _load_seconds(embedder: CachedEmbedder) -> tuple[float, float]:
    """Wall and CPU seconds this process spent loading the model so far (charged to no system)."""
    inner = embedder.inner
    return (inner.load_wall, inner.load_cpu) if isinstance(inner, LazyEmbedder) else (0.0, 0.0)


def task_embedder(plan: RunPlan) -> CachedEmbedder:
    """One cached embedder per worker process and cache folder: the model loads at most once per worker."""
    key = (plan.settings.model_dump_json(exclude={"store_uri", "sessions_uri"}), str(plan.cache_dir))
    if key not in _EMBEDDERS:
        cache = plan.cache_dir / "embeddings.sqlite"
        _EMBEDDERS[key] = CachedEmbedder(_inner_embedder(plan.settings, cache), cache)
    return _EMBEDDERS[key]


@dataclass(frozen=True)
class TaskDone:
    """A finished task: what each system's part cost, and the embedding cache's work during it."""

    costs: dict[str, Resources]
    embedded: int
    cache_hits: int
    #: Questions asked in this task (fewer than the unit's when it resumed a killed task).
    asked: int = 0


def partial_path(plan: RunPlan, unit: Unit, system: str) -> Path:
    """Answers appended question by question while a task runs (what a killed task leaves behind)."""
    return plan.cache_dir / "partial" / f"{unit.id}-{unit.digest[:12]}__{system}.jsonl"


def store_dir(plan: RunPlan, unit: Unit) -> Path:
    """The pipeline's store of one unit, in the cache so that a resumed task finds its ingest done."""
    return plan.cache_dir / "stores" / f"{unit.id}-{unit.digest[:12]}"


def _read_partial(path: Path) -> tuple[IndexStats | None, dict[str, dict[str, Any]]]:
    """The index stats and per-question answers of a killed task (a torn last line is ignored)."""
    stats: IndexStats | None = None
    answered: dict[str, dict[str, Any]] = {}
    if not path.is_file():
        return stats, answered
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            break
        if "stats" in row:
            stats = IndexStats(**row["stats"])
        elif "q" in row:
            answered[str(row["q"])] = row
    return stats, answered


def _append(path: Path, row: dict[str, Any]) -> None:
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps(row) + "\n")
        out.flush()


def _answer_unit(
    system: RetrievalSystem, name: str, plan: RunPlan, task: Task, stats: IndexStats
) -> tuple[list[int], dict[str, dict[int, tuple[list[Retrieved], float]]], dict[str, dict[int, bool]] | None, int]:
    """Ask every question not answered before this task was interrupted, one line per question."""
    partial = partial_path(plan, task.unit, name)
    partial.parent.mkdir(parents=True, exist_ok=True)
    recorded, answered = _read_partial(partial)
    before = len(answered)
    if recorded is None:
        _append(partial, {"stats": asdict(stats)})
    ks = asked_ks(system, plan.grid)
    verdicts: dict[tuple[str, int], bool] | None = getattr(system, "confident", None)
    for q in task.unit.data.questions:
        if q.id in answered:
            continue
        by_k = _ask_all(system, [q], ks)[q.id]
        row: dict[str, Any] = {
            "q": q.id,
            "runs": {str(kk): [[[i.text, list(i.source_event_ids), i.score] for i in items], ms]
                     for kk, (items, ms) in by_k.items()},
        }  # fmt: skip
        if verdicts is not None:
            row["confident"] = {str(kk): v for (qid, kk), v in verdicts.items() if qid == q.id}
        _append(partial, row)
        answered[q.id] = row
    runs = {
        qid: {int(kk): ([Retrieved(t, tuple(ids), float(sc)) for t, ids, sc in items], float(ms))
              for kk, (items, ms) in row["runs"].items()}
        for qid, row in answered.items()
    }  # fmt: skip
    confident = None
    if verdicts is not None:
        confident = {
            qid: {int(kk): bool(v) for kk, v in row.get("confident", {}).items()} for qid, row in answered.items()
        }
    return ks, runs, confident, len(answered) - before


def run_task(plan: RunPlan, task: Task) -> TaskDone:
    """Index, ask and cache one unit for one group of systems (in whichever process runs it).

    A task killed half way resumes from its partial file: the index is rebuilt (the embeddings come
    from the cache, the pipeline's ingest finds its sessions in the ledger of the store it left in the
    cache folder) and only the questions it had not answered are asked.
    """
    embedder = task_embedder(plan)
    hits, misses = embedder.hits, embedder.misses
    costs: dict[str, Resources] = {}
    finished = {n: read_answers(cache_path(plan, task.unit, n)) for n in task.systems}
    needed = [n for n, a in finished.items() if a is None]
    if not needed:
        return TaskDone(costs, 0, 0)
    store = plan.store_uri or str(store_dir(plan, task.unit))
    with tempfile.TemporaryDirectory(prefix="memory-eval-unit-") as tmp:
        built = build_systems(task.systems, replace(plan, store_uri=store), Path(tmp), embedder)
        known: dict[str, IndexStats] = {}
        asked = 0
        for name, system in built.items():
            base_only = name not in needed
            if base_only and not any(isinstance(built.get(n), RerankedPipelineSystem) for n in needed):
                continue
            reset = _reset_peak()
            wall, cpu = time.perf_counter(), time.process_time()
            load_wall, load_cpu = _load_seconds(embedder)
            fresh = system.index(task.unit.data)
            if name == "full_context":
                fresh = IndexStats(items=sum(len(s.events) for s in task.unit.data.sessions))
            done = finished.get(name)
            recorded, _ = _read_partial(partial_path(plan, task.unit, name))
            stats = done.stats if done is not None else recorded or fresh
            if isinstance(system, RerankedPipelineSystem) and "pipeline" in known:
                stats = known["pipeline"]  # it read the plain pipeline's ingest
            known[name] = stats
            if base_only:
                continue
            ks, runs, confident, count = _answer_unit(system, name, plan, task, stats)
            asked += count
            rows = None
            if isinstance(system, PipelineSystem) and task.unit.data.gold_facts:
                rows = [_plain_row(r) for r in system.memory_rows()]
            loaded_wall, loaded_cpu = _load_seconds(embedder)  # a model loaded on this system's first miss
            wall, cpu = wall + loaded_wall - load_wall, cpu + loaded_cpu - load_cpu
            cost = Resources(time.perf_counter() - wall, time.process_time() - cpu, _peak_mb(reset))
            answers = CachedAnswers(name, stats, system.returns_everything, ks, runs, confident, rows, cost)
            write_answers(cache_path(plan, task.unit, name), answers)
            partial_path(plan, task.unit, name).unlink(missing_ok=True)
            costs[name] = cost
    if plan.store_uri is None:
        shutil.rmtree(store, ignore_errors=True)  # every answer is cached: the store is not needed again
    return TaskDone(costs, embedder.misses - misses, embedder.hits - hits, asked)
