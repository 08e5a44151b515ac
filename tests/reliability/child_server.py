"""What the crash tests' forkserver (``crash._CHILDREN``) holds before it forks a child: imported there only.

A child of a server that had only imported :mod:`tasks.ingest.run` spent ~3.3 s of CPU on an ingest of
the sample that takes ~1 s in a warm process: the modules an ingest imports on first use (the local
providers, pandera's polars backends, ONNX, the tokenizer, pylance: ~1.4 s) and the local embedder's
load (~0.9 s: its ONNX graph is fused at load). Both happen here, once per test process; every child
inherits them (:func:`tests.reliability.crash._child` reports the embedder loads of its own run).

Nothing here does Lance or polars work: neither is fork-safe (LanceDB warns "fork support is
experimental"; a child of a server that had run one polars query hung in its own first query). The
embedder is loaded, never run (a run starts the tokenizer's thread pool, which then disables itself in
every child); its ONNX Runtime session works in a forked child (checked: 20 forked children embedded
vectors identical to the parent's, none hung).
"""

from __future__ import annotations

import lance  # noqa: F401 - each of these is imported on first use by an ingest
import onnxruntime  # noqa: F401
import pandera.backends.polars.builtin_checks
import pandera.backends.polars.components
import pandera.backends.polars.container  # noqa: F401

import tasks.expiry
import tasks.sources.files  # noqa: F401
from tasks.ingest.run import run_ingest  # noqa: F401
from tasks.providers import build_consolidator, build_embedder, build_extractor, build_summarizer
from tasks.settings import Settings

_SETTINGS = Settings()
build_embedder(_SETTINGS)
build_extractor(_SETTINGS)
build_summarizer(_SETTINGS)
build_consolidator(_SETTINGS)
