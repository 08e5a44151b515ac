"""The forget requests of a user's message, read across its sentences.

:func:`~tasks.providers.forget_request.forget_target` reads one sentence with a verb of removal and
its object. Users also ask softly ("I'd rather you didn't keep the legal thing on file", "can you
not remember any of that?", "pls don't hold onto anything about my old money mess"), name the thing
first and point back at it ("the gambling thing, can u just forget it?", "I shouldn't have told you
about my friend's situation. can you remove it?"), and ask two things at once ("forget my mom's
diagnosis and also anything about my commute"). A pointing request counts only when what it points
at is something the user told ("that thing about", "what I said about", "the X stuff"): "there's a
typo in my essay, can you remove it?" asks nothing of memory. The sentence pointed at is part of
the request, not a fact to store.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tasks.providers.forget_request import forget_target

_KEEP = (
    r"(?:keep(?:ing)?|sav(?:e|ing)|stor(?:e|ing)|remember(?:ing)?|hold(?:ing)?\s?on\s?to|record(?:ing)?|track(?:ing)?)"
)
_WHAT = r"(?P<what>[^.!?]{2,160})"
#: Asking softly: the assistant (addressed, or the one who keeps) not keeping something.
_SOFT = tuple(
    re.compile(p, re.I)
    for p in (
        rf"\b(?:can|could|would|will)\s(?:you|u)\s(?:please\s|pls\s|just\s)?not\s{_KEEP}\s{_WHAT}",
        rf"\bI(?:'d|\swould)?\s(?:rather|prefer)\s(?:it\sif\s)?(?:you|u)\s(?:didn'?t|did\snot|don'?t|do\snot|not|"
        rf"wouldn'?t|would\snot)\s(?:{_KEEP}|have)\s{_WHAT}",
        rf"\bI\s(?:don'?t|do\snot)\s(?:want|need)\s(?:you|u)\s(?:to\s)?{_KEEP}\s{_WHAT}",
        rf"\b(?:please\s|pls\s|plz\s|just\s)?(?:don'?t|do\snot)\s(?:hold|hang)\s?on\s?to\s{_WHAT}",
        rf"\b(?:you|u|please|pls)\s(?:\w+\s)?let\sgo\sof\s{_WHAT}",
        r"\b(?:scratch|scrap|ditch|nix)\s(?P<what>what\s(?:you|u)\s(?:know|have|remember)\sabout\s[^.!?]{2,160}|"
        r"(?:the|my|that|this)\s(?:[\w'-]+\s){0,3}?(?:stuff|things?|info|bits?|details?)\b[^.!?]{0,160})",
        r"\b(?:don'?t|do\snot)\s(?:need|want)\s(?P<what>[\w'-]+(?:\s[\w'-]+){0,3}?)\s(?:remembered|stored|saved|kept)\b",
        r"\b(?:get\srid\sof|take|forget|delete|erase|remove|wipe)\s(?P<what>it|that|this|those|them|that\sinfo)"
        r"(?:\sout)?\b",
        r"\b(?:wipe|scrub|purge|clear)\s(?P<what>(?:anything|everything|whatever|all)\s(?:(?:you|u)\s(?:have|know|"
        r"'ve\sgot)\s)?(?:about|on)\s[^.!?]{2,160})",
        # "can you stop keeping …", "no need to remember …", "you don't need to keep …"
        rf"\b(?:can|could|would|will)\s(?:you|u)\s(?:please\s|pls\s|just\s)?stop\s{_KEEP}\s{_WHAT}",
        rf"\b(?:no\sneed\s(?:for\s(?:you|u)\s)?to|(?:you|u)\s(?:don'?t|do\snot)\s(?:need|have)\sto)\s{_KEEP}\s{_WHAT}",
        # "I'd rather not have the snooping thing on record"
        rf"\bI(?:'d|\swould)?\s(?:rather|prefer)\snot\s(?:have|keep)\s(?=[^.!?]*\bon\s(?:record|file)\b){_WHAT}",
        # "can we pretend I never said that about my marriage?"
        r"\bpretend\s(?:that\s)?I\s(?:never|didn'?t|did\snot)\s(?:said|say|told?\s(?:you|u)|mention(?:ed)?|shared?|"
        r"brought\sup|bring\sup)\s(?:that\s|anything\s)?(?:about\s)?(?P<what>[^.!?]{2,160})",
        # "About the fender bender I brought up... can that go?"
        r"\b(?:can|could)\s(?P<what>that|it|this|those)\s(?:just\s)?go\s*(?:away\s*)?(?:please\s*)?[?.!]",
    )
)
#: A target that points back ("it", "any of that", "that info").
_POINTING = re.compile(
    r"(?:(?:it|that|this|them|those|these|(?:any|all)\s(?:of\s)?(?:that|it|this|those)|(?:that|this)\s(?:info|stuff)|"
    r"(?:(?:that|this)\s)?(?:one|bit|part)|it\sall|all\sthat)(?:\s(?:please|now|immediately|asap|too))*"
    r"|please|now|immediately|asap)",
    re.I,
)
#: What a pointing request points at must be something the user told.
_TOLD = re.compile(
    r"\b(?:told\s(?:you|u)|telling\s(?:you|u)|said|saying|shared|sharing|mentioned|mentioning|thing|stuff|situation|"
    r"info|details?|business|brought\sup|bringing\sup|vented|venting|"
    r"g[ai]ve\s(?:you|u)|nvm|never\s?mind)\b|^\W*about\b|\b(?:everything|anything)\s(?:about|on)\b",
    re.I,
)
_ABOUT = re.compile(r"\babout\s(?P<x>[^,;:.!?—–]{2,100})", re.I)
_THING = re.compile(r"\b(?P<x>(?:the|that|my)\s(?:[\w'-]+\s){1,4}?(?:thing|stuff|situation|business|info))\b", re.I)
#: Where the request's own words start in its sentence ("hey so the gambling thing, can u just forget it?").
_ASKS = re.compile(
    r"[,;:—–-]?\s*(?:(?:can|could|would|will)\s(?:you|u)\s|please\s|pls\s|just\s)*(?:forget|delete|erase|remove|wipe|"
    r"scrub|get\srid|take|not\s|don'?t\s|let\sgo|scratch|scrap)",
    re.I,
)
#: "…, and also anything about my brother"; not "mine and my family's", which says whose things the first are.
_TWO = re.compile(r"(?<!mine),?\s+and\s+(?:also\s+)?(?=(?:what|anything|everything|the|my|all|any|about)\b)", re.I)
_LEAD = re.compile(
    r"^(?:what\s(?:I|i)\s(?:said|told\s(?:you|u)|shared|mentioned)\s(?:about\s)?|(?:anything|everything|whatever|all)"
    r"(?:\s(?:you|u)\s(?:know|have|remember|'ve\sgot|have\sgot))?\s(?:about|on)\s|(?:what|anything|everything)\s"
    r"(?:you|u)\s(?:know|have)\s(?:about|on)\s)",
    re.I,
)
_TAIL = re.compile(
    r"\s*(?:[,;:]|\s[—–-]\s|\b(?:anywhere|going\sforward|for\snow|please|pls|from\s(?:your\s)?memory|on\sfile|"
    r"I\s(?:told|said|shared|mentioned)|i\s(?:told|said))\b).*$|\s+(?:too|as\swell|anymore|any\smore)$",
    re.I,
)


#: A second thing after the first's end: ", and the house sale too".
_MORE = re.compile(r",?\s+and\s+(?:also\s+)?(?P<x>(?:the|my|what|anything|everything|all|any|about)\b[^,.;!?]{2,80})",
                   re.I)  # fmt: skip


def _target(sentence: str) -> tuple[str, int, bool] | None:
    """The target of a sentence's request, where the request starts, and whether it was asked softly."""
    found = forget_target(sentence)
    if found is not None:
        at = _ASKS.search(sentence)
        end = sentence.find(found)  # "forget my husband's diagnosis, and the house sale too": a second thing
        more = _MORE.match(sentence, end + len(found)) if end >= 0 else None
        return (f"{found} and {more['x']}" if more else found), at.start() if at else 0, False
    found_soft = [m for rx in _SOFT if (m := rx.search(sentence))]
    if not found_soft:
        return None
    m = min(found_soft, key=lambda m: m.start())
    return m["what"], m.start(), True


