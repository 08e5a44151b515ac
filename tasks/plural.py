"""First person plural written about the speaker.

"we", "our" and "us" in a user's words are their household ("we adopted a puppy"), not the user and
the assistant: a memory written about the user says "they" and "their". Two readers: reported speech
("User mentioned that they adopted a puppy") rewrites them all; a sentence with the speaker's "I" as
its subject rewrites what follows the "I" ("I took our dog" → "Ann took their dog"), and a sentence
without one keeps its "we" ("We got a great turnout", "our community" said of people in general).
"""

from __future__ import annotations

import re

_WE = {"we": "they", "us": "them", "our": "their", "ours": "theirs", "ourselves": "themselves"}
_WE_WORD = re.compile(r"\b([Ww]e|us|[Oo]urs?|ourselves)\b")  # not "US", the country


def reported(text: str) -> str:
    """First person plural as reported speech says it: "User mentioned that we adopted a puppy" reads as
    the user and the assistant; "that they adopted a puppy" is the user's household."""
    return _WE_WORD.sub(lambda m: _WE[m.group(1).lower()], text)


#: Who the speaker pairs with in a shared subject ("My partner and I", "Sam and I"): one reader for the
#: clause splitter, which keeps the pair whole, and the rewrite, which names the speaker first. A verb ends
#: it: "My name is Ines and I work as a nurse" is two statements, not "User and User's name is Ines work …".
_NO_VERB = r"(?!(?:is|are|was|were|has|have|had)\b)"
PARTNER = rf"(?:[Mm]y|[Oo]ur) (?:{_NO_VERB}[\w-]+ ){{0,2}}{_NO_VERB}[\w-]+|[A-Z][a-z]+"

_ONE_SENTENCE = re.compile(r"[^.!?]+[.!?]*")
_I_SUBJECT = re.compile(r"\b(?:I|[Mm]y)\b")  # the speaker, as subject or owner
_OUR = re.compile(r"\b(?:we|our|ours|us|ourselves)\b")  # lower case: "US" is the country


def _household(sentence: re.Match[str]) -> str:
    """ "we" / "our" / "us" after the speaker's "I" or "my" in one sentence is their household ("I took our
    dog" → "Ann took their dog", "My wife is pregnant with our second" → "... their second"); a sentence with
    neither keeps its "we" and "our" (quoted speech, "our community")."""
    text = sentence[0]
    if (i := _I_SUBJECT.search(text)) is None:
        return text
    return text[: i.end()] + _OUR.sub(lambda m: _WE[m[0]], text[i.end() :])


def households(text: str) -> str:
    """``text`` with "we" / "our" / "us" after the speaker's "I" rewritten, sentence by sentence."""
    return _ONE_SENTENCE.sub(_household, text)
