"""What an agent's turn adds to the user's memory: its outcomes, and what the user agreed to.

The agent's words are not the user's facts, except where the user takes them up:
- an outcome the agent reports ("I've booked the table for 7pm") is a conversation detail;
- a proposal the user accepts ("Shall I send it?" "Yes") is a decision, and a proposal that says "it"
  or "that" carries the sentence before it, which says what "it" is ("So that's the offer of 410k.");
- a recap the user confirms ("To confirm: dinner for 4 at Wagamama on Friday at 7pm." "Perfect") is a
  decision in the agent's words: often the only place the details were said in full.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tasks.models import Event
from tasks.providers.extraction_rules import AFFIRM, AGENT_OUTCOME, PROPOSAL, RuleFact
from tasks.textrules import clean, resolve_dates, sentences
from tasks.third_person import third_person

TOPIC = "key_conversation_details"
#: A recap of what was agreed, then the details: "To confirm: ...", "So that's ...", "Summary: ...".
RECAP = re.compile(
    r"^(?:so,? |ok(?:ay)?,? )?(?:to confirm|just to confirm|let me confirm|confirming|to recap|just to recap|recap|"
    r"to summari[sz]e|in summary|summary|so that's|that's)\b[\s:,-]*(?=\S)",
    re.I,
)
#: A user's reply that agrees: the AFFIRM openings, and "correct" / "that's right" / "exactly".
_AGREES = re.compile(r"^\W*(?:correct|exactly|right|that's (?:right|correct|it)|all good|spot on)\b", re.I)
#: A proposal that points back at what the turn said before it.
_POINTS_BACK = re.compile(r"\b(?:it|that|this|them|these|those)\b", re.I)


def agrees(reply: Event | None) -> bool:
    """The user's next turn opens with agreement ("Yes, send it", "Perfect, thanks!", "Correct")."""
    return reply is not None and reply.role == "user" and bool(AFFIRM.match(reply.text) or _AGREES.match(reply.text))


def _the_users(text: str) -> str:
    """The agent's "you" is the user: "you'll take your flight" → "User will take User's flight"."""
    text = re.sub(r"\byou(?:'ll| will)\b", "User will", text, flags=re.I)
    text = re.sub(r"\byou(?:'re| are)\b", "User is", text, flags=re.I)
    return re.sub(r"\byou\b", "User", re.sub(r"\byour\b", "User's", text, flags=re.I), flags=re.I)


def agent_facts(event: Event, following: Sequence[Event]) -> list[tuple[RuleFact, tuple[str, ...]]]:
    """(fact, the turns it cites) for one agent turn; ``following`` is the next turn, if any."""
    reply = following[0] if following else None
    agreed = agrees(reply)
    both = (event.id, reply.id) if reply is not None else (event.id,)
    out: list[tuple[RuleFact, tuple[str, ...]]] = []
    previous, recap = "", None
    for raw in sentences(event.text):
        sentence = resolve_dates(clean(raw), event.timestamp)
        if m := AGENT_OUTCOME.search(sentence):
            out.append((RuleFact(TOPIC, f"Outcome: the agent {m.group(1).lower()} {_the_users(m.group(2).strip())}",
                                 0.6), (event.id,)))  # fmt: skip
        if agreed and (m := PROPOSAL.search(sentence)):
            choice = third_person(m.group(1).strip(" ?"), "User")
            if _POINTS_BACK.search(choice) and previous:  # "Shall I send it?" after what "it" is
                choice = f"{choice} ({_recapped(previous)})"
                out = [f for f in out if f is not recap]  # said once, with the decision
            out.append((RuleFact(TOPIC, f"Decision: {choice}", 0.7), both))
        elif agreed and not sentence.endswith("?") and RECAP.match(sentence):
            recap = (RuleFact(TOPIC, f"Confirmed by User: {_recapped(sentence)}", 0.7), both)
            out.append(recap)
        previous = sentence
    return out


#: Key points kept of one agent turn (issue 70): the agent's answer is in the evidence layer whole;
#: these are what it told the user in so many words, recalled as memories of their own.
MAX_KEY_POINTS = 2
#: A sentence with this many list separators (commas, semicolons) is a list of things the agent named.
_LIST_SEPARATORS = 2
#: "A, B and C": the conjunction before a list's last item, after a comma.
_LAST_ITEM = re.compile(r",[^,]+\b(?:and|or)\b")
_ENUMERATED = re.compile(r"(?:^|\s)(?:\d+[.)]|[-*•])\s+\S")


def key_points(event: Event, asked: Event | None) -> list[RuleFact]:
    """What the agent told the user in reply to a question: its sentences that give a number or a list
    (the parts an answer quotes later: "the third one was…"), attributed to the agent, never as a fact
    about the user ("Agent said: …"). Only a reply to a user's question: elsewhere the agent chats."""
    if asked is None or asked.role != "user" or "?" not in asked.text:
        return []
    out: list[RuleFact] = []
    for raw in sentences(event.text):
        sentence = clean(raw)
        if sentence.endswith("?") or len(sentence.split()) < 4:
            continue
        separators = sentence.count(",") + sentence.count(";") + (1 if _LAST_ITEM.search(sentence) else 0)
        listed = separators >= _LIST_SEPARATORS or _ENUMERATED.search(raw)
        if listed or any(ch.isdigit() for ch in sentence):
            out.append(RuleFact(TOPIC, f"Agent said: {_the_users(resolve_dates(sentence, event.timestamp))}", 0.4))
        if len(out) >= MAX_KEY_POINTS:
            break
    return out


def _recapped(sentence: str) -> str:
    """The details of a recap, said of the user: "To confirm: you'll fly on 3 May." → "User will fly on 3 May"."""
    said = _the_users(RECAP.sub("", sentence)).rstrip(".")
    return said if said.startswith("User") else said[:1].lower() + said[1:]
