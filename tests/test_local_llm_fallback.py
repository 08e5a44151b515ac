"""The offline fallback, the counters and the evaluation subset, fast: an HTTP stub stands in for the model.

The real-model behaviour is in tests/test_local_llm.py; here the same guarantees are pinned on replies a
real server gave (JSON cut off at the token limit, ids never offered) and on a server answering HTTP 500.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from evaluation.llm_local import llm_settings, throughput
from tasks.ingest.run import ingest_sessions
from tasks.providers.openai_client import response_format
from tasks.providers.openai_extractor import ExtractionReply
from tasks.settings import Settings
from tasks.store.tables import LEDGER, MEMORIES, QUARANTINE, RUNS, open_store
from tests.llm_stub import LLMStub, Scripted, make_session, plausible_chat, stub_settings

CUT_OFF = '{"facts": [{"topic": "user_preferences", "content": "The user loves sunflower seeds and'


def cut_off_extractions(body: dict[str, Any]) -> str:
    """What SmolLM2-135M returned at max_tokens: an extraction cut off inside a string; summaries fine."""
    if "You extract" in body["messages"][0]["content"]:
        return CUT_OFF
    return plausible_chat(body)


def test_an_invalid_reply_falls_back_to_the_offline_extractor(llm_stub: LLMStub, tmp_path: Path) -> None:
    llm_stub.chat_default = cut_off_extractions
    settings = stub_settings(llm_stub, tmp_path / "store", embedder="local", local_llm_fallback=True)
    sessions = [make_session("s1", [("user", "I adopted a parrot called Kiwi"), ("agent", "Lovely!")]),
                make_session("s2", [("user", "I work as a nurse in Porto"), ("agent", "Nice.")], day=1)]  # fmt: skip
    summary = ingest_sessions(sessions, settings)

    assert (summary.sessions_processed, summary.sessions_quarantined, summary.sessions_failed) == (2, 0, {})
    usage = summary.llm_usage["extractor"]
    assert (usage["calls"], usage["repairs"], usage["fallbacks"]) == (4, 2, 2)
    store = open_store(settings)
    assert sorted(r["session_id"] for r in store.rows(LEDGER)) == ["s1", "s2"] and store.rows(QUARANTINE) == []
    memories = store.rows(MEMORIES)
    assert memories and all(set(r["source_event_ids"]) <= {"s1-e0", "s2-e0"} for r in memories)
    [run] = store.rows(RUNS)
    assert json.loads(run["counts"])["llm_usage"]["extractor"]["fallbacks"] == 2


def test_a_server_answering_500_falls_back_and_ids_never_offered_are_counted(llm_stub: LLMStub, tmp_path: Path) -> None:
    llm_stub.chat.extend([Scripted(status=500)] * 3)  # the first extraction: every attempt fails
    invented = {"facts": [{"topic": "user_preferences", "content": "The user likes jazz", "source_event_ids":
                ["s9-e7"], "importance": 0.5, "slot": None, "value": None, "expires_on": None}],
                "forget_requests": []}  # fmt: skip
    llm_stub.chat_default = lambda body: (json.dumps(invented) if "You extract" in body["messages"][0]["content"]
                                          else plausible_chat(body))  # fmt: skip
    settings = stub_settings(llm_stub, tmp_path / "store", embedder="local", summarizer="local",
                             consolidator="local", local_llm_fallback=True, openai_max_retries=2)  # fmt: skip
    down = ingest_sessions([make_session("s1", [("user", "I adopted a parrot called Kiwi")])], settings)
    assert (down.sessions_processed, down.sessions_failed, down.llm_usage["extractor"]["fallbacks"]) == (1, {}, 1)
    assert "unknown_ids" not in down.llm_usage["extractor"]

    summary = ingest_sessions([make_session("s2", [("user", "I like jazz a lot")], day=1)], settings)
    usage = summary.llm_usage["extractor"]
    assert (summary.sessions_processed, usage["unknown_ids"], usage.get("fallbacks", 0)) == (1, 1, 0)
    cited = {tuple(r["source_event_ids"]) for r in open_store(settings).rows(MEMORIES)}
    assert ("s9-e7",) not in cited and cited <= {("s1-e0",), ("s2-e0",)}


def test_the_local_servers_schema_bounds_strings_and_lists(tmp_path: Path) -> None:
    settings = Settings(store_uri=str(tmp_path / "store"))
    bounded = response_format(ExtractionReply, settings, bounded=True)["json_schema"]["schema"]
    fact = bounded["$defs"]["FactOut"]["properties"]
    assert fact["content"]["maxLength"] == 400 and fact["source_event_ids"]["maxItems"] == 12
    plain = response_format(ExtractionReply, settings)["json_schema"]["schema"]
    assert "maxLength" not in json.dumps(plain), "hosted strict modes get the schema as before"


def test_evaluation_throughput_and_settings(tmp_path: Path) -> None:
    before = {"extractor": {"calls": 1, "completion_tokens": 10, "generation_ms": 1000}}
    after = {"extractor": {"calls": 5, "completion_tokens": 110, "generation_ms": 6000, "fallbacks": 1},
             "embedder": {"calls": 9, "completion_tokens": 0}}  # fmt: skip
    figures = throughput(before, after)
    assert (figures["calls"], figures["fallbacks"], figures["generated_tokens_per_second"]) == (4, 1, 20.0)
    settings = llm_settings(Settings(store_uri=str(tmp_path)), "openai", Path("qwen2.5:1.5b"))
    assert (settings.extractor, settings.judge, settings.openai_chat_model) == ("openai", "openai", "qwen2.5:1.5b")
