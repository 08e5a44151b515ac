"""Is a sentence a request to forget, and what does it name? Verbs of removal plus what they remove.

"Forget", "delete", "erase", "remove" ask to forget whatever they take ("forget that I live in
Berlin"). Other verbs of removal ("wipe", "scrub", "purge", "clear", "drop", "get rid of", "stop
storing", "take ... out") are as often about a task ("wipe the whiteboard", "clear the cache"), so
they count only when what they remove is the assistant's memory ("from your records", "what you
know about me") or one of the user's identifiers ("my locker code", "my policy number"). Whether the
request is genuine (the user's own, not negated, not a task) is the guard's call
(:mod:`tasks.consolidate.forget_guard`); this finds the wording and the target.
"""

from __future__ import annotations

import re

from tasks.providers.clause_shape import is_fragment
from tasks.providers.forgetful import someone_forgets
from tasks.providers.soft_requests import softened
from tasks.providers.statements import STRONG_CUE, WEAK_CUE

FORGET = re.compile(
    r"\b(?:please\s+)?(?:forget|delete|erase|remove|unlearn|don't remember|do not remember|stop remembering)\s+"
    r"(?:about\s+|that\s+|(?:what(?:ever)?|anything|all) I (?:said|told you|mentioned|shared) about\s+|"
    r"everything about\s+|my\s+|"
    r"(?:all |any |the |that )?(?:records?|mentions?|traces?|notes?|memor(?:y|ies)|part|bit|info|information|"
    r"stuff|details?|thing) (?:of|about|on)\s+)*(?P<what>[^.!?]{3,160})"
    r"|\bnever (?:mention|bring up)\s+(?P<what2>[^.!?]{3,160})"
    # "Scratch / ignore / disregard what I said about X": only with what was said as their object
    r"|\b(?:scratch|ignore|disregard|never\s*mind)\s+(?:what|everything|anything|all) I "
    r"(?:said|told you|mentioned|wrote)(?: (?:earlier|before|yesterday))? about\s+(?P<what5>[^.!?]{3,160})"
    # "I'd like my X deleted", "have my X removed": the removal said as what should happen to it.
    r"|(?:'d like|\blike|\bwant|\bneed|\bplease (?:have|get)|\byou (?:have|get))\s+(?:my|the)\s+"
    r"(?P<what3>[^.!?,;]{3,80}?)\s+"
    r"(?:deleted|removed|erased|forgotten|wiped|purged|scrubbed)\b"
    # "Can my bankruptcy be removed from your memory?": the removal asked of the thing.
    r"|\b(?:can|could|would|will|should)\s+(?:my|the|that|this)\s+(?P<what6>[^.!?,;]{3,80}?)\s+(?:be|get)\s+"
    r"(?:deleted|removed|erased|forgotten|wiped|purged|scrubbed|dropped)\b"
    # "My X - delete it, please": the thing named first, the request after it.
    r"|^\W*(?:my|the)\s+(?P<what4>[^.!?,;:-]{3,60}?)\s*(?:[,:;]|\s-)\s*(?:please\s+|just\s+)?"
    r"(?:forget|delete|erase|remove|wipe)\s+(?:it|that|them)\b",
    re.I,
)
#: "don't forget", "never forget", "not to delete", "won't ever forget", "remember to never forget".
NEGATED_FORGET = re.compile(
    r"\b(?:don'?t|do not|dont|never|not|no need to|won'?t|will not|shouldn'?t|should not|can'?t|cannot|"
    r"mustn'?t|must not|didn'?t|did not|wouldn'?t|better not)\s+(?:\w+\s+){0,2}?"
    r"(?:forget|delete|erase|remove|wipe|scrub|clear|drop|purge|get rid of)\b"
    r"|\b(?:don'?t|do not|never|wouldn'?t|not)\s+(?:want|like|need)\s+(?:[\w'-]+\s+){1,5}?"
    r"(?:deleted|removed|erased|forgotten|wiped)\b",
    re.I,
)
#: A reminder said with "forget" in the negative, up to what it keeps: "Please don't forget (that|about) …".
_REMINDER = re.compile(
    r"^\W*(?:(?:oh|ok|okay|so|and|also|hey|btw|just)\W+)*(?:please\s+)?(?:don'?t|do not|never)\s+"
    r"(?:ever\s+)?forget(?:\s+about|\s+that|:)?\s+(?=\w)",
    re.I,
)


def reminded(sentence: str) -> str:
    """A reminder said as what it asks: "Don't forget that my mom's birthday is May 3" → "Remember that my
    mom's birthday is May 3" (an explicit instruction). Read as a forget request, it was refused by the
    guard and its sentence left no memory; other sentences are returned as they are."""
    found = _REMINDER.match(sentence)
    if found is None:
        return sentence
    rest = sentence[found.end() :]
    return f"Remember {rest}" if rest.lower().startswith("to ") else f"Remember that {rest}"


