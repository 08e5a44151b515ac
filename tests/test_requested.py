"""Rules said under a label and what the user asks not to get (tasks.providers.requested).

The cases were written before the rule, in two families: DEV, read while writing it, and HELD-OUT, run
once after (14 of 14 right on that run; 1 of 14 before). NOT_REQUESTS guards what must stay as said.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from evaluation.wording import memories_of
from tasks.models import Event, Fact, Session
from tasks.providers.local_extractor import LocalExtractor
from tasks.providers.local_summarizer import LocalSummarizer
from tasks.providers.requested import requested


def facts_of(said: str) -> list[Fact]:
    """The facts the local extractor keeps of one user message (its event id "e1")."""
    at = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
    event = Event(id="e1", author="user", role="user", text=said, timestamp=at)
    session = Session(app_name="a", user_id="u", session_id="s", started_at=at, ended_at=at, events=(event,))
    return LocalExtractor().extract(session).facts


# (said, words the memory must hold); none may keep the label or read as "User mentioned that …"
DEV = [
    ("New rule: no calls before 9am.", "doesn't want calls before 9am"),
    ("House rule for you: never share my location with anyone.", "Never share the user's location"),
    ("Standing order: always book me an aisle seat.", "Always book the user an aisle seat"),
    ("Quick rule: don't suggest recipes with pork.", "Never suggest recipes with pork"),
    ("Ground rule: no spoilers for any show I'm watching.", "doesn't want spoilers"),
    ("One more rule: always reply in Spanish.", "Always reply in Spanish"),
    ("Important: never schedule anything on Sundays.", "Never schedule anything on Sundays"),
    ("Reminder for you: keep my answers short.", "answers short"),
    ("Please no onions on anything.", "doesn't want onions on anything"),
    ("Please, no calls during work hours.", "doesn't want calls during work hours"),
    ("Nothing after 10pm, please.", "doesn't want anything after 10pm"),
    ("Please, nothing with peanuts.", "doesn't want anything with peanuts"),
    ("No calls on Sundays, only texts, please.", "doesn't want calls on Sundays, only texts"),
]
HELD_OUT = [
    ("Golden rule: never text my boss after 6pm.", "Never text the user's boss after 6pm"),
    ("Rule number one: no meetings before 10am.", "doesn't want meetings before 10am"),
    ("A standing rule for you: always cc my assistant on invoices.", "Always cc the user's assistant"),
    ("Policy from now on: no phone calls, only email.", "doesn't want phone calls, only email"),
    ("Note for you: don't mention my ex in summaries.", "Never mention the user's ex"),
    ("Rule: always use metric units.", "Always use metric units"),
    ("Another rule for you: never book red-eye flights.", "Never book red-eye flights"),
    ("Key rule: no reminders on weekends, please.", "doesn't want reminders on weekends"),
    ("Please no reminders before noon.", "doesn't want reminders before noon"),
    ("Please, no upsells when I order.", "doesn't want upsells"),
    ("Nothing spicy, please.", "doesn't want anything spicy"),
    ("Please, nothing on weekends.", "doesn't want anything on weekends"),
    ("No meetings on Mondays, only async updates, please.", "doesn't want meetings on Mondays"),
    ("No voice notes please, just text.", "doesn't want voice notes, just text"),
]
NOT_REQUESTS = [
    "No worries, please take your time.",
    "Nothing changed, please note.",
    "No idea, please tell me.",
    "Order number 4471: arrived damaged.",  # an order of goods, not a standing order
    "My order: two pizzas and a salad.",
    "Preference: window seat.",
    "My rule: never eat after 8pm.",  # the user's own rule, not one for the assistant
    "My policy: never lend money to friends.",
    "Golden rule of investing: diversify.",
    "No time for breakfast these days.",  # what the user has none of
    "Please no.",
]


@pytest.mark.parametrize(("said", "kept"), DEV + HELD_OUT)
def test_a_request_is_remembered_as_asked(said: str, kept: str) -> None:
    memory = memories_of(said)
    assert kept in memory
    assert "mentioned that" not in memory and ":" not in memory


@pytest.mark.parametrize("said", NOT_REQUESTS)
def test_other_sentences_are_left_as_said(said: str) -> None:
    assert requested(said) == said


def test_a_labelled_imperative_is_an_instruction() -> None:
    """Under its label, an imperative is what the instruction rules read: the topic says so."""
    facts = facts_of("Golden rule: never text my boss after 6pm.")
    assert [(f.topic, f.content) for f in facts] == [("explicit_instructions", "Never text the user's boss after 6pm")]
    assert facts[0].source_event_ids == ("e1",)


# "Please make sure I get X": asked of the assistant (DEV 0 -> 4 of 4, HELD-OUT 0 -> 4 of 4 on its first run).
SEE_TO_IT_DEV = [
    (
        "Please make sure I get a vegetarian meal on the flight.",
        "Make sure the user gets a vegetarian meal on the flight",
    ),
    ("Make sure I get a room on a high floor, please.", "Make sure the user gets a room on a high floor"),
    ("Please make sure I'm seated near the exit.", "Make sure the user is seated near the exit"),
    ("Can you make sure I get the early check-in?", "Make sure the user gets the early check-in"),
]  # fmt: skip
SEE_TO_IT_HELD_OUT = [
    ("Please make sure I get a receipt for every order.", "Make sure the user gets a receipt for every order"),
    ("Make sure I get a window table, please.", "Make sure the user gets a window table"),
    ("Please make sure I'm on the guest list.", "Make sure the user is on the guest list"),
    ("Could you make sure I get the corner office?", "Make sure the user gets the corner office"),
]


@pytest.mark.parametrize(("said", "memory"), SEE_TO_IT_DEV + SEE_TO_IT_HELD_OUT)
def test_make_sure_is_an_instruction(said: str, memory: str) -> None:
    assert memories_of(said) == memory


# A condition said before its preference stays before it, and the article and "usually" as said
# (DEV 0 -> 4 of 4, HELD-OUT 0 -> 5 of 5 on its first run; before: "User always wants quiet coach,
# When you book trains for User", or the condition a fact of its own).
CONDITION_DEV = [
    ("When you order groceries for me, I always want oat milk.",
     "When you order groceries for User, User always wants oat milk"),
    ("If you book a hotel for me, I prefer a quiet room.", "If you book a hotel for User, User prefers a quiet room"),
    ("Whenever you schedule meetings for me, I prefer mornings.",
     "Whenever you schedule meetings for User, User prefers mornings"),
    ("When you pick restaurants for me, I usually choose Thai.",
     "When you pick restaurants for User, User usually wants Thai"),
]  # fmt: skip
CONDITION_HELD_OUT = [
    ("When you book trains for me, I always want a quiet coach.",
     "When you book trains for User, User always wants a quiet coach"),
    ("If you reserve a table for me, I prefer a booth.", "If you reserve a table for User, User prefers a booth"),
    ("Whenever you buy coffee beans for me, I always get the dark roast.",
     "Whenever you buy coffee beans for User, User always wants the dark roast"),
    ("When you send me summaries, I prefer bullet points.", "When you send User summaries, User prefers bullet points"),
    ("If you book a rental car for me, I always want an automatic.",
     "If you book a rental car for User, User always wants an automatic"),
]  # fmt: skip


@pytest.mark.parametrize(("said", "memory"), CONDITION_DEV + CONDITION_HELD_OUT)
def test_a_condition_goes_before_its_preference(said: str, memory: str) -> None:
    assert memories_of(said) == memory


def test_an_episode_does_not_say_a_request_twice() -> None:
    """One turn, two facts ("asked to remember" and the preference inside it): the episode says it once."""
    at = datetime(2024, 3, 1, 9, 0, tzinfo=UTC)
    said = "Remember that I prefer bullet points - I read everything on my phone."
    event = Event(id="e1", author="user", role="user", text=said, timestamp=at)
    session = Session(app_name="a", user_id="u", session_id="s", started_at=at, ended_at=at, events=(event,))
    facts = LocalExtractor().extract(session).facts
    episode = LocalSummarizer().summarize(session, facts)
    cited = [s.text for s in episode.sentences if s.source_event_ids]
    assert len(facts) == 2 and len(cited) == 1
    assert "bullet points" in cited[0] and episode.summary.count("bullet points") == 1


# A standing request said in other words (DEV read while writing the rule; HELD-OUT run once after it:
# 11 of 12 right, the miss "address me as Dr. Patel" cut at "Dr." by the instruction rule's own tail, since
# read whole: a title's period is not a sentence's end).
STANDING_DEV = [
    ("Going forward, send invoices to my work email.", "Send invoices to the user's work email"),
    ("Could you always double-check the time zone for my calls?", "Always double-check the time zone"),
    ("Don't ever book me on Ryanair again.", "Never book the user on Ryanair again"),
    ("Keep it under 200 words when you summarise stuff for me.", "Keep it under 200 words"),
    ("From here on, write dates as day, month, year.", "Write dates as day, month, year"),
    ("Whatever you do, don't tell my sister about the party.", "Don't tell the user's sister about the party"),
    ("Use Celsius, not Fahrenheit.", "Use Celsius, not Fahrenheit"),
    ("Avoid anything that needs a car, I don't drive.", "Avoid anything that needs a car"),
]
STANDING_HELD_OUT = [
    ("Going forward, cc my manager on every booking.", "Cc the user's manager on every booking"),
    ("From here on out, address me as Dr. Patel.", "Address the user as Dr. Patel"),  # the miss, mended after
    ("In future, book me on the earliest train.", "Book the user on the earliest train"),
    ("Whatever you do, never share my phone number.", "Never share the user's phone number"),
    ("Don't ever schedule calls during lunch.", "Never schedule calls during lunch"),
    ("Do not ever order from that pizza place again.", "Never order from that pizza place again"),
    ("Can you always add the weather to my morning brief?", "Always add the weather to the user's morning brief"),
    ("Could you never call me before 8?", "Never call the user before 8"),
    ("Avoid jargon when you explain things to me.", "Avoid jargon when you explain things to the user"),
    ("Reply in German from now on.", "Reply in German"),
    ("Include the price in every suggestion.", "Include the price in every suggestion"),
    ("Stick to one-page summaries.", "Stick to one-page summaries"),
]
# Parting words, a saying and a question keep no instruction (the last two were instructions on the
# rule's first run and are excluded since).
NOT_STANDING = [
    "Keep it up!", "Talk soon!", "Use it or lose it, as they say.", "Keep going, you're doing great.",
    "Answer me this: who won the game?",
]  # fmt: skip


# "Reminder: <something of the user's>" is a note, as "Note: …" is (DEV 0 -> 1 of 1, HELD-OUT 0 -> 3 of 3 on
# its first run; before: "User mentioned that Reminder: …").
REMINDER_NOTES = [
    ("Reminder: my mum's birthday is on the 22nd.", "User asked to remember: User's mum's birthday is on the 22nd"),
    ("Quick reminder: our anniversary is June 3.", "User asked to remember: our anniversary is June 3"),
    ("Friendly reminder: I'm off all of next week.", "User asked to remember: User is off all of the week after"),
    ("Reminder - my passport expires in March.", "User asked to remember: User's passport expires in March"),
]


@pytest.mark.parametrize(("said", "memory"), REMINDER_NOTES)
def test_a_reminder_of_the_users_is_a_note(said: str, memory: str) -> None:
    assert memories_of(said).startswith(memory)


# A request that comes back ("every morning", "each Monday", "weekly") stands: an instruction (DEV 0 -> 4 of 4,
# HELD-OUT 0 -> 5 of 5 on its first run; before: lost, or "User mentioned that every Sunday, give User …").
EVERY_DEV = [
    ("Tell me the weather every morning at 7.", "Tell the user the weather every morning at 7"),
    ("Every Sunday, give me a shopping list.", "Every Sunday, give the user a shopping list"),
    ("Send me a summary every Friday.", "Send the user a summary every Friday"),
    ("Text me the news headlines daily.", "Text the user the news headlines daily"),
]
EVERY_HELD_OUT = [
    ("Show me my step count every evening.", "step count every evening"),
    ("Each Monday, email me the week's agenda.", "Each Monday, email the user the week's agenda"),
    ("Ping me about water every two hours.", "Ping the user about water every two hours"),
    ("Read me the top headlines each morning.", "Read the user the top headlines each morning"),
    ("Give us a meal plan weekly.", "meal plan weekly"),
]
# Written with the families: 3 of 4 right on that run ("…, he sang" was an instruction; reported words since).
EVERY_NOT = [
    "Tell me about your weekend.", "Every morning I run 5k.", "Call me every name in the book, I don't care.",
    "Show me the way to Amarillo every night, he sang.",
]  # fmt: skip


# A request under a condition of the user's ("When I ask for recipes, skip the life story") is an instruction,
# its imperative not conjugated as the user's habit ("skips"). DEV 0 -> 2 of 2, HELD-OUT 0 -> 4 of 4 on its
# first run; the negatives were written with them (2 of 4 right on the rule's first version, which took any
# word after the comma for a verb; it now needs an object after it).
CONDITION_REQUEST_DEV = [
    ("When I ask for recipes, skip the life story and give me the steps.",
     "When the user asks for recipes, skip the life story and give the user the steps"),
    ("If I mention work, don't bring up my old boss.", "If the user mentions work, don't bring up the user's old boss"),
]  # fmt: skip
CONDITION_REQUEST_HELD_OUT = [
    ("Whenever I'm stressed, remind me to breathe.", "Whenever the user is stressed, remind the user to breathe"),
    ("If I ask for a restaurant, check it's open first.", "If the user asks for a restaurant, check it's open first"),
    ("When I say brief, keep it under 100 words.", "When the user says brief, keep it under 100 words"),
    ("Once I'm home, send me the grocery list.", "Once the user is home, send the user the grocery list"),
]
CONDITION_NOT_REQUEST = [
    "When I travel, I always pack light.", "If I'm late, it's because of the bus.",
    "When I was a kid, we lived in Porto.", "When I cook, garlic goes in everything.",
]  # fmt: skip


@pytest.mark.parametrize(("said", "memory"), CONDITION_REQUEST_DEV + CONDITION_REQUEST_HELD_OUT)
def test_a_request_under_the_users_condition_is_an_instruction(said: str, memory: str) -> None:
    assert [(f.topic, f.content) for f in facts_of(said)] == [("explicit_instructions", memory)]


@pytest.mark.parametrize(
    ("said", "memory"),
    [
        ("Going forward, my work email is sam@acme.io.", "User's work email is sam@acme.io."),  # was an instruction
        ("Moving forward, I'm vegan.", "User is vegan"),
        ("Going forward, Sam handles my invoices.", "Sam handles User's invoices."),  # "User is going forward, …"
    ],
)
def test_a_statement_after_going_forward_stays_a_statement(said: str, memory: str) -> None:
    assert memories_of(said) == memory


# A standing permission is an instruction: DEV 0 -> 3 of 3, HELD-OUT 3 of 4 on its first run (the miss, "You
# don't need to double-check my math", a hyphenated verb, mended after). Kind words and offers stay no instruction.
PERMIT_DEV = [
    ("No need to confirm small purchases.", "No need to confirm small purchases"),
    ("You can skip the pleasantries with me.", "You can skip the pleasantries with the user"),
    ("Feel free to use my first name.", "Feel free to use the user's first name"),
]
PERMIT_HELD_OUT = [
    ("No need to ask before booking trains.", "No need to ask before booking trains"),
    ("You don't need to double-check my math.", "double-check the user's math"),
    ("Feel free to round numbers in summaries.", "Feel free to round numbers in summaries"),
    ("You can just use my Visa for groceries.", "use the user's Visa for groceries"),
]
PERMIT_NOT = [
    "You can't be serious.", "No need to apologize!", "You can do it!", "Feel free to ask me anything.",
    "You can see the lake from my window.", "You can call me Dana, everyone does.",
]  # fmt: skip


# Every family whose requests stand, and every family of look-alikes, read the same way: an instruction
# that says what was asked, or none at all.
@pytest.mark.parametrize(
    ("said", "kept"), STANDING_DEV + STANDING_HELD_OUT + EVERY_DEV + EVERY_HELD_OUT + PERMIT_DEV + PERMIT_HELD_OUT
)
def test_a_standing_request_is_an_instruction(said: str, kept: str) -> None:
    assert any(f.topic == "explicit_instructions" and kept in f.content for f in facts_of(said))


@pytest.mark.parametrize("said", NOT_STANDING + EVERY_NOT + CONDITION_NOT_REQUEST + PERMIT_NOT)
def test_look_alikes_are_no_instruction(said: str) -> None:
    assert not [f for f in facts_of(said) if f.topic == "explicit_instructions"]
