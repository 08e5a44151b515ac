"""Consolidation against a real Lance store and the real local embedder: versions, not overwrites."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tasks.consolidate.engine import ConsolidationOutcome, consolidate_user, load_user_memories
from tasks.consolidate.history import list_memories, memory_history
from tasks.models import Event, Fact, ForgetRequest, Session, SessionBatch
from tasks.providers.base import Embedder
from tasks.providers.local_consolidator import LocalConsolidator
from tasks.rows import MemoryRow
from tasks.store.tables import CHANGES, MEMORIES, Store
from tasks.textrules import fmt_date

APP, USER = "assistant", "alice"
T0 = datetime(2025, 10, 1, 9, 0, tzinfo=UTC)
DRINK, JOB, PLACE = "preference:drink", "employer", "location"


def day(n: int, minutes: int = 0) -> datetime:
    return T0 + timedelta(days=n, minutes=minutes)


def fact(
    content: str,
    at: datetime,
    *,
    slot: str | None = None,
    value: str | None = None,
    topic: str = "user_preferences",
    event: str = "e1",
) -> Fact:
    return Fact(topic=topic, content=content, slot=slot, value=value, stated_at=at, source_event_ids=(event,))


def forget(query: str, at: datetime) -> ForgetRequest:
    return ForgetRequest(query=query, stated_at=at, source_event_ids=("forget-" + query[:8],))


def batch(
    embedder: Embedder,
    session_id: str,
    at: datetime,
    facts: Sequence[Fact],
    forgets: Sequence[ForgetRequest] = (),
    user: str = USER,
) -> SessionBatch:
    """One session whose events are the statements themselves, with real embeddings."""
    texts = [f.content for f in facts] + [r.query for r in forgets]
    events = tuple(
        Event(id=f"{session_id}-{i}", author=user, role="user", text=t, timestamp=at) for i, t in enumerate(texts)
    )
    session = Session(app_name=APP, user_id=user, session_id=session_id, started_at=at, ended_at=at, events=events)
    return SessionBatch(
        session=session,
        facts=list(facts),
        fact_vectors=embedder.embed([f.content for f in facts]).tolist() if facts else [],
        forgets=list(forgets),
        forget_vectors=embedder.embed([r.query for r in forgets]).tolist() if forgets else [],
    )


@pytest.fixture
def store(tmp_path: Path, embedder: Embedder) -> Store:
    return Store(str(tmp_path / "store"), embedder.model, embedder.dim)


@pytest.fixture
def consolidator() -> LocalConsolidator:
    return LocalConsolidator(duplicate_threshold=0.92, related_threshold=0.55)


def run(
    store: Store, consolidator: LocalConsolidator, batches: list[SessionBatch], run_id: str, user: str = USER
) -> ConsolidationOutcome:
    """What the ingest pipeline does for one user: load, consolidate, write; the run happens as its last
    session ends (a fixed, ordered clock: runs in a test follow each other as their sessions do)."""
    existing = load_user_memories(store, APP, user)
    ran_at = max(b.session.ended_at for b in batches)
    outcome = consolidate_user(existing, batches, consolidator, run_id=run_id, now=ran_at)
    store.upsert(MEMORIES, outcome.upserts)
    store.insert_new(CHANGES, outcome.changes)
    return outcome


Say = Callable[..., ConsolidationOutcome]


@pytest.fixture
def say(store: Store, consolidator: LocalConsolidator, embedder: Embedder) -> Say:
    """``say(session_id, at, *facts, forgets=(), user=USER)``: one session, ingested in a run of its own."""

    def ingest(
        session_id: str, at: datetime, *facts: Fact, forgets: Sequence[ForgetRequest] = (), user: str = USER
    ) -> ConsolidationOutcome:
        one = batch(embedder, session_id, at, facts, forgets, user)
        return run(store, consolidator, [one], f"run-{session_id}", user)

    return ingest


def active(store: Store, user: str = USER) -> list[MemoryRow]:
    return list_memories(store, APP, user)


def actions(outcome: ConsolidationOutcome) -> list[tuple[str, str]]:
    return [(c.action, c.relation) for c in outcome.changes]


def test_coffee_then_tea_keeps_one_current_memory_and_the_history(store: Store, say: Say) -> None:
    say("s1", day(0), fact("Alice prefers coffee", day(0), slot=DRINK, value="coffee"))
    say("s2", day(30), fact("Alice prefers tea", day(30), slot=DRINK, value="tea"))

    current = active(store)
    assert len(current) == 1
    tea = current[0]
    assert tea.content.startswith("Alice prefers tea") and "changed from coffee on 2025-10-31" in tea.content
    assert (tea.version, tea.relation, tea.value) == (2, "contradicts", "tea")

    history = memory_history(store, tea.memory_id)
    coffee, latest = history.versions
    assert coffee.content == "Alice prefers coffee" and coffee.status == "superseded"
    assert coffee.valid_to == day(30) and latest.supersedes == coffee.row_id
    assert [c.action for c in history.changes] == ["ADD", "UPDATE"]
    assert history.changes[1].old_content == "Alice prefers coffee"


def test_contradiction_without_slots_uses_negation(store: Store, say: Say) -> None:
    say("s1", day(0), fact("Alice drinks coffee every morning", day(0)))
    out = say("s2", day(5), fact("Alice does not drink coffee anymore", day(5)))

    assert actions(out) == [("UPDATE", "contradicts")]
    (current,) = active(store)
    assert current.version == 2 and "does not drink coffee" in current.content
    assert "previously: Alice drinks coffee every morning" in current.content


def test_refinement_keeps_lineage(store: Store, say: Say) -> None:
    say("s1", day(0), fact("Alice works at Google", day(0), topic="user_personal_info"))
    detail = fact("Alice works at Google as a senior engineer in Zurich", day(3), topic="user_personal_info")
    out = say("s2", day(3), detail)

    assert actions(out) == [("UPDATE", "refines")]
    (current,) = active(store)
    assert current.version == 2 and "senior engineer" in current.content


def test_forget_request_closes_the_matching_memory_only(store: Store, say: Say) -> None:
    dog = fact("Alice has a dog named Rex", day(0), topic="user_personal_info", event="b")
    say("s1", day(0), fact("Alice likes coffee", day(0), event="a"), dog)
    out = say("s2", day(2), forgets=[forget("Please forget that I like coffee", day(2))])

    assert actions(out) == [("DELETE", "forgets")]
    assert [m.content for m in active(store)] == ["Alice has a dog named Rex"]
    forgotten = memory_history(store, out.changes[0].memory_id).versions[-1]
    assert forgotten.status == "deleted" and forgotten.valid_to == day(2)
    assert "Please forget that I like coffee" in (forgotten.status_reason or "")
    assert len(load_user_memories(store, APP, USER)) == 2  # nothing physically removed


def test_duplicate_is_ignored_and_counted(store: Store, say: Say) -> None:
    say("s1", day(0), fact("Alice works at Google", day(0), slot=JOB, value="Google"))
    out = say("s2", day(4), fact("Alice works at Google.", day(4), slot=JOB, value="google"))
    say("s3", day(9), fact("Alice works at Google", day(9)))  # no slot: similarity decides

    assert actions(out) == [("IGNORE", "duplicates")]
    (memory,) = load_user_memories(store, APP, USER)
    assert (memory.version, memory.confirmations, memory.last_confirmed_at) == (1, 2, day(9))
    assert [c.action for c in memory_history(store, memory.memory_id).changes] == ["ADD", "IGNORE", "IGNORE"]


def test_a_repeat_cites_the_turns_that_said_it_again(store: Store, say: Say) -> None:
    """Provenance lists every turn that said a memory, not only the first: a recall that shows it cites the
    later session's turn too, and packing does not show that turn again as a second item."""
    say("s1", day(0), fact("Alice works at Google", day(0), event="s1-e1"))
    say("s2", day(4), fact("Alice works at Google.", day(4), event="s2-e3"))
    say("s2", day(4), fact("Alice works at Google.", day(4), event="s2-e3"))  # the same run again: nothing new
    changes = len(memory_history(store, load_user_memories(store, APP, USER)[0].memory_id).changes)
    say("s1", day(0), fact("Alice works at Google", day(0), event="s1-e1"))  # a replay of the first run
    (memory,) = load_user_memories(store, APP, USER)
    assert (memory.source_event_ids, memory.confirmations) == (["s1-e1", "s2-e3"], 1)
    assert len(memory_history(store, memory.memory_id).changes) == changes  # the replay re-logs, adds no row
    said_by_other = fact("Alice works at Google", day(6), event="s3-e2").model_copy(update={"speaker": "Bob"})
    say("s3", day(6), said_by_other)
    (memory,) = [m for m in load_user_memories(store, APP, USER) if m.speaker != "Bob"]
    assert memory.source_event_ids == ["s1-e1", "s2-e3"]  # someone else's words are not this memory's source


