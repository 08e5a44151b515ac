"""The fused MiniLM graph is the shipped model: same vectors, padding included."""

from __future__ import annotations

import numpy as np

from tasks.providers.onnx_embedder import OnnxMiniLMEmbedder

TEXTS = [
    "What pet does the user have?",
    "hi",
    "User loves African Grey parrots and lives in Lisbon with a sister called Maria.",
    "Remember that my locker code is QV-9913; forget the old one. " * 12,  # long: padding in the batch
]


def test_fused_graph_matches_the_exported_model() -> None:
    fused, exported = OnnxMiniLMEmbedder(fused=True), OnnxMiniLMEmbedder(fused=False)
    a, b = fused.embed(TEXTS), exported.embed(TEXTS)
    assert a.shape == b.shape == (len(TEXTS), 384)
    assert np.allclose(np.linalg.norm(a, axis=1), 1.0, atol=1e-5)
    assert float((a * b).sum(axis=1).min()) > 0.99999
    # One at a time (no padding) gives the same vectors as in a padded batch.
    singles = np.vstack([fused.embed([t]) for t in TEXTS])
    assert float((a * singles).sum(axis=1).min()) > 0.99999
    # And different texts still get different vectors.
    assert float(a[0] @ a[2]) < 0.9


def test_length_grouped_batches_give_the_vectors_of_unsorted_batches() -> None:
    """Batches grouped by token count (small padding) match mixed-length batches in input order."""
    embedder = OnnxMiniLMEmbedder(batch_size=3)
    texts = [t[: 7 * (i + 1)] for i, t in enumerate(TEXTS * 4)] + TEXTS  # many lengths, interleaved
    grouped = embedder.embed(texts)
    ids = [embedder._tokenizer.encode(t).ids for t in texts]
    unsorted = np.vstack([embedder._embed_batch(ids[i : i + 3]) for i in range(0, len(ids), 3)])
    assert grouped.shape == unsorted.shape == (len(texts), 384)
    assert float((grouped * unsorted).sum(axis=1).min()) > 0.9999


def test_identical_texts_are_embedded_once_and_keep_their_places() -> None:
    embedder = OnnxMiniLMEmbedder()
    calls: list[int] = []
    run = embedder._embed_batch

    def counting(token_ids: list[list[int]], *session: object) -> np.ndarray:
        calls.append(len(token_ids))
        return run(token_ids, *session)

    embedder._embed_batch = counting  # type: ignore[method-assign]
    texts = [TEXTS[2], TEXTS[0], TEXTS[2], TEXTS[1], TEXTS[0]]
    vectors = embedder.embed(texts)
    assert sum(calls) == 3, "three distinct texts, three rows embedded"
    assert np.array_equal(vectors[0], vectors[2]) and np.array_equal(vectors[1], vectors[4])
    assert np.allclose(vectors[[1, 3, 0]], embedder.embed(TEXTS[:3]), atol=1e-6)
