"""What a probe that compares settings on one ingest gives each mode: its own copy of the store, and one
embedder for the questions every mode asks."""

from __future__ import annotations

import shutil

from evaluation.embed_cache import CachedEmbedder
from tasks.providers import build_embedder
from tasks.settings import Settings


def mode_store(ingested: str, mode: str) -> str:
    """A copy of the ingested store for one mode: a recall counts its hits' accesses (they weigh in the
    ranking), so a mode that read the ingest itself would leave its counts to the next mode."""
    return str(shutil.copytree(ingested, f"{ingested}-{mode}"))


def shared_embedder(settings: Settings) -> CachedEmbedder:
    """The embedder for modes that ask the same questions: each question's vector is computed once,
    by the same call a lone mode makes (:class:`evaluation.embed_cache.CachedEmbedder`)."""
    return CachedEmbedder(build_embedder(settings))