def test_backfilled_older_session_does_not_override_newer_fact(store: Store, say: Say) -> None:
    say("march", day(150), fact("Alice lives in Berlin", day(150), slot=PLACE, value="Berlin"))
    out = say("january", day(90), fact("Alice lives in Paris", day(90), slot=PLACE, value="Paris"))

    (current,) = active(store)
    assert current.content == "Alice lives in Berlin" and current.version == 1
    assert actions(out) == [("UPDATE", "historical")]
    paris = memory_history(store, current.memory_id).versions[0]
    assert (paris.content, paris.status, paris.relation) == (
        "Alice lives in Paris",
        "superseded",
        "historical",
    )
    assert (paris.valid_from, paris.valid_to) == (day(90), day(150))
    assert [m.value for m in list_memories(store, APP, USER, as_of=day(100))] == ["Paris"]
    assert [m.value for m in list_memories(store, APP, USER, as_of=day(200))] == ["Berlin"]


def test_batches_are_applied_in_event_time_order(store: Store, consolidator, embedder) -> None:
    late = batch(embedder, "b", day(10), [fact("Alice works at Microsoft", day(10), slot=JOB, value="Microsoft")])
    early = batch(embedder, "a", day(1), [fact("Alice works at Google", day(1), slot=JOB, value="Google")])
    run(store, consolidator, [late, early], "r1")

    (current,) = active(store)
    assert current.value == "Microsoft" and current.version == 2
    assert "changed from Google" in current.content