def _pointed(text: str) -> str | None:
    """What ``text`` (before a pointing request) names as told: "about X", "the X thing", or the clause."""
    if not _TOLD.search(text):
        return None
    found = list(_ABOUT.finditer(text)) or list(_THING.finditer(text))
    what = found[-1]["x"] if found else text
    what = re.sub(r"^\W*(?:(?:hey|so|oh|ok|okay|hmm|oof|well|also|and|yo|um|uh)\b\W*)*", "", what, flags=re.I)
    what = re.sub(r"^I\s(?:regret|wish\sI\shadn'?t)\s(?:mentioning|telling\s(?:you|u)(?:\sabout)?|saying|sharing|"
                  r"mentioned|told\s(?:you|u)(?:\sabout)?|said|shared)\s", "", what, flags=re.I)  # fmt: skip
    return what.strip(" .,;:—–-") or None


def _tidy(target: str) -> str:
    target = _LEAD.sub("", target.strip())
    return _TAIL.sub("", _TAIL.sub("", target)).strip(" .,;:?!") or target.strip()  # "… anymore, I'd like …"


def forget_asks(said: Sequence[str]) -> dict[int, list[str]]:
    """Per sentence of a user's message: what it asks to forget ([] for a sentence a request points at).

    Sentences not in the result ask nothing and are read as usual."""
    asks: dict[int, list[str]] = {}
    for i, sentence in enumerate(said):
        found = _target(sentence)
        if found is None:
            continue
        target, at, soft = found
        if _POINTING.fullmatch(_tidy(target).lower()) or _POINTING.fullmatch(target.strip().lower()):
            before = sentence[:at]
            pointed = _pointed(before) if re.search(r"\w{3,}", before) else None
            if pointed is None and i > 0 and i - 1 not in asks and (pointed := _pointed(said[i - 1])) is not None:
                asks[i - 1] = []
            if pointed is None:  # "Please forget that." alone: the guard reads what it points at in the session
                if not soft:
                    asks[i] = [target]
                continue
            target, soft = pointed, True
        parts = _TWO.split(target)
        asks[i] = [t for part in parts if (t := _tidy(part))] if soft or len(parts) > 1 else [target]
    return asks
