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
