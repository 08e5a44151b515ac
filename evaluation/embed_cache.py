"""Embeddings of identical texts shared across systems, workers and resumed runs of one evaluation.

The turn baselines embed the same dated turn lines and every system embeds the same questions, so
a content-hash cache (on disk in the run's output folder: SQLite, safe across worker processes)
computes each text once. A call with any text missing is embedded whole, as it would be without the
cache, so the first system to ask gets exactly the vectors it always got (batching is by length, and
a different batch could move a cosine in its last bit); later calls of the same texts reuse them.
"""

from __future__ import annotations

import hashlib
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from tasks.providers.base import Embedder, FloatMatrix


def text_key(model: str, text: str) -> str:
    """The cache key of one text under one model (a different model never reuses a vector)."""
    return hashlib.sha256(f"{model}\x1f{text}".encode()).hexdigest()


def holds_vectors(path: Path) -> bool:
    """Whether the on-disk cache at ``path`` has any vector yet (a resumed run's, or another run's)."""
    if not path.is_file():
        return False
    db = sqlite3.connect(str(path), timeout=60.0)
    try:
        return db.execute("SELECT 1 FROM vectors LIMIT 1").fetchone() is not None
    except sqlite3.OperationalError:  # no table yet
        return False
    finally:
        db.close()


class LazyEmbedder:
    """An :class:`Embedder` whose model is built on its first ``embed`` call, not before.

    A worker process whose texts are all in the cache never embeds, so it never pays for loading
    the model (seconds of CPU and of reading the weights). ``model`` and ``dim`` are known without
    it (the cache keys by model name); the built embedder must agree with them.
    """

    def __init__(self, model: str, dim: int, build: Callable[[], Embedder]) -> None:
        self.model = model
        self.dim = dim
        self._build = build
        self._inner: Embedder | None = None
        self._lock = threading.Lock()
        #: What building the model took (wall and process CPU seconds): not part of a system's cost.
        self.load_wall = 0.0
        self.load_cpu = 0.0

    def _embedder(self) -> Embedder:
        with self._lock:
            if self._inner is None:
                wall, cpu = time.perf_counter(), time.process_time()
                inner = self._build()
                self.load_wall, self.load_cpu = time.perf_counter() - wall, time.process_time() - cpu
                if (inner.model, inner.dim) != (self.model, self.dim):
                    announced = f"{self.model!r} (dim {self.dim})"
                    raise ValueError(f"embedder {inner.model!r} (dim {inner.dim}) is not the announced {announced}")
                self._inner = inner
            return self._inner

    def embed(self, texts: Sequence[str]) -> FloatMatrix:
        return self._embedder().embed(texts)


class CachedEmbedder:
    """An :class:`Embedder` that remembers vectors by content hash, in memory and (optionally) on disk."""

    def __init__(self, inner: Embedder, path: Path | None = None) -> None:
        self.inner = inner
        self.model = inner.model
        self.dim = inner.dim
        self.path = path
        self._memory: dict[str, FloatMatrix] = {}
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            with self._connect() as db:
                db.execute("CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, vector BLOB NOT NULL)")

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        """One short connection per read or write (committed, then closed): workers share the file."""
        db = sqlite3.connect(str(self.path), timeout=60.0)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            with db:
                yield db
        finally:
            db.close()

    def _load(self, keys: list[str]) -> None:
        """Pull the keys not in memory from disk (other workers or an earlier run may have written them)."""
        wanted = [k for k in dict.fromkeys(keys) if k not in self._memory]
        if self.path is None or not wanted:
            return
        with self._connect() as db:
            for start in range(0, len(wanted), 500):
                part = wanted[start : start + 500]
                marks = ",".join("?" * len(part))
                for key, blob in db.execute(f"SELECT key, vector FROM vectors WHERE key IN ({marks})", part):
                    self._memory[key] = np.frombuffer(blob, dtype=np.float32).copy()

    def _store(self, pairs: dict[str, FloatMatrix]) -> None:
        self._memory.update(pairs)
        if self.path is None or not pairs:
            return
        with self._connect() as db:
            db.executemany(
                "INSERT OR IGNORE INTO vectors (key, vector) VALUES (?, ?)",
                [(k, np.ascontiguousarray(v, dtype=np.float32).tobytes()) for k, v in pairs.items()],
            )

    def embed(self, texts: Sequence[str]) -> FloatMatrix:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        keys = [text_key(self.model, t) for t in texts]
        with self._lock:
            self._load(keys)
            if all(k in self._memory for k in keys):
                self.hits += len(keys)
                return np.stack([self._memory[k] for k in keys]).astype(np.float32, copy=False)
        vectors = self.inner.embed(texts)
        with self._lock:
            new = {k: vectors[i] for i, k in enumerate(keys) if k not in self._memory}
            self.misses += len(new)
            self.hits += len(keys) - len(new)
            self._store(new)
        return vectors
