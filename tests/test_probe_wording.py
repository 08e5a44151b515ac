"""Round-15 write-path readings from a fresh probe of chat turns: the name the user goes by, a relative
named without "my", interjections by their shape, "forget what I said about X", a request to remember
asked as a question, "our" after "my", and a closing "sorry"."""

from __future__ import annotations

import pytest

from evaluation.wording import memories_of
from tasks.providers.extraction_rules import instruction
from tasks.providers.forget_request import forget_target
from tasks.providers.implicit_subject import as_said
from tasks.textrules import clean
from tasks.third_person import third_person


def test_the_name_the_user_goes_by() -> None:
    """ "Call me Jo" is the name to use, beside (not instead of) the name the user has."""
    assert memories_of("Please call me Jo.") == "User goes by Jo"
    assert memories_of("Everyone calls me Bea.") == "User goes by Bea"
    assert memories_of("My name's Robert but call me Bob.") == "User's name is Robert | User goes by Bob"
    assert memories_of("Call me Sam, nobody uses Samantha except my mum.").startswith("User goes by Sam, nobody")


@pytest.mark.parametrize("said", ["Don't call me Sammy.", "Call me when you land.", "Call me Monday."])
def test_a_call_that_names_no_name_to_use(said: str) -> None:
    assert "goes by" not in memories_of(said)


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("Sister's getting married in May.", "My sister is getting married in May."),
        ("Brother just got engaged!", "My brother just got engaged!"),
        ("Dog ate my homework.", "My dog ate my homework."),
        ("Kids are off school.", "My kids are off school."),
        ("Dad's car broke down.", "My dad's car broke down."),  # a possessive stays one
        ("My dad's been ill.", "My dad has been ill."),
        ("My mum's cooking dinner.", "My mum is cooking dinner."),
    ],
)
def test_a_relative_named_without_my(said: str, meant: str) -> None:
    assert as_said(said) == meant


@pytest.mark.parametrize(
    "said", ["Cat videos are my weakness.", "My sister's wedding is in June.", "Son of a gun.", "Partner in crime."]
)
def test_a_noun_that_only_looks_like_a_relative(said: str) -> None:
    assert as_said(said) == said


def test_news_of_a_relative_is_kept_in_few_words() -> None:
    assert memories_of("Brother just got engaged!") == "User's brother just got engaged!"


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("Whew, I finally paid off my car.", "I finally paid off my car."),
        ("Aw, I miss my old dog.", "I miss my old dog."),
        ("Hahaha, I did it.", "I did it."),
        ("Tonight, I'm cooking.", "Tonight, I'm cooking."),  # a time is not an interjection
        ("Nope, never been there.", "Nope, never been there."),  # a participant's "no" is their answer
        ("i broke my wrist so typing is slow sorry", "I broke my wrist so typing is slow"),
        ("I'm so sorry", "I'm so sorry"),
    ],
)
def test_interjections_by_their_shape_and_a_closing_sorry(said: str, meant: str) -> None:
    assert clean(said) == meant


def test_never_with_a_past_form_is_a_statement_not_an_instruction() -> None:
    """ "Never been to Rome" leaves out its "I've"; "Never book ..." is an instruction."""
    assert instruction("Never been to Rome.", "Ann") is None
    assert instruction("Never saw this coming.", "Ann") is None
    rule = instruction("Never book me on a red-eye.", "User")
    assert rule is not None and rule.content == "Never book the user on a red-eye"


def test_forget_what_i_said_about_something() -> None:
    """The change said after it names the thing forgotten; "ignore" alone is not a request to forget."""
    assert memories_of("Scratch what I told you about the job offer, I turned it down.") == (
        "User turned the job offer down."
    )
    assert memories_of("Forget what I said about the marathon, I'm not doing it.") == "User is not doing the marathon."
    assert forget_target("Disregard what I said about the diet.") == "the diet"
    assert forget_target("Ignore the noise, I'm fixing it.") is None
    assert memories_of("Forget my address, I don't want you to have it.") == ""


def test_a_request_to_remember_asked_as_a_question() -> None:
    assert memories_of("Can you keep in mind that I'm on a low FODMAP diet?") == (
        "User asked to remember: User is on a low FODMAP diet"
    )


def test_our_after_the_speakers_my_is_their_household() -> None:
    assert third_person("My wife is pregnant with our second.", "Ann") == "Ann's wife is pregnant with their second."
    assert third_person("Our community is great.", "Ann") == "Our community is great."
