"""Embeddings from an OpenAI-compatible endpoint: any model it serves, dimension from the provider.

``dim`` comes from settings (``openai_embedding_dim``) or one probe call at construction; the store
records model and dimension and refuses to mix vector spaces. Batches go out concurrently, each
request inside the process-wide in-flight bound.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tasks.errors import ProviderReplyError
from tasks.providers.base import FloatMatrix
from tasks.providers.openai_client import LLMClient, map_concurrent
from tasks.settings import Settings


class OpenAIEmbedder:
    """The :class:`~tasks.providers.base.Embedder` over ``/v1/embeddings``; L2-normalised float32 rows."""

    def __init__(self, settings: Settings, client: LLMClient | None = None) -> None:
        self.settings = settings
        self.client = client or LLMClient(settings, "embedder")
        self.model = settings.openai_embedding_model
        self.batch_size = max(1, settings.openai_embedding_batch_size)
        self.dim = settings.openai_embedding_dim or len(self.client.embed(["dimension probe"], self.model)[0])

    def embed(self, texts: Sequence[str]) -> FloatMatrix:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        batches = [list(texts[i : i + self.batch_size]) for i in range(0, len(texts), self.batch_size)]
        results = map_concurrent(lambda batch: self.client.embed(batch, self.model), batches, self.settings)
        rows: list[list[float]] = []
        for batch, result in zip(batches, results, strict=True):
            if isinstance(result, BaseException):
                raise result
            if len(result) != len(batch):
                raise ProviderReplyError(f"embedder returned {len(result)} vectors for {len(batch)} texts", raw="")
            rows += result
        matrix = np.asarray(rows, dtype=np.float32)
        if matrix.shape[1] != self.dim:
            raise ProviderReplyError(
                f"embedding model {self.model!r} returned dimension {matrix.shape[1]}, expected {self.dim}; "
                "fix openai_embedding_dim or re-embed into a new store",
                raw="",
            )
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        normed: FloatMatrix = (matrix / np.where(norms == 0, 1.0, norms)).astype(np.float32)
        return normed
