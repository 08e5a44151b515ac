"""Typo probe (round 35): does recall find the answer when one word of the question is mistyped?

The questions are the synthetic set's and LoCoMo-dev's answerable ones, each with one generated typo in
its longest lower-case English word (WordNet, four letters or more, no stop word): the word a question
turns on is usually its longest. A typo that makes another English word ("form" for "from") is drawn
again: a real-word error is not what respelling (:mod:`tasks.recall.spelling`) reads.

Typos come in two families of edits, each drawn from its own seed per question:

* A: a letter left out, or two neighbours swapped;
* B: a neighbouring key's letter added or typed instead, or a letter doubled.

DEV is the synthetic set with family A, read question by question while the rule was written
(``--show``); the other three pairs are HELD-OUT and only counted. Scored, on the default path (and with
``--reranked`` the cross-encoder too): evidence recall@10 of the clean question, of the mistyped one
with ``recall_respell`` off and on, and how many mistyped words were respelt back to the word typed
before the typo.
"""

from __future__ import annotations

import argparse
import random
import re
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from evaluation.dataset import EvalDataset, EvalQuestion
from evaluation.locomo import load_locomo
from evaluation.probe_modes import mode_store, shared_embedder
from evaluation.synthetic import generate
from tasks.ingest.run import ingest_sessions
from tasks.models import RecallHit
from tasks.providers.wording import STOP
from tasks.recall.recaller import Recaller
from tasks.recall.spelling import MIN_LETTERS, is_english
from tasks.settings import Settings

_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
_WORD = re.compile(r"\b[a-z]+\b")


def neighbours(letter: str) -> str:
    """The keys beside ``letter`` on a QWERTY keyboard's row (above and below aside)."""
    for row in _ROWS:
        if (i := row.find(letter)) >= 0:
            return row[max(i - 1, 0) : i] + row[i + 1 : i + 2]
    return ""


def _drop(w: str, rng: random.Random) -> str:
    i = rng.randrange(1, len(w))
    return w[:i] + w[i + 1 :]


def _swap(w: str, rng: random.Random) -> str:
    i = rng.randrange(1, len(w) - 1)
    return w[:i] + w[i + 1] + w[i] + w[i + 2 :]


def _add(w: str, rng: random.Random) -> str:
    i = rng.randrange(1, len(w))
    return w[:i] + rng.choice(neighbours(w[i]) or w[i]) + w[i:]


def _replace(w: str, rng: random.Random) -> str:
    i = rng.randrange(1, len(w))
    return w[:i] + rng.choice(neighbours(w[i]) or w[i]) + w[i + 1 :]


def _double(w: str, rng: random.Random) -> str:
    i = rng.randrange(1, len(w))
    return w[:i] + w[i] + w[i:]


#: Each family's edits and seed.
FAMILIES: dict[str, tuple[tuple[Callable[[str, random.Random], str], ...], int]] = {
    "A": ((_drop, _swap), 11),
    "B": ((_add, _replace, _double), 23),
}


def target(question: str) -> str | None:
    """The word to mistype: the question's longest lower-case English word, stop words aside."""
    words = [w for w in _WORD.findall(question) if len(w) >= MIN_LETTERS + 1 and w not in STOP and is_english(w)]
    return max(words, key=len) if words else None


def mistyped(question: EvalQuestion, family: str) -> tuple[str, str, str] | None:
    """(the question with one typo, the word, its typo), or None when no word or typo fits."""
    word = target(question.question)
    if word is None:
        return None
    edits, seed = FAMILIES[family]
    rng = random.Random(f"{seed}:{question.id}")
    for _ in range(20):
        typo = rng.choice(edits)(word, rng)
        if typo != word and not is_english(typo):
            return re.sub(rf"\b{word}\b", typo, question.question, count=1), word, typo
    return None


