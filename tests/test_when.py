"""Questions that name a time (issue 16, temporal lever): the parser, the candidates it marks, and recall.

Real LanceDB on tmp_path and the real MiniLM; the phrasings are made up here. The figures on the
held-out phrasings are in ``evaluation.temporal`` (measured, never tuned on).
"""

from __future__ import annotations

import argparse
import json
from datetime import UTC, datetime, timedelta

import pytest

from evaluation.temporal import measure
from flows import cli_recall
from tasks.models import RecallHit
from tasks.providers.base import Embedder
from tasks.recall.agent_tools import handle_recall_memory
from tasks.recall.context import build_context
from tasks.recall.recaller import Recaller
from tasks.recall.when import timely, window_of
from tasks.settings import Settings
from tasks.store.indexes import ensure_indexes
from tasks.store.tables import MEMORIES, Store
from tests.test_recall import APP, NOW, USER, make_store, memory

ASKED = datetime(2025, 11, 20, 18, tzinfo=UTC)  # a Thursday


def _told(settings: Settings, embedder: Embedder, told: dict[str, float]) -> Store:
    """A store holding each memory as told that many days before NOW."""
    store = make_store(settings, embedder)
    store.upsert(MEMORIES, [memory(embedder, content, days_ago=days) for content, days in told.items()])
    ensure_indexes(store, settings)
    return store


def _span(query: str) -> tuple[str, str]:
    window = window_of(query, ASKED)
    assert window is not None, query
    return window.start.date().isoformat(), window.end.date().isoformat()


@pytest.mark.parametrize(
    ("query", "span"),
    [
        ("Where did I go hiking in July?", ("2025-07-01", "2025-08-01")),
        ("what did we cook in December", ("2024-12-01", "2025-01-01")),  # the latest December so far
        ("What did I buy in March 2024?", ("2024-03-01", "2024-04-01")),
        ("Who did I meet on 5 May 2025?", ("2025-05-05", "2025-05-06")),
        ("Who did I meet on May 5th, 2025?", ("2025-05-05", "2025-05-06")),
        ("What did I read last week?", ("2025-11-10", "2025-11-17")),
        ("What did I order last month?", ("2025-10-01", "2025-11-01")),
        ("What did I eat yesterday?", ("2025-11-19", "2025-11-20")),
        ("Where was I two weeks ago?", ("2025-10-30", "2025-11-13")),
        ("What happened last Friday?", ("2025-11-14", "2025-11-15")),
        ("What did I plant before April 2025?", ("1900-01-01", "2025-04-01")),
        ("What changed since September?", ("2025-09-01", "2025-11-20")),
        ("What did I cook on Monday?", ("2025-11-17", "2025-11-18")),
        ("Where did we go Tuesday evening?", ("2025-11-18", "2025-11-19")),
        ("What did I read nine days ago?", ("2025-11-10", "2025-11-12")),
        ("Where did we swim last summer?", ("2025-06-01", "2025-09-01")),
        ("Where did we ski in the winter of 2023?", ("2023-12-01", "2024-03-01")),
        ("What did I plant in the fall of 2024?", ("2024-09-01", "2024-12-01")),  # the season, not all 2024
    ],
)
def test_a_named_time_becomes_a_span_before_the_question(query: str, span: tuple[str, str]) -> None:
    assert _span(query) == span


def test_a_month_without_a_year_means_that_month_in_any_year_so_far() -> None:
    window = window_of("What did I do in June?", ASKED)
    assert window is not None
    assert window.overlaps(datetime(2024, 6, 10, tzinfo=UTC), datetime(2024, 6, 11, tzinfo=UTC))
    assert window.overlaps(datetime(2025, 6, 10, tzinfo=UTC), datetime(2025, 6, 11, tzinfo=UTC))
    assert not window.overlaps(datetime(2025, 7, 10, tzinfo=UTC), datetime(2025, 7, 11, tzinfo=UTC))


@pytest.mark.parametrize(
    "query",
    [
        "May I ask what I said about hiking?",  # a verb
        "What did June recommend?",  # a person
        "What did I read recently?",  # vague: no time named
        "What will I do in July?",  # a plan, not a past July
        "What should we cook tonight?",
        "Where is my passport?",
        "Did I have a fall on the stairs?",  # a noun
        "What does Summer like to eat?",  # a person
        "What did I hear from Jan?",
        "What did I get for May's birthday?",
    ],
)
def test_words_that_are_not_a_time_name_none(query: str) -> None:
    assert window_of(query, ASKED) is None


def test_a_candidate_is_in_the_time_if_said_then_or_soon_after_or_if_its_text_dates_it() -> None:
    window = window_of("Where did I camp in June?", ASKED)
    assert window is not None
    said = [
        datetime(2025, 6, 20, tzinfo=UTC),  # said in June
        datetime(2025, 7, 4, tzinfo=UTC),  # said a few days after
        datetime(2025, 8, 20, tzinfo=UTC),  # said much later, no date in its text
        datetime(2025, 8, 20, tzinfo=UTC),  # said later, dating itself to June
    ]
    texts = ["User camped by a lake", "User camped in the hills", "User camped at the coast",
             "User camped at the coast on 14 June 2025"]  # fmt: skip
    assert timely(window, texts, said) == [True, True, False, True]


