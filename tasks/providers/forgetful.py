"""Someone forgetting, said as a fact, is not a request to forget.

"I often forget to take my vitamins", "My grandmother is starting to forget things", "It's easy to get
lost and forget that": the verb of removal has a subject of its own (or is what something is easy or
hard to do), so nobody is asked anything. Read as requests, such sentences left no memory, and the
guard accepted some ("Sometimes I forget that I live by the sea" deleted where the user lives).

A request is addressed: the verb stands first in its clause ("forget my address", "please, just delete
it"), or after a frame that asks ("can you", "I want you to", "I'd like to"). Only the words before the
verb in its clause are read, so what follows ("forget that I live in Berlin") never changes the verdict.
"""

from __future__ import annotations

import re

#: Adverbs and auxiliaries between a subject and its verb ("I always", "she would", "we tend to").
_BETWEEN = (
    r"(?:(?:always|often|sometimes|usually|constantly|easily|still|even|also|totally|completely|kinda|really|"
    r"probably|definitely|occasionally|regularly|frequently|normally|typically|never|ever|honestly|"
    r"would|will|'ll|'d|might|may|could|can|did|do|does|am|is|are|was|were|'m|'s|'re|seem to|seems to|"
    r"tend to|tends to|tended to|start(?:s|ed|ing)? to|begin(?:s|ning)? to|began to|keep|keeps|kept|"
    r"used to|got to|get to|gets to)\s+)"
)
#: Other people, as a pronoun or at large.
_THIRD = r"(?:they|he|she|people|everyone|everybody|someone|somebody|nobody|folks|kids)"
#: Someone named by a determiner's or a person's possessive ("my grandmother", "Ana's brother").
_NOUN = r"\s+[\w'-]+(?:\s+(?!(?:and|or|but|so|then)\b)[\w'-]+)?"
_OWNED = rf"(?:my|his|her|our|their|your){_NOUN}|[A-Z][\w'-]*['’]s\s+[\w'-]+"
#: Who can forget: a pronoun, people at large, or someone named by a possessive.
_SUBJECT = rf"\b(?:I|we|you|it|most of us|{_THIRD}|{_OWNED})"
#: The listener asked to do it: "can you", "I want you to", "I'd rather you", "you should", "let's".
_ASKING = re.compile(
    r"\b(?:can|could|would|will|won'?t|do|did|please|pls|rather|prefer(?: it if)?|want|need|like|ask|asking|beg)"
    r"\s+(?:you|u)\b|\b(?:you|u)\s+(?:to|can|could|should|must|may|might|need to|have to|will|'ll)\b|\blet'?s\b",
    re.I,
)
#: What something is easy or hard to do ("it's easy to forget", "hard not to delete").
_TO_DO = r"\b(?:easy|easier|hard|harder|difficult|tough|impossible|simple|likely|apt|prone)\s+(?:not\s+)?to\s+"
#: Someone other than the speaker, who cannot be asking the assistant anything: a pronoun, a possessive or
#: article phrase ("my sister", "the landlord"), or a capitalised name ("Tom", "Kevin and Laura") whose next
#: word is a finite verb ("likes", "decided", "is"): a request's opener ("Please try to", "Kindly remember
#: to") is followed by a plain verb instead.
_NAME = r"(?-i:[A-Z][a-z][\w'-]*(?:\s+(?:and|&)\s+[A-Z][a-z][\w'-]*)?)"
_FINITE = (
    r"(?:[\w'-]+(?:s|ed)|is|was|has|had|got|chose|began|made|went|came|did|does|would|will|could|can|should|"
    r"might|may|must|swore|felt|found|meant|forgot|taught|thought|kept|never|always|often|really|just|still)"
)
_SOMEONE_ELSE = (
    rf"(?:\b(?:{_THIRD}(?:['’](?:s|re|d|ll|ve))?|{_OWNED}|(?:the|a|an){_NOUN})\s+(?:[\w'-]+\s+){{1,3}}?"
    rf"|\b{_NAME}\s+{_FINITE}\s+(?:[\w'-]+\s+){{0,2}}?)"
)
_STATEMENT = re.compile(
    rf"(?:{_SUBJECT}\s+{_BETWEEN}*|{_TO_DO}{_BETWEEN}*)$"
    # someone else wants, tries or decides to do it ("Tom likes to remove", "my sister is trying to forget")
    rf"|{_SOMEONE_ELSE}to\s+$"
    # the second of two short verb phrases joined by "and" ("easy to get lost and forget", "I get lost and
    # forget"); not after a noun subject, where "my number earlier and forget it" would be read as one
    rf"|(?:\b(?:I|we|they|he|she)\s+{_BETWEEN}*|{_TO_DO}{_BETWEEN}*)[\w'-]+(?:\s+[\w'-]+){{0,2}}\s+and\s+$",
    re.I,
)
_CLAUSE_START = re.compile(r".*(?:[,;:!?.]|\s[-–—]\s)\s*", re.S)


def someone_forgets(sentence: str, verb_at: int) -> bool:
    """True when the verb of removal at ``verb_at`` states what someone does ("I always forget my keys"),
    judged by the words before it in its clause."""
    before = _CLAUSE_START.sub("", sentence[:verb_at]).rstrip()
    if re.search(r"\b(?:please|pls|plz)(?:\s+just)?$", before, re.I):
        return False  # "… and please forget it" asks, whatever came before
    before = re.sub(r"\bjust$", "", before, flags=re.I).rstrip()
    return bool(before) and not _ASKING.search(before) and _STATEMENT.search(before + " ") is not None
