"""A plan called off closes the plan, never another memory that shares its name."""

from __future__ import annotations

import pytest

from evaluation.writepath.cases import build_cases
from evaluation.writepath.runner import run_writepath
from tasks.providers.statements import CANCEL_CUE, PLAN_WORDS, old_words


@pytest.mark.parametrize(
    ("text", "named"),
    [("The Lisbon trip got cancelled.", "The Lisbon trip"), ("We cancelled the Nopa dinner.", "the Nopa dinner"),
     ("The concert was called off.", "The concert"), ("the deal fell through", "the deal")],
)  # fmt: skip
def test_a_cancellation_names_what_it_calls_off(text: str, named: str) -> None:
    assert CANCEL_CUE.search(text) and old_words(text) == named


@pytest.mark.parametrize(
    ("memory", "plan"),
    [("User is planning a trip to Lisbon in October.", True), ("User booked a table at Nopa for Friday.", True),
     ("User's sister lives in Lisbon.", False), ("User loves barbecue ribs", False)],
)  # fmt: skip
def test_only_plans_can_be_called_off(memory: str, plan: bool) -> None:
    assert bool(PLAN_WORDS.search(memory)) is plan


@pytest.mark.slow
def test_cancellations_through_the_real_ingest() -> None:
    """The dev family: each plan stops being current, the memory sharing its name ("my sister lives in
    Lisbon", "I love barbecue ribs") stays."""
    cases = [c for c in build_cases() if c.family == "cancel/called-off"]
    results = run_writepath(cases=cases).results
    assert len(results) == 12
    assert all(r.decision_ok for r in results), [(r.case_id, r.why) for r in results if not r.decision_ok]
