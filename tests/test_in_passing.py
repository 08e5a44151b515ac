"""What chat says in passing: of someone a request names, in a hedge, in a fragment after news, and a
subject left out after the user's own clause (tasks.providers.in_passing, implicit_subject).

The phrasings here are the development family; blind probes 11 (HELD-OUT) and 12 measure the rules
on messages these tests never saw (``python -m evaluation.chat_probe [--probe 12]``).
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from evaluation.temporal import told_session
from tasks.providers.in_passing import carried, fragments_joined, said_of_them, unhedged
from tasks.providers.local_extractor import LocalExtractor


@pytest.fixture(scope="module")
def extractor() -> LocalExtractor:
    return LocalExtractor()


def memories(extractor: LocalExtractor, text: str) -> list[str]:
    session = told_session("a", "u", "s", text, datetime(2026, 10, 1, tzinfo=UTC))
    return [f.content for f in extractor.extract(session).facts]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("help me write a toast for my best friend Kenji's 40th, he's obsessed with fly fishing",
         "my best friend Kenji is obsessed with fly fishing"),
        ("can you suggest a gift for my husband, he just started running", "my husband just started running"),
        ("can you help me with my essay, it's due friday", "my essay is due friday"),
        ("plan a party for my daughter Mia, she loves unicorns", "my daughter Mia loves unicorns"),
        ("any tips for my parents? they're flying in on monday", "my parents are flying in on monday"),
    ],
)  # fmt: skip
def test_a_pronoun_after_an_ask_is_who_the_ask_named(text: str, said: str) -> None:
    from tasks.textrules import sentences

    assert said in said_of_them(sentences(text))


@pytest.mark.parametrize(
    "text",
    [
        "tell me about Einstein, he was a genius",  # no one of the user's
        "what should i get my husband? she said anything is fine",  # "she" is not the husband
        "I met my brother, he's fine",  # not an ask: the user's path reads it as it is
    ],
)
def test_a_pronoun_that_names_no_one_asked_about_stays(text: str) -> None:
    from tasks.textrules import sentences

    assert said_of_them(sentences(text)) == sentences(text)


def test_a_request_keeps_what_it_says_of_them_and_not_the_task(extractor: LocalExtractor) -> None:
    found = memories(extractor, "plan a party for my daughter Mia, she loves unicorns and hates loud music")
    assert found == ["User's daughter Mia loves unicorns and hates loud music"]
    found = memories(extractor, "what should i get my mom for her birthday? she's really into gardening")
    assert found == ["User's mom is really into gardening"]


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("i think i might be gluten sensitive??", "i think i might be gluten sensitive."),
        ("pretty sure i'm lactose intolerant?", "pretty sure i'm lactose intolerant."),
        ("i think i should quit my job?", None),
        ("i'm flying friday, what should i pack?", None),
        ("I have to pay tax on this?", None),
    ],
)
def test_a_hedge_typed_with_a_question_mark_is_a_statement(text: str, kept: str | None) -> None:
    assert unhedged(text) == (kept or text)


def test_a_fragment_after_news_joins_it_and_a_list_or_thanks_does_not(extractor: LocalExtractor) -> None:
    assert fragments_joined(["Got a new puppy!!", "Golden retriever, 8 weeks old"]) == [
        "Got a new puppy: Golden retriever, 8 weeks old"
    ]
    assert fragments_joined(["I love it!", "Thanks so much"]) == ["I love it!", "Thanks so much"]
    assert fragments_joined(["What should I pack?", "Lisbon, May 3rd"]) == ["What should I pack?", "Lisbon, May 3rd"]
    found = memories(extractor, "just got into a PhD program!!! computational biology at UW")
    assert found == ["User just got into a PhD program: computational biology at UW"]


@pytest.mark.parametrize(
    ("sentence", "said"),
    [
        ("I'm a nurse, work nights mostly", "I'm a nurse, I work nights mostly"),
        ("I don't drink tea anymore, switched to coffee", "I don't drink tea anymore, I switched to coffee"),
        ("I bought apples, pears, sliced bread", "I bought apples, pears, sliced bread"),
        ("My dad is 72, moved in with us", "My dad is 72, moved in with us"),
    ],
)
def test_the_users_i_carries_into_a_part_that_leaves_it_out(sentence: str, said: str) -> None:
    assert carried(sentence) == said


@pytest.mark.parametrize(
    ("text", "memory"),
    [
        ("don't own a car, bike everywhere", "User doesn't own a car, User bikes everywhere"),
        ("born and raised in lagos", "User was born and raised in lagos"),
        ("originally from Ohio", "User is originally from Ohio"),
        ("type 2 diabetic here, a1c was 7.9 at my last check", "User is type 2 diabetic, a1c was 7.9 at User's last check"),  # noqa: E501
        ("Fellow Canadian here!", "User is a fellow Canadian!"),
    ],
)  # fmt: skip
def test_a_users_sentence_without_its_subject_gets_it(extractor: LocalExtractor, text: str, memory: str) -> None:
    assert memory in memories(extractor, text)


@pytest.mark.parametrize("text", ["don't use emojis in your replies", "Same here, no idea what to do"])
def test_an_instruction_or_agreement_gets_no_subject(extractor: LocalExtractor, text: str) -> None:
    assert not any(m.startswith("User is") or m.startswith("User doesn't") for m in memories(extractor, text))


def test_who_a_request_names_is_kept_when_nothing_else_is_said_of_them(extractor: LocalExtractor) -> None:
    """ "write to my landlady Mrs. Okafor?" tells who the landlady is; said of them already, it adds nothing."""
    said = memories(extractor, "can you write a short email to my landlady Mrs. Okafor? the boiler is broken")
    assert "User's landlady's name is Mrs. Okafor." in said
    assert "User's sister is named Ana" in memories(extractor, "help me write a birthday card for my sister Ana")
    told = memories(extractor, "what should i get my mom Rosa for her birthday? she loves gardening")
    assert told == ["User's mom Rosa loves gardening"]


def test_a_statement_after_a_request_is_kept(extractor: LocalExtractor) -> None:
    said = memories(extractor, "help me with a speech for my brother's wedding, we grew up together in Vancouver")
    assert any("grew up together in Vancouver" in m for m in said)
    assert not any("speech" in m for m in said)


def test_chat_short_names_for_a_partner_are_written_out(extractor: LocalExtractor) -> None:
    said = memories(extractor, "gift ideas for my bf Marcus? he's super into vinyl")
    assert "User's boyfriend Marcus is super into vinyl" in said
