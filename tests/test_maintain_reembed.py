"""Re-embedding with a second, tiny deterministic embedder: recall works during it and after the switch."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np
import pytest

from tasks.errors import EmbedderMismatchError
from tasks.maintain.reembed import reembed
from tasks.providers.base import Embedder
from tasks.recall.recaller import Recaller
from tasks.settings import Settings
from tasks.store.tables import MEMORIES, RUNS, Store, open_store
from tests.maintain_fixtures import APP, NOW, episode, mem, seed


class HashEmbedder:
    """Bag of hashed words in 16 dimensions: texts sharing words are close (enough for a recall test)."""

    model = "test-hash-16"
    dim = 16

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in text.lower().replace(".", " ").split():
                out[i, hashlib.sha256(word.encode()).digest()[0] % self.dim] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return out / np.where(norms > 0, norms, 1.0)


def test_reembed_switches_in_one_commit_and_recall_keeps_working(settings: Settings, embedder: Embedder) -> None:
    facts = ["Likes green parrots.", "Works at a bakery in Oslo.", "Allergic to peanuts.", "Flies to Lima in May."]
    rows = [mem("u", f"k{i}", f, vector=embedder.embed([f])[0].tolist()) for i, f in enumerate(facts)]
    seed(settings, rows, [episode("u", "s1", NOW)])
    new = HashEmbedder()
    during: list[str] = []

    def recall_meanwhile(table: str, done: int, total: int) -> None:  # old vectors still serve recall
        if during:
            return
        with Recaller(settings) as recaller:
            during.append(recaller.recall("Which bird does the user like?", APP, "u", k=1)[0].content)

    report = reembed(settings, new, batch_rows=2, progress=recall_meanwhile)
    assert during and set(during) == {"Likes green parrots."}
    assert report.rows == {MEMORIES: 4, "episodes": 1} and report.model_after == "test-hash-16"
    switched = Store(settings.store_uri, new.model, new.dim)
    stored = {r["content"]: r["vector"] for r in switched.rows(MEMORIES)}
    assert sorted(stored) == sorted(facts)
    # the recall's access-count update landed while vectors were computed: re-read, not lost
    assert {r["content"]: r["access_count"] for r in switched.rows(MEMORIES)}["Likes green parrots."] == 1
    for text, vector in stored.items():
        np.testing.assert_allclose(vector, new.embed([text])[0], rtol=1e-6)
    with Recaller(settings, store=switched, embedder=new) as recaller:
        assert recaller.recall("green parrots", APP, "u", k=1)[0].content == "Likes green parrots."
    with pytest.raises(EmbedderMismatchError):  # the old model is refused, never silently mixed
        open_store(settings).table(MEMORIES)
    old_version = switched.table(MEMORIES).to_lance().checkout_version(report.versions_before[MEMORIES])
    assert old_version.schema.field("vector").type.list_size == 384  # the old vectors stay in history
    assert switched.rows(RUNS)[0]["flow"] == "maintain:reembed"
