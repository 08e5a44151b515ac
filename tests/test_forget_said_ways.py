"""Forget requests said in the many ways people say them, read as requests and accepted by the guard (round 41).

Twenty phrasings of mine (DEV, read while writing: 10 of 20 were requests before the round) with verbs the
rules did not know ("unlearn", "lose", "toss out", "disregard what I said"), a passive ("Can my bankruptcy be
removed from your memory?"), a regret before a pointer ("I shouldn't have told you about the affair. Wipe it."
was dropped whole as a statement taken back) and "what I said" read as someone else's words. HELD-OUT (20, mine,
written after DEV's rules and run once: 17 of 20; "wat", "You don't have to remember …" and "any mention of"
were mended after) and look-alikes with the same verbs that ask nothing of memory (15, none accepted on the
first run) guard the rules against their own cases.
"""

from __future__ import annotations

import pytest

from tasks.consolidate.forget_guard import accept_forget
from tasks.providers.chat_speak import spelled_out
from tasks.providers.local_extractor import LocalExtractor
from tests.test_forgotten_repeats import session

DEV = [
    "hey, can you drop all the medical stuff about me?",
    "scrub my dating life from your memory please",
    "I shouldn't have told you about the affair. wipe it.",
    "I regret mentioning my debt, can you get rid of that?",
    "Please erase any record of my arrest.",
    "Can you unlearn what I told you about my divorce?",
    "I want you to lose the info about my salary.",
    "Stop remembering my address.",
    "Don't hang on to my phone number.",
    "Please disregard what I said about my ex.",
    "You can toss out the part about my surgery.",
    "Kindly purge my medical history from your records.",
    "Let's pretend I never told you about Marco.",
    "Could you clear my health info?",
    "Delete every mention of my sister.",
    "i take back what i said about my job, pls forget it",
    "Would you mind forgetting my birthday?",
    "Can my bankruptcy be removed from your memory?",
    "I'd appreciate it if you forgot about my drinking.",
    "Wipe clean anything you know about my kids.",
]
HELD_OUT = [
    "Could you please erase what I told you about my gambling?",
    "I regret telling you about my panic attacks. Can you delete that?",
    "Kindly forget my home address.",
    "Toss out everything you know about my ex-husband.",
    "Can the stuff about my arrest be deleted?",
    "I'd like you to unlearn my kids' names.",
    "Please ignore everything I said about my job search.",
    "Would you lose the details about my loan?",
    "pls wipe wat i told u about my rehab",
    "Can you stop storing my medical info?",
    "I wish I hadn't mentioned my diagnosis. Please remove it.",
    "no need to keep my phone number anymore",
    "Just drop the thing about my brother's debt from your memory.",
    "Could my salary be removed from your notes?",
    "You don't have to remember my weight anymore.",
    "Scrub any mention of my therapist.",
    "Ditch the info about my divorce, please.",
    "I take back what I told you about my boss, forget it please.",
    "Could you discard my old address?",
    "Forget everything I mentioned about my pregnancy.",
]
LOOK_ALIKES = [
    "I'm trying to lose weight before the wedding.",
    "I keep losing my keys.",
    "Can you toss the salad recipe into a shopping list?",
    "Please ignore the typo in my last message.",
    "Could the meeting be moved to Friday?",
    "Can you clear up what a mortgage is?",
    "I want to drop the pottery class.",
    "Discard the second draft and keep the first.",
    "My sister told you about her new job, right?",
    "I regret telling my boss about the interview.",
    "Please disregard the previous email draft and write a new one.",
    "Can the order be removed from my cart?",
    "I wish I hadn't mentioned the party to my mom.",
    "Just drop me a reminder at 5pm.",
    "I ditched my car and bike to work now.",
]


def _accepted(text: str) -> list[str]:
    said = session(0, text)
    return [r.query for r in LocalExtractor().extract(said).forgets if accept_forget(r, said)[0]]


@pytest.mark.parametrize("text", [*DEV, *HELD_OUT])
def test_a_request_said_another_way_is_a_request(text: str) -> None:
    assert _accepted(text)


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_the_same_verbs_about_other_things_ask_nothing(text: str) -> None:
    assert _accepted(text) == []


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("cna you forgrt the card game thign pls", "can you forget the card game thing please"),
        ("delte my adress", "delete my address"),
        ("yuo can remvoe it", "you can remove it"),
    ],
)
def test_a_typo_of_a_word_requests_are_read_by_is_corrected(typed: str, read: str) -> None:
    assert spelled_out(typed) == read


@pytest.mark.parametrize(
    "typed",
    ["I met Thign and Abot at the remote office", "The forger sold a delta print", "My cat Erasmo is old"],
)
def test_names_and_english_words_near_them_are_left_alone(typed: str) -> None:
    assert spelled_out(typed) == typed
