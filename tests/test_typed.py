"""How people type (round 28): lists line by line, note-taking openers, tasks set without asking, quoted
words, "role-play" as the user's own, and a condition said bare ("I have asthma")."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from evaluation.temporal import told_session
from tasks.providers.chat_speak import spelled_out
from tasks.providers.clause_shape import noted
from tasks.providers.listed import listed
from tasks.providers.local_extractor import LocalExtractor
from tasks.providers.not_told import unpasted
from tasks.providers.statements import frame_of
from tasks.textrules import REQUEST

NOW = datetime(2026, 10, 1, tzinfo=UTC)


def memories(text: str) -> str:
    return " | ".join(f.content for f in LocalExtractor().extract(told_session("a", "u", "s", text, NOW)).facts)


def test_list_items_become_lines_under_their_header() -> None:
    text = "Off the menu:\n1. pork\n2) shellfish\n- my son Ari - sesame\nthanks"
    assert listed(text).split("\n") == [
        "", "Off the menu: pork.", "Off the menu: shellfish.", "Off the menu: my son Ari: sesame.", "thanks",
    ]  # fmt: skip


def test_a_header_that_says_what_is_done_with_each_item() -> None:
    assert listed("Foods I avoid:\n- pork\n- shellfish").split("\n")[1:] == ["I avoid pork.", "I avoid shellfish."]
    assert listed("Things my dad is allergic to:\n* bees").split("\n")[1:] == ["my dad is allergic to bees."]
    assert listed("Books I read this year:\n1. Dune").split("\n")[1:] == ["I read Dune this year."]
    assert listed("Allergies in our house:\n* me - nuts").split("\n")[1:] == ["Allergies in our house: me: nuts."]


def test_items_under_a_header_about_the_user_stand_alone() -> None:
    assert listed("A bit about me:\n* work nights as a nurse\n* 41").split("\n")[1:] == [
        "I work nights as a nurse.",
        "41.",
    ]


def test_text_without_a_list_is_unchanged() -> None:
    assert listed("I'm 41 - and a nurse") == "I'm 41 - and a nurse"
    assert listed("line one\nline two") == "line one\nline two"


def test_a_listed_item_is_a_memory_of_its_own() -> None:
    said = memories("Stuff I can't eat:\n1. gluten\n2. soy")
    assert "gluten" in said and "soy" in said
    assert "1." not in said


@pytest.mark.parametrize(
    "opener", ["Make a note:", "note to self:", "Jot this down -", "Please note that", "For future reference,"]
)
def test_a_note_taking_opener_reads_as_remember(opener: str) -> None:
    assert noted(f"{opener} my locker code is 4471") == "Remember that my locker code is 4471"
    said = memories(f"{opener} my locker code is 4471")
    assert "4471" in said and opener.split()[0] not in said


def test_a_statement_about_notes_is_not_an_opener() -> None:
    assert noted("Notes from the meeting are in my drive") == "Notes from the meeting are in my drive"


@pytest.mark.parametrize(
    "said", ["for the record, I'm a night owl", "FWIW I'm a night owl", "Heads up, I'm a night owl"]
)
def test_filler_openers_are_not_kept(said: str) -> None:
    assert memories(said) == "User is a night owl"


@pytest.mark.parametrize(
    "said",
    [
        "plan a picnic for saturday",
        "Brainstorm some names for a bakery",
        "make me a grocery list",
        "gift ideas for my sister",
        "Names for a goldfish?",
    ],
)
def test_a_task_set_without_asking_is_a_request(said: str) -> None:
    assert REQUEST.match(said) is not None


@pytest.mark.parametrize("said", ["Plan is to move in May", "My ideas for the garden are simple", "Made a cake"])
def test_statements_that_open_like_a_task_are_not_requests(said: str) -> None:
    assert REQUEST.match(said) is None


def test_a_pet_a_request_names_is_who_the_pronoun_means() -> None:
    said = memories("pick a collar for my new puppy, he's a huge husky")
    assert "puppy is a huge husky" in said
    assert "collar" not in said


@pytest.mark.parametrize(
    ("said", "absent"),
    [
        ("what is 'I work in a bakery' in Italian", "bakery"),
        ("the fixture has bio='I breed alpacas' and the test fails", "alpacas"),
        ("My villain's last line is 'I never loved Paris' - too cheesy?", "Paris"),
    ],
)
def test_first_person_words_in_quotes_are_not_the_user_telling(said: str, absent: str) -> None:
    assert absent not in memories(said)


def test_a_title_and_the_users_own_quoted_words_stay() -> None:
    assert "'I Walk the Line'" in unpasted("Our song is 'I Walk the Line'")
    assert "'I'm pregnant'" in unpasted("I told my mum 'I'm pregnant' last night")


@pytest.mark.parametrize(
    ("said", "kept"),
    [
        ("I coach debate and we use role-play in every session", "debate"),
        ("My daughter loves role-playing games", "role-playing games"),
    ],
)
def test_role_play_said_of_the_users_life_is_kept(said: str, kept: str) -> None:
    assert kept in memories(said)


@pytest.mark.parametrize(
    ("clause", "value"), [("I have asthma", "asthma"), ("I have flat feet", "flat feet"), ("I have a cat", "cat")]
)
def test_a_condition_said_bare_is_a_have_frame(clause: str, value: str) -> None:
    frame = frame_of(clause)
    assert frame is not None and (frame.name, frame.value) == ("have", value)


@pytest.mark.parametrize(
    "clause", ["I have lived here for years", "I have to go", "I have no idea", "I have been there", "I have used it"]
)
def test_a_perfect_or_a_must_is_not_a_have_frame(clause: str) -> None:
    frame = frame_of(clause)
    assert frame is None or frame.name != "have"


@pytest.mark.parametrize(
    ("said", "spelled"),
    [
        ("MY DOG RUFUS IS 9 TODAY!!", "my dog rufus is 9 today!!"),
        ("party is tmrw, my bday", "party is tomorrow, my birthday"),
        ("im vegan lol so no cheese", "im vegan, so no cheese"),
        ("that was my budget lol. we're saving", "that was my budget. we're saving"),
        ("I work at NASA and the FBI", "I work at NASA and the FBI"),
    ],
)
def test_chat_shorthand_is_spelled_out(said: str, spelled: str) -> None:
    assert spelled_out(said) == spelled
