"""A plan carried out, an amount given anew, a habit paused, a move with the household
(``evaluation.life_changes``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from evaluation.life_changes import DEV, measure
from evaluation.temporal import told_session
from tasks.ingest.run import ingest_sessions
from tasks.providers.amounts import amount_changed, beside_amount
from tasks.providers.implicit_subject import with_subject
from tasks.providers.people import household
from tasks.providers.settling import carries_out, died, settles
from tasks.providers.statements import finishes, pauses
from tasks.rows import MemoryRow
from tasks.settings import Settings
from tasks.store.tables import CHANGES, MEMORIES, open_store


@pytest.mark.parametrize(
    ("fact", "memory", "duty"),
    [
        ("User renewed the passport.", "User needs to renew the passport.", "renew"),
        ("User mentioned that they adopted a dog called Biscuit!", "User is planning to adopt a dog.", "adopt"),
        ("User bought an electric bike.", "User is planning to buy an electric bike.", "buy"),
        ("User has finally booked the vet.", "User has to book the vet for Rex.", "book"),
        ("User bought a new helmet.", "User is planning to buy an electric bike.", None),
        ("User sold the car.", "User is going to buy a car.", None),
        ("User started a new hobby.", "User is going to start a new job.", None),
    ],
)
def test_a_plan_carried_out_is_found_by_its_verb_and_what_it_was_about(
    fact: str, memory: str, duty: str | None
) -> None:
    assert carries_out(fact, memory) == duty


@pytest.mark.parametrize(
    ("fact", "memory", "unit"),
    [
        ("User is down to 79kg!", "User is at 82kg right now.", "kg"),
        ("User's commute is 15 minutes.", "User's commute is 40 mins.", "minute"),
        ("User pays €950 a month.", "User pays 900 euros a month.", "€"),
        ("User's suitcase was 23kg at the airport.", "User is at 82kg right now.", None),
        ("User's dog weighs 30kg.", "User weighs 95kg.", None),
        ("User ran 5k in 28 minutes on Sunday.", "User runs 5k in 31 minutes.", None),
        ("User is at 82kg right now.", "User is at 82kg.", None),
        ("User visited Berlin on 12 March 2026.", "User visited Paris on 20 March 2026.", None),
        ("User knows around 800 Korean words now.", "User knows about 500 words.", "words"),
        ("User saved another 3k this quarter, so 15k now.", "User has 12k so far.", "k"),
        ("User saved 3k and spent 2k this quarter.", "User has 12k so far.", None),
        ("User runs about 40km a week now.", "User did 12km on Sunday, User's longest run so far.", None),
    ],
)
def test_an_amount_given_anew_for_the_same_subject(fact: str, memory: str, unit: str | None) -> None:
    assert amount_changed(fact, memory) == unit


@pytest.mark.parametrize(
    ("text", "paused"),
    [
        ("User has no gym for a few weeks, User sprained User's ankle", True),
        ("User is taking a break from swimming", True),
        ("User stopped running until User's knee heals", True),
        ("User no longer works at Google, User left this month", False),
        ("User quit smoking this month", False),
        ("User started a new job this week", False),
        ("User is not vegan anymore", False),
    ],
)
def test_a_pause_is_told_from_an_end(text: str, paused: bool) -> None:
    assert pauses(text) is paused


@pytest.mark.parametrize(
    ("residence", "kept"),
    [
        ("User lives in Kraków with User's two cats, Pixel and Byte.", "User's two cats, Pixel and Byte"),
        ("User lives in Manchester with User's wife Anna and our son.", "User's wife Anna and our son"),
        ("User lives in Oslo with User's kids and works at Equinor.", "User's kids"),
        ("User lives in Austin with User's roommate Carlos.", ""),
        ("User lives in Leeds with User's parents.", ""),
        ("User lives in Oslo with User's wife and User's flatmate Tom.", ""),
        ("User lives in Leeds.", ""),
    ],
)
def test_the_household_a_move_takes_along(residence: str, kept: str) -> None:
    assert household(residence) == kept


def test_an_ing_opener_with_an_aside_of_its_own_is_the_speaker_doing() -> None:
    """'is' belongs to 'while the pool is closed'; 'Running when it's cold is hard' has a verb of its own."""
    assert (with_subject("Taking a break from swimming while the pool is closed for repairs.") or "").startswith(
        "I'm taking"
    )
    assert with_subject("Running when it's cold is hard.") is None


