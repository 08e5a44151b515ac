"""A sentence said without its subject: which openings mean "I", "I'm" or "I have", and which have a
subject of their own (a name, a noun, a day, an imperative)."""

from __future__ import annotations

import pytest

from evaluation.wording import memories_of
from tasks.providers.forget_request import change_after
from tasks.providers.implicit_subject import with_subject
from tasks.providers.local_extractor import LocalExtractor
from tasks.providers.said_as import as_said


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("Grabbed coffee with Lena", "I grabbed coffee with Lena"),  # a regular past before a bare noun
        ("Drove Sam to the airport", "I drove Sam to the airport"),  # an irregular past before a name
        ("Married Sam in 2019", "I married Sam in 2019"),  # a state word before an object is a verb
        ("Married to Sam since 2019", "I'm married to Sam since 2019"),
        ("Really stressed about the move", "I'm really stressed about the move"),
        ("No car at the moment", "I have no car at the moment"),
        ("Heading to Lisbon next week", "I'm heading to Lisbon next week"),  # an "-ing" verb first
        ("Still waiting for the results, so nervous", "I'm still waiting for the results, so nervous"),
        ("Been learning Portuguese for a year", "I've been learning Portuguese for a year"),
        ("Not a fan of horror movies", "I'm not a fan of horror movies"),
        ("Big fan of anything spicy", "I'm a big fan of anything spicy"),
        ("Not really into golf anymore", "I'm not really into golf anymore"),
    ],
)
def test_openings_that_mean_i(said: str, meant: str) -> None:
    assert with_subject(said) == meant


@pytest.mark.parametrize(
    "said",
    [
        "Fred called this morning",  # a name ending in -ed, followed by its verb
        "Ahmed and I went hiking",
        "Speed dating was fun",  # "-eed" words are not past forms
        "Indeed it is",
        "Set a reminder for 5pm",  # a past form that is also the imperative
        "Sat works better for me",  # a day
        "Rose is my aunt",  # a name
        "Ground beef is cheaper here",  # a noun
        "Grabbed lunch with Priya?",  # a question is not a statement
        "The dog grabbed my sandwich",  # it has its subject
        "No prob, see you then",  # chat's "no problem"
        "Running is my favourite way to unwind",  # an "-ing" word that is its clause's subject
        "Swimming in the lake was the highlight",
        "Baking bread takes forever",
        "Gardening calms me down",  # an "-s" verb before its object
        "Morning run done, 5k",  # an "-ing" noun
        "Wedding in June, so excited",
        "Growing up, I lived by the sea",  # a participle before its clause's own subject
        "Volunteering at the shelter - it's so rewarding",  # a topic the rest comments on
        "Cooking with friends, especially on Sundays, is the best",  # an aside before the verb
        "Amazing but a bit scary",  # an "-ing" adjective said alone
        "Been a long week",  # "It's been"
    ],
)
def test_openings_with_a_subject_of_their_own(said: str) -> None:
    assert with_subject(said) is None


def test_a_person_named_before_is_a_subject() -> None:
    """A name ending in -ed before a preposition reads like a verb ("Alfred from work called"); with Alfred
    among the people the user has named in earlier sessions, he is the sentence's subject."""
    assert with_subject("Alfred from work called", names=("Alfred",)) is None
    assert with_subject("Alfred moved to Leeds") is None  # a verb follows the name


def test_the_memory_reads_as_the_users() -> None:
    assert memories_of("Grabbed lunch with Priya today, she just got promoted").startswith(
        "User grabbed lunch with Priya"
    )
    assert memories_of("Worried about the exam on Friday").startswith("User is worried about the exam")


def test_an_interjection_is_not_the_memory() -> None:
    """ "Ugh," and "Phew," open a sentence as "so" does; the memory starts at the point."""
    assert memories_of("Ugh, my flight to Denver got cancelled again.") == (
        "User's flight to Denver got cancelled again."
    )
    assert memories_of("Phew, finally submitted my thesis.").startswith("User finally submitted User's thesis")


def test_adverbs_after_i_are_not_conjugated() -> None:
    """The verb after one or two adverbs is the one conjugated: "If I ever get" is not "User evers get"."""
    assert "If User ever gets a dog" in memories_of("If I ever get a dog I'd name him Pickle.")
    assert "User hardly ever eats red meat" in memories_of("I hardly ever eat red meat.")


def test_a_change_after_a_forget_request_names_what_was_forgotten() -> None:
    """ "Forget the gym membership, I cancelled it": the forgotten memory goes, and the change that
    stays says what "it" was; a target that is a statement is not put in for "it"."""
    assert memories_of("Forget what I said about the gym membership, I cancelled it.") == (
        "User cancelled the gym membership."
    )
    statement = "Forget that I live in Berlin, I moved out of it last year."
    assert change_after(statement, "I live in Berlin") == "I moved out of it last year."
    assert change_after("Forget the Berlin flat, we sold it.", "the Berlin flat") == "We sold the Berlin flat."


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("Allergic to cats", "I'm allergic to cats"),  # an adjective before a preposition
        ("Back in London until June", "I'm back in London until June"),
        ("Gonna start therapy next week", "I'm going to start therapy next week"),
        ("Gonna be in Paris all week", "I'm going to be in Paris all week"),
        ("No longer drinking coffee", "I'm no longer drinking coffee"),
    ],
)
def test_states_and_plans_said_without_i(said: str, meant: str) -> None:
    assert with_subject(said) == meant


