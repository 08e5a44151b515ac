"""Local, deterministic consolidator: slot rules first, then similarity plus light wording cues.

Why rules and not a model: offline by default, reproducible re-runs, and every verdict carries a
reason a person can check. Slots (filled by the extractor) decide most cases exactly: same slot and
same value is a duplicate, same slot and another value a contradiction. Without slots we fall back
to cosine thresholds and general cues (negation flips, "no longer", "switched to", added detail).
"""

from __future__ import annotations

from collections.abc import Sequence

from tasks.models import Decision, Fact, ForgetRequest, Relation
from tasks.providers.amounts import beside_amount
from tasks.providers.base import ScoredMemory
from tasks.providers.change_cues import CATCH_ALL, about_someone, change_decision, claim, only_the_person
from tasks.providers.clause_shape import specifics
from tasks.providers.corrections import correcting
from tasks.providers.forget_areas import area_match, named_areas, named_kin
from tasks.providers.forget_parts import kept_of
from tasks.providers.forget_pointed import pointed_at
from tasks.providers.forget_values import FAMILY_AT, family_words, forgotten_values, same_family, states_value
from tasks.providers.jobs import JOB_SLOTS, job_changed
from tasks.providers.people import household, memory_ties
from tasks.providers.sameness import OCCASION, confirms, extends, restates
from tasks.providers.settling import settles, without_departed
from tasks.providers.statements import STRONG_CUE, pauses
from tasks.providers.wording import (
    FORGET_WORDS,
    GENERIC_HEADS,
    LIGHT_VERBS,
    content_words,
    has_change_cue,
    is_negated,
    strip_annotation,
    tokens,
)
from tasks.rows import MemoryRow

#: Slots the extractor derives from a clause's shape ("about:car"): hints, not exclusive values.
GENERIC = "about:"


def _norm(value: str) -> str:
    return " ".join(tokens(value))


