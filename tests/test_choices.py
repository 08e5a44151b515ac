"""A choice answered in a word ("oak or walnut?" "walnut") is a decision; a question's words are not the user's."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from evaluation.decisions import dialog, measure
from tasks.ingest.run import ingest_sessions
from tasks.providers.choices import alternatives, chosen
from tasks.providers.clause_shape import bare_answer
from tasks.providers.local_extractor import LocalExtractor
from tasks.settings import Settings
from tasks.store.tables import MEMORIES, open_store

AT = datetime(2026, 5, 4, 10, tzinfo=UTC)


def asked(question: str) -> str:
    return f'(Asked by the agent: "{question}")'


@pytest.mark.parametrize(
    ("question", "reply", "decision", "rest"),
    [
        ("Do you want the red or the green folder?", "Green please", "chose green", ""),
        ("Should we meet at the library or the cafe?", "The cafe, it's quieter.", "chose the cafe", "it's quieter."),
        ("Would you rather fly or take the ferry?", "Ferry, if the weather holds", "chose ferry, if the weather holds",
         ""),
        ("Is this trip for work or leisure?", "Leisure", "answered: leisure", ""),
        ("Do you prefer Monday or Friday for the call?", "Friday", "chose Friday", ""),
    ],
)  # fmt: skip
def test_a_reply_naming_one_side_is_the_choice(question: str, reply: str, decision: str, rest: str) -> None:
    assert chosen(asked(question), reply) == (decision, rest)


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ("Do you want the red or the green folder?", "Either is fine"),  # neither side
        ("Do you want the red or the green folder?", "I'd take the green one"),  # a sentence of its own
        ("Any allergies or intolerances?", "Gluten"),  # the reply names neither alternative
        ("Are you ready or not?", "ready"),  # "or not" offers nothing
        ("What time suits you?", "Friday"),  # no alternatives
    ],
)
def test_no_choice_without_one_side_named_in_a_short_answer(question: str, reply: str) -> None:
    assert chosen(asked(question), reply) is None


def test_the_two_sides_are_the_words_next_to_or() -> None:
    assert alternatives("Shall I book the 7:15 train or the 9:40?") == (frozenset({"7", "15", "train"}),
                                                                          frozenset({"9", "40"}))  # fmt: skip
    assert alternatives("Tea, coffee or water?") == (frozenset({"coffe"}), frozenset({"water"}))


def test_the_decision_cites_the_question_and_the_answer_and_keeps_what_follows() -> None:
    session = dialog("u", "s1", ("A: For the study, do you want pine or ash shelves?",
                                 "U: Ash, and I need them delivered by June 3rd."), AT)  # fmt: skip
    facts = LocalExtractor().extract(session).facts
    decision = next(f for f in facts if "User chose" in f.content)
    assert decision.content == '(Asked by the agent: "For the study, do you want pine or ash shelves?") User chose ash'
    assert decision.source_event_ids == ("s1-0", "s1-1")
    assert any("delivered by" in f.content and f.source_event_ids == ("s1-1",) for f in facts)


def test_a_later_negation_of_the_questions_words_closes_no_choice(tmp_path: Path) -> None:
    """ "Not a morning person" is said of the user, not of a morning dentist slot they picked; the words of
    the agent's question ("a morning or evening slot") are not the user's either."""
    settings = Settings().model_copy(update={"store_uri": str(tmp_path)})
    first = dialog("u", "s1", ("A: Would you like a morning or afternoon haircut?", "U: Morning, early if you can."),
                   AT)  # fmt: skip
    later = dialog("u", "s2", ("U: Honestly I'm not a morning person at all.",), AT + timedelta(days=9))
    ingest_sessions([first, later], settings)
    active = [r["content"] for r in open_store(settings).rows(MEMORIES) if r["status"] == "active"]
    assert any("User chose morning, early if you can" in c for c in active), active
    assert any("not a morning person" in c for c in active), active


@pytest.mark.parametrize(
    ("question", "reply", "said"),
    [
        ("Shall I renew the insurance with Aviva?", "No, too pricey.", "no, too pricey"),
        ("Keep the standup at 9?", "No, 10 please", "no, 10"),
        ("Shall I order the blue one?", "Sure, two of them", None),  # a yes with more: the general rules
        ("Want me to add eggs to the list?", "Nope, I'm vegan.", None),  # a statement of its own: the rules read it
        ("Shall I book it?", "No, my sister will.", None),
    ],
)
def test_a_no_keeps_what_follows_without_a_subject(question: str, reply: str, said: str | None) -> None:
    assert bare_answer(reply, asked(question)) == said


def test_a_day_named_in_an_answer_is_kept() -> None:
    session = dialog("u", "s1", ("A: Should I move the review to Thursday?", "U: Not Thursday. Friday suits."), AT)
    facts = LocalExtractor().extract(session).facts
    assert any("Friday suits" in f.content for f in facts), [f.content for f in facts]


def test_a_recap_the_user_agrees_to_is_kept_in_full() -> None:
    session = dialog("u", "s1", ("A: Just to confirm: you're collecting the keys from Anna at 6pm on the 2nd.",
                                 "U: Yep, exactly."), AT)  # fmt: skip
    facts = LocalExtractor().extract(session).facts
    assert [(f.content, f.source_event_ids) for f in facts] == [
        ("Confirmed by User: User is collecting the keys from Anna at 6pm on the 2nd", ("s1-0", "s1-1"))
    ]
    refused = dialog("u", "s2", ("A: To confirm: a table for 6 at 8pm.", "U: No, for 5 people."), AT)
    assert not any("Confirmed" in f.content for f in LocalExtractor().extract(refused).facts)


def test_a_decision_about_it_says_what_it_is() -> None:
    session = dialog("u", "s1", ("A: The quote for the roof is 4,200 euros. Shall I accept it?", "U: Yes please"), AT)
    facts = LocalExtractor().extract(session).facts
    assert [f.content for f in facts] == ["Decision: accept it (the quote for the roof is 4,200 euros)"]


@pytest.mark.slow
def test_the_decision_family_finds_every_dev_decision() -> None:
    """Before: DEV top-1 14/20 ("walnut", "No, too expensive" and the recaps were no memory; "before 9" was
    closed by "not a morning person"; "Tuesday works" was dropped); held-out top-3 10/18."""
    found = measure(Settings())
    assert found["dev"]["top1"] == found["dev"]["asked"] == 20
    assert found["dev"]["said"] == 20 and found["dev"]["abstained"] == 0
    assert found["held-out"]["top3"] >= 14
