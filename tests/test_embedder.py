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
