"""Whether an extracted forget request is the user's own request to forget something about themselves.

Extraction finds forget *wording*; deleting memories needs more: the user said it (not the agent, a
tool, the system or another person), as a request (not "don't forget…", not a quote or something
someone else said), about what the assistant knows of them (not a task on an itinerary, a calendar
or a booking). A wrongly accepted request deletes a true memory, a wrongly refused one leaves a
memory for the user to ask again about, so in doubt this refuses. Pure: no I/O, no settings.
"""

from __future__ import annotations

import re

from tasks.models import Event, ForgetRequest, Session
from tasks.providers.chat_speak import spelled_out
from tasks.providers.forget_areas import names_area_or_kin
from tasks.providers.forget_request import NEGATED_FORGET, plain_request
from tasks.providers.forgetful import someone_forgets

_VERB = (
    r"(?:forget|delete|erase|remove|wipe|scrub|drop|purge|clear|get rid of|don'?t remember|do not remember|"
    r"stop (?:remembering|storing|keeping|saving|tracking)|take\b(?=[^.!?]*\bout of)|"
    r"(?:don't|do not|never) (?:store|keep|save|record|retain|have\b(?=[^.!?]*\bon file))|"
    r"(?:deleted|removed|erased|forgotten|wiped)\b|not (?:remember|keep|save|store|retain)|didn'?t (?:keep|save|store)|"
    r"(?:hold|hang) ?on ?to|let go of|scratch|scrap|ditch|unlearn|lose|toss|discard|bin|"
    r"(?:disregard|ignore)\b(?= (?:what|everything|anything|all)(?: that)? I\b)|"
    r"nix|(?:storing|keeping|saving|remembering) (?:my|that|this|it)|remembered|take (?:it|that|this) out|"
    r"(?:need|have) to (?:remember|keep|store|save|hold on to)|not (?:have|keep)\b(?=[^.!?]*\bon (?:record|file))|"
    r"pretend (?:that )?I (?:never|didn'?t|did not)|(?:can|could) (?:that|it|this|those) (?:just )?go\b)"
)
#: Someone else's words reported by the user: "my brother texted me", "she said", "he told me to".
_REPORTED = re.compile(
    r"\b(?:said|says|saying|texted|messaged|wrote|writes|emailed|told me|tells me|asked me|asks me|keeps saying|"
    r"replied|posted|yelled|shouted|whispered|quoted?|sang|line (?:from|in)|the (?:song|movie|book|sign|note|"
    r"message|text|email|meme|poster) (?:says|said|goes))\b",
    re.I,
)
#: The user's own words named as such ("what I said", "I told you"): not someone else's reported.
_OWN_WORDS = re.compile(r"\bI (?:just |once )?(?:said|told you|told u|wrote|texted you|messaged you)\b", re.I)
_QUOTES = re.compile(r"\"[^\"]*\"|“[^”]*”|‘[^’]*’|(?<![A-Za-z])'[^']*'(?![A-Za-z])|«[^»]*»")
#: Where the trigger's clause ends: punctuation or a conjunction that starts the reason.
_CLAUSE_END = re.compile(r"[,;:]|\s[-–—]\s|\b(?:because|since|as I|so that)\b", re.I)
#: Objects of a task the agent does, not facts it remembers about the user.
_TASK_WORDS = (
    r"(?:itinerary|booking|bookings|reservation|reservations|calendar|invite|invites|invitation|meeting|"
    r"appointment|event|cart|basket|order|orders|playlist|queue|list|to-?do|reminder|reminders|alarm|"
    r"email|emails|e-mail|message|messages|file|files|folder|document|doc|spreadsheet|draft|photo|photos|"
    r"picture|ticket|tickets|flight|flights|hotel|trip|plan|route|filter|tab|app|"
    r"subscription|paragraph|sentence|slide|column|row|table|entry|watchlist|wishlist|note|notes|report|essay|"
    r"letter|resume|cv|speech|article|presentation|deck|chapter|section|script|"
    r"search history|browser history|cache|cookies|spam|contact|contacts|seat selection|layover)\b"
)
#: A task word anywhere in the clause; ``_FROM_TASK``: one the object is taken out of ("from my calendar").
_TASK = re.compile(r"\b" + _TASK_WORDS, re.I)
_FROM_TASK = re.compile(
    r"\b(?:from|off|out of|in|on)\s+(?:the|my|our|this|that|your)?\s*(?:\w+\s+){0,2}?"
    + _TASK_WORDS
    # "Remove all the jargon from this so farmers get it: '…'": from the text at hand
    + r"|\b(?:from|out of)\s+(?:this|that|it|the\s+(?:above|following|text))\b(?!\s+(?:list|memory|chat))",
    re.I,
)
#: "I never said …", "can we pretend I didn't mention …": what the user told, named as such.
_NEVER_SAID = r"I (?:never|didn'?t|did not) (?:say|said|mention(?:ed)?|tell|told)\b"
#: Words that say the request is about the assistant's memory of the user.
_MEMORY = re.compile(
    r"\b(?:(?:from|in) (?:your|the) (?:memory|memories|records?|notes|profile|database|files)|you (?:know|remember|"
    r"have|stored|saved|noted|wrote down) about me|about me|what(?:ever)? I (?:said|told you|mentioned|shared)|"
    r"everything (?:about|on) me|my (?:data|details|information|info|profile)|"
    r"\b(?:number|reference|code|ID|PIN|password|passcode|IBAN)\b|that I\b|"
    r"I(?:'m| am| was| have| had| live| work| used| like| love| hate| prefer| own|"
    r" gave| told| sent| mentioned| shared| vented| ranted| complained| brought up| talked)\b|\bon file\b|"
    r"\b(?:everything|anything) (?:about|on) (?-i:[A-Z])|" + _NEVER_SAID + "|"
    r"\bmy\b|\bme\b)",
    re.I,
)
#: Explicitly about the assistant's memory of the user: outweighs a task word ("forget the email I sent you").
_ABOUT_MEMORY = re.compile(
    r"\b(?:from (?:your|the) (?:memory|memories|records?|profile|database)|from your (?:notes|files)|on file|"
    r"I (?:gave|told|sent|shared with|mentioned to) you|(?:that |which )?I (?:mentioned|said|shared)\b|"
    r"\b(?:told|tell(?:ing)?|mention(?:ed|ing)?(?: to)?|shar(?:ed|ing)(?: with)?) (?:you|u) about\b|"
    r"(?:you|u) (?:know|remember|have|stored|"
    r"saved|noted|wrote down|keep) (?:about|on) me|about me\b|what I (?:said|told you|mentioned|shared)|"
    + _NEVER_SAID
    + r"|everything (?:about|on) me|my (?:data|personal|details|information|info|profile)|"
    # "scrap what you know about the trip …": the assistant's knowledge of it, whatever it is
    r"(?:what|everything|anything|all) (?:you|u) (?:know|remember|have|stored|saved|noted|keep) (?:about|on|of)\b)",
    re.I,
)
#: Personal data whose names contain task words ("email address", "phone number").
_PERSONAL_DATA = re.compile(
    r"\b(?:e-?mail address|phone number|home address|contact details)\b"
    r"|\b(?:my|your|the|that|this)\s+(?:[\w-]+\s+){0,2}(?:number|reference|code|ID|PIN|password|passcode|plate|"
    r"IBAN)\b|\b(?:protective|restraining|court|gag) order\b"
    # "forget my email": forgetting is done to what is known, never to a message, so it is the address
    # (only with "forget" and nothing after it in its clause: "delete my email", "forget my email to Tom" stay tasks)
    r"|\bforget\s+(?:about\s+)?my\s+e-?mail\b(?=\s*(?:[.!?,;]|$|\s(?:please|pls|plz|now|too|as well)\b))",
    re.I,
)
#: Dismissals: "forget it", "forget about the hotel, let's…" talk about a plan, not a memory.
_DISMISS = re.compile(r"\bforget (?:it|that idea|the idea|about it|this|all that)\b\s*[,.!;-]?\s*(?:let'?s|we|I'?ll|$)"
                      r"|\bforget (?:about )?the\b", re.I)  # fmt: skip
