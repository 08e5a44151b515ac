"""Chat's shorthand spelled out before a user's message is read.

Round 28's own cases: "IM SO DONE WITH MY LANDLORD HE RAISED THE RENT AGAIN TO 1800" was stored as "User is
SO DONE WITH MY LANDLORD ..." (the rules read "my", not "MY"); "her recital tmrw" kept "tmrw" where
"tomorrow" would have been dated; "im lactose intolerant lol every time i have milk" ran two sentences
together across the "lol". :func:`tasks.textrules.clean` already writes out "dont", "im" and a lower-case
"i", and drops filler at a sentence's ends; this reads the whole message first.
"""

from __future__ import annotations

import re

from tasks.wordnet import is_common, verb_base

#: Shorthand that is nothing else, and what it stands for.
_SHORTHAND = {
    "tmrw": "tomorrow", "tmr": "tomorrow", "tmrrw": "tomorrow", "2moro": "tomorrow", "2morrow": "tomorrow",
    "yday": "yesterday", "yest": "yesterday", "bday": "birthday", "b-day": "birthday", "nxt": "next",
    "wknd": "weekend", "cuz": "because", "coz": "because", "thx": "thanks", "stuf": "stuff",
    "forgit": "forget", "foget": "forget", "forgett": "forget", "frget": "forget", "forgt": "forget",
    "fogret": "forget", "forgte": "forget", "delet": "delete", "rmbr": "remember", "rmb": "remember",
    "remeber": "remember", "rember": "remember", "tht": "that", "dont": "don't", "pls": "please",
    "plz": "please", "wat": "what", "wut": "what",
}  # fmt: skip
_SHORT = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, _SHORTHAND)) + r")(?![\w-])", re.I)
#: Laughter inside a message: a pause in what is said ("... intolerant lol every time ..."), and its full stop
#: stays where it had one.
_LAUGH = re.compile(r"\s+(?:lo+l+|lmf?ao+|rofl|(?:ha){2,}h?|(?:he){2,}h?|😂|🤣)\b(?P<end>[.!?]*)\s+(?=\w)", re.I)


#: Words a request to forget is read by; a word one typo away from one of them that is no English word is it
#: ("forgrt", "delte", "thign", "adress"): the typos a user makes cannot be listed ahead of time.
_TYPED_FOR = ("forget", "delete", "remove", "erase", "remember", "thing", "stuff", "about", "address", "please")
_LETTERS = re.compile(r"(?<![\w'’-])[A-Za-z]{3,}(?![\w'’-])")
#: Three-letter words are retyped only when two neighbours were swapped ("cna you", "yuo"): any other typo of
#: so short a word is as likely another word.
_SHORT_TYPED_FOR = ("can", "you", "the", "and")
#: "del pls", "nvm abt my #": chat's shortest forms, read only where nothing else fits.
_DEL = re.compile(r"(?<![\w-])del(?=\s+(?:please|it|that|this|them|my|the)\b|\s*[.!]*$)", re.I)
_HASH = re.compile(r"(?<=\bmy )#(?!\w)", re.I)


def _english(word: str) -> bool:
    """A word WordNet knows in lower case, or a verb's past or gerund (True when WordNet is not installed)."""
    common = is_common(word)
    return common is None or common or verb_base(word) is not None


def _one_typo(a: str, b: str) -> bool:
    """One letter changed, added, dropped, or two neighbours swapped (Damerau distance 1)."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
                                  and a[diff[1]] == b[diff[0]])  # fmt: skip
    short, long = sorted((a, b), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def _retyped(m: re.Match[str]) -> str:
    word = m[0]
    low = word.lower()
    opening = not m.string[: m.start()].strip() or m.string[: m.start()].rstrip()[-1] in ".!?"
    if low in _TYPED_FOR or (word[0].isupper() and not opening) or _english(low):  # "Abot" inside: a name
        return word
    if len(low) == 3:
        meant = next((w for w in _SHORT_TYPED_FOR if sorted(w) == sorted(low) and _one_typo(low, w)), None)
    else:
        meant = next((w for w in _TYPED_FOR if _one_typo(low, w)), None)
    return word if meant is None else meant.capitalize() if word[0].isupper() else meant


def _shouted(text: str) -> bool:
    """Most of a message's letters in capitals (at least twelve of them): typed with caps lock or shouted."""
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 12 and sum(c.isupper() for c in letters) >= 0.8 * len(letters)


def spelled_out(text: str) -> str:
    """``text`` in lower case when shouted, its shorthand written out, a typo of a word requests are read by
    corrected, and laughter inside it a comma (or the stop typed after it)."""
    text = text.lower() if _shouted(text) else text
    text = _SHORT.sub(lambda m: _SHORTHAND[m[1].lower()], text)
    text = _HASH.sub("number", _DEL.sub("delete", _LETTERS.sub(_retyped, text)))
    return _LAUGH.sub(lambda m: f"{m['end'][:1] or ','} ", text)  # "budget lol. we're ..." keeps its full stop