def _overlap(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


class LocalConsolidator:
    """Rule-based :class:`~tasks.providers.base.Consolidator` over cosine similarities.

    ``duplicate_threshold``: at or above, same wording means the same memory (IGNORE).
    ``related_threshold``: below it a memory is unrelated unless it shares the fact's slot.
    ``forget_threshold``: a forget request matches a memory on similarity alone at or above it.
    """

    def __init__(self, duplicate_threshold: float, related_threshold: float, forget_threshold: float = 0.7) -> None:
        self.duplicate_threshold = duplicate_threshold
        self.related_threshold = related_threshold
        self.forget_threshold = forget_threshold

    def decide(self, fact: Fact, related: Sequence[ScoredMemory]) -> Decision:
        """ADD, UPDATE (contradicts / supersedes / refines) or IGNORE (duplicates) for one fact, with the
        plans it carries out besides ("Moved to Warsaw!" changes the home and settles "moving to Warsaw")."""
        decision = self._decide(fact, related)
        if decision.action not in ("ADD", "UPDATE"):
            return decision
        if decision.new_content and ", with " in decision.new_content:  # a move's household, less the departed
            own = [s.memory.content for s in related if s.memory.speaker == fact.speaker]
            decision = decision.model_copy(update={"new_content": without_departed(decision.new_content, own)})
        changed = (fact.value or "") if decision.relation in ("contradicts", "supersedes") else ""
        closes = [
            s.memory.memory_id
            for s in related
            if s.memory.memory_id != decision.target_memory_id
            and s.memory.status == "active"
            and s.memory.speaker == fact.speaker
            and settles(fact.content, s.memory, claim(s.memory.content), s.similarity, changed)
        ]
        return decision.model_copy(update={"closes": closes}) if closes else decision

    def _decide(self, fact: Fact, related: Sequence[ScoredMemory]) -> Decision:
        if pauses(fact.content):  # "no gym for a few weeks" pauses a habit, it does not end it
            return self._restated(fact, related) or Decision(action="ADD", relation="new", reason="a pause, not an end")
        if (fixed := correcting(fact, related)) is not None:  # "actually it's July not June": the plan, in July
            return self._update(fixed[0], fixed[1], "contradicts", fixed[2])
        if self._own_change(fact, related):
            found = change_decision(fact, related, self.duplicate_threshold)
            if found is not None:
                kind, memory, why = found
                if kind == "IGNORE":
                    return Decision(action="IGNORE", target_memory_id=memory.memory_id, relation="duplicates",
                                    reason=why)  # fmt: skip
                return self._update(fact, memory, kind, why, kept=beside_amount(fact.content, claim(memory.content)))
        candidates = sorted((s for s in related if self._comparable(fact, s)), key=lambda s: s.similarity, reverse=True)
        if not candidates:  # a restatement under another slot's name ("User's cat is named Miso" / "has a cat")
            near = [s for s in related if s.similarity >= self.related_threshold and s.memory.speaker == fact.speaker]
            return self._restated(fact, near) or Decision(action="ADD", relation="new", reason="no related memory")
        slotted = self._slot_decision(fact, candidates)
        if slotted is not None:
            return slotted
        best = candidates[0]
        memory = best.memory
        new_words, old_words = content_words(fact.content), content_words(memory.content)
        flipped = is_negated(fact.content) != is_negated(memory.content)
        same_topic = memory.topic == fact.topic
        close = best.similarity >= self.duplicate_threshold
        sim = f"similarity {best.similarity:.2f}"
        changes = not only_the_person(fact.content, old_words)  # two things of one person change neither
        if changes and flipped and (close or (same_topic and _overlap(new_words, old_words) >= 0.5)):
            return self._update(fact, memory, "contradicts", f"negation flips a memory ({sim})")
        # The catch-all topic says nothing about sameness: there a change must also share most words, or
        # be about someone the memory names with a word of it (only_the_person checked that).
        kin = same_topic and (
            memory.topic != CATCH_ALL or _overlap(new_words, old_words) >= 0.5 or about_someone(fact.content)
        )
        if changes and has_change_cue(fact.content) and (close or kin):
            return self._update(fact, memory, "supersedes", f"states a change ({sim})")
        # A state told again with more ("learning Spanish and Italian") is the state as it now stands.
        extended = next((s for s in candidates if extends(fact.content, s.memory.content)), None)
        if extended is not None:
            why = f"says all of a current memory and more (similarity {extended.similarity:.2f})"
            return self._update(fact, extended.memory, "refines", why)
        # A detail told on another occasion is another event ("gave talks at the shelter" months after
        # "volunteers at the shelter"), not a sharper wording of the first: both stay, each with its turns.
        if same_topic and self._refines(new_words, old_words):
            if memory.topic == CATCH_ALL and abs(fact.stated_at - memory.stated_at) > OCCASION:
                return Decision(action="ADD", relation="new", reason=f"adds to a detail of another occasion ({sim})")
            return self._update(fact, memory, "refines", f"adds detail to a memory ({sim})")
        restated = None if flipped else self._restated(fact, candidates)
        if restated is not None:
            return restated
        if close and confirms(fact, memory, memory.content):
            return Decision(
                action="IGNORE",
                target_memory_id=memory.memory_id,
                relation="duplicates",
                reason=f"duplicate of a current memory ({sim})",
            )
        return Decision(action="ADD", relation="new", reason=f"related but distinct (best {sim})")

    def forget(self, request: ForgetRequest, related: Sequence[ScoredMemory]) -> list[Decision]:
        """DELETE every related memory the request names: by similarity, its words, the slot, its area or
        person, or else the one memory it points at."""
        decisions: list[Decision] = []
        for scored, why in self._forgotten(request, related):
            memory = scored.memory
            rest, whole = kept_of(memory.content, request.keep) if request.keep else (None, False)
            if not whole:  # "keep that I'm a loan officer, but …": the job's clause stays as ``new_content``
                decisions.append(
                    Decision(
                        action="DELETE",
                        target_memory_id=memory.memory_id,
                        relation="forgets",
                        reason=f'forget request "{request.query}" ({why})',
                        new_content=rest,
                    )
                )
        return decisions

    def _forgotten(self, request: ForgetRequest, related: Sequence[ScoredMemory]) -> list[tuple[ScoredMemory, str]]:
        """The related memories a request names, each with why."""
        words = content_words(request.query) - content_words(" ".join(FORGET_WORDS))
        core = (words - content_words(" ".join(LIGHT_VERBS))) or words
        # A kind-of-thing head ("my photography job") need not be said: the other words name the memory.
        named = (core - content_words(" ".join(GENERIC_HEADS))) or core
        query, values, kin = request.query, forgotten_values(request.query), named_kin(request.query)
        # The people the user's memories tie ("Priya" -> "ex"), read only for a request naming someone by a tie.
        names = memory_ties(s.memory.content for s in related) if kin else {}
        found = []
        for scored in related:
            why = self._forget_match(scored, core, named, query) or states_value(scored.memory, request, values)
            if why := why or area_match(query, scored.memory.content, names):  # "my health stuff", "my ex"
                found.append((scored, why))
        # An area or a person has its own rules (cosine does not tell "my vehicle" from a driving instructor, and a
        # name outweighs "my sister's wedding plans" against "User's sister lives in Dublin"); else one thing is meant.
        own = [s for s in related if (s.memory.speaker or "").lower() == (request.speaker or "").lower()]
        if found or kin or named_areas(query) or (pointed := pointed_at(own, query)) is None:
            return found  # by rank, only a memory of the request's own speaker
        best, margin = pointed  # "that thing about the fender bender": the one it can mean
        return [(best, f"the memory it points at (similarity {best.similarity:.2f}, {margin:.2f} above the next)")]

    # -- helpers -------------------------------------------------------------------------------

    @staticmethod
    def _own_change(fact: Fact, related: Sequence[ScoredMemory]) -> bool:
        """Generic slots always; the user's lexicon-slot facts with a change cue when no memory has that slot.

        Participants of multi-party chats keep the general rules below.
        """
        if fact.slot and fact.slot.startswith(GENERIC):
            return True
        return (
            fact.speaker == "User"
            and STRONG_CUE.search(fact.content) is not None
            and not (fact.slot and any(s.memory.slot == fact.slot for s in related))
        )

    def _comparable(self, fact: Fact, scored: ScoredMemory) -> bool:
        """Above the related threshold or sharing the slot; never a memory of another known slot."""
        slot = scored.memory.slot
        if fact.slot and slot and not fact.slot.startswith(GENERIC) and not slot.startswith(GENERIC):
            return fact.slot == slot or {fact.slot, slot} <= JOB_SLOTS
        return scored.similarity >= self.related_threshold

    def _slot_decision(self, fact: Fact, candidates: Sequence[ScoredMemory]) -> Decision | None:
        if not (fact.slot and fact.value) or fact.slot.startswith(GENERIC):
            return None
        job = next(((s.memory, c) for s in candidates if (c := job_changed(fact, s.memory))), None)
        if job is not None:  # "started at the Royal Free" after "works as a nurse at St Mary's"
            return self._update(fact, job[0], "contradicts", f"employer changed from {job[1][0]} to {job[1][1]}")
        match = next((s.memory for s in candidates if s.memory.slot == fact.slot and s.memory.value), None)
        if match is None or match.value is None:
            return None
        if _norm(match.value) == _norm(fact.value):
            # The same value may come with more: "a cat named Miso and a dog named Tofu" (Tofu was lost).
            if extends(fact.content, match.content):
                return self._update(fact, match, "refines", f"same {fact.slot}: {fact.value}, and more")
            # Other words for the same value are a confirmation ("always wants the aisle seat when flying");
            # a name or number the memory lacks is not ("and a dog named Tofu").
            if specifics(fact.content) - specifics(match.content) and not confirms(fact, match, match.content):
                return None
            return Decision(
                action="IGNORE",
                target_memory_id=match.memory_id,
                relation="duplicates",
                reason=f"same {fact.slot}: {fact.value}",
            )
        return self._update(
            fact, match, "contradicts", f"{fact.slot} changed from {match.value} to {fact.value}", match.value
        )

    @staticmethod
    def _restated(fact: Fact, scored: Sequence[ScoredMemory]) -> Decision | None:
        """IGNORE of a fact that says one of these memories again (:func:`restates`)."""
        again = next((s for s in scored if restates(fact.content, s.memory.content)), None)
        if again is None:
            return None
        why = f"restates a current memory (similarity {again.similarity:.2f})"
        return Decision(action="IGNORE", target_memory_id=again.memory.memory_id, relation="duplicates", reason=why)

    def _refines(self, new: frozenset[str], old: frozenset[str]) -> bool:
        """The new fact keeps (nearly) all the old words and adds at least two: more specific."""
        if not old:
            return False
        kept = len(old & new) / len(old)
        return kept >= 0.8 and len(new - old) >= 2

    def _update(
        self,
        fact: Fact,
        memory: MemoryRow,
        relation: Relation,
        reason: str,
        old_value: str | None = None,
        kept: str = "",
    ) -> Decision:
        day = fact.stated_at.date().isoformat()
        new = strip_annotation(fact.content).rstrip(". ")
        old = old_value or strip_annotation(memory.content).rstrip(". ")
        home = (
            household(strip_annotation(memory.content)) if memory.slot == "location" and relation != "refines" else ""
        )
        if home and not content_words(home) & content_words(new):  # a move takes the household along
            new = f"{new}, with {home}"
        if kept:  # "trying to lose weight" stays beside the new weight
            new = f"{new.rstrip('!')}; {kept}"
        if relation == "refines":
            content = f"{new} (refined on {day}; was: {old})"
        elif old_value:
            content = f"{new} (changed from {old} on {day})"
        else:
            content = f"{new} (previously: {old}; changed on {day})"
        return Decision(
            action="UPDATE",
            target_memory_id=memory.memory_id,
            new_content=content,
            relation=relation,
            reason=reason,
        )

    def _forget_match(self, scored: ScoredMemory, core: frozenset[str], named: frozenset[str], query: str) -> str:
        memory = scored.memory
        if scored.similarity >= self.forget_threshold:
            return f"similarity {scored.similarity:.2f}"
        words = content_words(memory.content)
        if core and core <= words:
            return "names its words"
        if core and scored.similarity >= FAMILY_AT:
            asked, said = family_words(query, named), family_words(memory.content, words)
            if asked and all(any(same_family(w, m) for m in said) for w in asked):
                return f"names its words in another form (similarity {scored.similarity:.2f})"
        slot_words = content_words(memory.slot.replace(":", " ")) if memory.slot else frozenset()
        value_words = content_words(memory.value) if memory.value else frozenset()
        if core and ((slot_words and slot_words & core) or (value_words and value_words <= core)):
            return f"names its {memory.slot or 'value'}"
        return ""