@pytest.mark.parametrize("said", ["Happy birthday to you", "Free shipping on every order", "Gonna be a great night"])
def test_adjectives_and_plans_that_are_not_about_the_speaker(said: str) -> None:
    assert with_subject(said) is None


def test_the_sentence_as_said() -> None:
    """A parent called "Dad" is the user's; a statement's trailing question to the agent is left out,
    and a question that is all question stays one."""
    assert as_said("Dad turns 70 in March") == "My dad turns 70 in March"
    assert as_said("Dad, can you help?") == "Dad, can you help?"
    assert as_said("I'm thinking of learning the guitar, any tips?") == "I'm thinking of learning the guitar."
    assert as_said("What do you think, any tips?") == "What do you think, any tips?"


def test_a_pair_with_the_speaker_is_one_subject() -> None:
    """ "My partner and I" is not split into "My partner" and "I ...", and the memory names the user first."""
    assert memories_of("My partner and I just adopted a greyhound named Bolt.") == (
        "User and User's partner just adopted a greyhound named Bolt."
    )
    assert memories_of("Me and my brother are driving to Cornwall on Saturday.").startswith(
        "User and User's brother are driving"
    )


def test_a_short_answer_to_what_the_agent_asked_is_kept() -> None:
    """ "Any dietary restrictions?" "Gluten-free, and ...": the first words are the answer."""
    said = memories_of("Any dietary restrictions? >> Gluten-free, and my son can't have dairy.")
    assert "User mentioned: Gluten-free" in said and "User's son can't have dairy" in said
    assert memories_of("How are you? >> Good, thanks") == ""


def test_a_short_answer_keeps_its_names() -> None:
    """A place said alone keeps its capitals ("London", not "london"); a common word after "Probably" does not."""
    assert memories_of("Where's the meeting? >> London").endswith("User mentioned: London")
    assert "New York" in memories_of("Where are you based? >> New York")


def test_a_rule_fact_is_rewritten_as_the_speakers_words() -> None:
    """The allergy rule's words after "I'm" go through the same rewrite as any statement: "my", "we"."""
    assert memories_of("I am allergic to my neighbour's cat.") == "User is allergic to User's neighbour's cat"
    assert memories_of("Allergic to cats but we have one.") == "User is allergic to cats but they have one"


@pytest.mark.parametrize(
    ("said", "subject"),
    [
        ("No rush please.", None),
        ("No hurry, take your time.", None),
        ("No time for breakfast these days.", "I have no time for breakfast these days."),
    ],
)
def test_no_rush_is_a_courtesy_not_something_the_user_has(said: str, subject: str | None) -> None:
    """'No rush please' had been stored as 'User has no rush please'."""
    assert with_subject(said) == subject
    told = memories_of(said)
    assert "rush" not in told and "hurry" not in told
    assert ("no time for breakfast" in told) is (subject is not None)


#: Round 34: a state of mind said with "I" left out was read as an instruction to the assistant ("Don't know what
#: to do about my landlord" became "Never know what to do about the user's landlord"). DEV read while writing
#: the rule; HELD-OUT written with it and run once after (1 → 5 of 8; the three it misses leave no instruction).
#: (said, what the memory says)
STATE_DEV = (("Don't know what to do about my landlord.", "User doesn't know what to do about User's landlord"),
             ("Don't think I'll make it to the gym this week.", "User doesn't think User will make it to the gym"),
             ("Never feel like I'm doing enough at work.", "User never feels like User is doing enough at work"),
             ("Don't really care about football.", "User doesn't really care about football"))  # fmt: skip
STATE_HELD = (("Never understood why people like jazz.", "User never understood why people like jazz"),
              ("Don't believe in horoscopes at all.", "User doesn't believe in horoscopes"),
              ("Don't see myself living in the city long term.", "User doesn't see themselves living in the city"),
              ("Don't get why my phone bill doubled.", "User doesn't get why User's phone bill doubled"),
              ("Don't even know where my passport is.", "User doesn't even know where User's passport is"))  # fmt: skip
#: Written with STATE_HELD and missed: no memory, or the subject still left out, but no instruction either.
STATE_MISSED = ("Don't mind the rain, honestly.", "Never expected to enjoy running this much.",
                "Never thought I'd like sushi.")  # fmt: skip
#: Written with them: instructions to the assistant stay instructions (8 of 8 before and after; "think twice"
#: was read as a state of mind on the rule's first run and is excluded since).
STILL_INSTRUCTIONS = ("Never book me on flights before 8am.", "Don't mention my divorce to anyone.",
                      "Always reply in Spanish.", "Don't send me reminders after 9pm.",
                      "Never suggest seafood restaurants to me.", "Don't ask me about my ex.",
                      "Don't even mention my old job.",
                      "Never think twice about waking me for an emergency.")  # fmt: skip