#: Verbs of removal that need a memory or an identifier as their object to be a forget request.
_REMOVE = re.compile(
    r"(?:^\W*|[,;:]\s*|\b(?:please|can you|could you|would you|will you|you can|want you to|like you to|need you to|"
    r"and|also|kindly|just)\s+)(?:please\s+|kindly\s+|just\s+)?(?P<verb>wipe|scrub|purge|clear|drop|get rid of|"
    r"lose|toss|discard|ditch|scrap|bin|take|stop (?:storing|keeping|"
    r"saving|tracking|holding on to)|(?:don't|do not|never) (?:store|keep|save|record|retain|hold on to|have))\s+"
    r"(?:out\s+)?(?:everything|all|anything|what)?\s*(?:you (?:know|have|remember|keep|stored|"
    r"saved)\s+(?:about|on)\s+)?(?:my\s+)?(?P<what>[^.!?]{3,160})",
    re.I,
)
#: The assistant's memory named as where the thing is kept ("from your records", "what you know about me").
MEMORY_PLACE = re.compile(
    r"\b(?:from|out of|off|in) (?:(?:your|the) )?(?:memory|memories|records?|notes|files|database|profile|system)\b"
    r"|\byou (?:know|have|remember|keep|stored|saved) (?:about|on)\b|\bon file\b",
    re.I,
)
#: One of the user's identifiers or personal data ("my booking reference", "the policy number").
IDENTIFIER = re.compile(
    r"\b(?:my|the|that|this|your)\s+(?:[\w-]+\s+){0,2}(?:number|no\.|reference|code|ID|PIN|password|passcode|plate|"
    r"address|username|login|IBAN|birthday|salary|details|info|information|data|history)\b",
    re.I,
)
_TARGET_END = re.compile(
    r"\s*[,;:(]\s*|\s+[-–—]\s+|\s+(?:please|because|since|as I|I (?:don't|do not) want)\b"
    r"|\s+(?:from|out of|off|in) (?:(?:your|the|my) )?(?:memory|memories|records?|notes|files|database|profile|"
    r"system)\b"
    r"|\s+from what you (?:know|remember|have)\b|\s+on file\b"
    r"|\s+(?:that |which )?I (?:gave you|told you|sent you|mentioned|shared|said|was telling)\b"
    # a reason said straight after it: "my loan stuff thats embarrassing", "… it's so private"
    r"|\s+(?:that's|thats|it's|its|this is|that is|it is)\s+(?:so |really |too |kinda |very |a bit )?"
    r"(?:embarr?ass?ing|private|personal|awkward|weird|sensitive|mortifying|cringe)\b",
    re.I,
)
#: "Please you can forgot about my debt": a request typed with the past form.
_FORGOT = re.compile(r"\b(please|can|could|pls)(\s+(?:you|u))?(\s+(?:can|could))?\s+forgot\b", re.I)

#: A target named as something the user told: not an object of the assistant's work ("don't keep the part about …").
_TOLD = re.compile(
    r"^(?:the|that|this) (?:bit|part|stuff|thing|things|info|details?) (?:about|on|re|regarding)\b"
    r"|^(?:the|that|this) (?:[\w'-]+ ){1,3}?(?:stuff|thing|things|situation|business)\b"
    r"|^(?:any|every|all)\s(?:mentions?|records?|traces?)\s(?:of|about)\b"
    r"|\b(?:I|I've) (?:mentioned|told you|told u|said|shared|vented|ranted|complained|brought up)\b",
    re.I,
)
#: Whose things a request takes, said after its target: "mine or my family's", "and anyone else's".
_WHOSE = re.compile(
    r"(?:(?:mine|my own)\s+)?(?:or|and|&|plus|including)\s+(?:my\s+)?(?:family|family's|anyone|anyone's|everyone|"
    r"everyone's|others|other people's)(?:\s+else's)?",
    re.I,
)


def _asking(sentence: str) -> re.Match[str] | None:
    """The first :data:`FORGET` match that asks: "I always forget things, so please forget my address" asks
    the second time (each verb is tried, also one inside an earlier match's target)."""
    at = 0
    while (m := FORGET.search(sentence, at)) is not None:
        if m["what3"] or m["what4"] or m["what6"] or not someone_forgets(sentence, m.start()):
            return m
        at = m.start() + 1
    return None


#: What a request says to keep beside what it asks to forget: "You can keep that I'm a loan officer, but …",
#: "it's fine to remember my new title but …", "… but keep the part about X".
_KEEP = re.compile(
    r"(?:^|[,;]\s*|\bbut\s+|\b(?:you can|you may|feel free to|it's (?:fine|ok|okay) to|please)\s+)"
    r"(?<!don't )(?<!not )(?:keep|remember)\s+(?:that\s+|the (?:part|bit) about\s+)?(?P<keep>[^,.;!?]{3,80}?)"
    r"(?=\s*(?:[,.;!?]|\bbut\b|\bif\b|$))",
    re.I,
)