def test_correction_within_one_session_ends_with_the_last_statement(store: Store, say: Say) -> None:
    out = say(
        "s1",
        day(0),
        fact("Alice works at Google", day(0), slot=JOB, value="Google", event="x1"),
        fact("Alice works at Microsoft", day(0, minutes=2), slot=JOB, value="Microsoft", event="x2"),
    )

    assert [c.action for c in out.changes] == ["ADD", "UPDATE"]
    (current,) = active(store)
    assert current.value == "Microsoft"
    history = memory_history(store, current.memory_id)
    assert history.versions[0].value == "Google" and history.versions[0].valid_to == day(0, minutes=2)
    assert [c.action for c in history.changes] == ["ADD", "UPDATE"]  # decision order within one run


def test_rerunning_the_same_input_adds_nothing(store: Store, consolidator, embedder) -> None:
    batches = [
        batch(embedder, "s1", day(0), [fact("Alice prefers coffee", day(0), slot=DRINK, value="coffee")]),
        batch(
            embedder,
            "s2",
            day(3),
            [fact("Alice prefers tea", day(3), slot=DRINK, value="tea")],
            [forget("forget that I have a cat", day(3))],
        ),
        batch(embedder, "s3", day(6), [fact("Alice prefers tea", day(6), slot=DRINK, value="tea")]),
    ]
    first = run(store, consolidator, batches, "r1")
    before = store.table(MEMORIES).to_arrow().sort_by("row_id")
    second = run(store, consolidator, batches, "r2")

    assert {r.row_id for r in second.upserts} <= {r.row_id for r in first.upserts}
    assert {c.change_id for c in second.changes} == {c.change_id for c in first.changes}
    after = store.table(MEMORIES).to_arrow().sort_by("row_id")
    assert after.drop_columns(["updated_at", "run_id"]) == before.drop_columns(["updated_at", "run_id"])
    assert store.table(CHANGES).count_rows() == len(first.changes)


def test_old_statement_of_forgotten_memory_is_not_restored(store: Store, say: Say) -> None:
    say("s1", day(10), fact("Alice likes coffee", day(10)))
    say("s2", day(20), forgets=[forget("forget that I like coffee", day(20))])
    out = say("old", day(1), fact("Alice likes coffee", day(1)))

    assert active(store) == []
    assert actions(out) == [("IGNORE", "forgets")]


def test_unrelated_facts_become_separate_memories(store: Store, say: Say) -> None:
    out = say(
        "s1",
        day(0),
        fact("Alice has a dog named Rex", day(0), event="1"),
        fact("Alice prefers window seats on flights", day(0), event="2"),
    )

    assert [c.action for c in out.changes] == ["ADD", "ADD"]
    assert len({m.memory_id for m in active(store)}) == 2