@pytest.mark.parametrize(("said", "meant"), STATE_DEV + STATE_HELD)
def test_a_state_of_mind_without_i_is_the_users(said: str, meant: str) -> None:
    assert memories_of(said).startswith(meant), memories_of(said)


@pytest.mark.parametrize("said", STATE_MISSED)
def test_a_missed_state_of_mind_is_at_least_no_instruction(said: str) -> None:
    from tests.test_extraction import session

    facts = LocalExtractor().extract(session(("agent", "How are you?"), ("user", said))).facts
    assert all(f.topic != "explicit_instructions" for f in facts), facts


@pytest.mark.parametrize("said", STILL_INSTRUCTIONS)
def test_instructions_to_the_assistant_stay_instructions(said: str) -> None:
    assert memories_of(said).startswith(said.split()[0].replace("Don't", "Never")), memories_of(said)


#: Round 34: a plea before the point ("Don't get me wrong,", "Don't tell anyone but") was read as an instruction
#: and, for some, was all that was kept: "Don't tell anyone but I'm pregnant" became "Never tell anyone". DEV read
#: while writing ``textrules._LEADING_FILLER``'s plea; HELD-OUT written before it and run once after (1 → 7 of 7).
#: (said, what the memory keeps)
PLEA_DEV = (("Don't get me wrong, I love my job but the commute is brutal.", "commute"),
            ("Don't judge me but I ate the whole cake.", "cake"),
            ("Don't laugh, but I've started knitting.", "knitting"),
            ("Don't worry, I already booked the vet.", "vet"),
            ("Don't tell anyone but I'm pregnant.", "pregnant"))  # fmt: skip
PLEA_HELD = (("Don't freak out, but I crashed the car this morning.", "crashed the car"),
             ("No offense, but I can't stand musicals.", "musicals"),
             ("Don't hate me but I gave away your old jacket.", "jacket"),
             ("Don't be mad, I forgot to pay the electricity bill.", "electricity bill"),
             ("Don't laugh at me, but I'm learning to tap dance.", "tap dance"),
             ("Don't worry - I already renewed my passport.", "passport"),
             ("Don't judge, I've watched that show four times.", "show"))  # fmt: skip
#: The same verbs with an object of their own are instructions (4 of 4 before and after).
PLEA_INSTRUCTIONS = ("Don't book me on flights before 8am.", "Don't worry about the cost, just book the best one.",
                     "Don't tell my sister about the party.", "Don't laugh at my typos.")  # fmt: skip


@pytest.mark.parametrize(("said", "kept"), PLEA_DEV + PLEA_HELD)
def test_a_plea_before_the_point_is_not_the_memory(said: str, kept: str) -> None:
    memory = memories_of(said)
    assert kept in memory and "Never" not in memory, memory


@pytest.mark.parametrize("said", PLEA_INSTRUCTIONS)
def test_the_same_verbs_with_an_object_stay_instructions(said: str) -> None:
    assert memories_of(said).startswith("Never "), memories_of(said)


#: Round 34: "always" or "never" before a past form is the speaker's own past, with "I" left out. Most of these
#: left no memory at all ("Always loved the sea"); "Never really liked horror movies" was kept as if it were an
#: instruction. DEV read while writing ``_EVER_PAST``; HELD-OUT written before it, run once after (0 → 7 of 8).
EVER_DEV = (("Always loved the sea.", "User always loved the sea"), ("Never liked olives much.", "User never liked"),
            ("Always hated mornings.", "User always hated mornings"),
            ("Always been a night owl.", "User has always been a night owl"),
            ("Never had sushi before.", "User has never had sushi"),
            ("Never really liked horror movies.", "User never really liked horror movies"),
            ("Never been to Spain.", "User has never been to Spain"),
            ("Never expected to enjoy running this much.", "User never expected to enjoy running"))  # fmt: skip
EVER_HELD = (("Always dreamed of living by the ocean.", "User always dreamed of living by the ocean"),
             ("Never owned a car in my life.", "User never owned a car"),
             ("Never trusted banks, honestly.", "User never trusted banks"),
             ("Always felt more at home in the mountains.", "User always felt more at home in the mountains"),
             ("Never been a fan of cilantro.", "User has never been a fan of cilantro"),
             ("Always had a soft spot for old dogs.", "User has always had a soft spot for old dogs"),
             ("Never learned to swim.", "User never learned to swim"))  # fmt: skip
# Written with EVER_HELD and missed (no memory, as before): the adverb after an opening phrase ("Ever since
# college, always struggled with sleep.").


@pytest.mark.parametrize(("said", "meant"), EVER_DEV + EVER_HELD)
def test_always_or_never_before_a_past_form_is_the_users_past(said: str, meant: str) -> None:
    assert memories_of(said).startswith(meant), memories_of(said)


@pytest.mark.parametrize("said", ["Never book me on flights before 8am.", "Always reply in Spanish.",
                                  "Always use metric units."])  # fmt: skip
def test_always_or_never_before_a_plain_verb_is_still_an_instruction(said: str) -> None:
    assert memories_of(said).startswith(said.split()[0]), memories_of(said)
