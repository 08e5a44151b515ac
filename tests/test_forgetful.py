"""Someone forgetting, said as a fact, is not a request to forget (round 33, ``tasks/providers/forgetful.py``).

"I often forget to take my vitamins" was read as a request to forget "to take my vitamins", and the guard
accepted it: the sentence left no memory and the user's vitamin memories were deleted. Now a verb of
removal with a subject of its own ("I always", "my grandmother is starting to"), or one that something is
easy or hard to do, asks nothing; the sentence is read like any other.

DEV cases were read while the rule was written; HELD-OUT cases were written with them, before the rule, and
run once after it (user 8/10 kept with no request, a participant 9/10; no case accepted as a request).
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from tasks.consolidate.forget_guard import accept_forget
from tasks.consolidate.history import list_memories
from tasks.ingest.run import ingest_sessions
from tasks.models import ForgetRequest
from tasks.providers.local_extractor import LocalExtractor
from tasks.settings import Settings
from tasks.store.tables import open_store
from tests.test_extraction import session

#: (sentence, a word its memory keeps, whether a user's says it: a general remark leaves no user memory, as
#: with any other verb, while a participant's every sentence is kept)
DEV = (("It's easy to get lost and forget that.", "lost", False),
       ("I always forget my keys when I leave in a hurry.", "keys", True),
       ("I tend to forget people's names at parties.", "names", True),
       ("My grandmother is starting to forget things.", "grandmother", True),
       ("We sometimes forget how lucky we are to live near the lake.", "lake", True),
       ("It's so easy to forget to drink water at work.", "water", False),
       ("People forget how hard farming is.", "farming", False),
       ("Sometimes I forget that I live by the sea.", "sea", True),
       ("I often forget to take my vitamins.", "vitamins", True),
       ("My brother would delete his whole inbox every Friday.", "inbox", True))  # fmt: skip
HELD = (("I constantly forget where I park the car at the mall.", "park", True),
        ("My dad would forget his head if it wasn't attached.", "dad", True),
        ("Kids forget their jackets at school all the time.", "jackets", True),
        ("It's hard to forget a day like our wedding.", "wedding", True),
        ("Honestly I usually forget to eat breakfast.", "breakfast", True),
        ("You forget how big the ocean is until you're on a boat.", "ocean", False),
        ("We forget to lock the back door sometimes.", "back door", True),
        ("Most mornings I forget my badge at home.", "badge", True),
        ("My laptop tends to erase my drafts when it crashes.", "drafts", True))  # fmt: skip
#: Round 34: someone else wants, tries or decides to do it ("Tom likes to remove", "Sam is trying to forget
#: his ex"). Before, a user's "Sam is trying to forget his ex." was accepted as a request and deleted the
#: memories that matched "his ex". (sentence, a word a participant's memory keeps)
OTHER_DEV = (("Tom likes to remove the labels from his shirts.", "labels"),
             ("Maria wants to erase the whiteboard before class.", "whiteboard"),
             ("My sister loves to delete old photos from her phone.", "photos"),
             ("He needs to clear his schedule for the wedding.", "wedding"),
             ("They have to wipe the machines down after every use.", "machines"),
             ("Sam is trying to forget his ex.", "ex"),
             ("Our neighbour decided to remove the old fence.", "fence"),
             ("Kevin and Laura chose to drop the second car.", "car"))  # fmt: skip
#: Written with OTHER_DEV, run once after the rule: 9/10 without a request, one still accepted ("She's
#: learning to forget …", the contraction; mended after, so this family no longer measures it).
OTHER_HELD = (("Lucy plans to drop her night classes next term.", "night classes"),
              ("My boss refuses to delete anything from the shared drive.", "shared drive"),
              ("She's learning to forget the small stuff.", "small stuff"),
              ("Dan promised to clear the gutters on Saturday.", "gutters"),
              ("Their kids hate to erase their drawings.", "drawings"),
              ("Mr. Ortiz wants to remove the tree in his yard.", "tree"),
              ("Nina tends to forget birthdays.", "birthdays"),
              ("The landlord has agreed to remove the carpet.", "carpet"),
              ("Jamal got to erase the board as a reward.", "board"))  # fmt: skip
#: Written with OTHER_HELD and missed: two verbs joined by "or" before the verb of removal.
OTHER_MISSED = ("Aunt Rosa refused to throw out or delete any of the old letters.",)
#: Written after that mend and run once: 10/10 without a request (4/10 before, one accepted).
OTHER_HELD_2 = (("Jess is hoping to drop a dress size before June.", "dress size"),
                ("My parents want to get rid of the piano.", "piano"),
                ("He's planning to wipe his old laptop and sell it.", "laptop"),
                ("Coach Miller asked us to forget about the loss.", "loss"),
                ("Everyone at work seems to forget my name.", "name"),
                ("The twins refuse to erase anything they draw.", "twins"),
                ("Grandma always manages to delete the apps I install for her.", "apps"),
                ("Our teacher told us to remove our shoes at the door.", "shoes"),
                ("Priya's husband offered to clear out the attic.", "attic"),
                ("Leo hates having to delete spam every morning.", "spam"))  # fmt: skip
#: Requests, however they open, stay requests the guard accepts.
REQUESTS = ("Please forget that I live in Berlin.", "Ok thanks, forget my address.",
            "So yeah I'd rather you forget my address.", "Can you please just delete my old phone number?",
            "I always forget things, so please forget my address.",
            "I moved last month and please forget my old address.",
            "I have a new job and forget my old salary.",
            "I always forget things; wipe my old address from your records.",
            # round 34: an opener before a plain verb is no subject
            "Please try to forget my old address.", "Kindly remember to delete my phone number.",
            "Could you please forget that I live in Leeds?",
            "Also, be sure to remove my old workplace from your notes.",
            "Try to forget my ex's name, please.")  # fmt: skip


def _told(text: str, who: str) -> tuple[list[str], list[ForgetRequest], list[str]]:
    asker = "agent" if who == "user" else "Ana"
    told = session((asker, "How are things going?"), (who, text))
    out = LocalExtractor().extract(told)
    accepted = [r.query for r in out.forgets if accept_forget(r, told)[0]]
    return [f.content for f in out.facts], list(out.forgets), accepted


@pytest.mark.parametrize("who", ["user", "Rui"])
@pytest.mark.parametrize(("text", "kept", "by_user"), DEV + HELD)
def test_someone_forgetting_is_read_as_what_it_says(text: str, kept: str, by_user: bool, who: str) -> None:
    facts, forgets, _ = _told(text, who)
    assert forgets == []
    assert any(kept in f for f in facts) == (by_user or who != "user"), facts


@pytest.mark.parametrize("text", REQUESTS)
def test_a_request_to_forget_is_still_one(text: str) -> None:
    _, _, accepted = _told(text, "user")
    assert accepted, text


def test_the_guard_refuses_a_statement_whoever_extracted_it() -> None:
    """An OpenAI-compatible extractor may still hand the guard "I often forget to take my vitamins"."""
    told = session(("agent", "How are things going?"), ("user", "I often forget to take my vitamins."))
    request = ForgetRequest(query="to take my vitamins", source_event_ids=(told.events[1].id,),
                            stated_at=told.events[1].timestamp)  # fmt: skip
    ok, why = accept_forget(request, told)
    assert not ok and "someone forgetting" in why


@pytest.mark.parametrize("who", ["user", "Rui"])
@pytest.mark.parametrize(("text", "kept"), OTHER_DEV + OTHER_HELD + OTHER_HELD_2)
def test_what_someone_else_wants_to_remove_is_no_request(text: str, kept: str, who: str) -> None:
    facts, forgets, accepted = _told(text, who)
    assert forgets == [] and accepted == []
    if who != "user":  # a user's remark about someone else is kept only when it says something of the user
        assert any(kept in f for f in facts), facts


def said_on_days(settings: Settings, said: tuple[str, ...]) -> list[str]:
    """Each user turn ingested as its own session, a day after the one before; the active memories after."""
    for day, text in enumerate(said):
        told = session(("agent", "How are things going?"), ("user", text), sid=f"s{day}")
        later = timedelta(days=day)
        told = told.model_copy(update={
            "started_at": told.started_at + later, "ended_at": told.ended_at + later,
            "events": tuple(e.model_copy(update={"timestamp": e.timestamp + later}) for e in told.events)})  # fmt: skip
        ingest_sessions([told], settings)
    return [m.content for m in list_memories(open_store(settings), "app", "u")]


def test_saying_you_forget_deletes_nothing(tmp_path: Path) -> None:
    """End to end: before round 33 the second session deleted (and erased) the first one's memory."""
    settings = Settings(store_uri=str(tmp_path / "store"))
    said = ("I take vitamin D every morning with breakfast.", "I often forget to take my vitamins.")
    active = said_on_days(settings, said)
    assert any("vitamin D" in c for c in active), active
    assert any("forgets to take" in c for c in active), active


@pytest.mark.parametrize("text", OTHER_MISSED)
def test_a_missed_case_is_at_least_never_a_deletion(text: str) -> None:
    _, _, accepted = _told(text, "user")
    assert accepted == []
