"""Procedural memory (issue 65): traces recorded, similar successes merged, failures demote, offers ranked,
and the procedures section sharing the context's one token budget. Real Lance on tmp_path; fixed times."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tasks.procedures.consolidate import consolidate_procedures
from tasks.procedures.models import Outcome, Step, Trace, arg_shape, read_outcome, signature
from tasks.procedures.recall import offer_procedures
from tasks.procedures.record import record_run
from tasks.procedures.section import PROCEDURES_HEADER, agent_context, procedures_section
from tasks.providers.base import Embedder
from tasks.recall.context import FACTS_HEADER
from tasks.recall.recaller import Recaller
from tasks.settings import Settings
from tasks.store.schema import PROCEDURE_RUNS
from tasks.store.tables import MEMORIES, Store, open_store
from tasks.tokens import count_tokens
from tests.test_recall import APP, USER, memory

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def steps(*tools: str, failing: tuple[str, ...] = ()) -> tuple[Step, ...]:
    return tuple(Step(tool=t, args=arg_shape({"q": "x"}), ok=t not in failing, duration_ms=10.0) for t in tools)


def trace(n: int, task: str, tools: tuple[Step, ...], outcome: Outcome = "success",
          procedure_id: str | None = None) -> Trace:  # fmt: skip
    return Trace(run_id=f"run-{task}-{n}", task_type=task, context=f"{task} for a customer", steps=tools,
                 outcome=outcome, signal="final_status", procedure_id=procedure_id, duration_ms=100.0 + n,
                 tokens=500, ended_at=NOW + timedelta(hours=n))  # fmt: skip


def test_the_outcome_comes_from_the_strongest_signal() -> None:
    ok, failed = steps("search", "open"), steps("search", "open", failing=("open",))
    assert read_outcome(failed, feedback=True) == ("success", "feedback")
    assert read_outcome(ok, final_status="failure") == ("failure", "final_status")
    assert read_outcome(failed) == ("failure", "tool_error")
    assert read_outcome(steps("search", "open", "search", failing=("open",))) == ("success", "none")
    assert signature(steps("search", "search", "open", "bad", failing=("bad",))) == ("search", "open")
    assert arg_shape({"url": "https://secret.example/token", "n": 3, "f": [1]}) == {
        "f": "array", "n": "number", "url": "string"}  # fmt: skip


def test_similar_successes_merge_failures_demote_and_offers_rank(tmp_path: Path) -> None:
    settings = Settings(store_uri=str(tmp_path / "store"))
    good = ("search_catalog", "open_product", "read_price")
    for n in range(4):  # one run took a detour through a search again: still the same procedure
        tools = (*good[:2], "search_catalog", good[2]) if n == 1 else good
        record_run(settings, APP, USER, trace(n, "price_lookup", steps(*tools)))
    record_run(settings, APP, USER, trace(4, "price_lookup", steps("ask_user", "guess_price")))
    record_run(settings, APP, USER, trace(5, "weather", steps("geocode", "forecast_v1", "summarize")))
    record_run(settings, APP, USER, trace(5, "weather", steps("geocode", "forecast_v1", "summarize")))  # again
    assert len(open_store(settings).rows(PROCEDURE_RUNS)) == 6, "recording a run twice is one row"

    procedures = {p.signature: p for p in consolidate_procedures(settings, APP, USER, now=NOW)}
    main = procedures["search_catalog > open_product > read_price"]
    assert (main.successes, main.failures, main.status, main.mean_steps) == (4, 0, "active", 3.25)
    assert set(procedures) == {main.signature, "ask_user > guess_price", "geocode > forecast_v1 > summarize"}
    assert [p.signature for p in offer_procedures(settings, APP, USER, "price_lookup")] == [
        main.signature, "ask_user > guess_price"]  # fmt: skip

    weather = procedures["geocode > forecast_v1 > summarize"]
    for n in range(6, 9):  # the old forecast tool keeps failing the runs that follow the procedure
        record_run(settings, APP, USER, trace(n, "weather", steps("geocode", "forecast_v1", failing=("forecast_v1",)),
                                              outcome="failure", procedure_id=weather.procedure_id))  # fmt: skip
    record_run(settings, APP, USER, trace(9, "weather", steps("geocode", "forecast_v2", "summarize")))
    again = {p.signature: p for p in consolidate_procedures(settings, APP, USER, now=NOW)}
    old = again["geocode > forecast_v1 > summarize"]
    assert (old.procedure_id, old.successes, old.failures, old.status) == (weather.procedure_id, 1, 3, "demoted")
    assert [p.signature for p in offer_procedures(settings, APP, USER, "weather")] == [
        "geocode > forecast_v2 > summarize"]  # fmt: skip
    assert again == {p.signature: p for p in consolidate_procedures(settings, APP, USER, now=NOW)}, "idempotent"
    # A task type never seen: the closest by its words; nothing shared: nothing offered.
    assert offer_procedures(settings, APP, USER, "weather_report")[0].task_type == "weather"
    assert offer_procedures(settings, APP, USER, "translate_letter") == []
    assert offer_procedures(settings, APP, "bob", "weather") == [], "another user's procedures are not offered"

    section = procedures_section(offer_procedures(settings, APP, USER, "price_lookup"), 200)
    assert section.startswith(PROCEDURES_HEADER)
    assert "- search_catalog(q) > open_product(q) > read_price(q) (worked 4 of 4 times, last 2 March 2026)" in section
    for budget in (0, 10, 25, 40):
        assert count_tokens(procedures_section(offer_procedures(settings, APP, USER, "price_lookup"), budget)) <= budget


@pytest.fixture(scope="module")
def stocked(tmp_path_factory: pytest.TempPathFactory, embedder: Embedder) -> tuple[Settings, Recaller]:
    settings = Settings(store_uri=str(tmp_path_factory.mktemp("procedures") / "store"))
    store = Store(settings.store_uri, embedder.model, embedder.dim)
    facts = ["User prefers prices in euros", "User shops at Hansen Hardware", "User's budget is 200 euros"]
    rows = [memory(embedder, c, days_ago=i + 1) for i, c in enumerate(facts)]
    fixed = {"stated_at": NOW, "valid_from": NOW, "created_at": NOW, "updated_at": NOW}  # not the helper's clock
    store.upsert(MEMORIES, [r.model_copy(update=fixed) for r in rows])
    for n in range(3):
        record_run(settings, APP, USER, trace(n, "price_lookup", steps("search_catalog", "open_product", "read_price")))
    consolidate_procedures(settings, APP, USER, now=NOW)
    return settings, Recaller(settings, store=store, embedder=embedder)


@pytest.mark.parametrize("budget", [15, 40, 80, 300])
def test_procedures_facts_and_episodes_share_one_budget(stocked: tuple[Settings, Recaller], budget: int) -> None:
    settings, recaller = stocked
    block = agent_context(settings, "What does a drill cost at my shop?", APP, USER, "price_lookup", budget,
                          recaller=recaller)  # fmt: skip
    assert count_tokens(block) <= budget
    if budget >= 300:
        assert block.startswith(PROCEDURES_HEADER) and FACTS_HEADER in block and "Hansen Hardware" in block