@pytest.mark.slow
def test_the_family_closes_plans_amounts_dates_and_keeps_paused_habits_and_the_household() -> None:
    """Round 19's code: DEV 7/28 and 11/16 (each rule's own step is in its commit). One miss is known:
    "we're at 28k combined" is too far from "we've saved 15k" (0.49) for an amount rule that has only the
    subject to go on."""
    assert measure(DEV, "l", Settings()) == (31, 16)


@pytest.mark.parametrize(
    ("fact", "memory", "unit"),
    [
        ("User's doctor upped the metformin to 1000mg twice a day.", "User is on metformin, 500mg twice a day.", "mg"),
        ("User mentioned: the landlord raised the rent to 980 euros.", "User's rent is 900 euros a month.", "€"),
        ("User mentioned that they're at 28k combined.", "User mentioned that they have 15k.", "k"),
        ("User's doctor upped the metformin to 1000mg.", "User's mum takes 500mg of ibuprofen.", None),
        ("User's mum takes 20mg of atorvastatin.", "User is on metformin, 500mg twice a day.", None),
    ],
)
def test_an_amount_someone_changed_is_of_what_it_names(fact: str, memory: str, unit: str | None) -> None:
    """'We' told by the user is the user's household; who changed an amount does not say whose it is."""
    assert amount_changed(fact, memory) == unit


def test_something_done_is_not_closed_by_a_change_of_something_else() -> None:
    """Probe 4: 'switched piano teachers' had superseded 'passed grade 3 piano with merit'."""
    cases = [c for c in DEV if "switched" in c[1] or "Crete" in c[0]]
    assert measure(cases, "h", Settings()) == (0, len(cases))


@pytest.mark.parametrize(
    ("fact", "memory", "kept"),
    [
        ("User is down to 79kg!", "User is trying to lose weight, User is at 82kg.", "User is trying to lose weight"),
        ("User's long run is 20 miles now.", "User is training for a marathon, User's long run is 18 miles.",
         "User is training for a marathon"),
        ("User is down to 79kg!", "User is at 82kg right now.", ""),
        ("User is down to 79kg!", "User is trying to lose weight, User's dog is 30kg.", ""),
    ],
)  # fmt: skip
def test_an_amount_given_anew_replaces_its_clause_only(fact: str, memory: str, kept: str) -> None:
    assert beside_amount(fact, memory) == kept


@pytest.mark.parametrize(
    ("fact", "memory", "finished"),
    [
        ("User finished The Name of the Wind!", "User is currently reading The Name of the Wind.", True),
        ("User mentioned that they finished Breaking Bad, what a finale.", "User is watching Breaking Bad now.", True),
        ("User finished reading a novel by Ishiguro.", "User is reading a novel by Ishiguro.", True),
        ("User finished a jigsaw puzzle.", "User is reading Dune.", False),
        ("User finished writing the report.", "User is reading the report.", False),
    ],
)
def test_something_read_or_watched_is_finished(fact: str, memory: str, finished: bool) -> None:
    """A capitalised '-ing' word is a name ('Breaking Bad'), not the doing."""
    assert finishes(fact, memory) is finished


def test_something_done_after_it_was_planned_is_news_and_a_season_over_closes_it() -> None:
    """Probe 5: 'Passed the MRCP!' was IGNOREd as a confirmation of 'has got the MRCP exam on 14 March';
    'Ramadan is over' and 'The juice cleanse is over' left them going on."""
    cases = [c for c in DEV if c[1].startswith("Passed") or "is over" in c[1]]
    assert measure(cases, "o", Settings()) == (2, 2)