#: "forget the marriage stuff": a topic the user raised before, named as such ("stuff", "thing", "part"), is
#: a memory; "forget the museum, let's…" (a plan follows) or a thing the other side just offered is not.
_REFERENCE = re.compile(
    r"\b(?:forget|keep(?:ing)?|remember(?:ing)?|stor(?:e|ing)|sav(?:e|ing)|delete|remove|erase|wipe|drop|scrub)"
    r" (?:about )?the (?P<what>(?:[\w'-]+ ){1,3}?)(?:stuff|things?|bits?|part|business|matter|info|story)\b",
    re.I,
)
_THE_THING = re.compile(r"\bforget (?:about )?the (?P<what>(?:[\w'-]+ ?){1,4})", re.I)
#: A topic named before the request that points back at it ("the poker thing, can you forget it?").
_TOPIC_NAMED = re.compile(
    r"(?:the|that|this) (?P<what>(?:[\w'-]+ ){1,3}?)(?:stuff|things?|bits?|part|business|matter|info|situation)", re.I
)
_PLEASE = re.compile(r"\b(?:please|pls|plz)\b", re.I)
#: What comes next is a plan ("…, let's go to the park", "we can do Porto instead"), not a reason ("we switched").
_PLAN_FOLLOWS = re.compile(
    r"\b(?:let'?s|let us|we(?:'ll| will| can| could| should| might)|I'?ll|instead|rather|go with|how about|just)\b",
    re.I,
)
#: Verbs of removal in their plain form, which a subject can take ("I always forget my keys").
_BASE_VERB = re.compile(r"(?:forget|delete|erase|remove|wipe|scrub|drop|purge|clear|get rid of)\b", re.I)
_TRIGGER = re.compile(rf"\b(?:please\s+)?{_VERB}\b|\bnever (?:mention|bring up)\b", re.I)
NON_USER_NAMES = frozenset({"system", "tool", "function", "developer", "chatgpt", "gpt", "claude", "gemini",
                            "copilot", "assistant", "agent", "model", "bot", "ai"})  # fmt: skip


