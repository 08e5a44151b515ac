"""A participant's reaction to the other person is not a memory; what it sits beside still is.

DEV cases were read while the rule was written; HELD-OUT cases were written after it and passed
13 of 13 on their first run, with no change to the rule.
"""

from __future__ import annotations

import pytest

from tasks.providers.local_extractor import LocalExtractor
from tasks.providers.reactions import is_reaction, is_social
from tests.test_extraction import session

DEV_REACTIONS = ("Wow, that sounds awesome, Mel!", "That's cool, Sam!", "So cool!", "Great pic!",
                 "Great to hear from you.", "Wow, well done!")  # fmt: skip
DEV_KEPT = ("That's in Leeds.", "Good flooring's crucial.", "It was great to see them.",
            "That's great, I got the job!", "Sounds like I need a new laptop.")  # fmt: skip
HELD_REACTIONS = ("Aww, that's adorable, Priya!", "Omg that looks amazing", "Congrats on the promotion, Dev!",
                  "Sounds like fun!", "Really impressive.", "Such a lovely photo!", "That must be tough.")  # fmt: skip
HELD_KEPT = ("That's my cousin's bakery.", "This is the café near the station.", "Cool weather is forecast for Sunday.",
             "Nice is lovely in spring.", "Tough week at work for Sam.", "That's where Tom proposed.")  # fmt: skip


@pytest.mark.parametrize("text", DEV_REACTIONS + HELD_REACTIONS)
def test_a_reaction_is_read_as_one(text: str) -> None:
    assert is_reaction(text)


@pytest.mark.parametrize("text", DEV_KEPT + HELD_KEPT)
def test_a_statement_that_opens_like_one_is_not(text: str) -> None:
    assert not is_reaction(text)


def test_a_participants_reaction_goes_and_the_rest_of_the_turn_stays() -> None:
    told = session(
        ("Ana", "I finally finished the pottery course at the community college last week."),
        ("Rui", "Wow, that sounds awesome, Ana! Rui is starting a woodworking class in March."),
        ("Ana", "Thanks! That's great to hear."),
    )
    contents = [f.content for f in LocalExtractor().extract(told).facts]
    assert any("woodworking class" in c for c in contents)
    assert not any("awesome" in c for c in contents)
    assert not any("great to hear" in c.lower() for c in contents)
    assert any("pottery" in c for c in contents)


# Social remarks to the other person (round 29): a greeting, a wish, sympathy or praise addressed to
# them. DEV cases were read while the rule was written; HELD-OUT cases were written with them, before it.
DEV_SOCIAL = ("Long time no see!", "Hey Mel, long time no talk!", "Hope you're doing well!",
              "Gina, hope all's good!", "Sorry about your job, Jon.", "Sorry to hear that!",
              "Proud of you for starting your own business!",
              "You'd be a great counselor!", "Good luck with your store!",
              "Hope your week is going great.")  # fmt: skip
DEV_SOCIAL_KEPT = ("Hope to finish the mural by June.", "Sorry I missed your call, I was at the hospital.",
                   "You'd be surprised how cheap Lisbon is.",
                   "Long time no see, I just got back from Peru.")  # fmt: skip
HELD_SOCIAL = ("It's been ages, Sam!", "Hope the move went smoothly!", "So sorry for your loss, Ana.",
               "You're going to be an amazing mom!", "Good luck on the exam tomorrow!",
               "Hi Jo, hope you had a great weekend!", "Proud of you, Dev!")  # fmt: skip
HELD_SOCIAL_KEPT = ("Sorry, the café closed in 2019.", "Hope Street is where my studio is.",
                    "You'll need a visa for Brazil.", "Good luck charms are my thing, I collect them.",
                    "Long Beach was amazing last summer.")  # fmt: skip


@pytest.mark.parametrize("text", DEV_SOCIAL + HELD_SOCIAL)
def test_a_social_remark_to_the_other_person_is_read_as_one(text: str) -> None:
    assert is_social(text)


@pytest.mark.parametrize("text", DEV_SOCIAL_KEPT + HELD_SOCIAL_KEPT)
def test_a_statement_that_opens_like_a_social_remark_is_not(text: str) -> None:
    assert not is_social(text)


def test_a_greeting_goes_and_the_news_after_it_stays() -> None:
    told = session(
        ("Ana", "I lost my job at the bakery last month."),
        ("Rui", "Ana, hope you're doing ok! Took a short trip to Porto last week to clear my head."),
    )
    contents = [f.content for f in LocalExtractor().extract(told).facts]
    assert any("Porto" in c for c in contents)
    assert not any("hope you" in c.lower() for c in contents)


# A participant's sentence that opens with a greeting or thanks and goes on to tell something (round 32):
# before, the opening dropped the whole sentence ("Hi Sam, since we last talked I've started volunteering
# at the shelter" left no memory). DEV cases were read while the rule was written; HELD-OUT cases were
# written before it and run once after.
DEV_OPENED = (("Hey Sam, since we last talked I've started volunteering at the animal shelter.", "animal shelter"),
              ("Thanks Ana, it was amazing to finally run the whole marathon with my brother.", "marathon"),
              ("I'm doing well, I just got back from a hiking trip in the Alps.", "Alps"),
              ("Hello there - I adopted a second cat last weekend.", "second cat"))  # fmt: skip
DEV_PLEASANTRY = ("Thanks, Sam!", "Hi Ana!", "Thanks for the support, it means a lot.", "Thanks, Rui, for listening.")
HELD_OPENED = (("Hi Priya, quick update: I signed the lease on a flat in Glasgow.", "Glasgow"),
               ("Thank you so much, Dev, the new job at the hospital starts on Monday.", "hospital"),
               ("Good morning, my daughter starts primary school tomorrow.", "primary school"),
               ("Hey guys, I finally sold my old van to a neighbour.", "van"),
               ("Thanks again, I booked the cooking class in Lyon for April.", "Lyon"),
               ("Hey there, I've been learning the cello for three months now.", "cello"),
               ("I'm good, we spent the weekend painting the nursery.", "nursery"))  # fmt: skip
HELD_PLEASANTRY = ("Thanks so much, Priya!", "Hey guys, how's everyone doing?",
                   "Thank you for the kind words, they mean a lot.", "Hi Dev, great to hear from you.",
                   "Thanks, I really appreciate it.")  # fmt: skip


def _told_by_a_participant(text: str) -> list[str]:
    told = session(("Ana", "How have you been lately?"), ("Rui", text))
    return [f.content for f in LocalExtractor().extract(told).facts if "Rui" in f.content]


@pytest.mark.parametrize(("text", "kept"), DEV_OPENED + HELD_OPENED)
def test_what_follows_a_greeting_or_thanks_is_kept(text: str, kept: str) -> None:
    assert any(kept in c for c in _told_by_a_participant(text))


@pytest.mark.parametrize("text", DEV_PLEASANTRY + HELD_PLEASANTRY)
def test_a_greeting_or_thanks_with_nothing_told_after_it_is_not_a_memory(text: str) -> None:
    assert _told_by_a_participant(text) == []