def test_one_statement_settles_the_plan_beside_the_home_it_changes_once_across_reruns(tmp_path: Path) -> None:
    """'Moved to Warsaw!' changes where the user lives and closes 'moving to Warsaw in June' (settled, audited);
    running the same sessions again closes nothing twice and logs nothing new."""
    settings = Settings().model_copy(update={"store_uri": str(tmp_path)})
    now = datetime(2026, 10, 1, 12, tzinfo=UTC)
    said = ["I live in Kraków. I'm moving to Warsaw in June.", "Moved to Warsaw!"]
    sessions = [
        told_session("life", "u", f"s{i}", text, now - timedelta(days=30 - 20 * i), "Got it.")
        for i, text in enumerate(said)
    ]
    ingest_sessions(sessions, settings)
    store = open_store(settings)
    rows = store.rows(MEMORIES, columns=["content", "status", "status_reason"])
    plan = next(r for r in rows if "moving to Warsaw" in r["content"])
    assert plan["status"] == "superseded" and plan["status_reason"].startswith("settled by ")
    assert [r["content"] for r in rows if r["status"] == "active"] == [
        "User lives in Warsaw (changed from Kraków on 2026-09-21)"
    ]
    changes = store.rows(CHANGES, columns=["reason", "old_content"])
    assert [c["old_content"] for c in changes if c["reason"] == "settled by a later statement"] == [plan["content"]]
    ingest_sessions(sessions, settings)
    again = open_store(settings)
    assert len(again.rows(CHANGES, columns=["change_id"])) == len(changes)
    assert sorted(r["status"] for r in again.rows(MEMORIES, columns=["status"])) == sorted(r["status"] for r in rows)


@pytest.mark.parametrize(
    ("fact", "memory", "settled"),
    [
        ("User went to the dentist today (21 September 2026)!", "User has a dentist appointment on Friday.", True),
        ("User passed the MRCP!", "User has got User's MRCP exam on 14 March.", True),
        ("User went to the gym today.", "User has a dentist appointment on Friday.", False),
        ("User went to the dentist today.", "User has a dentist appointment on Friday. User hates the drill.", False),
        ("User went to the dentist in 2019.", "User went to the dentist on Friday.", False),
    ],
)  # fmt: skip
def test_something_arranged_then_told_as_done_is_settled(fact: str, memory: str, settled: bool) -> None:
    """What was done must be what was arranged, for a day ahead, in a memory of one arrangement (a story of
    several sentences on LoCoMo-dev shares words with many later events)."""
    day = datetime(2026, 9, 1, tzinfo=UTC)
    row = MemoryRow.model_validate(
        {"row_id": "m-v1", "memory_id": "m", "version": 1, "app_name": "a", "user_id": "u", "topic": "t",
         "content": memory, "vector": [0.0], "importance": 0.5, "confidence": 0.8, "speaker": "User", "slot": None,
         "value": None, "source_session_id": "s", "source_event_ids": ["e"], "stated_at": day, "valid_from": day,
         "valid_to": None, "status": "active", "status_reason": None, "supersedes": None, "relation": "new",
         "confirmations": 0, "last_confirmed_at": None, "access_count": 0, "last_accessed_at": None,
         "created_at": day, "updated_at": day, "run_id": "r"}
    )  # fmt: skip
    assert settles(fact, row, memory, 0.7) is settled


@pytest.mark.parametrize(
    ("fact", "memory", "settled"),
    [
        ("User's cat Luna died on Sunday, User is gutted.", "User's cat Luna has kidney disease.", True),
        ("User's grandad passed away on 20 September 2026.", "User's grandad is 92 and lives in a care home.", True),
        ("User mentioned that Luna died on Sunday.", "User mentioned that Luna is 14 in November 2026.", True),
        ("User's neighbour's dog died on 20 September 2026.", "User's cat Luna has kidney disease.", False),
        ("User's grandad passed away last night.", "User's grandad took User fishing every summer.", False),
        ("User's grandad passed away last night.", "User's grandma is 88.", False),
    ],
)
def test_a_death_settles_what_was_said_of_them_as_going_on(fact: str, memory: str, settled: bool) -> None:
    """Something they did is their history and stays; someone else's death settles nothing of theirs."""
    assert died(fact, memory) is settled


def test_something_done_that_also_says_how_things_stand_still_changes() -> None:
    """Round 19's probes again: 'Knee is fine now, back at the gym' had closed the gym routine instead of
    'hurt User's knee, so no gym for a few weeks'; 'going in May instead' had closed the user's Sunday run
    instead of the flights booked for April 3rd."""
    cases = [c for c in DEV if "Knee is fine" in c[1] or ("May instead" in c[1] and "flights" in c[0])]
    assert measure(cases, "k", Settings()) == (2, 0)
