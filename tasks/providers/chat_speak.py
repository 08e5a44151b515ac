"""Chat's shorthand spelled out before a user's message is read.

Round 28's own cases: "IM SO DONE WITH MY LANDLORD HE RAISED THE RENT AGAIN TO 1800" was stored as "User is
SO DONE WITH MY LANDLORD ..." (the rules read "my", not "MY"); "her recital tmrw" kept "tmrw" where
"tomorrow" would have been dated; "im lactose intolerant lol every time i have milk" ran two sentences
together across the "lol". :func:`tasks.textrules.clean` already writes out "dont", "im" and a lower-case
"i", and drops filler at a sentence's ends; this reads the whole message first.
"""

from __future__ import annotations

import re

#: Shorthand that is nothing else, and what it stands for.
_SHORTHAND = {
    "tmrw": "tomorrow", "tmr": "tomorrow", "tmrrw": "tomorrow", "2moro": "tomorrow", "2morrow": "tomorrow",
    "yday": "yesterday", "yest": "yesterday", "bday": "birthday", "b-day": "birthday", "nxt": "next",
    "wknd": "weekend", "cuz": "because", "coz": "because", "thx": "thanks", "stuf": "stuff",
    "forgit": "forget", "foget": "forget", "forgett": "forget", "frget": "forget", "forgt": "forget",
    "fogret": "forget", "forgte": "forget", "delet": "delete", "rmbr": "remember", "rmb": "remember",
    "remeber": "remember", "rember": "remember", "tht": "that", "dont": "don't", "pls": "please", "plz": "please",
}  # fmt: skip
_SHORT = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, _SHORTHAND)) + r")(?![\w-])", re.I)
#: Laughter inside a message: a pause in what is said ("... intolerant lol every time ..."), and its full stop
#: stays where it had one.
_LAUGH = re.compile(r"\s+(?:lo+l+|lmf?ao+|rofl|(?:ha){2,}h?|(?:he){2,}h?|😂|🤣)\b(?P<end>[.!?]*)\s+(?=\w)", re.I)


def _shouted(text: str) -> bool:
    """Most of a message's letters in capitals (at least twelve of them): typed with caps lock or shouted."""
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 12 and sum(c.isupper() for c in letters) >= 0.8 * len(letters)


def spelled_out(text: str) -> str:
    """``text`` in lower case when shouted, its shorthand written out, and laughter inside it a comma (or
    the stop typed after it)."""
    text = text.lower() if _shouted(text) else text
    text = _SHORT.sub(lambda m: _SHORTHAND[m[1].lower()], text)
    return _LAUGH.sub(lambda m: f"{m['end'][:1] or ','} ", text)  # "budget lol. we're ..." keeps its full stop
