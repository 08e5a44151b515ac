"""A state told again with more is refined into one memory; something done again or someone else's stays two
(``evaluation.extended``)."""

from __future__ import annotations

import pytest

from evaluation import implied_changes
from evaluation.extended import DEV, measure
from tasks.providers.sameness import extends
from tasks.providers.statements import finishes
from tasks.settings import Settings


@pytest.mark.parametrize(
    ("fact", "memory"),
    [
        ("User is learning Spanish and Italian.", "User is learning Spanish."),
        ("User has a border collie called Pip.", "User has a border collie."),
        ("User's brother works in Berlin as an architect.", "User's brother works in Berlin."),
    ],
)
def test_a_state_told_with_more_extends_the_memory(fact: str, memory: str) -> None:
    assert extends(fact, memory)


@pytest.mark.parametrize(
    ("fact", "memory", "why"),
    [
        ("User went hiking in Snowdonia with Sam.", "User went hiking in Snowdonia.", "done again"),
        ("User's brother lives in Leeds with his wife.", "User lives in Leeds", "another person"),
        ("User is learning Spanish.", "User is learning Spanish and Italian.", "says less, not more"),
        ("User is learning Spanish now, and Italian.", "User is learning French.", "a change, not more"),
        ("User isn't learning Spanish and Italian.", "User is learning Spanish.", "negated"),
        ("User is in Japan with Sam.", "User is planning a trip to Japan next spring.", "one word of many"),
    ],
)
def test_what_is_not_more_of_the_same_state(fact: str, memory: str, why: str) -> None:
    assert not extends(fact, memory), why


def test_the_family_refines_dev_states_and_keeps_two_occasions() -> None:
    """Round 18's code: DEV 0/6 (each state told with more was a second memory; Tofu was lost) and 3/3."""
    assert measure(DEV, "d", Settings()) == (6, 3)


def test_the_same_slot_value_with_a_new_name_is_kept() -> None:
    """'I have a cat named Miso and a dog named Tofu' was IGNOREd as 'same count:cat' and Tofu was lost."""
    one, _ = measure([c for c in DEV if "Tofu" in c[1]], "t", Settings())
    assert one == 1


def test_someone_new_in_a_role_or_work_finished_closes_the_old_state() -> None:
    """Round 18's code: DEV 1/6 ('My new manager is Omar' left Priya the user's manager; 'finished the
    ClickHouse migration' left it in progress; 'Bought the MacBook Air' left it weighed) and 4/4."""
    assert implied_changes.measure(implied_changes.DEV, "n", Settings()) == (6, 4)


@pytest.mark.parametrize(
    ("fact", "memory", "finished"),
    [
        (
            "User mentioned that they finished the ClickHouse migration",
            "User is working on a migration to ClickHouse",
            True,
        ),
        ("User finally finished User's thesis!", "User is halfway through writing User's thesis.", True),
        ("User hasn't finished the ClickHouse migration yet", "User is working on a migration to ClickHouse", False),
        ("User finished a scarf for User's brother.", "User is working on a quilt for User's niece.", False),
        ("User finished reading a novel by Ishiguro.", "User is working on User's novel.", False),
    ],
)
def test_work_said_to_be_finished_closes_it_in_progress(fact: str, memory: str, finished: bool) -> None:
    assert finishes(fact, memory) is finished
