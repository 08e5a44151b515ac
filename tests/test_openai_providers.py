"""The LLM providers with the real ``openai`` client against a scripted local server (tests/llm_stub.py)."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import numpy as np
import openai
import pytest

from tasks.errors import EmbedderMismatchError, ProviderCallError, ProviderReplyError
from tasks.models import Session
from tasks.providers import build_embedder
from tasks.providers.openai_client import LLMClient
from tasks.providers.openai_extractor import OpenAIExtractor
from tasks.providers.openai_summarizer import OpenAISummarizer
from tasks.providers.openai_usage import USAGE
from tasks.settings import CustomTopic, Settings
from tasks.store.tables import MEMORIES, Store, open_store
from tasks.tokens import count_tokens
from tests.llm_stub import TEST_KEY, LLMStub, Scripted, make_session, stub_settings

TURNS = [
    ("user", "Yesterday I adopted an African Grey parrot called Kiwi."),
    ("agent", "Congratulations! Parrots need a lot of attention."),
    ("user", "I also started working at Acme as a data engineer."),
]


def extraction(*facts: dict[str, object], forgets: tuple[dict[str, object], ...] = ()) -> str:
    full = [{"importance": 0.5, "slot": None, "value": None} | f for f in facts]
    return json.dumps({"facts": full, "forget_requests": list(forgets)})


def extractor(stub: LLMStub, tmp_path: Path, delays: list[float] | None = None, **overrides: object) -> OpenAIExtractor:
    settings = stub_settings(stub, tmp_path / "store", **overrides)
    sleep = delays.append if delays is not None else (lambda _: None)
    return OpenAIExtractor(settings, LLMClient(settings, "extractor", sleep=sleep))


def one_fact() -> str:
    return extraction({"topic": "user_preferences", "content": "The user has a parrot", "source_event_ids": ["s1-e0"]})


def test_valid_extraction_checks_ids_topics_and_carries_the_prompt(llm_stub: LLMStub, tmp_path: Path) -> None:
    pets = CustomTopic(name="pets", description="the user's animals", examples=["I have a cat named Tom"])
    llm_stub.chat.append(Scripted(content=extraction(
        {"topic": "pets", "content": "The user adopted an African Grey parrot named Kiwi on 2025-03-01",
         "source_event_ids": ["s1-e0"], "importance": 0.9},
        {"topic": "work_history", "content": "The user works at Acme as a data engineer",
         "source_event_ids": ["s1-e2", "s9-e9"], "slot": "employer", "value": "Acme"},
        {"topic": "user_personal_info", "content": "The user works at Acme", "source_event_ids": ["made-up"]},
    )))  # fmt: skip
    session = make_session("s1", TURNS)
    out = extractor(llm_stub, tmp_path, custom_topics=(pets,)).extract(session)

    assert [f.topic for f in out.facts] == ["pets", "key_conversation_details", "user_personal_info"]
    assert out.facts[0].source_event_ids == ("s1-e0",) and out.facts[0].importance == 0.9
    assert out.facts[1].source_event_ids == ("s1-e2",), "an id from another session is dropped"
    assert (out.facts[1].slot, out.facts[1].value, out.facts[1].speaker) == ("employer", "Acme", "User")
    # No valid id: kept, attributed to the person turn sharing most words, with lower confidence.
    assert out.facts[2].source_event_ids == ("s1-e2",) and out.facts[2].confidence == 0.5
    assert out.facts[2].stated_at == session.events[2].timestamp

    request = llm_stub.chat_requests()[0]
    system, user = (m["content"] for m in request["messages"])
    assert "2025-03-02" in user and "s1-e1" in user and '"speaker": "agent"' in user
    assert user.startswith("<session>") and user.endswith("</session>")
    assert "the user's animals" in system and "I have a cat named Tom" in system
    assert all(topic in system for topic in ("user_personal_info", "user_preferences", "explicit_instructions"))


def test_long_session_is_chunked_by_token_budget(llm_stub: LLMStub, tmp_path: Path) -> None:
    turns = [
        ("user", f"Turn {i}: " + "I really enjoy long walks along the river every weekend. " * 5) for i in range(6)
    ]
    llm_stub.chat.extend(Scripted(content=extraction()) for _ in range(6))
    extractor(llm_stub, tmp_path, extraction_chunk_tokens=150).extract(make_session("s1", turns))
    parts = [json.loads(r["messages"][1]["content"][9:-10])["turns"] for r in llm_stub.chat_requests()]
    assert len(parts) > 1 and [t["id"] for p in parts for t in p] == [f"s1-e{i}" for i in range(6)]


def test_malformed_json_is_repaired_once(llm_stub: LLMStub, tmp_path: Path) -> None:
    truncated = '{"facts": [{"topic": "user_preferences", "content": "The user has a par'
    llm_stub.chat.extend([Scripted(content=truncated), Scripted(content=one_fact())])
    out = extractor(llm_stub, tmp_path).extract(make_session("s1", TURNS))
    assert [f.content for f in out.facts] == ["The user has a parrot"]
    repair = llm_stub.chat_requests()[1]["messages"]
    assert repair[-2] == {"role": "assistant", "content": truncated}
    assert "not valid JSON" in repair[-1]["content"]


def test_malformed_twice_raises_reply_error_with_raw(llm_stub: LLMStub, tmp_path: Path) -> None:
    llm_stub.chat.extend([Scripted(content="Sure! Here are the facts: ..."), Scripted(content='{"facts": 3}')])
    with pytest.raises(ProviderReplyError) as info:
        extractor(llm_stub, tmp_path).extract(make_session("s1", TURNS))
    assert "Sure! Here are the facts" in info.value.raw and '{"facts": 3}' in info.value.raw
    assert "after one repair attempt" in info.value.reason
    assert len(llm_stub.chat_requests()) == 2


def test_429_is_retried_with_backoff(llm_stub: LLMStub, tmp_path: Path) -> None:
    delays: list[float] = []
    llm_stub.chat.extend([Scripted(status=429), Scripted(status=503), Scripted(content=one_fact())])
    out = extractor(llm_stub, tmp_path, delays, openai_backoff_base_seconds=0.01).extract(make_session("s1", TURNS))
    assert len(out.facts) == 1 and len(llm_stub.chat_requests()) == 3
    assert 0.005 <= delays[0] <= 0.01 and 0.01 <= delays[1] <= 0.02, "exponential, with jitter in [50%, 100%]"


def test_retries_are_bounded(llm_stub: LLMStub, tmp_path: Path) -> None:
    llm_stub.chat.extend(Scripted(status=500) for _ in range(3))
    with pytest.raises(ProviderCallError, match="after 3 attempts"):
        extractor(llm_stub, tmp_path, openai_max_retries=2).extract(make_session("s1", TURNS))
    assert len(llm_stub.chat_requests()) == 3


def test_400_is_not_retried(llm_stub: LLMStub, tmp_path: Path) -> None:
    delays: list[float] = []
    llm_stub.chat.extend([Scripted(status=400), Scripted(content=one_fact())])
    with pytest.raises(openai.BadRequestError):
        extractor(llm_stub, tmp_path, delays).extract(make_session("s1", TURNS))
    assert len(llm_stub.chat_requests()) == 1 and delays == []


def test_timeout_is_retried(llm_stub: LLMStub, tmp_path: Path) -> None:
    delays: list[float] = []
    llm_stub.chat.extend([Scripted(content=one_fact(), delay=2.0), Scripted(content=one_fact())])
    out = extractor(llm_stub, tmp_path, delays, openai_timeout_seconds=0.3).extract(make_session("s1", TURNS))
    assert len(out.facts) == 1 and len(llm_stub.chat_requests()) == 2 and len(delays) == 1


def test_request_shapes_json_schema_and_json_object(llm_stub: LLMStub, tmp_path: Path) -> None:
    llm_stub.chat.extend([Scripted(content=one_fact()), Scripted(content=one_fact())])
    extractor(llm_stub, tmp_path).extract(make_session("s1", TURNS))
    extractor(llm_stub, tmp_path, openai_structured_output="json_object").extract(make_session("s1", TURNS))
    strict, plain = llm_stub.chat_requests()
    fmt = strict["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["name"] == "ExtractionReply"
    schema = fmt["json_schema"]["schema"]
    assert fmt["json_schema"]["strict"] is True and schema["additionalProperties"] is False
    assert set(schema["$defs"]["FactOut"]["required"]) == {"topic", "content", "source_event_ids", "importance",
                                                            "slot", "value", "expires_on"}  # fmt: skip
    assert "JSON schema" not in strict["messages"][0]["content"]
    assert plain["response_format"] == {"type": "json_object"}
    assert "JSON schema" in plain["messages"][0]["content"] and "forget_requests" in plain["messages"][0]["content"]


def test_usage_is_counted_per_provider(llm_stub: LLMStub, tmp_path: Path) -> None:
    USAGE.reset()
    llm_stub.chat.extend([Scripted(content="oops"), Scripted(content=one_fact())])
    extractor(llm_stub, tmp_path).extract(make_session("s1", TURNS))
    embedder = build_embedder(stub_settings(llm_stub, tmp_path / "store", openai_embedding_dim=64))
    embedder.embed(["a parrot", "Acme"])
    prompts = [sum(count_tokens(m["content"]) for m in r["messages"]) for r in llm_stub.chat_requests()]
    usage = USAGE.snapshot()
    assert usage["extractor"] == {"calls": 2, "prompt_tokens": sum(prompts),
                                  "completion_tokens": count_tokens("oops") + count_tokens(one_fact()),
                                  "repairs": 1}  # fmt: skip
    assert usage["embedder"] == {"calls": 1, "prompt_tokens": count_tokens("a parrot") + count_tokens("Acme"),
                                 "completion_tokens": 0}  # fmt: skip


def test_api_key_is_sent_but_never_logged(llm_stub: LLMStub, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    llm_stub.chat.extend(
        [Scripted(status=429), Scripted(content="{bad"), Scripted(content="{bad"), Scripted(status=401)]
    )
    with pytest.raises(ProviderReplyError) as first:
        extractor(llm_stub, tmp_path).extract(make_session("s1", TURNS))
    with pytest.raises(openai.AuthenticationError) as second:
        extractor(llm_stub, tmp_path).extract(make_session("s1", TURNS))
    settings = stub_settings(llm_stub, tmp_path / "store")
    assert llm_stub.requests[0].headers["authorization"] == f"Bearer {TEST_KEY}"
    assert "retry 1" in caplog.text
    for text in (caplog.text, str(first.value), first.value.raw, str(second.value), repr(settings),
                 settings.model_dump_json()):  # fmt: skip
        assert TEST_KEY not in text


def test_embedding_dimension_comes_from_the_provider(llm_stub: LLMStub, tmp_path: Path) -> None:
    llm_stub.dim = 48
    embedder = build_embedder(stub_settings(llm_stub, tmp_path / "store", openai_embedding_model="probe-model"))
    assert embedder.dim == 48 and len(llm_stub.requests) == 1
    vectors = embedder.embed([f"text {i}" for i in range(300)])
    assert vectors.shape == (300, 48) and np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert len(llm_stub.requests) == 1 + 3, "batches of openai_embedding_batch_size (128)"


def test_store_built_with_another_embedder_is_refused(llm_stub: LLMStub, tmp_path: Path) -> None:
    Store(str(tmp_path / "store"), "all-MiniLM-L6-v2-int8", 384).table(MEMORIES)
    store = open_store(stub_settings(llm_stub, tmp_path / "store", openai_embedding_model="other-model"))
    assert store.dim == llm_stub.dim
    with pytest.raises(EmbedderMismatchError, match="re-embed") as info:
        store.table(MEMORIES)
    assert "all-MiniLM-L6-v2-int8" in str(info.value) and "other-model" in str(info.value)


def test_requests_in_flight_stay_within_the_bound(llm_stub: LLMStub, tmp_path: Path) -> None:
    llm_stub.latency = 0.05
    settings = stub_settings(llm_stub, tmp_path / "store", openai_max_in_flight=3, openai_embedding_batch_size=1,
                             openai_embedding_dim=64)  # fmt: skip
    build_embedder(settings).embed([f"text {i}" for i in range(12)])
    assert len(llm_stub.requests) == 12 and 2 <= llm_stub.peak <= 3


def compacted(session: Session, covered: int) -> Session:
    until = session.events[covered - 1].timestamp
    return session.model_copy(
        update={"compaction_summaries": ("Carol plans a trip with Mia.",), "compacted_until": until}
    )


def test_summary_reuses_compaction_and_summarises_only_the_rest(llm_stub: LLMStub, tmp_path: Path) -> None:
    settings = stub_settings(llm_stub, tmp_path / "store")
    reply = {"sentences": [{"text": "The user started at Acme.", "source_event_ids": ["s1-e2", "s1-e0"]}],
             "topics": ["Work"], "key_facts": ["The user works at Acme"]}  # fmt: skip
    llm_stub.chat.append(Scripted(content=json.dumps(reply)))
    episode = OpenAISummarizer(settings).summarize(compacted(make_session("s1", TURNS), covered=2))
    sent = json.loads(llm_stub.chat_requests()[0]["messages"][1]["content"][9:-10])["turns"]
    assert [t["id"] for t in sent] == ["s1-e2"]
    assert [s.text for s in episode.sentences] == ["Carol plans a trip with Mia.", "The user started at Acme."]
    assert episode.sentences[0].source_event_ids == ("s1-e0", "s1-e1")
    assert episode.sentences[1].source_event_ids == ("s1-e2",), "ids outside the summarised turns are dropped"
    assert episode.topics == ("work",) and episode.key_facts == ("The user works at Acme",)

    whole = OpenAISummarizer(settings).summarize(compacted(make_session("s2", TURNS), covered=3))
    assert len(llm_stub.chat_requests()) == 1, "all turns compacted: no call"
    assert whole.summary == "Carol plans a trip with Mia."


def test_prompt_carries_session_date_and_turn_times(llm_stub: LLMStub, tmp_path: Path) -> None:
    """Relative dates resolve against the session: its date and each turn's time are in the prompt."""
    llm_stub.chat.append(Scripted(content=extraction()))
    session = make_session("s1", TURNS, day=40)
    extractor(llm_stub, tmp_path).extract(session)
    user = llm_stub.chat_requests()[0]["messages"][1]["content"]
    assert f"{session.started_at:%Y-%m-%d (%A)}" in user
    assert f"{session.events[2].timestamp:%Y-%m-%d %H:%M}" in user


def test_default_settings_keep_local_providers() -> None:
    settings = Settings()
    assert (settings.extractor, settings.summarizer, settings.consolidator, settings.embedder) == ("local",) * 4
    assert settings.judge == "none" and settings.openai_max_in_flight == 16
