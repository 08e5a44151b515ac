"""One factory that builds every provider from settings; callers never construct one directly."""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import TYPE_CHECKING

from tasks.errors import ProviderConfigError
from tasks.providers.base import Consolidator, Embedder, Extractor, Summarizer
from tasks.settings import Settings

if TYPE_CHECKING:
    from tasks.providers.judge import Judge

__all__ = [
    "build_consolidator", "build_embedder", "build_extractor", "build_judge", "build_summarizer", "embedder_loads",
]  # fmt: skip


def _unsupported(kind: str, name: str) -> ProviderConfigError:
    return ProviderConfigError(f"{kind} provider {name!r} is not available in this version")


@lru_cache(maxsize=4)
def _local_embedder(model: str, batch_size: int) -> Embedder:
    """One loaded model per process and model name: loading is the expensive part."""
    from tasks.providers.onnx_embedder import MODEL_NAME, OnnxMiniLMEmbedder

    if model != MODEL_NAME:
        raise ProviderConfigError(f"unknown local embedding model {model!r}; the local one is {MODEL_NAME!r}")
    return OnnxMiniLMEmbedder(batch_size=batch_size, workers=1)


def embedder_loads() -> int:
    """How often this process loaded the local embedder (a Dask worker that keeps it reports 1)."""
    return _local_embedder.cache_info().misses


_OPENAI_EMBEDDERS: dict[str, Embedder] = {}
_OPENAI_LOCK = threading.Lock()


def _openai_embedder(settings: Settings) -> Embedder:
    """One per process and provider settings: its dimension probe is a call, made once."""
    from tasks.providers.openai_embedder import OpenAIEmbedder

    key = settings.model_dump_json(exclude={"store_uri", "sessions_uri"})
    with _OPENAI_LOCK:
        if key not in _OPENAI_EMBEDDERS:
            _OPENAI_EMBEDDERS[key] = OpenAIEmbedder(settings)
        return _OPENAI_EMBEDDERS[key]


def build_embedder(settings: Settings) -> Embedder:
    if settings.embedder == "local":
        return _local_embedder(settings.embedding_model, settings.embedding_batch_size)
    if settings.embedder == "openai":
        from tasks.providers.local_server import uses_local_server

        if uses_local_server(settings):  # the project's own server serves chat only
            raise ProviderConfigError(
                "embedder 'openai' needs openai_base_url: the local GGUF server (local_llm_gguf) serves chat only; "
                "keep embedder 'local'"
            )
        return _openai_embedder(settings)
    raise _unsupported("embedder", settings.embedder)


def _with_fallback(settings: Settings) -> bool:
    """Whether an LLM provider gets the offline one behind it (issue 64; see ``local_llm_fallback``)."""
    from tasks.providers.local_server import fallback_enabled

    return fallback_enabled(settings)


def build_extractor(settings: Settings) -> Extractor:
    if settings.extractor == "local":
        from tasks.providers.local_extractor import LocalExtractor

        return LocalExtractor(custom_topics=settings.custom_topics)
    if settings.extractor == "openai":
        from tasks.providers.openai_extractor import OpenAIExtractor

        extractor = OpenAIExtractor(settings)
        if _with_fallback(settings):
            from tasks.providers.fallback import FallbackExtractor

            return FallbackExtractor(extractor, build_extractor(settings.model_copy(update={"extractor": "local"})))
        return extractor
    raise _unsupported("extractor", settings.extractor)


def build_summarizer(settings: Settings) -> Summarizer:
    if settings.summarizer == "local":
        from tasks.providers.local_summarizer import LocalSummarizer

        return LocalSummarizer()
    if settings.summarizer == "openai":
        from tasks.providers.openai_summarizer import OpenAISummarizer

        summarizer = OpenAISummarizer(settings)
        if _with_fallback(settings):
            from tasks.providers.fallback import FallbackSummarizer
            from tasks.providers.local_summarizer import LocalSummarizer

            return FallbackSummarizer(summarizer, LocalSummarizer())
        return summarizer
    raise _unsupported("summarizer", settings.summarizer)


def build_consolidator(settings: Settings) -> Consolidator:
    if settings.consolidator == "local":
        from tasks.providers.local_consolidator import LocalConsolidator

        return LocalConsolidator(
            duplicate_threshold=settings.duplicate_threshold,
            related_threshold=settings.related_threshold,
        )
    if settings.consolidator == "openai":
        from tasks.providers.openai_consolidator import OpenAIConsolidator

        consolidator = OpenAIConsolidator(settings)
        if _with_fallback(settings):
            from tasks.providers.fallback import FallbackConsolidator

            offline = build_consolidator(settings.model_copy(update={"consolidator": "local"}))
            return FallbackConsolidator(consolidator, offline)
        return consolidator
    raise _unsupported("consolidator", settings.consolidator)


def build_judge(settings: Settings) -> Judge | None:
    """The evaluation's LLM judge, or None when ``judge`` is "none"."""
    if settings.judge == "none":
        return None
    if settings.judge == "openai":
        from tasks.providers.judge import OpenAIJudge

        return OpenAIJudge(settings)
    raise _unsupported("judge", settings.judge)
