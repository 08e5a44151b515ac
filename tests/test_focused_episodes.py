"""Focused packing: an episode shown says what its session said about the question (tasks.recall.pack)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from evaluation.pipeline_system import RerankedPipelineSystem
from tasks.ingest.run import ingest_sessions
from tasks.models import EpisodeSentence, Event, RecallHit, Session
from tasks.recall.cross_encoder import CrossEncoder, CrossEncoderReranker, model_dir
from tasks.recall.pack import pack, ranked_memories, read_as
from tasks.recall.recaller import Recaller
from tasks.settings import Settings

WHEN = datetime(2024, 3, 1, tzinfo=UTC)


@pytest.fixture(scope="module")
def encoder() -> CrossEncoder:
    return CrossEncoder(model_dir())


def mem(content: str, session: str, *turns: str) -> RecallHit:
    return RecallHit(id=content, kind="memory", topic="t", content=content, score=1.0, session_id=session,
                     source_event_ids=list(turns), created_at=WHEN, speaker="user")  # fmt: skip


def ep(session: str, *parts: tuple[str, tuple[str, ...]]) -> RecallHit:
    sentences = tuple(EpisodeSentence(text=t, source_event_ids=ids) for t, ids in parts)
    return RecallHit(id=f"ep-{session}", kind="episode", topic="episode", content=" ".join(t for t, _ in parts),
                     score=1.0, session_id=session, source_event_ids=[e for _, ids in parts for e in ids],
                     created_at=WHEN, sentences=sentences)  # fmt: skip


OPENING = ("On 1 March 2024, the user talked about pets.", ())


def test_an_episode_shows_its_sessions_best_ranked_memory_in_place_of_an_unasked_sentence() -> None:
    episode = ep("s1", OPENING, ("User repainted the hallway.", ("t1",)), ("User adopted a cat.", ("t2",)))
    hits = [
        episode,
        mem("User rides to work", "s2", "t9"),
        mem("User adopted a cat called Miso", "s1", "t2"),  # ranked: the episode's cat sentence ranks here
        mem("User went to a pottery workshop", "s1", "t3"),  # below k, in the episode's session
        mem("User likes rain", "s3", "t8"),
    ]
    packed = pack(hits, k=3, focus=True)
    shown = packed[0]
    assert [s.text for s in shown.sentences] == ["User adopted a cat.", "User went to a pottery workshop"]
    assert shown.source_event_ids == ["t2", "t3"]
    # as many sentences as it showed unfocused, so the context does not grow
    assert len(shown.sentences) == len(pack(hits, k=3)[0].sentences)
    # every other hit of the top k is the same, whole
    assert packed[1:] == pack(hits, k=3)[1:]


def test_memories_ranked_above_the_episode_or_of_other_sessions_stay_in_their_own_slots() -> None:
    hits = [
        mem("User has a grey cat", "s1", "t1"),
        ep("s1", OPENING, ("User has a grey cat.", ("t1",)), ("User repainted the hallway.", ("t2",))),
        mem("User's cat is called Miso", "s2", "t5"),
    ]
    packed = pack(hits, k=3, focus=True)
    assert [h.content for h in packed] == [
        "User has a grey cat", "User repainted the hallway.", "User's cat is called Miso",
    ]  # fmt: skip


def test_focus_changes_no_other_hit_and_an_episode_with_nothing_new_still_gives_its_slot_away() -> None:
    hits = [
        mem("User has a grey cat", "s1", "t1"),
        ep("s1", OPENING, ("User has a grey cat.", ("t1",))),
        mem("User rides to work", "s2", "t9"),
        mem("User's cat sleeps on the piano", "s1", "t4"),
    ]
    assert pack(hits, k=2, focus=True) == pack(hits, k=2) == [hits[0], hits[2]]


def test_sentences_of_one_turn_stay_together() -> None:
    """Two sentences the summary took from one turn are both shown, as unfocused packing shows them."""
    episode = ep("s1", OPENING, ("User's cat Biscuit stopped eating.", ("t1",)), ("User is worried sick.", ("t1",)))
    hits = [episode, mem("User's cat Biscuit stopped eating", "s1", "t1"), mem("User bakes", "s1", "t2")]
    assert [s.text for s in pack(hits, k=1, focus=True)[0].sentences] == [
        "User's cat Biscuit stopped eating.", "User is worried sick.",
    ]  # fmt: skip


def test_a_later_memory_saying_only_turns_already_shown_is_not_taken() -> None:
    hits = [
        mem("User has a grey cat", "s1", "t1"),
        ep("s1", OPENING, ("User repainted the hallway.", ("t2",))),
        mem("User's cat is grey", "s1", "t1"),
    ]
    packed = pack(hits, k=3, focus=True)
    assert packed[1].content == "User repainted the hallway."
    assert packed[2].content == "User's cat is grey"  # kept in its own slot, as unfocused packing keeps it


def test_a_long_memory_is_shown_as_an_episode_sentence_is_written() -> None:
    long = "User went to a pottery workshop with the kids. " + "They made bowls and mugs all afternoon. " * 6
    hits = [ep("s1", OPENING, ("User repainted the hallway.", ("t1",))), mem(long, "s1", "t2")]
    sentence = pack(hits, k=1, focus=True)[0].sentences[0]
    assert len(sentence.text) <= 160 and long.startswith(sentence.text)


# -- end to end: the local write path, a LanceDB store on tmp_path, the recaller -----------------------

T0 = datetime(2025, 2, 3, 18, 0, tzinfo=UTC)


def _session(sid: str, day: int, *turns: str) -> Session:
    start, events = T0 + timedelta(days=day), []
    for i, text in enumerate(turns):
        at = start + timedelta(minutes=3 * i)
        events += [Event(id=f"{sid}-u{i}", author="user", role="user", text=text, timestamp=at),
                   Event(id=f"{sid}-a{i}", author="agent", role="agent", text="Noted.", timestamp=at)]  # fmt: skip
    return Session(app_name="app", user_id="ines", session_id=sid, started_at=start,
                   ended_at=start + timedelta(hours=1), events=tuple(events))  # fmt: skip


def test_focused_recall_on_a_real_store_keeps_the_shown_hits_and_the_verdict(tmp_path: Path) -> None:
    """Local write path, LanceDB on tmp_path, the recaller: an episode shown keeps its length and its session,
    every other hit and the abstention verdict are what unfocused recall gives."""
    settings = Settings(store_uri=str(tmp_path / "store"))
    long_session = _session(
        "s1", 0,
        "My name is Ines and I work as a nurse at the Santa Maria hospital.",
        "I am allergic to peanuts, so please remember that.",
        "I live in Porto with my partner Rui.",
        "I prefer aisle seats on long flights.",
        "I'm vegetarian since last year.",
        "My sister Carla is a lawyer in Lisbon.",
        "At the weekend the kids and I went to a pottery workshop and made bowls.",
        "We also flew kites on the beach with the kids on Sunday.",
        "My manager asked me to lead the budget review.",
    )  # fmt: skip
    others = [
        _session("s2", 3, "I started a Spanish course on Tuesdays."),
        _session("s3", 6, "I get motion sick on buses."),
    ]
    ingest_sessions([long_session, *others], settings)
    question = "What did I tell you on 3 February?"
    with Recaller(settings) as focused, Recaller(settings.model_copy(update={"recall_focus_episodes": False})) as plain:
        on, off = focused.recall_result(question, "app", "ines", k=3), plain.recall_result(question, "app", "ines", k=3)
    assert [h.id for h in on.hits] == [h.id for h in off.hits] and on.confident == off.confident
    episodes = [(a, b) for a, b in zip(on.hits, off.hits, strict=True) if a.kind == "episode"]
    assert episodes, [h.kind for h in on.hits]
    for shown, twin in episodes:
        assert len(shown.sentences) == len(twin.sentences)
        assert all(e.startswith(f"{shown.session_id}-") for e in shown.source_event_ids)
    for shown, twin in zip(on.hits, off.hits, strict=True):
        if shown.kind == "memory":  # scores may move with access counts; what is shown may not
            assert (shown.content, shown.source_event_ids) == (twin.content, twin.source_event_ids)


# -- what the cross-encoder reads of an episode ----------------------------------------------------------


def test_the_reader_reads_an_episode_as_its_sessions_best_ranked_statements() -> None:
    episode = ep("s1", OPENING, ("User repainted the hallway.", ("t1",)), ("User adopted a cat.", ("t2",)))
    hits = [
        episode,
        mem("User went to a pottery workshop", "s1", "t3"),
        mem("User adopted a cat called Miso", "s1", "t2"),  # a turn its own sentence says: not read twice
        mem("User likes rain", "s2", "t8"),  # another session's
    ]
    assert read_as(episode, ranked_memories(hits)) == (
        "On 1 March 2024, the user talked about pets. User went to a pottery workshop. User adopted a cat."
    )


def test_a_focused_reader_finds_the_session_that_said_it(encoder: CrossEncoder) -> None:
    """Summarised without the question, the episode reads as chores; read as its session's best statements, as
    the answer. The shipped model, a real pair scorer."""
    chores = [(f"User sorted the recycling and paid the {bill} bill.", (f"c{i}",)) for i, bill in enumerate("ab")]
    episode = ep("s1", OPENING, *chores)
    answer = mem("User has played the cello in an orchestra for ten years", "s1", "t9")
    near = mem("User loves listening to instrumental music while working", "s2", "n1")
    question, hits = "What instrument does the user play?", [near, episode, answer]
    plain = CrossEncoderReranker(encoder, depth=10)(question, hits)
    focused = CrossEncoderReranker(encoder, depth=10, focus=True)(question, hits)
    logit = {h.id: h.score_parts["rerank"] for h in plain}
    read = {h.id: h.score_parts["rerank"] for h in focused}
    assert read["ep-s1"] > logit["ep-s1"] + 1.0  # the episode now reads as the cello
    assert read["ep-s1"] > read[near.id]
    assert [h.id for h in focused if h.kind == "memory"] == [h.id for h in plain if h.kind == "memory"]


def test_the_evaluation_reads_episodes_as_recall_does(tmp_path: Path) -> None:
    """The evaluation wraps the reader in a memo of scores; it must read what recall reads (round 44's first
    evaluation run measured the reader unfocused, because the wrapper dropped the setting)."""
    settings = Settings(store_uri=str(tmp_path / "store"))
    for focus in (True, False):
        system = RerankedPipelineSystem(settings.model_copy(update={"recall_focus_episodes": focus}))
        reranker = system._make_recaller().reranker
        assert isinstance(reranker, CrossEncoderReranker) and reranker.focus is focus