def test_forget_by_slot_and_a_backfilled_forget_does_not_touch_newer_memories(store: Store, say: Say) -> None:
    personal = "user_personal_info"
    say("s1", day(10), fact("Alice works at Acme Corp", day(10), slot=JOB, value="Acme Corp", topic=personal))
    say("s2", day(12), fact("Alice lives in Lisbon", day(12), slot=PLACE, value="Lisbon", topic=personal))
    old = say("old", day(1), forgets=[forget("please forget where I live", day(1))])
    out = say("s3", day(20), forgets=[forget("Please forget who my employer is", day(20))])

    assert actions(old) == [("IGNORE", "forgets")]  # the request predates the memory it matches
    assert actions(out) == [("DELETE", "forgets")]
    assert [m.value for m in active(store)] == ["Lisbon"]


def test_consolidate_user_is_pure_and_deterministic(store: Store, consolidator, embedder) -> None:
    batches = [
        batch(embedder, "s1", day(0), [fact("Alice prefers coffee", day(0), slot=DRINK, value="coffee")]),
        batch(embedder, "s2", day(1), [fact("Alice prefers tea", day(1), slot=DRINK, value="tea")]),
    ]
    now = day(2)
    first = consolidate_user([], batches, consolidator, run_id="r", now=now)
    second = consolidate_user([], batches, consolidator, run_id="r", now=now)

    assert first == second
    assert [r.row_id for r in first.upserts] == [
        first.upserts[0].memory_id + "-v1",
        first.upserts[0].memory_id + "-v2",
    ]
    assert store.existing() == []  # nothing was written


def test_one_persons_statement_never_changes_what_another_said(store: Store, say: Say) -> None:
    """Two people in one scope (a chat between named participants): the same words from the other
    person are their own memory, and a reply that echoes news does not refine or replace it."""

    def said_by(speaker: str, content: str, at: datetime) -> Fact:
        return fact(content, at, topic="key_conversation_details").model_copy(update={"speaker": speaker})

    news = "Made a blue bowl at the pottery class on Friday"
    say("s1", day(0), said_by("Ana", news, day(0)))
    echo = say("s2", day(1), said_by("Rui", "That's really cool, a blue bowl at the pottery class on Friday", day(1)))
    same = say("s3", day(2), said_by("Rui", news, day(2)))  # the same words, said by him of himself
    assert actions(echo) == [("ADD", "new")] and actions(same)[0][0] == "ADD"
    assert sorted(m.speaker or "" for m in active(store)) == ["Ana", "Rui", "Rui"]
    ana = next(m for m in active(store) if m.speaker == "Ana")
    assert (ana.version, ana.content, ana.confirmations) == (1, news, 0)
    again = say("s4", day(3), said_by("Ana", news, day(3)))
    assert actions(again) == [("IGNORE", "duplicates")]  # her own repeat is still a repeat


def test_a_change_in_the_catch_all_topic_must_be_about_the_same_thing(store: Store, say: Say) -> None:
    """Conversation details share one topic whatever they say: "used to compete" is a change, but not
    of "contemporary dance speaks to her" (it had closed it). A change that shares most words still is."""

    def detail(content: str, at: datetime) -> Fact:
        return fact(content, at, topic="key_conversation_details").model_copy(update={"speaker": "Ana"})

    say("s1", day(0), detail("Ana: Contemporary dance is so expressive and graceful, it really speaks to Ana", day(0)))
    out = say("s2", day(5), detail("Ana used to compete in a few dance competitions and shows", day(5)))
    assert actions(out) == [("ADD", "new")]
    assert len(active(store)) == 2
    say("s3", day(6), detail("Ana's dance classes are on Fridays at the old mill", day(6)))
    moved = say("s4", day(9), detail("Ana's dance classes moved to Saturdays at the old mill", day(9)))
    assert actions(moved) == [("UPDATE", "supersedes")]


def test_a_detail_told_on_another_occasion_is_another_event(store: Store, say: Say) -> None:
    """ "Gave a talk at the shelter" months after "volunteers at the shelter" is a second event, not a
    sharper wording of the first (it had replaced it, and with it the first turn and date)."""

    def detail(content: str, at: datetime) -> Fact:
        return fact(content, at, topic="key_conversation_details").model_copy(update={"speaker": "Ana"})

    say("s1", day(0), detail("Ana volunteers at the homeless shelter downtown", day(0)))
    later = say("s2", day(90), detail("Ana volunteers at the homeless shelter downtown and gave a talk there", day(90)))
    assert actions(later) == [("ADD", "new")] and len(active(store)) == 2
    sharper = "Ana volunteers at the homeless shelter downtown and gave a talk there on food banks and coats"
    same = say("s3", day(90, 5), detail(sharper, day(90, 5)))
    assert actions(same) == [("UPDATE", "refines")]  # the same occasion: a sharper wording


