"""A reply that picks one of the options the agent just listed: "1) MacBook Air, 2) ThinkPad X1" → "the
second one"; "You could hire a dog walker, try doggy daycare, or add puzzle feeders" → "daycare".

Session probe 15: the agent offers options as a statement, not a question, so the choice rule of
:mod:`tasks.providers.choices` ("oak or walnut?") never saw them, and "the second one" or "daycare." was
kept as something the user mentioned, with nothing of what was chosen. Here the reply's first words pick an
option by its place ("the second one", "option 3", "#2", "the last one") or by a word only that option has;
the decision names the option as the agent said it: "User chose ThinkPad X1 Carbon", "User chose to try
doggy daycare a few days a week".
"""

from __future__ import annotations

import re

from tasks.providers.wording import content_words
from tasks.textrules import FIRST_PERSON, sentences

#: A numbered option: "1) MacBook Air M3", "2. ThinkPad X1 Carbon" (up to the next number or the end).
_NUMBERED = re.compile(r"(?:^|(?<=[\s:(]))(\d)[.)]\s+(.+?)(?=,?\s+(?:and |or )?\d[.)]\s|[.;\n]\s|[;\n]|\.?$)")
#: What introduces options said as verbs ("You could hire ..., try ..., or add ...").
_VERBS = re.compile(r"^(?:you could|you can|you might|maybe|either|I'd suggest|I suggest|you may want to)\s+", re.I)
#: What introduces options said as things ("Good picks: A, B or C", "Options are A, B, or C").
_LEAD = re.compile(r"^(?:[\w' ]{0,30}(?:options?|picks?|choices?)(?: are| would be)?:?\s+)", re.I)
_PLACES = {"first": 0, "1st": 0, "one": 0, "second": 1, "2nd": 1, "two": 1, "third": 2, "3rd": 2, "three": 2,
           "fourth": 3, "4th": 3, "four": 3, "last": -1}  # fmt: skip
_ORDINALS = "|".join(w for w in _PLACES if w not in {"one", "two", "three", "four"})
#: A pick by place, said alone or with a word of assent: "the second one", "option 2", "#3", "the last one
#: please"; not "the one with buttons" nor "last week was rough".
_BY_PLACE = re.compile(
    rf"^(?:the |ok |okay |let'?s do |let'?s go with |go with )?(?:(?P<word>{_ORDINALS})(?: one| option)?"
    r"|(?:option|number|no\.?|#)\s*(?P<num>\d|one|two|three|four))"
    r"\s*(?:please|pls|thanks|sounds good|works|looks good|for sure|then)?\s*$",
    re.I,
)


def options(said: str) -> tuple[list[str], bool]:
    """The options an agent's turn lists, and whether they are said as verbs; none when it lists none."""
    numbered = [m[2].strip(" ,") for m in _NUMBERED.finditer(said)]
    if len(numbered) >= 2:
        return numbered, False
    for sentence in sentences(said):
        if sentence.rstrip().endswith("?") or not re.search(r",? or ", sentence):
            continue
        verbs, lead = _VERBS.match(sentence), _LEAD.match(sentence)
        body = _LEAD.sub("", sentence[verbs.end() :] if verbs else sentence).rstrip(" .!")
        parts = [p.strip() for p in re.split(r",\s*(?:or\s+)?|\s+or\s+", body) if p.strip()]
        if verbs and len(parts) >= 2 and re.match(r"(?:a|an|the|some|one)\b", parts[1], re.I):
            parts = [parts[0], *(f"{parts[0].split()[0]} {p}" for p in parts[1:])]  # "get a U-lock, a chain"
        introduced = verbs is not None or lead is not None or len(parts) >= 3  # not "I can book it for 6 or 7pm"
        if introduced and len(parts) >= 2 and all(len(p.split()) <= 8 for p in parts):
            return parts, verbs is not None
    return [], False


def picked(offer: str, reply: str) -> tuple[str, str] | None:
    """(the decision's wording, the rest of the reply) when the reply's first words pick one option of
    ``offer``; None otherwise."""
    listed, as_verbs = options(offer)
    first = re.match(r"\s*([^.,;!?]*)[.,;!?]*\s*", reply)
    if not listed or first is None or len(first[1].split()) > 5 or FIRST_PERSON.search(first[1]):
        return None
    if (place := _BY_PLACE.match(first[1].strip())) is not None:
        key = (place["word"] or place["num"]).lower()
        index = _PLACES.get(key, int(key) - 1 if key.isdigit() else -2)
        choice = listed[index] if -len(listed) <= index < len(listed) else None
    else:
        named = set(content_words(first[1]))
        having = [o for o in listed if named & set(content_words(o))]
        choice = having[0] if len(having) == 1 else None
    if choice is None:
        return None
    return f"chose {'to ' if as_verbs else ''}{choice}", reply[first.end() :].strip()
