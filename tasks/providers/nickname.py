"""The name a speaker asks to be called ("Call me Sam", "I go by Alex", "Everyone calls me Bea").

One reading for both places that need it: the sentence rewrite (``implicit_subject.as_said``: "Please
call me Jo" is said as "I go by the name Jo", not kept as "Call User Jo") and the extraction rule that
keeps the name beside the user's own ("My name's Robert but call me Bob": slot ``nickname``).
"""

from __future__ import annotations

import re

#: A day or a time after "call me" is when to call, not a name ("Call me Monday", "Call me Tonight").
_NOT_A_NAME = (
    r"(?!(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day\b|Tomorrow\b|Tonight\b|Today\b|Later\b|When\b|If\b|After\b|"
    r"Before\b|ASAP\b)"
)
#: "Please call me Jo", "Everyone calls me Bea" at a sentence's start (its name capitalised).
CALL_ME = re.compile(
    r"(?i:(?:please|pls|plz|just|you can|u can|feel free to|everyone|everybody|most people|people|(?:all )?my friends|"
    rf"friends|they all)\s+)*(?i:call(?:s)? me)\s+(?=[A-Z]){_NOT_A_NAME}"
)
_GOES_BY = re.compile(
    r"\b(?:[Cc]all(?:s|ing)? me|I (?:usually |mostly |prefer to |'d rather |would rather )?go by(?: the name)?|"
    rf"I(?:'m| am) (?:usually )?known as|(?:know|knows) me as)\s+{_NOT_A_NAME}([A-Z][\w'-]+)"
)


def goes_by(sentence: str) -> str | None:
    """The name the speaker asks to be called, if the sentence gives one ("Don't call me Sammy" does not)."""
    m = _GOES_BY.search(sentence)
    if m is None or re.search(r"(?:n't|\bnot|\bnever|\bstop)\s+(?:\w+\s+)?$", sentence[: m.start()], re.I):
        return None
    return m[1]