def test_recall_puts_the_thing_told_in_the_named_month_first(settings: Settings, embedder: Embedder) -> None:
    """Three hikes; similarity alone cannot tell them apart, the month can."""
    hikes = {"the Dolomites": 400, "Snowdonia": 130, "the Tatras": 30}  # days before NOW
    store = _told(settings, embedder, {f"User went hiking in {p}": d for p, d in hikes.items()})
    month = "November 2025"  # 130 days before NOW (no strftime: month names follow the locale)
    with Recaller(settings, store=store, embedder=embedder) as recaller:
        hits = recaller.recall(f"Where did I go hiking in {month}?", APP, USER, k=3, now=NOW)
        assert hits[0].content == "User went hiking in Snowdonia"
        assert hits[0].score_parts["timely"] == 1.0
        assert [h.score_parts["timely"] for h in hits[1:]] == [0.0, 0.0]
        plain = recaller.recall("Where did I go hiking?", APP, USER, k=3, now=NOW)
        assert all(h.score_parts["timely"] == 0.0 for h in plain)  # no time named: nothing marked
    off = settings.model_copy(update={"recall_time_window": False})
    with Recaller(off, store=store, embedder=embedder) as recaller:
        hits = recaller.recall(f"Where did I go hiking in {month}?", APP, USER, k=3, now=NOW)
        assert all(h.score_parts["timely"] == 0.0 for h in hits)


def test_reranked_recall_keeps_the_named_time_first(settings: Settings, embedder: Embedder) -> None:
    """A reranker reads words, not dates: what lies in the named time stays first after it."""
    store = _told(settings, embedder, {
        "User went hiking in the Tatras and loved the mountain huts": 30, "User went hiking in Snowdonia": 130,
    })  # fmt: skip
    month = "November"  # 130 days before NOW

    def words_only(query: str, hits: list[RecallHit]) -> list[RecallHit]:
        return sorted(hits, key=lambda h: -len(h.content))  # prefers the longer, other-month hike

    with Recaller(settings, store=store, embedder=embedder, reranker=words_only) as recaller:
        hits = recaller.recall(f"Where did I go hiking in {month}?", APP, USER, k=2, now=NOW)
    assert hits[0].content == "User went hiking in Snowdonia"


@pytest.mark.slow
def test_temporal_family_figures() -> None:
    """The end-to-end family (``python -m evaluation.temporal``): reading the time must pay on the
    phrasings it was written with and must not cost on the held-out ones; no-time questions get none."""
    results = measure()
    assert results["dev on"]["top1"] >= 0.9 * results["dev on"]["asked"]
    assert results["dev on"]["top1"] > results["dev off"]["top1"]
    assert results["dev-2 on"]["top1"] >= 0.8 * results["dev-2 on"]["asked"]
    assert results["held-out on"]["top1"] >= results["held-out off"]["top1"]
    assert results["held-out-2 on"]["top1"] >= results["held-out-2 off"]["top1"]
    for split in ("dev", "held-out", "dev-2"):
        assert results[f"{split} no time"]["no window"] == results[f"{split} no time"]["asked"]


def test_cli_recall_reads_last_week_against_now(
    settings: Settings, embedder: Embedder, capsys: pytest.CaptureFixture[str]
) -> None:
    """``memory-pipeline recall --now``: "last week" as asked then, not as asked today."""
    _told(settings, embedder, {"User finished reading Piranesi": 60, "User finished reading Middlemarch": 20})
    parser = argparse.ArgumentParser()
    cli_recall.register(parser.add_subparsers())
    for days, book in ((53, "Piranesi"), (13, "Middlemarch")):  # each told 7 days before: always last week
        asked = (NOW - timedelta(days=days)).isoformat()
        args = parser.parse_args(["recall", "--app", APP, "--user", USER, "--json", "--store", settings.store_uri,
                                  "--now", asked, "What book did I finish last week?"])  # fmt: skip
        assert args.handler(args) == 0
        assert json.loads(capsys.readouterr().out)[0]["content"] == f"User finished reading {book}"


def test_a_time_that_holds_nothing_is_said_so(settings: Settings, embedder: Embedder) -> None:
    """ "What did I buy last week?" when nothing was told last week: the context says so before the
    nearest memories (of other times), and with abstention says only that."""
    _told(settings, embedder, {"User bought a road bike": 40, "User bought an espresso machine": 130})
    with Recaller(settings) as recaller:
        result = recaller.recall_result("What did I buy last week?", APP, USER, now=NOW)
        assert result.untimely == "last week" and result.hits
        assert recaller.recall_result("What did I buy last month?", APP, USER, now=NOW).untimely is None
        assert recaller.recall_result("What did I buy?", APP, USER, now=NOW).untimely is None
    context = build_context("What did I buy last week?", APP, USER, 300, settings=settings, now=NOW)  # asked now
    assert context.startswith("Nothing is known from last week;") and "road bike" in context
    alone = build_context("What did I buy last week?", APP, USER, 300, settings=settings, abstain=True, now=NOW)
    assert alone == "Nothing is known from last week; the nearest memories are of other times."
    tool = json.loads(
        handle_recall_memory({"query": "what did I buy yesterday"}, APP, USER, settings=settings, now=NOW)
    )
    assert tool["note"] == "Nothing is known from yesterday; the nearest memories are of other times."
    assert tool["memories"]  # still shown: the agent decides
