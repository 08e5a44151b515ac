"""The local extractor and its text rules, as plain functions (no Prefect, no store)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tasks.dates import stated_spans, year_span
from tasks.models import Event, Session
from tasks.providers.local_extractor import NARRATIVE_CHARS, LocalExtractor
from tasks.providers.local_summarizer import LocalSummarizer
from tasks.settings import CustomTopic
from tasks.textrules import resolve_dates, sentences
from tasks.third_person import third_person

T0 = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


def session(*turns: tuple[str, str], sid: str = "s1") -> Session:
    events = tuple(
        Event(id=f"{sid}-e{i}", author=a, role="user" if a == "user" else "agent" if a == "agent" else "other",
              text=t, timestamp=T0 + timedelta(minutes=i))
        for i, (a, t) in enumerate(turns, start=1)
    )  # fmt: skip
    return Session(
        app_name="app", user_id="u", session_id=sid, started_at=T0, ended_at=T0 + timedelta(hours=1), events=events
    )


@pytest.mark.parametrize(
    ("text", "topic", "content", "slot"),
    [
        (
            "I work at Google as a software engineer.",
            "user_personal_info",
            "User works at Google as a software engineer",
            "employer",
        ),
        (
            "I prefer the middle seat when flying.",
            "user_preferences",
            "User prefers the middle seat when flying",
            "preference:seat",
        ),
        (
            "We decided to use the blue design for the website header.",
            "key_conversation_details",
            "Decision by User: use the blue design for the website header",
            None,
        ),
        (
            "Never contact me on weekends.",
            "explicit_instructions",
            "Never contact the user on weekends",
            None,
        ),
        ("My name is Dana Cruz.", "user_personal_info", "User's name is Dana Cruz", "name"),
        ("I moved to Lisbon last month.", "user_personal_info", "User lives in Lisbon", "location"),
        ("I've switched to tea.", "user_preferences", "User has switched to tea", "preference:drink"),
    ],
)
def test_managed_topics(text: str, topic: str, content: str, slot: str | None) -> None:
    facts = LocalExtractor().extract(session(("user", text))).facts
    match = [f for f in facts if f.topic == topic]
    assert match, f"no {topic} fact from {text!r}: {facts}"
    assert match[0].content == content
    assert match[0].slot == slot


def test_forget_requests_are_deletions_not_facts() -> None:
    out = LocalExtractor().extract(session(("user", "Please forget that I live in Berlin."),
                                           ("user", "Never mention my ex-husband again.")))  # fmt: skip
    assert [r.query for r in out.forgets] == ["I live in Berlin", "my ex-husband"]
    assert out.facts == []
    assert out.forgets[0].source_event_ids == ("s1-e1",)


def test_small_talk_is_not_remembered() -> None:
    out = LocalExtractor().extract(session(("user", "Hi there!"), ("agent", "Hello! How are you?"),
                                           ("user", "I'm good, thanks."),
                                           ("user", "The weather is nice.")))  # fmt: skip
    assert out.facts == [] and out.forgets == []


def test_relative_dates_resolved_against_event_time() -> None:
    assert resolve_dates("I went yesterday", T0) == "I went on 7 May 2023"
    assert resolve_dates("two weeks ago", T0) == "around 24 April 2023"
    assert resolve_dates("last Friday", T0) == "on 5 May 2023"
    assert resolve_dates("last year", T0) == "in 2022"
    facts = LocalExtractor().extract(session(("Caroline", "I went to a LGBTQ support group yesterday."))).facts
    assert facts[0].content == "Caroline went to a LGBTQ support group on 7 May 2023."


def test_time_ago_is_as_precise_as_said_and_hedged_once() -> None:
    """ "5 years ago" names a year, not a day; "about" is the "around" itself; "more than" bounds it."""
    assert resolve_dates("I moved here about 5 years ago", T0) == "I moved here around 2018"
    assert resolve_dates("a couple of months ago", T0) == "around March 2023"
    assert resolve_dates("I fell 3 days ago", T0) == "I fell on 5 May 2023"
    assert resolve_dates("roughly 3 days ago", T0) == "around 5 May 2023"
    assert resolve_dates("more than 10 years ago", T0) == "in or before 2013"
    assert resolve_dates("over two weeks ago", T0) == "on or before 24 April 2023"
    assert stated_spans("moved around 2018") == [year_span(2018)]


def test_resolved_dates_in_facts() -> None:
    facts = LocalExtractor().extract(session(("Caroline", "I went to a LGBTQ support group yesterday."))).facts
    assert facts[0].content == "Caroline went to a LGBTQ support group on 7 May 2023."


def test_multi_party_facts_name_their_speaker() -> None:
    facts = LocalExtractor().extract(session(("Caroline", "I love painting sunsets."),
                                             ("Melanie", "My kids and I went camping at the lake."))).facts  # fmt: skip
    assert facts[0].content.startswith("Caroline loves painting sunsets") and facts[0].speaker == "Caroline"
    assert facts[1].content.startswith("Melanie and Melanie's kids went camping") and facts[1].speaker == "Melanie"
    assert facts[1].source_event_ids == ("s1-e2",)


def test_accepted_proposal_becomes_a_decision_citing_both_turns() -> None:
    facts = LocalExtractor().extract(session(("agent", "How about the Green Fork for dinner on Friday?"),
                                             ("user", "Sounds good."))).facts  # fmt: skip
    assert [(f.content, f.source_event_ids) for f in facts] == [
        ("Decision: the Green Fork for dinner on Friday", ("s1-e1", "s1-e2"))
    ]


def test_custom_topic_by_keyword() -> None:
    extractor = LocalExtractor(custom_topics=[CustomTopic(name="health", keywords=["allergy", "medication"])])
    facts = extractor.extract(session(("user", "My doctor changed my medication to a lower dose."))).facts
    assert [f.topic for f in facts] == ["health"]
    assert "User's medication" in facts[0].content


def test_facts_are_concise() -> None:
    long = " ".join(
        f"I really enjoyed hike number {i} through the mountains with my brother and our dogs." for i in range(6)
    )
    facts = LocalExtractor().extract(session(("user", long + " I work at Google as a software engineer."))).facts
    details = [f for f in facts if f.topic == "key_conversation_details"]
    managed = [f for f in facts if f.topic != "key_conversation_details"]
    assert len(details) >= 2 and all(len(f.content) <= NARRATIVE_CHARS for f in details)
    assert managed and all(len(f.content) <= 200 for f in managed)


def test_answer_carries_the_question_and_cites_both_turns() -> None:
    facts = LocalExtractor().extract(session(("Melanie", "What got you into trail running?"),
                                             ("Caroline", "It clears my head after work."))).facts  # fmt: skip
    assert [(f.content, f.source_event_ids) for f in facts] == [
        (
            '(Asked by Melanie: "What got you into trail running?") Caroline: It clears Caroline\'s head after work.',
            ("s1-e1", "s1-e2"),
        )
    ]


def test_episode_cites_sources_per_sentence() -> None:
    s = session(("user", "I work at Google as a software engineer."), ("agent", "Great!"),
                ("user", "I love African Grey parrots."))  # fmt: skip
    episode = LocalSummarizer().summarize(s)
    assert episode.started_at == s.started_at and episode.ended_at == s.ended_at
    cited = {sent.text: sent.source_event_ids for sent in episode.sentences if sent.source_event_ids}
    assert cited["User works at Google as a software engineer"] == ("s1-e1",)
    assert cited["User loves African Grey parrots"] == ("s1-e3",)
    assert "Google" in episode.summary and episode.topics


def test_sentences_and_third_person() -> None:
    assert sentences("Hi! Dr. Smith said so. Fine") == ["Hi!", "Dr. Smith said so.", "Fine"]
    assert third_person("I'm tired and my cat ignores me", "Ann") == "Ann is tired and Ann's cat ignores Ann"
