"""What a session was about, in nouns: the heads of its noun phrases and the names it mentions.

The most frequent content words of a chat are its verbs and praise ("talked about photo, shares,
great"); an episode's opening sentence and its ``topics`` column should name things. Without a
tagger, a noun is what follows a determiner or a possessive ("the dance studio", "Jon's store": the
last word of that run), or a capitalised word inside a sentence ("Patagonia", "Google").
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from tasks.providers.wording import possessor, words
from tasks.textrules import STOPWORDS
from tasks.third_person import VERBS_AFTER_NOUN

_DETERMINERS = words("a an the my your his her our their this that these those some another every each its")
#: Words that end a noun phrase though not stop words ("the week before ...").
_BREAK = words("before after during since until around ago towards toward")
_OBJECTS = words("me us you him her them it")
#: Nouns that say when or how much, not what about.
_VAGUE_NOUNS = words(
    """time times way ways thing things lot lots bit day days week weeks month months year years today tonight
    weekend weekends people everyone one ones kind sort stuff while moment other others morning evening night
    january february march april may june july august september october november december monday tuesday
    wednesday thursday friday saturday sunday"""
)
#: Common adjectives that no suffix gives away.
_EVALUATIVE = words(
    """good great nice new old big little small best better amazing awesome cool favorite favourite whole
    same different huge tiny long short hard easy happy sad fun lovely pretty real true full free first last next
    important right wrong sure ready glad proud tough cute nasty busy"""
)
#: A label for shared media, as chat exports write captions ("[shares a photo: a photo of a lake]").
_MEDIA_LABEL = re.compile(
    r"\[(?:shares?|sent|sends) (?:a |an )?(?:photo|picture|image|video|link)s?:\s*"
    r"(?:(?:a |an )?(?:photo|photograph|photography|picture|image|screenshot|close-?up)s? of )?",
    re.I,
)
_TOKEN = re.compile(r"[A-Za-z][A-Za-z'-]*|[^\sA-Za-z]")


def _adjective(word: str) -> bool:
    """A modifier that describes rather than names ("a great time", "mental health"): not a topic."""
    return word in _EVALUATIVE or word.endswith(("ful", "ous", "al", "ive", "ic", "able", "ible", "est", "less"))


def _word(token: str) -> str:
    low = token.lower()
    return low[:-2] if low.endswith("'s") else low


def _starts_sentence(tokens: list[str], i: int) -> bool:
    return i == 0 or tokens[i - 1] in {".", "!", "?", ":", '"', "(", ")", "[", "-"}


def noun_words(text: str) -> list[str]:
    """Nouns of ``text`` (lower-cased): its noun phrases' heads and noun modifiers, and its capitalised words
    inside sentences."""
    tokens = _TOKEN.findall(_MEDIA_LABEL.sub("[", text))
    found: list[str] = []
    i = 0
    while i < len(tokens):
        token, low = tokens[i], tokens[i].lower()
        named = low not in STOPWORDS and low not in _BREAK and low not in _DETERMINERS
        if token[0].isupper() and token != "I" and named and not _starts_sentence(tokens, i):
            found.append(_word(token))
        if low in _DETERMINERS or possessor(low):  # "the dance studio", "Jon's store"; not "it's"
            run: list[str] = []
            j = i + 1
            while j < len(tokens) and len(run) < 3:
                word = tokens[j]
                low_word = word.lower()
                if not word[0].isalpha() or word[0].isupper() or low_word in STOPWORDS or low_word in _BREAK:
                    break
                after = tokens[j + 1].lower() if j + 1 < len(tokens) else ""
                # "a man sitting", "the picture reminds me", "the passport expires in": a verb ends the phrase.
                verb = low_word.endswith(("ing", "ed", "ly")) or low_word in VERBS_AFTER_NOUN
                verb = verb or (low_word.endswith("s") and after in STOPWORDS)
                if run and (verb or after in _OBJECTS or after in _DETERMINERS):
                    break
                run.append(_word(word))
                j += 1
            if run:
                found.extend(w for w in run[:-1] if not _adjective(w))
                if run[-1] not in _EVALUATIVE:
                    found.append(run[-1])
                i = j
                continue
        i += 1
    return [w for w in found if "'" not in w]


def topic_words(texts: Iterable[str], names: Iterable[str] = (), limit: int = 5) -> tuple[str, ...]:
    """The ``limit`` most frequent nouns of ``texts`` (4+ letters), people's ``names`` left out."""
    skip = {n.lower() for n in names} | {"user", "agent"}
    counts = Counter(
        w for text in texts for w in noun_words(text) if len(w) > 3 and w not in _VAGUE_NOUNS and w not in skip
    )
    return tuple(w for w, _ in counts.most_common(limit))
