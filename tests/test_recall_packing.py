"""Packing (episodes show only what better hits have not said) and attribution-aware abstention."""

from __future__ import annotations

from datetime import UTC, datetime

from tasks.models import EpisodeSentence, RecallHit
from tasks.providers.base import Embedder
from tasks.recall.abstain import identifying_words, misattributed, named_speakers
from tasks.recall.context import hit_line
from tasks.recall.lines import point_text
from tasks.recall.pack import pack
from tasks.recall.recaller import Recaller
from tasks.settings import Settings
from tasks.store.indexes import ensure_indexes
from tasks.store.tables import EPISODES, MEMORIES
from tests.test_recall import APP, NOW, USER, episode, make_store, memory

WHEN = datetime(2024, 3, 1, tzinfo=UTC)


def _memory(content: str, turns: list[str], speaker: str = "user", hit_id: str = "") -> RecallHit:
    return RecallHit(id=hit_id or content, kind="memory", topic="t", content=content, score=1.0,
                     score_parts={"cosine": 0.6}, session_id="s1", source_event_ids=turns, created_at=WHEN,
                     speaker=speaker)  # fmt: skip


def _episode(parts: list[tuple[str, list[str]]]) -> RecallHit:
    sentences = tuple(EpisodeSentence(text=t, source_event_ids=tuple(ids)) for t, ids in parts)
    return RecallHit(id="ep", kind="episode", topic="episode", content=" ".join(t for t, _ in parts), score=0.9,
                     session_id="s1", source_event_ids=[e for _, ids in parts for e in ids], created_at=WHEN,
                     sentences=sentences)  # fmt: skip


def test_episode_keeps_only_sentences_that_add_turns() -> None:
    first = _memory("Bo adopted a grey cat", ["t1"])
    ep = _episode([("On Monday they talked.", []), ("Bo adopted a grey cat.", ["t1"]), ("Bo named it Pixel.", ["t2"])])
    packed = pack([first, ep], k=5)
    assert [h.kind for h in packed] == ["memory", "episode"]
    assert packed[1].content == "Bo named it Pixel."
    assert packed[1].source_event_ids == ["t2"]


def test_episode_saying_nothing_new_gives_its_slot_to_the_next_hit() -> None:
    hits = [_memory("a", ["t1"]), _episode([("a.", ["t1"])]), _memory("b", ["t2"]), _memory("c", ["t3"])]
    assert [h.content for h in pack(hits, k=3)] == ["a", "b", "c"]


def test_memories_of_a_covered_turn_are_kept() -> None:
    """Two memories of one turn can say different things: only episodes are trimmed."""
    hits = [_memory("Bo moved to Porto", ["t1"]), _memory("Bo started a bakery", ["t1"])]
    assert len(pack(hits, k=5)) == 2


def test_quoted_question_is_shown_without_its_label() -> None:
    hit = _memory('(Asked by Ana: "Where did you move?") Bo:  Porto, last spring.', ["t1"])
    assert point_text(hit) == "(Where did you move?) Bo: Porto, last spring."
    assert hit_line(hit).endswith("(Where did you move?) Bo: Porto, last spring.")


def test_named_speakers_ignores_roles_and_reads_possessives() -> None:
    assert named_speakers("What is Zora's favourite tea?", ["Zora", "Ilka", "user"]) == {"Zora"}
    assert named_speakers("What does the user like?", ["user", "agent"]) == set()


def test_misattribution_needs_the_best_match_said_by_someone_else() -> None:
    hits = [
        _memory("Ilka ran a charity race and realized self-care matters", ["t1"], "Ilka"),
        _memory("Zora: that race sounds great", ["t2"], "Zora"),
    ]
    assert misattributed("What did Zora realize after her charity race?", hits)
    assert not misattributed("What did Ilka realize after her charity race?", hits)
    assert not misattributed("What did Zora and Ilka realize after the race?", hits)  # two people named
    assert not misattributed("What did Zora think of the weather?", hits)  # no shared word: no evidence


def test_a_date_in_the_question_does_not_decide_whose_memory_it_is() -> None:
    """Memories carry absolute dates: "12 March 2024" matches whatever else happened that day."""
    hits = [
        _memory("Ilka's flat flooded on 12 March 2024, the whole street was under water", ["t1"], "Ilka"),
        _memory("Zora planned a dinner with gym friends", ["t2"], "Zora"),
    ]
    assert not misattributed("What did Zora plan for the evening of 12 March, 2024?", hits)
    assert misattributed("What did Zora plan after the flood on 12 March 2024?", hits)  # "flood" still counts
    assert identifying_words("Did Ilka march on Monday 3rd March?") == {"ilka", "march"}  # the verb stays


