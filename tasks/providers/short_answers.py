"""A short answer said in full: "What's your name?" "Sam." is "My name is Sam."

The rules read sentences that name what they say ("My name is …", "I live in …", "I'm 34"); a short answer
leaves that to the question, so it was kept as 'User mentioned: Sam.' with no slot, and a later name or
town could not replace it. Only a few questions are read, each with one full form, and only an answer that
is short and answers (not "Not sure yet", "Why do you ask?", "I'd rather not say").
"""

from __future__ import annotations

import re

from tasks.textrules import last_question

#: "What's your name?", "What is your partner's name?", "What are your hobbies?": the thing asked for.
_WHAT_YOUR = re.compile(r"^what(?:'s| is| are) your ([a-z][\w' -]{1,40}?)\s*\?$", re.I)
_WHERE_LIVE = re.compile(
    r"^where (?:are you (?:based|living|located)|do you (?:live|stay)(?: now| these days)?)\s*\?$", re.I
)
_WHERE_FROM = re.compile(r"^where are you (?:originally )?from\s*\?$", re.I)
_HOW_OLD = re.compile(r"^how old are you\s*\?$", re.I)
#: Words that place the answer already ("near Rotterdam", "just outside Lyon").
_PLACED = re.compile(r"^(?:in|near|outside|just outside|around|close to|by|on)\b", re.I)
#: An answer that answers nothing, or a sentence of its own (the rules read those as they are).
_NO_ANSWER = re.compile(
    r"\?\s*$|^(?:not sure|no idea|dunno|idk|I don't know|don't know|I'd rather not|rather not|none|nothing|pass|"
    r"skip|why|old enough|it depends|depends|n/a|no comment)\b"
    r"|^(?:I|I'm|I've|I'd|my|we|we're|our|it|it's|that|this|there|they|he|she)\b",
    re.I,
)
MAX_WORDS = 8


def said_in_full(asked: str, answer: str) -> str | None:
    """``answer`` as the sentence it stands for after the agent's turn ``asked`` (its last question is read:
    "Where are you from?" has no content word, so no memory quotes it), or None when it is not a short
    answer to one of the questions read here."""
    question, answer = last_question(asked) or "", answer.strip()
    if not answer or len(answer.split()) > MAX_WORDS or _NO_ANSWER.search(answer):
        return None
    # the answer's own capitals are kept: "Thai", "Sam" would lose theirs to a guess
    if m := _WHAT_YOUR.match(question):
        thing = m[1].strip()
        verb = "are" if question.lower().startswith("what are") else "is"
        return f"My {thing} {verb} {answer}"
    if _WHERE_LIVE.match(question):
        return f"I live {answer[:1].lower()}{answer[1:]}" if _PLACED.match(answer) else f"I live in {answer}"
    if _WHERE_FROM.match(question):
        return f"I'm from {answer}"
    if _HOW_OLD.match(question):
        return f"I'm {answer}"
    return None
