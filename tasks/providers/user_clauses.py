"""The user's own turns: every informative clause becomes a fact, with its frame as a generic slot.

Why a path of its own: a user's statement is what a memory system must never lose. The rules of
:mod:`tasks.providers.extraction_rules` stay the fast path; whatever they do not cover is still
kept clause by clause (a compound sentence's second clause with an identifier is a fact of its
own), a retraction ("scratch that, it's Tuesday") rewrites the fact it takes back instead of
adding a second one, and each fact carries ``about:<frame>`` / value from
:mod:`tasks.providers.statements` so that the consolidator can tell a change from a new fact
without a word list. A sentence with a change cue stays whole, so old and new value travel together.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Protocol

import tasks.providers.clause_shape as shape
from tasks.models import Event, Extraction, Fact, ForgetRequest
from tasks.plural import reported
from tasks.providers.acts_on import acts_on_a_thing
from tasks.providers.asked_apart import asked_apart, is_pretend
from tasks.providers.chat_speak import spelled_out
from tasks.providers.choices import chosen
from tasks.providers.clause_shape import IDENTIFIER_WORD, Asked, answered, covered_by, elaborates, rule_drops
from tasks.providers.extraction_rules import RULES, RuleFact
from tasks.providers.forget_request import change_after, forget_target, kept_part, reminded
from tasks.providers.forget_said import forget_asks
from tasks.providers.implicit_subject import with_subject
from tasks.providers.in_passing import carried, in_passing
from tasks.providers.listed import listed
from tasks.providers.not_told import unpasted, untold
from tasks.providers.offered import picked
from tasks.providers.people import attribute_of, echoed, named_lead, opens_with_name, renamed, says_relative
from tasks.providers.requested import requested
from tasks.providers.retractions import retract, retraction
from tasks.providers.said_as import as_said
from tasks.providers.statements import STRONG_CUE, WEAK_CUE, frame_of, is_specific, old_words
from tasks.providers.wording import OPENERS, STOP, is_negated
from tasks.textrules import (
    FIRST_PERSON,
    REQUEST,
    RESOLVED_DATE,
    USER_CLAUSE,
    VAGUE,
    clauses,
    clean,
    content_words,
    resolve_dates,
    sentences,
)
from tasks.third_person import third_person
from tasks.wordnet import opens_with_common_word


class FactMaker(Protocol):
    """What the clause splitter needs of its extractor (the LocalExtractor), without importing it."""

    def speaker(self, event: Event) -> str: ...

    def fact(
        self, event: Event, rule: RuleFact, sources: tuple[str, ...] | None = None, context: str = "", limit: int = 200
    ) -> Fact: ...

    def custom_topic(self, sentence: str) -> str | None: ...


#: A clause about someone else, by pronoun: it means something only after a question that names them.
_ABOUT_THEM = re.compile(r"(?:he|she|they)(?:'s|'re| \w+)", re.I)
_CUES = re.compile(f"{STRONG_CUE.pattern}|{WEAK_CUE.pattern}", re.I)


class UserClauses:
    """Facts of one user turn (rules first, then every remaining informative clause)."""

    def __init__(
        self, extractor: FactMaker, event: Event, out: Extraction, asked: Asked | None,
        people: Mapping[str, str] | None = None, offer: Event | None = None,
    ) -> None:  # fmt: skip
        self.x, self.event, self.out, self.asked, self.offer = extractor, event, out, asked, offer
        self.who = extractor.speaker(event)
        self.people = people or {}  # name -> relation, from earlier sessions (tasks.providers.people)
        self.first_generic = True

    def run(self) -> None:
        text = spelled_out(self.event.text)  # "IM SO DONE", "tmrw", "... lol every time ..."
        if self.asked is not None and (fixed := renamed(self.asked.prefix, text)) is not None:
            self.asked = Asked(self.asked.event_id, fixed)  # "What does your wife enjoy?" "my husband, Theo"
            text = echoed(text)  # "Is your sister coming?" "my brother is, yes"
        if (asked := self.asked) is not None and (said := shape.bare_answer(text, asked.prefix)):
            rule = RuleFact("key_conversation_details", f"{self.who} said {said}", 0.5)  # "Still vegetarian?" "yes"
            self.out.facts.append(self.x.fact(self.event, rule, (asked.event_id, self.event.id), asked.prefix))
            return
        if asked is not None and (choice := chosen(asked.prefix, text)) is not None:  # "oak or walnut?" "walnut"
            self._add(RuleFact("key_conversation_details", f"{self.who} {choice[0]}", 0.6), choice[0], generic=True)
            text = choice[1]
        elif self.offer is not None and (choice := picked(self.offer.text, text)) is not None:  # "the second one"
            rule = RuleFact("key_conversation_details", f"{self.who} {choice[0]}", 0.6, "about:", None)
            self.out.facts.append(self.x.fact(self.event, rule, (self.offer.id, self.event.id)))
            text = choice[1]
        parts = [shape.TRAILING_ASIDE.sub("", clean(raw)) for raw in answered(in_passing(untold(asked_apart(
            sentences(listed(unpasted(text)))))))]  # fmt: skip
        parts = [reminded(p) for p in parts]  # "Don't forget that …" asks to remember, not to forget
        asks = forget_asks(parts)  # "Ok thanks, forget my address"; "the gambling thing, can u forget it?"
        for i, sentence in enumerate(parts):
            if i in asks:
                self._forget(sentence, asks[i])
                continue
            if not sentence or shape.is_small_talk(sentence) or is_pretend(sentence):
                continue
            if (value := retraction(sentence)) is not None and retract(self.out.facts, self.who, value, self.event):
                continue
            # "Quick update: moved to X" starts with its verb too; "Make a note: ..." reads "Remember that ..."
            sentence = as_said(shape.noted(requested(shape.FILLER.sub("", sentence))))  # "New rule: no …"
            sentence = carried(with_subject(sentence, self.people) or sentence, self.people)
            self._sentence(resolve_dates(sentence, self.event.timestamp))

    def _forget(self, sentence: str, targets: list[str]) -> None:
        at, keep = self.event.timestamp, kept_part(sentence)  # "You can keep that I'm a nurse, but forget …"
        for target in targets:
            self.out.forgets.append(ForgetRequest(query=target, source_event_ids=(self.event.id,), speaker=self.who,
                                                  stated_at=at, keep=keep))  # fmt: skip
        if (whole := forget_target(sentence)) and (rest := change_after(sentence, whole)):  # "…, we switched to Y"
            self._sentence(resolve_dates(rest, self.event.timestamp))

    def _sentence(self, resolved: str) -> None:
        rules: list[RuleFact] = []
        cued: list[RuleFact] = []  # rules from a clause with a change cue: the new value, when not negative
        for clause in clauses(resolved, USER_CLAUSE):
            found = [r for fn in RULES if (r := fn(clause, self.who)) and not VAGUE.search(r.content)]
            if len(found) == 1 and rule_drops(clause, found[0].content):  # the user's clause, the rule's slot
                rule = found[0]
                found = [RuleFact(rule.topic, self._third(clause), rule.importance, rule.slot, rule.value)]
            rules += found
            cued += found if _CUES.search(clause) else []
        cue = STRONG_CUE.search(resolved) is not None
        change = bool(rules) and (cue or WEAK_CUE.search(resolved) is not None)
        covered = " ".join(r.content for r in rules)
        rest: list[str] = []
        details: list[str] = []  # "I work at Google, mostly on search": what a rule's clause goes on to say
        for clause in shape.clauses_of(resolved, cue, bool(rules)):
            clause = shape.FILLER.sub("", clause.strip(" ,;-")).strip()
            # In a change, a clause with the cue carries the new value even without "I" ("it's all jazz now").
            carries = change and _CUES.search(clause) is not None and len(content_words(clause)) >= 2
            if not clause or (rules and covered_by(clause, covered)):
                continue
            kept = carries or self._informative(clause, not rules)
            if kept and not (len(rules) == 1 and shape.is_condition(clause)):
                rest.append(clause)
            elif len(rules) == 1 and elaborates(clause):
                details.append(clause)
        merged: RuleFact | None = None
        if change:
            merged, rules, rest = self._one_change(rules, cued, rest)
        elif details:  # the rule's fact keeps them: a detail is lost if dropped, and means little alone
            rule = rules[0]
            said = shape.with_details(rule.content, details, self.who)
            rules = [RuleFact(rule.topic, said, rule.importance, rule.slot, rule.value)]
        for rule in rules:
            self._add(rule, resolved, generic=rule is merged and rule.slot is None)
        if custom := self.x.custom_topic(resolved):
            self._add(RuleFact(custom, third_person(resolved, self.who), 0.6), resolved)
            return
        for clause in rest:
            fact = RuleFact("key_conversation_details", self._third(clause), 0.5)
            if (slot := self._their_attribute(clause)) is not None:  # "my son Elif lives in Oslo": Elif's home
                self._add(RuleFact(fact.topic, fact.content, fact.importance, *slot), clause)
            else:
                self._add(fact, clause, generic=True)

    def _one_change(
        self, rules: list[RuleFact], cued: list[RuleFact], rest: list[str]
    ) -> tuple[RuleFact | None, list[RuleFact], list[str]]:
        """A change said in one sentence is one fact: the new value's rule, with what names the old one.

        Split apart, "I left my old job as a nurse" or "I gave up cold brew" would stay current beside
        the new value and be recalled as the answer. A rule stating a value without a negation ("I love
        coffee but I've switched to tea") stays its own fact, for consolidation to supersede; clauses with
        an identifier (not a mere count: "been like 3 months" goes with it) keep a fact of their own.
        """

        def old(rule: RuleFact) -> bool:
            if rule.value:
                return rule.value.startswith("not ")
            return is_negated(rule.content) or bool(old_words(rule.content))

        fresh = [r for r in rules if not old(r)]
        primary = next(
            (r for r in fresh if r in cued), next((r for r in fresh if r.slot), fresh[0] if fresh else rules[0])
        )
        joined = [r for r in rules if r is not primary and old(r)]
        absorbed = [c for c in rest if not IDENTIFIER_WORD.search(RESOLVED_DATE.sub("", c))]
        if not joined and not absorbed:
            return None, rules, rest
        said = [third_person(c, self.who).rstrip(". ") for c in absorbed]
        # "switched to green tea because it helps my sleep" says the rule's "has switched to green tea" and more
        head = re.sub(r"^(\S+) (?:has|have|is|are) ", r"\1 ", primary.content.rstrip(". ")).lower()
        again = next((p for p in said if p.lower().startswith(head)), None)
        parts = [again or primary.content.rstrip(". "), *(r.content.rstrip(". ") for r in joined)]
        parts += [p for p in said if p is not again]
        importance = max(r.importance for r in (primary, *joined))
        merged = RuleFact(primary.topic, "; ".join(parts), importance, primary.slot, primary.value)
        kept = [merged if r is primary else r for r in rules if r not in joined]
        return merged, kept, [c for c in rest if c not in absorbed]

    def _informative(self, clause: str, alone: bool = True) -> bool:
        """Not a question or a request; an identifier, a stated attribute or enough words (alone: no rule read it)."""
        if clause.endswith("?") or REQUEST.match(clause):
            return False
        if is_specific(RESOLVED_DATE.sub("", clause)) or frame_of(clause) is not None:
            return True
        about = self._relative(clause) or opens_with_name(clause, self.people) or says_relative(clause)
        if about and len(content_words(clause)) >= 2:  # "Sam is gluten-free" after "my partner Sam"
            return True  # about someone in the user's life; "My brother just got engaged"
        needed = 2 if self.asked is not None or (alone and acts_on_a_thing(clause)) else 3  # "We foster kittens"
        strong = STRONG_CUE.search(clause) is not None
        if strong and content_words(clause):
            return True  # "The dog is gone now", "There's no X anymore": a change said without "I"
        if strong or shape.is_news(clause) or re.search(r"\b(?:not|never|no)\b|n't\b", clause, re.I):
            needed = 1  # "I'm not vegan any more": one word of content, and it closes a fact; "Got a puppy!"
        if self.first_generic and self._seeks() and shape.is_short_answer(clause) and content_words(clause):
            return True  # "Any dietary restrictions?" "Gluten-free, and my son can't have dairy"
        if self.asked is not None and len(content_words(clause)) >= 2 and shape.names_day(clause):
            return True  # "Should I schedule the call for Monday?" "Not Monday. Tuesday works."
        if self.asked is not None and _ABOUT_THEM.match(clause) and len(content_words(clause)) >= 2:
            return True  # "Does your mum have any preferences?" "she doesn't like spicy food": the question names her
        return FIRST_PERSON.search(clause) is not None and len(content_words(clause)) >= needed

    def _seeks(self) -> bool:
        """The agent asked for something the user has or is: the answer's first words are worth keeping."""
        return self.asked is not None and shape.seeks(self.asked.prefix)

    def _relative(self, clause: str) -> str | None:
        """The relation when the clause opens with a name the user tied to themselves earlier in the
        session ("... with my partner Sam." then "Sam is gluten-free" → "partner") or in an earlier
        one; not for "Tom Hanks", whose first name only looks like the brother's."""
        name = re.match(r"[A-Z][a-z]+\b(?!')(?!\s+[A-Z][a-z])", clause)
        if name is None or name[0].lower() in STOP or name[0].lower() in OPENERS:
            return None
        tie = re.compile(rf"\b{re.escape(self.who)}'s (\w+) {name[0]}\b")
        here = next((m[1] for f in self.out.facts if (m := tie.search(f.content))), None)
        return here or (self.people.get(name[0]) if self.event.role == "user" else None)

    def _their_attribute(self, clause: str) -> tuple[str, str] | None:
        """(slot, value) of what a clause says of someone in the user's life ("Elif moved to Oslo" →
        "elif:location", "Oslo"): a change of theirs then replaces their value, never the user's own."""
        lead = named_lead(clause)
        if lead is None and self._relative(clause) is not None:
            name = clause.split()[0]
            lead = (name, "", clause[len(name) :].strip())
        return attribute_of(lead[0], lead[2]) if lead is not None else None

    def _third(self, clause: str) -> str:
        text = third_person(clause, self.who)
        if named_lead(clause) is None and (relation := self._relative(clause)):  # "Elif, my son, ..." says it
            # at the name's own place: "Mia and I" → "User and User's girlfriend Mia"
            name = re.escape(clause.split()[0].strip(",;:!?."))
            tied, found = re.subn(rf"\b({name})\b", rf"{self.who}'s {relation} \1", text, count=1)
            return tied if found else f"{self.who}'s {relation} {text}"
        first = re.split(r"[\s',]", clause, maxsplit=1)[0].lower()
        # "Sam thinks": a name; "Probably the 14th", "Around 600 euros": a sentence's first word
        adverb = first.endswith("ly") and first.capitalize() not in self.people  # "Honestly", not "Sicily"
        proper = clause[:1].isupper() and first not in STOP and first not in OPENERS and not adverb
        text = text[:1].upper() + text[1:]
        if re.match(rf"(?:\w+ ){{0,2}}{re.escape(self.who)}\b", text):
            return text
        if re.match(r"[A-Z]{2}", text):
            return f"{self.who} mentioned: {text}"
        if shape.is_fragment(clause):  # "Around 600 euros total": an answer, not a sentence to report
            return f"{self.who} mentioned: {text[:1].lower() + text[1:]}"
        said = text if proper else text[:1].lower() + text[1:]
        if self._seeks() and shape.is_short_answer(clause):  # "Gluten-free", "London for now"
            return f"{self.who} mentioned: {said}"
        if opens_with_common_word(clause) and first.capitalize() not in self.people:  # "Mornings", not "Tokyo"
            said = text[:1].lower() + text[1:]
        return f"{self.who} mentioned that {reported(said)}"

    def _add(self, rule: RuleFact, clause: str, generic: bool = False) -> None:
        if generic:  # "about:" alone: a statement of the user whose attribute is unknown
            frame = frame_of(clause)
            slot, value = (f"about:{frame.name}", frame.value) if frame else ("about:", None)
            rule = RuleFact(rule.topic, rule.content, rule.importance, slot, value)
        if generic and self.first_generic and self.asked is not None:
            fact = self.x.fact(self.event, rule, sources=(self.asked.event_id, self.event.id),
                               context=self.asked.prefix)  # fmt: skip
        else:
            fact = self.x.fact(self.event, rule)
        self.first_generic = self.first_generic and not generic
        self.out.facts.append(fact)