def kept_part(sentence: str) -> str:
    """What ``sentence`` says to keep beside a forget request ("" when it says nothing, or "the rest")."""
    found = _KEEP.search(sentence)
    keep = found["keep"].strip() if found else ""
    return "" if re.fullmatch(r"(?:the |everything )?(?:rest|else)(?: of it)?|it|that|this", keep, re.I) else keep


def plain_request(sentence: str) -> str:
    """A request said softly or typed with the past form, as its plain form: "I'd prefer you not retain X" is
    "Please don't retain X", "Please you can forgot about X" is "… forget about X"."""
    return _FORGOT.sub(lambda m: m[0][:-6] + "forget", softened(sentence))


def forget_target(sentence: str) -> str | None:
    """What a forget request asks to forget ("please forget that I live in Berlin" → "I live in Berlin")."""
    if NEGATED_FORGET.search(sentence):  # "I'll never forget our trip": a statement; "don't forget …": a reminder
        return None
    sentence = plain_request(sentence)
    m = _asking(sentence)  # "I often forget to take my vitamins": someone forgets; nobody is asked to
    removal = m is None
    if m is None:
        m = _REMOVE.search(sentence)
        if m is None:
            return None
    groups = ("what", "what2", "what3", "what4", "what5", "what6")
    what = next((m[g] for g in groups if g in m.re.groupindex and m[g]), "").strip()
    told = _TOLD.search(what)  # "the bit about my dad's diagnosis", "the bankruptcy stuff I mentioned": about memory
    if removal and not (MEMORY_PLACE.search(sentence) or told or (m["verb"] != "take" and IDENTIFIER.search(m[0]))):
        return None
    negated_before = re.search(r"\b(?:not|never)\b|n't\b", sentence[: m.start()], re.I)
    if "what3" in m.re.groupindex and m["what3"] and negated_before:
        return None  # "I don't want my X deleted"
    # The target ends where the sentence moves on ("Rocket please, I don't want it on file").
    what, *after = _TARGET_END.split(what, maxsplit=1)
    if after and (whose := _WHOSE.match(after[0])):  # "all legal matters, mine or my family's": whose, not a reason
        what = f"{what}, {whose[0]}"
    what = re.sub(r"\s+(?:again|anymore|please|out)$", "", what, flags=re.I)
    negative = (m.groupdict().get("verb") or "").lower().startswith(("don't", "do not", "never"))
    bare = re.sub(r"^(?:my|the|that|this|your)\s+", "", what.rstrip(". "))
    if negative and not (MEMORY_PLACE.search(sentence) or IDENTIFIER.fullmatch(f"my {bare}") or told):
        return None  # "don't keep my phone number on speed dial" is not about what the assistant keeps
    what = re.sub(r"^(?:what|everything|all)\s+you (?:know|have|remember) about\s+(?:my\s+)?", "", what, flags=re.I)
    return what.strip() or None


#: The speaker saying what they do with the forgotten thing ("I'm not doing it", "we're returning it"), not
#: why the assistant should drop it ("I don't want you to keep it", "I don't need it remembered").
_OF_IT = re.compile(
    r"(?:I|we)\b(?!.*\b(?:you|your|remember\w*|want|need|record\w*|memory|save\w*)\b).*?\b(?:it|them)\b(?!['’])",
    re.I,
)


def change_after(sentence: str, target: str) -> str | None:
    """The clause after a forget request's target when it states a change ("forget the poetry thing, we
    switched to uv"): the change is a fact of its own. A reason ("…, I don't want it on file", "…, no time
    anymore") is not kept."""
    at = sentence.find(target)
    rest = re.split(r"^[^,;:]*[,;:]\s*|^.*?\s[-–—]\s", sentence[at:], maxsplit=1) if at >= 0 else []
    clause = rest[-1].strip() if len(rest) == 2 else ""
    if (
        clause
        and (STRONG_CUE.search(clause) or WEAK_CUE.search(clause) or _OF_IT.match(clause))
        and not re.search(r"\bon file\b|\bstored?\b", clause)
        and not is_fragment(clause)  # "…, no time anymore" is a reason, not a change of anything
    ):
        return _named(clause[:1].upper() + clause[1:], sentence, target)
    return None


def _named(clause: str, sentence: str, target: str) -> str:
    """The change with its one "it" / "them" said as what was forgotten ("forget the gym membership, I
    cancelled it" → "I cancelled the gym membership"): the forgotten memory goes, and "User cancelled it"
    alone would say nothing. A target that is a statement ("that I live in Berlin") is not a thing."""
    if re.search(r"\b(?:I|we|you|he|she|they)\b", target, re.I):
        return clause
    said = re.search(rf"\b(?:(?:the|my|our|this|that|a|an) )?{re.escape(target)}", sentence, re.I)
    pronouns = list(re.finditer(r"(?<=\w )(?:it|them)\b(?!['’])", clause))
    if said is None or len(pronouns) != 1:
        return clause
    at = pronouns[0]
    return clause[: at.start()] + said[0] + clause[at.end() :]
