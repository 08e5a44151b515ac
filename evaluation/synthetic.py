"""Seeded generator of a labelled memory dataset: users, months of sessions, facts and questions.

LoCoMo has no corrections or forget requests and no gold facts, so this set exists to measure what
only a memory pipeline can get right: the updated value wins over the stale one, forgotten facts do
not come back, restated facts are not duplicated and small talk is not remembered. Everything is
drawn from ``random.Random`` seeded per user, so a seed gives the same dataset on every machine.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from pydantic import BaseModel

from evaluation.dataset import EvalDataset, EvalQuestion, GoldFact
from evaluation.synthetic_bank import ACKS, CLOSERS, FORGET_ACKS, OPENERS, SLOTS, SMALL_TALK, SlotSpec
from tasks.models import Event, Role, Session

APP_NAME = "assistant"
EPOCH = datetime(2024, 1, 8, 9, 0, tzinfo=UTC)
UPDATABLE = ("job", "city", "drink", "seat", "music")
FORGETTABLE = ("city", "pet")


class SyntheticConfig(BaseModel):
    """Size and seed of the generated set; small sizes keep tests fast, defaults give a fuller picture."""

    users: int = 6
    sessions_per_user: int = 12
    seed: int = 7
    small_talk_per_session: int = 3


@dataclass
class _Fact:
    spec: SlotSpec
    value: str
    events: list[str] = field(default_factory=list)
    stated_at: datetime = EPOCH


@dataclass
class _Beat:
    """One exchange planned for a session: a user turn, the agent's reply, and what it does."""

    user: str
    agent: str
    op: str = "chat"  # chat | intro | restate | update | forget
    slot: str = ""
    value: str = ""


