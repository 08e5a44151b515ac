"""A user's statement and the question typed after it in one breath, told apart.

Chat runs a fact into its question without a full stop: "tore my ACL in feb, when can i run again",
"flying to Denver on the 14th ✈️ what should i pack", "my partner is allergic to nuts — is pesto ok?".
Read as one sentence, the question became a memory ("When can User runs again") or, ending in "?",
took the fact down with it. Here a sentence is cut where a question or a request to the agent starts
after a comma, a dash or an emoji; the pieces then go through the user's path as sentences of their
own, where questions and requests are dropped (:data:`tasks.textrules.REQUEST`).

A sentence that asks the agent to play a part ("pretend I'm a 60-year-old retiree ...") is not about
the user at all: :func:`is_pretend`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from tasks.textrules import UNMARKED_QUESTION

#: What opens a question or a request to the agent inside a sentence. Not "who" / "which" (they open
#: relative clauses: "Ana, who is my neighbour"), nor "what's more".
_ASKS = (
    rf"(?:(?!who\b|which\b|what['’]?s more\b){UNMARKED_QUESTION}"
    r"|(?:can|could|would) you\b|any (?:tips|ideas|advice|suggestions|recommendations)\b"
    r"|(?:please |pls |plz )?help me\b|thoughts\b)"
)
#: A comma, a spaced dash or a run of emoji/symbols, then the question: where the sentence is cut.
_CUT = re.compile(rf"\s*(?:[,;]|\s[—–-]|[^\w\s.!?,;:'\"()\[\]{{}}—–-]+)\s+(?={_ASKS})", re.I)
#: A spaced dash before a question marked as one: "allergic to nuts — is pesto ok?".
_DASH_QUESTION = re.compile(r"\s+[—–-]\s+(?=[^—–?]+\?+\s*$)")
#: Asking the agent to play a part: what follows is not the user.
_PRETEND = re.compile(
    r"^(?:(?:ok|okay|so|now),?\s+)?(?:let['’]?s )?(?:pretend|imagine|suppose|assume|say|act as if)"
    r"(?: (?:that|for a (?:sec|second|minute)))?,? (?:I|my|we)\b",  # "I'm", "we're" too
    re.I,
)


def asked_apart(sentences: Iterable[str]) -> list[str]:
    """Each sentence, cut before a question or a request that follows a statement inside it."""
    out: list[str] = []
    for sentence in sentences:
        for part in _DASH_QUESTION.split(sentence, maxsplit=1):
            out += [p for p in _CUT.split(part) if p.strip()]
    return out


def is_pretend(sentence: str) -> bool:
    """The sentence asks the agent to imagine the user otherwise ("pretend I'm a retiree ...")."""
    return _PRETEND.match(sentence) is not None
