"""A dislike is a preference: "I don't like spicy food", "I can't stand country music", "I'm not a fan of X".

:func:`tasks.providers.extraction_rules.preference` files a dislike only when the lexicon names its category
(coffee, a cuisine), so that the slot can replace an old like; any other dislike fell to the conversation
details, where a preference filter, its TTL and its importance never saw it. This rule reads the rest,
without a slot. A dislike of what is at hand ("I don't like that idea", "… this one") is a reaction, not a
preference, and "I don't like to brag" is a figure of speech.
"""

from __future__ import annotations

import re

from tasks.providers.rule_fact import RuleFact
from tasks.third_person import third_person

TOPIC = "user_preferences"
#: How it is said: "I (really) don't like / can't stand …", "I'm not (really) (a big fan of / into / keen on) …".
_SAID = re.compile(
    r"\bI(?: really| just| honestly| truly)? (?:don't|do not|can't|cannot)(?: really)? (?:like|enjoy|stand|bear)"
    r"|\bI(?:'m| am) not(?: really| very| that| exactly| much)* (?:a (?:big |huge |great |massive )?fan of"
    r"|into|keen on|big on|crazy about|fond of)",
    re.I,
)
#: What is at hand, not a kind of thing: "that idea", "this one", "it", "them"; a verb after "to" ("to brag").
_AT_HAND = re.compile(r"^(?:that|this|these|those|it|them|him|her|you|to|when|how|what|the way|the idea)\b", re.I)
_OBJECT = re.compile(r"\s*([^.!?;,]{2,80})")
#: Filler after the thing; "anymore" and "either" say more (a change, a second dislike) and stay.
_TAIL = re.compile(r"\s+(?:at all|tbh|honestly|to be honest)$", re.I)


def dislike(s: str, who: str) -> RuleFact | None:
    """The user's dislike of a kind of thing, without a slot; None for anything else."""
    m = _SAID.search(s)
    if m is None or (obj := _OBJECT.match(s, m.end())) is None:
        return None
    what = _TAIL.sub("", obj[1].strip())
    if not what or _AT_HAND.match(what):
        return None
    return RuleFact(TOPIC, third_person(f"{s[m.start() : obj.start(1)]}{what}", who), 0.7)  # as said