def _plan(rng: random.Random, n_sessions: int) -> list[list[_Beat]]:
    """Pick the user's values and spread intros, restatements, updates and forgets over sessions."""
    values = {spec.slot: rng.choice(spec.values) for spec in SLOTS}
    sessions: list[list[_Beat]] = [[] for _ in range(n_sessions)]
    intro_span = max(1, n_sessions // 2)
    intro_at: dict[str, int] = {}
    order = list(SLOTS)
    rng.shuffle(order)
    for i, spec in enumerate(order):
        s = i % intro_span
        intro_at[spec.slot] = s
        text = rng.choice(spec.say).format(v=values[spec.slot])
        sessions[s].append(_Beat(text, rng.choice(ACKS), "intro", spec.slot, values[spec.slot]))
    if n_sessions < 2:
        return sessions
    by_slot = {spec.slot: spec for spec in SLOTS}
    forget = rng.choice(FORGETTABLE)
    updates = rng.sample([s for s in UPDATABLE if s != forget], 2)
    restates = rng.sample([s.slot for s in SLOTS if s.slot not in (forget, *updates)], 2)

    def later(slot: str) -> int:
        return rng.randint(intro_at[slot] + 1, n_sessions - 1)

    for slot in updates:
        spec = by_slot[slot]
        new = rng.choice([v for v in spec.values if v != values[slot]])
        text = rng.choice(spec.update).format(v=new, old=values[slot])
        sessions[later(slot)].append(_Beat(text, rng.choice(ACKS), "update", slot, new))
    spec = by_slot[forget]
    text = rng.choice(spec.forget).format(v=values[forget])
    sessions[later(forget)].append(_Beat(text, rng.choice(FORGET_ACKS), "forget", forget, values[forget]))
    for slot in restates:
        text = rng.choice(by_slot[slot].restate).format(v=values[slot])
        sessions[later(slot)].append(_Beat(text, rng.choice(ACKS), "restate", slot, values[slot]))
    return sessions


def _render(
    rng: random.Random, user_id: str, index: int, start: datetime, beats: list[_Beat], small_talk: int
) -> tuple[Session, list[tuple[_Beat, str, datetime]]]:
    """Interleave the planned beats with small talk; return the session and where each beat landed."""
    chat = [_Beat(u, a) for u, a in rng.sample(SMALL_TALK, min(small_talk, len(SMALL_TALK)))]
    middle = beats + chat
    rng.shuffle(middle)
    exchanges = [_Beat(*rng.choice(OPENERS)), *middle, _Beat(*rng.choice(CLOSERS))]
    session_id = f"{user_id}-s{index:02d}"
    events: list[Event] = []
    placed: list[tuple[_Beat, str, datetime]] = []
    when = start
    for beat in exchanges:
        for role, text in (("user", beat.user), ("agent", beat.agent)):
            when += timedelta(seconds=rng.randint(20, 150))
            event_id = f"{session_id}-e{len(events) + 1}"
            author_role: Role = "user" if role == "user" else "agent"
            events.append(Event(id=event_id, author=role, role=author_role, text=text, timestamp=when))
            if role == "user" and beat.op != "chat":
                placed.append((beat, event_id, when))
    session = Session(
        app_name=APP_NAME,
        user_id=user_id,
        session_id=session_id,
        started_at=events[0].timestamp,
        ended_at=events[-1].timestamp,
        events=tuple(events),
        source="synthetic",
    )
    return session, placed


def _user(config: SyntheticConfig, u: int) -> tuple[list[Session], list[GoldFact], list[EvalQuestion]]:
    rng = random.Random(f"{config.seed}:{u}")
    user_id = f"user-{u:02d}"
    plan = _plan(rng, config.sessions_per_user)
    by_slot = {spec.slot: spec for spec in SLOTS}
    facts: dict[str, _Fact] = {}
    updated: dict[str, _Fact] = {}
    forgotten: dict[str, str] = {}
    sessions: list[Session] = []
    day = 0
    for index, beats in enumerate(plan):
        day += rng.randint(7, 21)
        start = EPOCH + timedelta(days=day, hours=rng.randint(0, 11), minutes=rng.randint(0, 59))
        session, placed = _render(rng, user_id, index, start, beats, config.small_talk_per_session)
        sessions.append(session)
        for beat, event_id, when in placed:
            if beat.op == "intro":
                facts[beat.slot] = _Fact(by_slot[beat.slot], beat.value, [event_id], when)
            elif beat.op == "restate":
                facts[beat.slot].events.append(event_id)
            elif beat.op == "update":
                updated[beat.slot] = _Fact(by_slot[beat.slot], beat.value, [event_id], when)
            elif beat.op == "forget":
                forgotten[beat.slot] = event_id
    gold: list[GoldFact] = []
    questions: list[EvalQuestion] = []
    for slot, fact in facts.items():
        spec = fact.spec
        status = "forgotten" if slot in forgotten else "superseded" if slot in updated else "active"
        gold.append(_gold(user_id, fact, status))
        question = rng.choice(spec.questions)
        qid = f"{user_id}-{slot}"
        if slot in updated:
            new = updated[slot]
            gold.append(_gold(user_id, new, "active"))
            questions.append(_question(qid, user_id, question, new.value, "updated", new.events, stale=fact.value))
        elif slot in forgotten:
            questions.append(
                EvalQuestion(
                    id=qid,
                    app_name=APP_NAME,
                    user_id=user_id,
                    question=question,
                    answer="",
                    category="forgotten",
                    answerable=False,
                    forgotten_values=(fact.value,),
                )
            )
        else:
            questions.append(_question(qid, user_id, question, fact.value, spec.category, fact.events))
    return sessions, gold, questions


def _gold(user_id: str, fact: _Fact, status: str) -> GoldFact:
    spec = fact.spec
    return GoldFact(
        id=f"{user_id}-{spec.slot}-{fact.events[0]}",
        app_name=APP_NAME,
        user_id=user_id,
        topic=spec.topic,
        slot=spec.slot,
        content=spec.fact.format(v=fact.value),
        value=fact.value,
        source_event_ids=tuple(fact.events),
        stated_at=fact.stated_at,
        status=status,  # type: ignore[arg-type]
    )


def _question(
    qid: str, user_id: str, text: str, answer: str, category: str, events: list[str], *, stale: str = ""
) -> EvalQuestion:
    return EvalQuestion(
        id=qid,
        app_name=APP_NAME,
        user_id=user_id,
        question=text,
        answer=answer,
        category=category,
        gold_event_ids=tuple(events),
        stale_values=(stale,) if stale else (),
    )


def generate(config: SyntheticConfig | None = None) -> EvalDataset:
    """The whole dataset for ``config``: identical output for identical config."""
    config = config or SyntheticConfig()
    sessions: list[Session] = []
    gold: list[GoldFact] = []
    questions: list[EvalQuestion] = []
    for u in range(config.users):
        s, g, q = _user(config, u)
        sessions.extend(s)
        gold.extend(g)
        questions.extend(q)
    return EvalDataset(
        name="synthetic",
        sessions=tuple(sessions),
        questions=tuple(questions),
        gold_facts=tuple(gold),
        notes=(f"synthetic: {config.users} users x {config.sessions_per_user} sessions, seed {config.seed}",),
    )