def test_recall_result_abstains_when_the_named_person_did_not_say_it(settings: Settings, embedder: Embedder) -> None:
    store = make_store(settings, embedder)
    rows = [
        memory(embedder, "Ilka adopted a rescue greyhound called Comet").model_copy(update={"speaker": "Ilka"}),
        memory(embedder, "Zora is learning the cello").model_copy(update={"speaker": "Zora"}),
        memory(embedder, "Zora bakes sourdough on Sundays").model_copy(update={"speaker": "Zora"}),
    ]
    store.upsert(MEMORIES, rows)
    ensure_indexes(store, settings)
    with Recaller(settings, store=store, embedder=embedder) as recaller:
        wrong = recaller.recall_result("What is the name of Zora's rescue greyhound?", APP, USER, now=NOW)
        right = recaller.recall_result("What is the name of Ilka's rescue greyhound?", APP, USER, now=NOW)
    assert wrong.hits and wrong.misattributed and not wrong.confident
    assert right.confident and not right.misattributed
    assert right.hits[0].speaker == "Ilka"


def test_recall_trims_an_episode_to_what_memories_above_it_lack(settings: Settings, embedder: Embedder) -> None:
    store = make_store(settings, embedder)
    row = memory(embedder, "User flew to Reykjavik to see the northern lights").model_copy(
        update={"source_event_ids": ["ev1"]}
    )
    store.upsert(MEMORIES, [row])
    ep = episode(embedder, "User flew to Reykjavik and then hiked a glacier")
    ep["sentences"] = [
        {"text": "User flew to Reykjavik", "source_event_ids": ["ev1"]},
        {"text": "User hiked a glacier", "source_event_ids": ["ev2"]},
    ]
    store.upsert(EPISODES, [ep])
    ensure_indexes(store, settings)
    with Recaller(settings, store=store, embedder=embedder) as recaller:
        hits = recaller.recall("Reykjavik northern lights trip", APP, USER, k=5, now=NOW)
    assert [h.kind for h in hits] == ["memory", "episode"]
    assert hits[1].content == "User hiked a glacier." and hits[1].source_event_ids == ["ev2"]


def test_scoring_reports_a_systems_own_abstention_and_its_cost() -> None:
    """The pipeline's verdict, not a cosine threshold, decides 'answered anyway'; false abstentions cost recall."""
    from evaluation.baselines import IndexStats, Retrieved
    from evaluation.dataset import EvalQuestion
    from evaluation.scoring import QuestionRun, score_system

    def q(qid: str, answerable: bool) -> EvalQuestion:
        return EvalQuestion(id=qid, app_name=APP, user_id=USER, question="?", answer="tea", category="c",
                            gold_event_ids=("t1",) if answerable else (), answerable=answerable)  # fmt: skip

    item = Retrieved("tea", ("t1",), 0.9)
    runs = [QuestionRun(q("a1", True), [item], 1.0), QuestionRun(q("a2", True), [item], 1.0),
            QuestionRun(q("u1", False), [item], 1.0), QuestionRun(q("u2", False), [item], 1.0)]  # fmt: skip
    verdicts = {"a1": True, "a2": False, "u1": False, "u2": True}
    own = score_system("p", runs, k=10, ks=[10], index=IndexStats(), full_tokens=100.0, confident=verdicts)
    plain = score_system("p", runs, k=10, ks=[10], index=IndexStats(), full_tokens=100.0)
    assert plain.unanswerable.signal == "threshold" and plain.unanswerable.retrieved_above_threshold_rate == 1.0
    u = own.unanswerable
    assert u.signal == "system" and u.retrieved_above_threshold_rate == 0.5
    assert u.answerable_abstained_rate == 0.5 and u.recall_at_k_with_abstention == 0.5
    assert own.recall_at_k == 1.0  # the ranked items are still scored as they are


def test_a_dropped_episode_fills_a_slot_nothing_else_would() -> None:
    hits = [_memory("a", ["t1"]), _episode([("a.", ["t1"])])]
    assert [h.kind for h in pack(hits, k=5)] == ["memory", "episode"]
    assert [h.kind for h in pack(hits, k=1)] == ["memory"]


def test_memory_repeating_a_shown_line_gives_its_slot_to_the_next_hit() -> None:
    """A one-turn session's episode is its memory: shown twice, it had taken two of the top three."""
    hits = [_episode([("User's dentist is Dr. Okafor.", ["t1"])]), _memory("User's dentist is Dr Okafor", ["t1"]),
            _memory("User drinks oat flat whites", ["t2"])]  # fmt: skip
    assert [h.content for h in pack(hits, k=2)] == ["User's dentist is Dr. Okafor.", "User drinks oat flat whites"]
    assert [h.kind for h in pack(hits[:2], k=2)] == ["episode", "memory"]  # nothing else: it fills the slot
    saying_more = _memory("User's dentist is Dr. Okafor", ["t1", "t3"])
    assert len(pack([hits[0], saying_more], k=2)) == 2  # a turn of its own keeps it
