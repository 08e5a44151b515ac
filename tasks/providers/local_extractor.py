"""The embedded extractor: deterministic rules, no model, no network.

Per sentence said by a person (the user, or a named participant in a multi-party chat):
a forget request, a fact under a managed topic (rules), a custom-topic fact, or — when it is an
informative first-person statement — a conversation detail. Agent turns yield outcomes
("I've booked …") and, when the user accepts a proposal, a decision citing both turns.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from tasks.expiry import expiry_from_text
from tasks.models import Event, Extraction, Fact, ForgetRequest, Session
from tasks.providers.agent_turns import agent_facts, key_points
from tasks.providers.clause_shape import Asked
from tasks.providers.extraction_rules import RULES, RuleFact
from tasks.providers.forget_request import forget_target, reminded
from tasks.providers.off_record import on_record, taken_back
from tasks.providers.people import mentioned, merged
from tasks.providers.reactions import after_pleasantry, is_reaction, is_social
from tasks.providers.user_clauses import UserClauses
from tasks.settings import CustomTopic
from tasks.textrules import (
    FIRST_PERSON,
    NARRATIVE_CHARS,
    REQUEST,
    SMALL_TALK,
    VAGUE,
    clauses,
    clean,
    content_words,
    last_question,
    resolve_dates,
    sentences,
    shorten,
)
from tasks.third_person import third_person

__all__ = ["NARRATIVE_CHARS", "Asked", "LocalExtractor", "content_words", "question_to"]


def _last_question(event: Event | None) -> str | None:
    return last_question(event.text) if event is not None else None


def question_to(previous: Event | None, event: Event, earlier: Event | None = None) -> Asked | None:
    """The last question another person asked right before ``event``, if any (agents included).

    A question handed back ("How about you?") is the one ``event``'s speaker asked in ``earlier``
    ("What do you do for fun?"): that is what the answer answers, and the turn its words come from.
    """
    if previous is None or previous.author == event.author:
        return None
    question, source = _last_question(previous), previous
    if question is not None and not content_words(question) and earlier is not None and earlier.author == event.author:
        question, source = _last_question(earlier), earlier
    if not question or not content_words(question):  # "Any budget?" gives "600 euros" its meaning
        return None
    asker = "User" if previous.role == "user" else "the agent" if previous.role == "agent" else previous.author
    return Asked(source.id, f'(Asked by {asker}: "{shorten(question, 90)}")')


class LocalExtractor:
    """Rule-based extraction; ``min_content_words`` decides what counts as informative."""

    def __init__(self, custom_topics: Sequence[CustomTopic] = (), min_content_words: int = 3) -> None:
        self._custom = [
            (
                t.name,
                [re.compile(rf"\b{re.escape(k)}\b", re.I) for k in t.keywords]
                + [re.compile(p, re.I) for p in t.patterns],
            )
            for t in custom_topics
        ]  # fmt: skip
        self._min_words = min_content_words

    def extract(self, session: Session, people: Mapping[str, str] | None = None) -> Extraction:
        """Facts and forget requests of ``session``; ``people`` (name -> relation) are the user's
        ties from earlier sessions, so that "Tom is allergic to X" is about the user's brother."""
        out = Extraction()
        events = session.events
        known = dict(people or {})
        for index, event in enumerate(events):
            if event.role == "agent":
                self._agent_turn(event, events[index + 1 : index + 2], out)
                for rule in key_points(event, events[index - 1] if index else None):  # what the agent told the user
                    out.facts.append(self.fact(event, rule))
            else:
                said = on_record(event) if event.role == "user" else event  # "Off the record, …" is not kept
                self._person_turn(
                    said, out, events[index - 1] if index else None, events[index - 2] if index > 1 else None,
                    known,
                )  # fmt: skip
                if event.role == "user":  # "with Ana and Rui" then "Rui can't come": named earlier in the session
                    known = merged(mentioned([said.text]), known)
        taken_back(events, out)  # "My PIN is 1234." then "Please forget that.": the PIN is not kept
        unique: dict[tuple[str, str], Fact] = {}
        for fact in out.facts:  # the same statement twice in a session is one fact (the first)
            unique.setdefault((fact.topic, fact.content.lower()), fact)
        out.facts = list(unique.values())
        return out

    @staticmethod
    def speaker(event: Event) -> str:
        return "User" if event.role == "user" else event.author.strip()

    def fact(
        self, event: Event, rule: RuleFact, sources: tuple[str, ...] | None = None, context: str = "", limit: int = 200
    ) -> Fact:
        """A fact of at most ``limit`` characters of its own, after an optional context prefix."""
        content = shorten(rule.content, limit)
        content = f"{context} {content}" if context else content
        return Fact(
            topic=rule.topic, content=content, source_event_ids=sources or (event.id,),
            stated_at=event.timestamp, speaker=self.speaker(event), importance=rule.importance,
            slot=rule.slot, value=rule.value, expires_at=expiry_from_text(rule.content, event.timestamp),
        )  # fmt: skip

    def _person_turn(
        self, event: Event, out: Extraction, previous: Event | None, earlier: Event | None,
        people: Mapping[str, str] | None = None,
    ) -> None:  # fmt: skip
        asked = question_to(previous, event, earlier)
        if event.role == "user":  # the user's own statements: nothing informative may be lost
            offer = previous if previous is not None and previous.role == "agent" else None
            UserClauses(self, event, out, asked, people, offer).run()
            return
        who = self.speaker(event)
        narrative: list[str] = []
        for raw in sentences(event.text):
            sentence = clean(raw)
            if SMALL_TALK.match(sentence):  # "Hi Sam, since we last talked I've started …": what follows counts
                sentence = after_pleasantry(sentence)
            if not sentence or is_reaction(sentence) or is_social(sentence):
                continue
            # "Don't forget that …" asks to remember, not to forget
            if (target := forget_target(reminded(sentence))) is not None:
                out.forgets.append(ForgetRequest(query=target, source_event_ids=(event.id,),
                                                 stated_at=event.timestamp, speaker=who))  # fmt: skip
                continue
            resolved = resolve_dates(sentence, event.timestamp)
            # A participant's imperative ("Never give up, buddy!") is said to the other person, not to the
            # assistant: no instruction, the sentence is kept as said.
            rules = [
                r
                for clause in clauses(resolved)
                for fn in RULES
                if (r := fn(clause, who)) and not VAGUE.search(r.content) and r.topic != "explicit_instructions"
            ]
            rule = rules[0] if rules else None
            for found in rules:
                out.facts.append(self.fact(event, found))
            custom = self.custom_topic(resolved)
            if custom:
                out.facts.append(self.fact(event, RuleFact(custom, third_person(resolved, who), 0.6)))
            elif not rule and self._informative(sentence, event.role == "other", answering=asked is not None):
                narrative.append(third_person(resolved, who))
        self._narrative(event, who, narrative, out, asked)

    def _informative(self, sentence: str, participant: bool, answering: bool) -> bool:
        """A statement with enough content; a user's must also be about themselves (else chit-chat).

        An answer to a question needs fewer words of its own: the question supplies the context.
        """
        if sentence.endswith("?") or REQUEST.match(sentence):
            return False
        words = content_words(sentence)
        needed = self._min_words - 1 if answering else self._min_words
        return len(words) >= needed and (participant or bool(FIRST_PERSON.search(sentence)))

    def _narrative(self, event: Event, who: str, parts: list[str], out: Extraction, asked: Asked | None) -> None:
        """Informative statements of one turn, packed into details of at most ``NARRATIVE_CHARS``.

        Longer than a managed-topic fact: a conversation detail keeps the whole statement, so a
        recalled memory still holds the specifics (names, objects, reasons) a question asks for.

        The first fact of an answer carries the question it answers and cites that turn too.
        """
        chunks: list[str] = []
        for part in parts:
            text = part if part.lower().startswith(who.lower()) else f"{who}: {part}"
            if chunks and len(chunks[-1]) + len(text) + 1 <= NARRATIVE_CHARS:
                chunks[-1] = f"{chunks[-1]} {part}"
            else:
                chunks.append(text)
        for i, chunk in enumerate(chunks):
            if i == 0 and asked is not None:
                fact = self.fact(event, RuleFact("key_conversation_details", chunk, 0.4),
                                  sources=(asked.event_id, event.id), context=asked.prefix,
                                  limit=NARRATIVE_CHARS)  # fmt: skip
            else:
                fact = self.fact(event, RuleFact("key_conversation_details", chunk, 0.4), limit=NARRATIVE_CHARS)
            out.facts.append(fact)

    def custom_topic(self, sentence: str) -> str | None:
        return next((name for name, pats in self._custom if any(p.search(sentence) for p in pats)), None)

    def _agent_turn(self, event: Event, following: Sequence[Event], out: Extraction) -> None:
        """Outcomes the agent reports, and what the user agreed to (:mod:`tasks.providers.agent_turns`)."""
        for rule, cites in agent_facts(event, following):
            out.facts.append(self.fact(following[0] if len(cites) > 1 else event, rule, sources=cites))
