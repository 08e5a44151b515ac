"""Episode topics are nouns: heads of noun phrases and names, not a chat's most frequent words."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tasks.models import Event, Session
from tasks.providers.local_summarizer import LocalSummarizer
from tasks.providers.topic_words import noun_words, topic_words

AT = datetime(2025, 3, 1, 10, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "want", "never"),
    [
        ("I took my kids to the park and saw a man sitting on a bench.", {"kids", "park", "man", "bench"},
         {"sitting", "took"}),
        ("It's great, that's awesome! Love it.", set(), {"great", "awesome", "love"}),
        ("Look [shares a photo: a photo of a sand castle on the beach]", {"castle", "beach"}, {"photo", "shares"}),
        ("We hiked in Patagonia. Then Jon's store opened.", {"patagonia", "store"}, {"then", "hiked"}),
        ("My passport expires in May and the dance studio reminds me of home.", {"passport", "studio"},
         {"expires", "reminds"}),
    ],
)  # fmt: skip
def test_noun_words_are_heads_and_names(text: str, want: set[str], never: set[str]) -> None:
    found = set(noun_words(text))
    assert want <= found and not found & never, found


def test_topic_words_rank_by_frequency_and_leave_out_people_and_vague_nouns() -> None:
    texts = ["Mia loved the pottery class.", "The pottery teacher was kind to Mia.", "It took a week."]
    assert topic_words(texts, names=["Mia"]) == ("pottery", "class", "teacher")


def test_an_episode_opens_with_what_the_session_was_about() -> None:
    turns = [
        "I just signed up for a pottery class at the community center.",
        "Thats awesome! How was it?",
        "Great! The pottery teacher showed us a glazing trick. I also adopted a puppy named Biscuit.",
    ]
    events = tuple(
        Event(id=f"e{i}", author="user" if i % 2 == 0 else "agent", role="user" if i % 2 == 0 else "agent",
              text=t, timestamp=AT + timedelta(minutes=i))
        for i, t in enumerate(turns)
    )  # fmt: skip
    session = Session(app_name="a", user_id="u", session_id="s", started_at=AT, ended_at=AT, events=events)
    episode = LocalSummarizer().summarize(session)
    assert episode.topics[0] == "pottery"
    assert not {"awesome", "great", "signed", "showed"} & set(episode.topics)
    assert episode.sentences[0].text.startswith("On 1 March 2025, user and agent talked about pottery")


def test_a_long_statement_shows_its_opening_sentences_whole() -> None:
    from tasks.providers.local_summarizer import excerpt

    text = (
        "Oh wow, thanks so much for asking, it has honestly been such a long and busy week over here for me. "
        "I ran the Lisbon half marathon on 12 May in 1:52. Anyway, how have you been doing lately?"
    )
    shown = excerpt(text, 160)
    assert "I ran the Lisbon half marathon on 12 May in 1:52." in shown and shown in text and len(shown) <= 160
    assert not shown.endswith("…") and "how have you been" not in shown
    assert excerpt("Short enough.", 160) == "Short enough."


def test_forgetting_a_fact_removes_its_excerpt_from_the_episode() -> None:
    """An episode sentence may be a middle run of a fact's sentences; scrubbing must still find it (a
    forgotten fact must not live on in an episode), and must leave the other sentences."""
    from tasks.consolidate.forgetting import scrub

    fact = (
        "Jo: Thanks so much for asking about all of it, honestly the week was long and busy and tiring and we "
        "barely had time to sit down. Jo ran the Lisbon half marathon on 12 May in 1:52, a personal best. Jo's "
        "knee held up fine. Anyway, how are the kids doing these days, and how was the trip?"
    )
    shown = "Jo ran the Lisbon half marathon on 12 May in 1:52, a personal best."
    assert shown in fact and not fact.startswith(shown)  # a middle run, as another summarizer may show
    sentences = [{"text": "On 3 March 2025, Jo and Al talked about lisbon.", "source_event_ids": []},
                 {"text": shown, "source_event_ids": ["e1"]},
                 {"text": "Al adopted a cat.", "source_event_ids": ["e2"]}]  # fmt: skip
    row = {"sentences": sentences, "key_facts": [fact, "Al adopted a cat."], "topics": ["lisbon"],
           "source_event_ids": ["e1", "e2"], "summary": ""}  # fmt: skip
    kept = scrub(row, [fact])
    assert kept is not None
    assert [s["text"] for s in kept["sentences"]][1:] == ["Al adopted a cat."]
    assert "marathon" not in kept["summary"]
