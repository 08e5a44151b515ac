"""A request said softly, read as the plain request it is.

Users ask an assistant politely: "I'd appreciate it if you kept replies under 3 sentences", "It would
help if you always included the total price", "Would you mind keeping answers short?", "I'd rather you
didn't mention my ex". Before round 37 these left no instruction, or one that quoted the politeness
("User would appreciate it if you kept …"). :func:`softened` rewrites such a sentence as "Please <verb in its
base form> …", and the instruction rules judge it as they judge any "Please …": a standing request becomes
an instruction, a one-off task ("It would be great if you could book the table") leaves nothing. The verb
is put back in its base form with WordNet's verbs (:func:`tasks.wordnet.verb_base`); a sentence whose verb
it cannot read is left as said. "Can you / would you stop …?" is read by the "stop" rule itself.
"""

from __future__ import annotations

import re

from tasks.wordnet import verb_base

_NICE = r"(?:great|nice|helpful|lovely|awesome|ideal|better|good|amazing|perfect|wonderful|handy|useful|easier)"
_DEGREE = r"(?:(?:really|so|very|super|much|a lot|incredibly) )?"
#: "It would help if you …", "It'd be great if you could …", "That would be really helpful if you …".
_IT_WOULD = (
    rf"(?:it|that)(?:'d| would) {_DEGREE}(?:help|be {_DEGREE}{_NICE}|make me (?:feel )?{_DEGREE}(?:more )?"
    r"(?:comfortable|happier|better))"
)
#: What may open a soft request and say nothing of it: "If it's okay, I'd prefer you …".
_OPENING = r"^(?:(?:if (?:it's|that's|it is) (?:ok|okay|alright|fine)|if you don't mind|honestly|actually),?\s+)?"
_POLITE = rf"(?:I(?:'d| would) {_DEGREE}(?:appreciate|love|like|prefer) it|{_IT_WOULD})"
_IF_YOU = re.compile(
    rf"{_OPENING}{_POLITE} if you (?:could |would |'d )?"
    r"(?P<rest>.+?)[.!]*$",
    re.I,
)
_RATHER = re.compile(rf"{_OPENING}I(?:'d| would) (?:much )?(?:rather|prefer) you (?P<rest>.+?)[.!]*$", re.I)
_MIND = re.compile(r"^(?:would|do) you mind (?P<rest>.+?)[?.!]*$", re.I)
#: "Is it possible for you to not keep …?": a plea, as "Would you mind …?" is.
_POSSIBLE = re.compile(r"^(?:is it|would it be) possible (?:for you )?to (?P<rest>.+?)[?.!]*$", re.I)
_IF_YOU_COULD = re.compile(
    rf"^if you (?:could|would) (?P<rest>.+?),? (?:that|it)(?:'d| would) be {_DEGREE}{_NICE}[.!]*$", re.I
)
#: Words that may come before the verb and stay ("always included" → "always include").
_BEFORE_VERB = frozenset({"always", "never", "just", "only", "also", "still", "kindly", "maybe", "please"})
_NOT = re.compile(r"^(?:didn't|didnt|did not|not)$", re.I)


def softened(sentence: str) -> str:
    """``sentence`` as "Please …" when it asks softly (see the module); other sentences unchanged."""
    for pattern in (_IF_YOU, _RATHER, _MIND, _POSSIBLE, _IF_YOU_COULD):
        if (asked := pattern.match(sentence.strip())) is not None:
            plain = _plain(asked["rest"])
            return sentence if plain is None else f"Please {plain}."
    return sentence


def _plain(rest: str) -> str | None:
    """``rest`` with its first verb in the base form ("kept replies short" → "keep replies short", "didn't
    use emojis" → "don't use emojis", "not using jargon" → "don't use jargon"); None when no verb is read."""
    words = rest.replace("did not ", "didn't ").split()
    start = 0
    while start < len(words) and words[start].lower() in _BEFORE_VERB:
        start += 1
    if start >= len(words):
        return None
    if _NOT.match(words[start]):
        if start + 1 >= len(words) or (base := verb_base(words[start + 1])) is None:
            return None
        return " ".join([*words[:start], "don't", base, *words[start + 2 :]])
    if (base := verb_base(words[start])) is None:
        return None
    return " ".join([*words[:start], base, *words[start + 1 :]])
