"""A time named by an event ("after the move", "before my sister's wedding"): the parser and recall.

Real LanceDB on tmp_path and the real MiniLM; the phrasings are made up here. The figures on held-out
events and phrasings are in ``evaluation.anchored`` (measured, never tuned on).
"""

from __future__ import annotations

import pytest

from evaluation.anchored import measure
from tasks.models import RecallHit
from tasks.providers.base import Embedder
from tasks.recall.anchor import anchor_of
from tasks.recall.recaller import Recaller
from tasks.settings import Settings
from tasks.store.indexes import ensure_indexes
from tasks.store.tables import MEMORIES
from tests.test_recall import APP, NOW, USER, make_store, memory


@pytest.mark.parametrize(
    ("query", "edge", "words"),
    [
        ("What did I cook after the housewarming?", "after", {"housewarm"}),
        ("Which films did I see before my brother's graduation?", "before", {"brother", "graduation"}),
        ("Where have I eaten since we moved to Porto?", "after", {"mov", "porto"}),
        ("What did I read until I quit the band?", "before", {"band", "quit"}),
        ("Who visited following Tom's operation?", "after", {"tom", "operation"}),
        ("What did I buy after selling the old van?", "after", {"sell", "van"}),
        ("What did I eat after the morning swim?", "after", {"morn", "swim"}),  # not a time: a swim
    ],
)
def test_a_definite_event_is_read_with_its_edge(query: str, edge: str, words: set[str]) -> None:
    anchor = anchor_of(query)
    assert anchor is not None and anchor.edge == edge and anchor.words == words


@pytest.mark.parametrize(
    "query",
    [
        "What do I stretch after a run?",  # a habit: no particular run
        "What should I pack before travelling?",
        "Since I'm allergic to nuts, what can I order?",  # a reason, not a time
        "What happened after that?",
        "Before we start, what did I plan?",  # "start" is not a past deed
        "What do I eat after training?",
        "After all this, where did I go?",
        "What did I watch after the long weekend?",  # a time of the calendar
        "What did I order since the start of the year?",
        "After the last chat, what did I decide?",  # a time of the conversation
        "What did I say after you recommended it?",  # the assistant's deed, not the user's event
    ],
)
def test_a_habit_a_reason_or_a_filler_names_no_event(query: str) -> None:
    assert anchor_of(query) is None


def _hikes(settings: Settings, embedder: Embedder) -> None:
    store = make_store(settings, embedder)
    store.upsert(MEMORIES, [
        memory(embedder, "User went hiking on the Isle of Skye", days_ago=200, topic="key_conversation_details"),
        memory(embedder, "User moved into a flat in Porto", days_ago=120, topic="key_conversation_details"),
        memory(embedder, "User went hiking in the Picos de Europa", days_ago=40, topic="key_conversation_details"),
        memory(embedder, "User likes pizza with extra cheese", days_ago=90),
    ])  # fmt: skip
    ensure_indexes(store, settings)


def _first_hike(hits: list[RecallHit]) -> str:
    return next(h.content for h in hits if "hiking" in h.content)


def test_recall_marks_the_side_of_the_told_event(settings: Settings, embedder: Embedder) -> None:
    """Two hikes, one either side of a move: the event's own memory dates the question."""
    _hikes(settings, embedder)
    with Recaller(settings) as recaller:
        after = recaller.recall("Where did I go hiking after we moved to Porto?", APP, USER, k=3, now=NOW)
        before = recaller.recall("Where did I go hiking before we moved to Porto?", APP, USER, k=3, now=NOW)
        unknown = recaller.recall("Where did I go hiking after the wedding?", APP, USER, k=3, now=NOW)
    assert _first_hike(after) == "User went hiking in the Picos de Europa"
    assert _first_hike(before) == "User went hiking on the Isle of Skye"
    marks = {h.content: h.score_parts["timely"] for h in before}
    assert (
        marks["User went hiking on the Isle of Skye"] == 1.0 and marks["User went hiking in the Picos de Europa"] == 0.0
    )
    assert all(h.score_parts["timely"] == 0.0 for h in unknown)  # no told wedding: no window, nothing marked
    with Recaller(settings) as recaller:
        nothing = recaller.recall_result("What did I do before the Skye trip?", APP, USER, k=3, now=NOW)
        something = recaller.recall_result("What did I do after the Skye trip?", APP, USER, k=3, now=NOW)
    assert nothing.untimely == "before the Skye trip"  # only the trip itself is told of that time
    assert something.untimely is None
    off = settings.model_copy(update={"recall_time_window": False})
    with Recaller(off) as recaller:
        plain = recaller.recall("Where did I go hiking before we moved to Porto?", APP, USER, k=3, now=NOW)
    assert all(h.score_parts["timely"] == 0.0 for h in plain)


@pytest.mark.slow
def test_anchored_family_figures() -> None:
    """The end-to-end family (``python -m evaluation.anchored``): reading the event must pay on every
    split, the unseen one included; questions naming no event get no window; before the oldest event
    recall says that nothing is known, and of no answerable question."""
    results = measure()
    for split in ("dev", "held-out", "held-out-2"):
        on, off = results[f"{split} on"], results[f"{split} off"]
        assert on["top1"] > off["top1"], split
        assert on["top1"] >= 0.8 * on["asked"], split
        assert results[f"{split} nothing then"]["abstained"] >= 0.8 * results[f"{split} nothing then"]["asked"]
        assert on["untimely"] == 0, split  # "nothing is known from then" is never said of these
    for split in ("dev", "held-out", "held-out-2", "dev-2", "held-out-3"):
        assert results[f"{split} no event"]["no window"] == results[f"{split} no event"]["asked"], split
