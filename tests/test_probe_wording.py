"""Round-15 write-path readings from two fresh probes of chat turns: the name the user goes by, a relative
named without "my", interjections by their shape, "forget what I said about X", a request to remember
asked as a question, "our" after "my", a closing "sorry", a present verb or a kind of person said
without "I", and an instruction in a sentence's second half."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from evaluation.wording import memories_of
from tasks.providers.extraction_rules import instruction
from tasks.providers.forget_request import forget_target
from tasks.providers.implicit_subject import with_subject
from tasks.providers.said_as import as_said
from tasks.textrules import USER_CLAUSE, clauses, clean, resolve_dates
from tasks.third_person import third_person


def test_the_name_the_user_goes_by() -> None:
    """ "Call me Jo" is the name to use, beside (not instead of) the name the user has."""
    assert memories_of("Please call me Jo.") == "User goes by the name Jo"
    assert memories_of("Everyone calls me Bea.") == "User goes by the name Bea"
    assert memories_of("My name's Robert but call me Bob.") == "User's name is Robert | User goes by the name Bob"
    assert memories_of("Call me Sam, nobody uses Samantha except my mum.").startswith(
        "User goes by the name Sam, nobody"
    )


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


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("Prefer window seats on long flights.", "I prefer window seats on long flights."),
        ("Mainly use Python at work.", "I mainly use Python at work."),
        ("Usually play tennis on Sundays.", "I usually play tennis on Sundays."),
        ("Not much of a morning person.", "I'm not much of a morning person."),
        ("Bit of a coffee snob.", "I'm a bit of a coffee snob."),
    ],
)
def test_a_present_verb_or_a_kind_of_person_without_i(said: str, meant: str) -> None:
    assert with_subject(said) == meant


@pytest.mark.parametrize(
    "said",
    ["Use metric units please.", "Really good pasta last night.", "Bit of a problem with my order.", "Only two left."],
)
def test_an_imperative_an_adjective_or_a_situation_has_no_i(said: str) -> None:
    assert with_subject(said) is None


def test_an_instruction_after_a_comma_is_its_own_clause() -> None:
    """In a user's turn; a participant's "... and always make us smile" goes on describing."""
    said = memories_of("Prefer window seats, and never book me on Ryanair again.")
    assert "User prefers window seats" in said and "Never book the user on Ryanair again" in said
    assert memories_of("Thanks, but don't send me reminders on weekends.") == (
        "Never send the user reminders on weekends"
    )
    assert clauses("They brighten our day and always make us smile", USER_CLAUSE) == [
        "They brighten our day and always make us smile"
    ]
    assert memories_of("Thanks!") == ""


def test_an_identifier_is_copied_not_rewritten() -> None:
    """The "me" in an e-mail or web address, or a handle, is not the speaker."""
    said = "my email changed to sam.lee@proton.me, my site is about.me/jo and I'm @me_irl"
    assert third_person(said, "User") == (
        "User's email changed to sam.lee@proton.me, User's site is about.me/jo and User is @me_irl"
    )


def test_a_month_after_from_or_until_reads_as_a_date() -> None:
    assert "from June 2023" in memories_of("I've decided to go part-time from next month.")
    assert resolve_dates("It runs until next month.", datetime(2023, 5, 8, tzinfo=UTC)) == "It runs until June 2023."


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("Have two cats and a tortoise.", "I have two cats and a tortoise."),
        ("Between jobs at the moment.", "I'm between jobs at the moment."),
        ("On holiday until Monday.", "I'm on holiday until Monday."),
    ],
)
def test_a_state_or_a_having_without_i(said: str, meant: str) -> None:
    assert with_subject(said) == meant


@pytest.mark.parametrize("said", ["Have a nice day!", "Have fun at the gig.", "Have a look at this."])
def test_have_as_a_wish_or_an_imperative(said: str) -> None:
    assert with_subject(said) is None


def test_stop_doing_something_is_an_instruction_and_a_topic_opener_is_filler() -> None:
    assert memories_of("Pls stop sending me recipes with nuts.") == "Stop sending the user recipes with nuts"
    assert clean("Work wise, I'm moving teams.") == "I'm moving teams."
    assert clean("Otherwise, I'm fine.") == "Otherwise, I'm fine."


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("Would love to visit Japan someday.", "I would love to visit Japan someday."),
        ("Wanna get fitter before June.", "I want to get fitter before June."),
        ("Currently obsessed with sourdough.", "I'm currently obsessed with sourdough."),
    ],
)
def test_would_wanna_and_currently_without_i(said: str, meant: str) -> None:
    assert with_subject(said) == meant


def test_a_thing_of_the_users_named_without_my() -> None:
    assert as_said("Bike got stolen from outside work.") == "My bike got stolen from outside work."
    assert as_said("Back in London until June.") == "Back in London until June."  # a place, not a back


def test_how_to_answer_is_an_instruction_and_a_task_is_not() -> None:
    assert memories_of("Please use British spelling.") == "Use British spelling"
    assert memories_of("Keep answers short please.") == "Keep answers short"
    assert "Book" not in memories_of("Please book a table for two at 8.")


def test_forgot_to_mention_is_an_aside() -> None:
    assert clean("Forgot to say, the kids are 5 and 8.") == "The kids are 5 and 8."
    assert clean("I'm allergic to penicillin, forgot to mention.") == "I'm allergic to penicillin."


@pytest.mark.parametrize(
    ("said", "kept"), [("Got a puppy!", "User got a puppy"), ("Got promoted!", "User got promoted")]
)
def test_news_in_few_words_is_kept(said: str, kept: str) -> None:
    """ "got" is a stopword, yet "Got a puppy!" is the news; "Got it, thanks" stays small talk."""
    assert memories_of(said).startswith(kept)


def test_got_it_is_not_news() -> None:
    assert memories_of("Got it, thanks!") == ""


def test_a_second_verb_after_a_comma_is_the_speakers() -> None:
    """ "I work in Leeds, live in York"; a vocative ("I miss you, love.") or a noun (", work is crazy") is not one."""
    assert third_person("I work in Leeds, live in York.", "Ann") == "Ann works in Leeds, lives in York."
    assert memories_of("Love hiking, hate running.") == "User loves hiking, hates running"
    assert third_person("I miss you, love.", "Ann") == "Ann misses you, love."
    assert third_person("I'm tired, work is crazy.", "Ann") == "Ann is tired, work is crazy."
    assert third_person("hiking, like a walk in the park", "Ann") == "hiking, like a walk in the park"
