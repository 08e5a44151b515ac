"""What only the conversation tells (round 28): a correction said later in the session, and a pick among
the options the agent listed; through the local extractor over a whole session."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tasks.models import Event, Session
from tasks.providers.local_extractor import LocalExtractor
from tasks.providers.offered import options, picked
from tasks.providers.people import echoed, renamed
from tasks.providers.retractions import Retraction, apply_retraction, corrected, retraction

NOW = datetime(2026, 10, 1, 18, tzinfo=UTC)


def memories(*turns: tuple[str, str]) -> list[str]:
    events = tuple(
        Event(id=f"e{i}", author=who, role="user" if who == "user" else "agent", text=text, timestamp=at)
        for i, (who, text) in enumerate(turns)
        for at in (NOW + timedelta(minutes=i),)
    )
    session = Session(app_name="a", user_id="u", session_id="s", started_at=NOW, ended_at=events[-1].timestamp,
                      events=events)  # fmt: skip
    return [f.content for f in LocalExtractor().extract(session).facts]


@pytest.mark.parametrize(
    ("said", "value", "old", "sure"),
    [
        ("Scratch that, it's Tuesday", "Tuesday", None, True),
        ("and correction, the flat is on floor 4", "the flat is on floor 4", None, True),
        ("wait it's 5mg, the doctor changed it", "5mg", None, False),
        ("sorry, Porto not Lisbon", "Porto", "Lisbon", True),
        ("oops he's 9 actually", "9", None, False),
        ("make that 1200, we got a discount", "1200", None, False),
        ("oh and I meant Sunday, not Monday", "Sunday", "Monday", True),
        ("actually it's the 21st, I misread it", "the 21st", None, False),
    ],
)
def test_how_a_correction_is_read(said: str, value: str, old: str | None, sure: bool) -> None:
    assert retraction(said) == Retraction(value, old, sure)


@pytest.mark.parametrize(
    "said", ["Sorry it's late", "it's fine", "I'm vegetarian, not vegan", "sorry, I'm vegetarian not 7", "Wait, what?"]
)
def test_what_is_not_a_correction(said: str) -> None:
    found = retraction(said)
    assert found is None or corrected("User's dog Rex is 7", found) is None


def test_a_clause_told_again_changes_only_its_last_word() -> None:
    previous = "User mentioned that their gym closes at nine and they train twice a week"
    assert corrected(previous, Retraction("gym closes at ten")) == (
        "User mentioned that their gym closes at ten and they train twice a week"
    )


def test_an_amount_replaces_the_amount_of_its_unit() -> None:
    assert apply_retraction("User walks 3 km to work, 40 minutes", "5 km") == "User walks 5 km to work, 40 minutes"


def test_a_day_of_the_month_replaces_the_day() -> None:
    corrected_day = apply_retraction("User's exam is on the 12th at 9", "the 21st", sure=False)
    assert corrected_day == "User's exam is on the 21st at 9"


def test_an_unsure_slip_corrects_only_a_value_of_its_shape() -> None:
    assert apply_retraction("User's cat Tofu is shy", "14", sure=False) is None
    assert apply_retraction("User's cat Tofu is 12", "14", sure=False) == "User's cat Tofu is 14"


def test_a_correction_later_in_the_session_rewrites_its_fact() -> None:
    said = memories(
        ("user", "my flight to Oslo leaves on the 14th, what should I pack"),
        ("agent", "Layers, waterproofs and good boots."),
        ("user", "sorry, Bergen not Oslo"),
    )
    assert any("Bergen" in m for m in said)
    assert not any("Oslo" in m.split("(previously")[0] for m in said)


def test_numbered_options_and_options_said_as_verbs() -> None:
    assert options("Top three: 1) Kindle Paperwhite, 2) Kobo Clara, 3) Boox Go.") == (
        ["Kindle Paperwhite", "Kobo Clara", "Boox Go"], False,
    )  # fmt: skip
    assert options("You could take the train, rent a car, or fly.") == (["take the train", "rent a car", "fly"], True)
    assert options("I can book it for 6 or 7pm tonight.") == ([], False)


@pytest.mark.parametrize(
    ("reply", "decision"),
    [
        ("the second one please", "chose Kobo Clara"),
        ("#3", "chose Boox Go"),
        ("kobo, it has physical buttons", "chose Kobo Clara"),
        ("the last one", "chose Boox Go"),
    ],
)
def test_a_reply_picks_an_option(reply: str, decision: str) -> None:
    found = picked("Top three: 1) Kindle Paperwhite, 2) Kobo Clara, 3) Boox Go.", reply)
    assert found is not None and found[0] == decision


@pytest.mark.parametrize(
    "reply",
    ["I think I need more time to decide", "hmm, none of those", "thanks!", "the one with buttons", "last week"],
)
def test_a_reply_that_picks_nothing(reply: str) -> None:
    assert picked("Top three: 1) Kindle Paperwhite, 2) Kobo Clara, 3) Boox Go.", reply) is None


def test_the_pick_is_kept_with_what_was_picked() -> None:
    said = memories(
        ("user", "which bike lock should I get"),
        ("agent", "You could get a U-lock, a folding lock, or a heavy chain."),
        ("user", "folding one. it fits my bag"),
    )
    assert "User chose to get a folding lock" in said


@pytest.mark.parametrize(
    ("question", "answer", "fixed"),
    [
        ('(Asked by the agent: "What does your wife enjoy?")', "my husband, Theo", "your husband enjoy"),
        ('(Asked by the agent: "When is your brother\'s birthday?")', "no, my sister's", "your sister's birthday"),
    ],
)
def test_an_answer_that_names_someone_else_renames_the_question(question: str, answer: str, fixed: str) -> None:
    renamed_to = renamed(question, answer)
    assert renamed_to is not None and fixed in renamed_to


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ('(Asked by the agent: "What does your wife enjoy?")', "my wife loves hiking"),
        ('(Asked by the agent: "What do you enjoy?")', "my husband and I like hiking"),
        ('(Asked by the agent: "What does your wife enjoy?")', "gardening mostly"),
    ],
)
def test_an_answer_about_whom_was_asked_leaves_the_question(question: str, answer: str) -> None:
    assert renamed(question, answer) is None


def test_the_stored_answer_does_not_repeat_whom_the_agent_got_wrong() -> None:
    said = " | ".join(memories(("agent", "How old is your son?"), ("user", "my daughter, she's 7")))
    assert "your son" not in said and "daughter" in said


@pytest.mark.parametrize(
    ("answer", "read"),
    [("my brother is, yes", "yes"), ("my mum does!", "yes"), ("my dad does, ten minutes away", None), ("yes", None)],
)
def test_a_yes_said_with_the_person_is_the_yes(answer: str, read: str | None) -> None:
    assert echoed(answer) == (read or answer)