def _event(request: ForgetRequest, session: Session) -> Event | None:
    ids = set(request.source_event_ids)
    return next((e for e in session.events if e.id in ids), None)


def _sentence(text: str, query: str) -> str:
    """The sentence of ``text`` that holds the request (the whole text when it cannot be found); with the
    next one when the request points back at it ("…that thing about the IRS filing. can you get rid of it?")."""
    parts = re.split(r"(?<=[.!?])\s+|\n+", text)
    low = query.lower()
    at = next((i for i, p in enumerate(parts) if low and low in p.lower()), None)
    if at is None:
        return text
    if _TRIGGER.search(parts[at]) is None and at + 1 < len(parts):
        return f"{parts[at]} {parts[at + 1]}"
    return parts[at]


def _inside_quotes(sentence: str, position: int) -> bool:
    return any(m.start() < position < m.end() for m in _QUOTES.finditer(sentence))


def accept_forget(request: ForgetRequest, session: Session) -> tuple[bool, str]:
    """``(True, why)`` when the request is a genuine request of the user about themselves, else ``(False, why)``."""
    event = _event(request, session)
    if event is None:
        return False, "the request cites no event of this session"
    author = event.author.strip().lower()
    if event.role != "user" or author in NON_USER_NAMES:
        return False, f"said by {event.author!r} ({event.role}), not by the user"
    sentence = plain_request(_sentence(spelled_out(event.text), request.query))  # "I'd prefer you not keep …"
    trigger = _TRIGGER.search(sentence)
    if trigger is None:
        return False, "no request wording in the sentence"
    if NEGATED_FORGET.search(sentence):
        return False, "a reminder to keep something (negated), not a request to forget"
    if all(_BASE_VERB.match(t[0]) and someone_forgets(sentence, t.start()) for t in _TRIGGER.finditer(sentence)):
        return False, "someone forgetting, said as a fact, not a request to forget"
    if _inside_quotes(sentence, trigger.start()) or (_QUOTES.search(sentence) and _REPORTED.search(sentence)):
        return False, "quoted words, not the user's own request"
    if _REPORTED.search(_OWN_WORDS.sub(" ", sentence[: trigger.start()])):  # "what I said about X, forget it"
        return False, "someone else's words reported by the user"
    # The object may come first: "I'd like my X deleted", "My X - delete it, please".
    named = re.search(rf"(?:\b(?:my|the|that|this|your)\s+)?{re.escape(request.query)}", sentence, re.I)
    after = sentence[min(trigger.start(), named.start() if named else len(sentence)) :]
    about_memory = _ABOUT_MEMORY.search(after)
    # What is to be forgotten is the trigger's own clause; a reason given after it ("…, I don't want my
    # pet's name on file") says why, and its words are not the object of the request.
    objects = _PERSONAL_DATA.sub(" ", _CLAUSE_END.split(after, maxsplit=1)[0])
    if (_FROM_TASK.search(objects) or _TASK.search(objects)) and not about_memory:
        return False, "a task on the agent's work (itinerary, booking, calendar, cart...), not a memory"
    target = request.query
    before = named is not None and named.start() < trigger.start()
    pointed = target if before and not _PLAN_FOLLOWS.search(sentence[trigger.end() :]) else ""
    reference = _topic_reference(after, event, session, pointed)
    personal = names_area_or_kin(target)  # "the legal thing", "my ex"
    if _DISMISS.search(after) and not _MEMORY.search(target) and not reference and not personal:
        return False, "a dismissal of a plan, not a request to forget"
    # "I shouldn't have told you about the affair. Wipe it.": what the user told, named before the request
    told = named is not None and _ABOUT_MEMORY.search(sentence[: named.start()]) is not None
    if not (_MEMORY.search(after) or reference or personal or told):
        return False, "not about the user or what the assistant remembers of them"
    return True, "the user's own request to forget something about themselves"


def _topic_reference(after: str, event: Event, session: Session, pointed: str = "") -> bool:
    """ "forget the X stuff" or "please forget about the X" with no plan after it, or "the X stuff, can you
    delete it?" (``pointed``: the target named before the request), X not offered by another author earlier
    in the session (a bare "forget the museum" stays a dismissal)."""
    found = _REFERENCE.search(after) or (_THE_THING.search(after) if _PLEASE.search(event.text) else None)
    if found is not None and _PLAN_FOLLOWS.search(after[found.end() :]):
        return False
    found = found or _TOPIC_NAMED.fullmatch(pointed.strip())
    if found is None:
        return False
    named = set(re.findall(r"[a-z]{3,}", found["what"].lower()))
    earlier = session.events[: session.events.index(event)]
    offered = {w for e in earlier if e.role != "user" for w in re.findall(r"[a-z]{3,}", e.text.lower())}
    return not named & offered
