"""One factory that builds every provider from settings; callers never construct one directly."""

from __future__ import annotations

from functools import lru_cache

from tasks.errors import ProviderConfigError
from tasks.providers.base import Consolidator, Embedder, Extractor, Summarizer
from tasks.settings import Settings

__all__ = ["build_consolidator", "build_embedder", "build_extractor", "build_summarizer"]


def _unsupported(kind: str, name: str) -> ProviderConfigError:
    return ProviderConfigError(f"{kind} provider {name!r} is not available in this version")


@lru_cache(maxsize=4)
def _local_embedder(model: str, batch_size: int) -> Embedder:
    """One loaded model per process and model name: loading is the expensive part."""
    from tasks.providers.onnx_embedder import MODEL_NAME, OnnxMiniLMEmbedder

    if model != MODEL_NAME:
        raise ProviderConfigError(f"unknown local embedding model {model!r}; the local one is {MODEL_NAME!r}")
    return OnnxMiniLMEmbedder(batch_size=batch_size)


def build_embedder(settings: Settings) -> Embedder:
    if settings.embedder == "local":
        return _local_embedder(settings.embedding_model, settings.embedding_batch_size)
    raise _unsupported("embedder", settings.embedder)


def build_extractor(settings: Settings) -> Extractor:
    if settings.extractor == "local":
        from tasks.providers.local_extractor import LocalExtractor

        return LocalExtractor(custom_topics=settings.custom_topics)
    raise _unsupported("extractor", settings.extractor)


def build_summarizer(settings: Settings) -> Summarizer:
    if settings.summarizer == "local":
        from tasks.providers.local_summarizer import LocalSummarizer

        return LocalSummarizer()
    raise _unsupported("summarizer", settings.summarizer)


def build_consolidator(settings: Settings) -> Consolidator:
    if settings.consolidator == "local":
        from tasks.providers.local_consolidator import LocalConsolidator

        return LocalConsolidator(
            duplicate_threshold=settings.duplicate_threshold,
            related_threshold=settings.related_threshold,
        )
    raise _unsupported("consolidator", settings.consolidator)