def test_now_changes_a_state_not_a_detail_that_happened_on_a_day(store: Store, say: Say) -> None:
    """ "Had my knee surgery this morning, resting now" months after a dated hike had replaced the hike
    (similarity 0.50 with the weak cue "now"): a thing that happened stays. A state still changes."""

    def detail(content: str, at: datetime, slot: str) -> Fact:
        return fact(content, at, topic="key_conversation_details", slot=slot)

    say(
        "s1",
        day(0),
        detail(
            f"User went hiking in the Cairngorms today ({fmt_date(day(0))}), User's legs are dead", day(0), "about:legs"
        ),
    )
    later = say(
        "s2",
        day(150),
        detail(f"User had knee surgery this morning ({fmt_date(day(150))}), resting now", day(150), "about:"),
    )
    assert actions(later) == [("ADD", "new")] and len(active(store)) == 2
    say("s3", day(151), detail("User plays the kalimba", day(151), "about:play"))
    changed = say("s4", day(160), detail("Now User plays the euphonium", day(160), "about:play"))
    assert actions(changed) == [("UPDATE", "supersedes")]
    contents = [m.content for m in active(store)]
    assert any(c.startswith("Now User plays the euphonium") for c in contents)
    assert not any(c.startswith("User plays the kalimba") for c in contents)


def test_is_and_has_frame_no_attribute_of_their_own(store: Store, say: Say) -> None:
    """ "User is fully vegetarian now" had replaced "User is learning Japanese" (similarity 0.22 plus the
    same-frame bonus of "is"): two things said with "is" are not one attribute. A verb frame still is."""

    def detail(content: str, at: datetime, slot: str) -> Fact:
        return fact(content, at, topic="key_conversation_details", slot=slot)

    say("s1", day(0), detail("User is learning Japanese on Duolingo, 200 day streak!", day(0), "about:be"))
    now_vegetarian = "User stopped eating meat in 2025, User is fully vegetarian now"
    out = say("s2", day(5), detail(now_vegetarian, day(5), "about:be"))
    assert actions(out) == [("ADD", "new")] and len(active(store)) == 2


def test_habits_sharing_only_their_rhythm_are_not_one_thing(store: Store, say: Say) -> None:
    """ "Into bouldering lately, goes twice a week" had replaced "takes metformin ... twice a day"
    (similarity 0.43 with the weak cue "lately", the rhythm the only word in common)."""

    def detail(content: str, at: datetime) -> Fact:
        return fact(content, at, topic="key_conversation_details", slot="about:")

    say("s1", day(0), detail("User takes metformin for User's type 2 diabetes, twice a day", day(0)))
    out = say("s2", day(5), detail("User has been getting into bouldering lately, User goes twice a week", day(5)))
    assert actions(out) == [("ADD", "new")] and len(active(store)) == 2


def test_two_things_going_on_at_once_do_not_close_each_other(store: Store, say: Say) -> None:
    """A cue word says when, not what changed: "sleeping badly lately" had closed "reading sci-fi these
    days" (similarity 0.34), and "learning to knit lately" the son's piano. The same doing still changes."""

    def detail(content: str, at: datetime, slot: str) -> Fact:
        return fact(content, at, topic="key_conversation_details", slot=slot)

    say("s1", day(0), detail("User is reading a lot of sci-fi these days", day(0), "about:be"))
    slept = say("s2", day(4), detail("User has been sleeping badly lately, maybe four hours a night", day(4), "about:"))
    say("s3", day(8), detail("User's son is learning the piano, he practises every day", day(8), "about:son"))
    knits = say("s4", day(12), detail("User is learning to knit lately", day(12), "about:be"))
    assert actions(slept) == [("ADD", "new")] and actions(knits) == [("ADD", "new")]
    history = say("s5", day(16), detail("User is mostly reading history books these days", day(16), "about:be"))
    assert actions(history) == [("UPDATE", "supersedes")]
    contents = [m.content for m in active(store)]
    assert not any(c.startswith("User is reading a lot of sci-fi") for c in contents) and len(contents) == 4
