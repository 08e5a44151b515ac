"""Plain facts about the user the personal-info rules did not read: an age, the languages spoken, a field of work,
a home said with "we" or "near".

"I'm 34", "I just turned 40", "I speak English, Spanish and a bit of German" and "I work in fintech" were
stored as conversation details: a personal-info filter missed them and a later age could not replace the
old one. An age and a field fill a slot (one value at a time); languages do not ("I also speak German"
adds one, it replaces none).
"""

from __future__ import annotations

import re

from tasks.providers.nickname import goes_by
from tasks.providers.places import PLACE
from tasks.providers.rule_fact import RuleFact
from tasks.third_person import third_person

TOPIC = "user_personal_info"
#: Where the user lives, said with "we" or "near": "We live in Leeds", "I live just outside Lyon" ("I live in X"
#: is the personal-info rule's).
_LIVES = re.compile(
    r"\b(?:I|[Ww]e)(?:'ve| have)?(?: \w+)? (?:live|lived|are living|'re living|am living|'m living|reside)"
    rf" (in|near|just outside|outside|close to|on the outskirts of) {PLACE}([^.!?;]*)"
)
#: "I'm 34", "I am now 61 and …": a bare number, then the clause ends (not "I'm 5 minutes away", not "explain it
#: like I'm 5", not "I'm 52 and 118kg", a weight beside it that a later weight must be able to replace).
_AGE = re.compile(
    r"(?<!like )(?<!as if )(?<!as though )(?<!pretend )\bI(?:'m| am)(?: now| just)? (\d{1,3})"
    r"(?=\s*(?:$|[.!;]|,(?!\s*\d)|and\b(?!\s*(?:\d|a half|a bit|half))|but\b|now\b|this year\b))",
    re.I,
)
#: "I (just) turned 40 (last week)": the age and when.
_TURNED = re.compile(r"\bI (?:just |recently |finally )?turned (\d{1,3})\b(?!\s*(?:%|degrees|minutes|hours))[^.!?;,]*")
_LANGUAGE = r"(?:(?:a little|a bit of|some|basic|fluent|conversational|decent|good) )?[A-Z][a-z]+"
#: "I speak English, Spanish and a bit of German", "I'm fluent in French and Italian".
_SPEAKS = re.compile(
    rf"\bI(?: also| can)?(?: speak|(?:'m| am) fluent in|(?:'m| am) learning to speak) {_LANGUAGE}"
    rf"(?:(?:,? and |, | & ){_LANGUAGE})*"
)
#: "I work in fintech / healthcare / marketing": a field, lower case, no article ("in an office", "in the
#: mornings") and not how the work is done ("in shifts", "in teams").
_FIELD = re.compile(
    r"\bI (?:\w+ )?(?:work|am working|'m working) in (?!(?:a|an|the|my|our|this|that|shifts|teams?|pairs|silence"
    r"|bursts|sprints|person|isolation|private|peace|between)\b)([a-z][\w-]+(?: [a-z][\w-]+)?)\b"
)
_FIELD_END = re.compile(r"\s+(?:for|at|with|as|since|now|mostly|and|but|on|in|from)$")


def about_me(s: str, who: str) -> RuleFact | None:
    """Where the user lives, an age, the languages spoken or a field of work said by the user, else None."""
    if m := _LIVES.search(s):
        place = m[2].rstrip(".")  # the clause's rest stays with it ("… with our two kids"), as "I live in" keeps it
        return RuleFact(TOPIC, third_person(f"I live {m[1]} {place}{m[3]}", who), 0.8, "location", place)
    if m := _AGE.search(s):
        return RuleFact(TOPIC, f"{who} is {m[1]} years old", 0.7, "age", m[1])  # what the number is, said
    if m := _TURNED.search(s):
        return RuleFact(TOPIC, third_person(m[0].strip(), who), 0.7, "age", m[1])
    if m := _SPEAKS.search(s):
        return RuleFact(TOPIC, third_person(m[0].strip(), who), 0.7)
    if m := _FIELD.search(s):
        field = _FIELD_END.sub("", m[1])
        return RuleFact(TOPIC, f"{who} works in {field}", 0.75, "field", field.lower())
    return None


def nickname(s: str, who: str) -> RuleFact | None:
    """The name the user goes by, beside their name ("My name's Robert but call me Bob")."""
    name = goes_by(s)
    return RuleFact(TOPIC, f"{who} goes by the name {name}", 0.9, "nickname", name) if name else None