def run(show: bool = False, reranked: bool = False, locomo: Path | None = None) -> dict[str, dict[str, float]]:
    """Per split: questions, evidence recall of the clean / mistyped / respelt question, words respelt back."""
    sets: dict[str, EvalDataset] = {"synthetic": generate()}
    if locomo is not None:
        sets["LoCoMo-dev"] = load_locomo(locomo)
    rerankers = ("none", "cross-encoder") if reranked else ("none",)
    out: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, data in sets.items():
            base = Settings().model_copy(update={"store_uri": f"{tmp}/{name}", "forgotten_retention_days": 36500.0})
            ingest_sessions(list(data.sessions), base)
            asked = [q for q in data.questions if q.answerable and q.gold_event_ids]
            embedder = shared_embedder(base)  # off and on embed the same mistyped questions
            for reranker in rerankers:
                # Each reranker's pass reads its own copy: the recalls count accesses, flushed as it ends.
                mode = base.model_copy(update={"store_uri": mode_store(base.store_uri, reranker)})
                clean: dict[tuple[str, str, str], float] = {}  # the clean question is every family's
                with (
                    Recaller(mode.model_copy(update={"recall_reranker": reranker, "recall_respell": False}),
                             embedder=embedder) as off,
                    Recaller(mode.model_copy(update={"recall_reranker": reranker}), embedder=embedder) as on,
                ):  # fmt: skip
                    for family in FAMILIES:
                        split = "DEV" if (name, family) == ("synthetic", "A") else "HELD-OUT"
                        row = out.setdefault(f"{split} {name} {family} ({reranker})", dict.fromkeys(_COLUMNS, 0.0))
                        _score(row, asked, family, off, on, clean, show and split == "DEV")
    return out


_COLUMNS = ("questions", "clean", "typo", "respelt", "respelt back")


def _score(
    row: dict[str, float],
    asked: Sequence[EvalQuestion],
    family: str,
    off: Recaller,
    on: Recaller,
    clean: dict[tuple[str, str, str], float],
    show: bool,
) -> None:
    """Add ``family``'s figures to ``row``; ``clean`` holds the clean questions' evidence recall already
    measured by ``off`` (a recall changes nothing its Recaller reads until it closes: the same hits)."""
    for q in asked:
        typo = mistyped(q, family)
        if typo is None:
            continue
        text, word, typed = typo
        result = on.recall_result(text, q.app_name, q.user_id, k=10)
        fixed = _found(q, result.hits)
        back = result.searched_as is not None and re.search(rf"\b{word}\b", result.searched_as, re.I) is not None
        row["questions"] += 1
        key = (q.app_name, q.user_id, q.question)
        if key not in clean:
            clean[key] = _found(q, off.recall(q.question, q.app_name, q.user_id, k=10))
        row["clean"] += clean[key]
        row["typo"] += _found(q, off.recall(text, q.app_name, q.user_id, k=10))
        row["respelt"] += fixed
        row["respelt back"] += back
        if show:
            print(f"  {typed:>14} ({word}) -> {result.searched_as or '-'}: {fixed:.2f} [{q.question}]")


def _found(question: EvalQuestion, hits: Sequence[RecallHit]) -> float:
    """The share of the question's evidence turns the hits cite."""
    gold = set(question.gold_event_ids)
    return len(gold & {e for h in hits for e in h.source_event_ids}) / len(gold)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--show", action="store_true", help="print DEV question by question")
    parser.add_argument("--reranked", action="store_true", help="also with the cross-encoder (slow)")
    parser.add_argument("--locomo", type=Path, default=Path("../shared/datasets/locomo-dev"))
    args = parser.parse_args(argv)
    results = run(args.show, args.reranked, args.locomo if args.locomo.is_dir() else None)
    print(f"{'split':40} {'questions':>9} {'clean':>7} {'typo':>7} {'respelt':>8} {'back':>6}")
    for split, row in results.items():
        n = row["questions"] or 1
        print(f"{split:40} {row['questions']:>9.0f} {row['clean'] / n:>7.3f} {row['typo'] / n:>7.3f} "
              f"{row['respelt'] / n:>8.3f} {row['respelt back']:>6.0f}")  # fmt: skip


if __name__ == "__main__":
    main()
