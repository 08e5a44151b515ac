"""The LLM path does the write path's jobs through the same interfaces: its extractor is told when a
request for everything about the person is one ("everything about me"), that a request taken back or a
"forget" meaning something else is none, and its consolidator that a new value of the same attribute
supersedes; a request for everything about the user is then erased by the ``erase-user`` path, and a
request naming nothing said is reported unmatched, exactly as with the local providers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tasks.ingest.run import ingest_sessions
from tasks.providers.openai_consolidator import DECIDE
from tasks.store.tables import MEMORIES, RUNS, open_store
from tests.llm_stub import LLMStub, make_session, plausible_chat, stub_settings


def _handler(body: dict[str, Any]) -> str:
    """A model that reads the two requests of session s2 as the prompt says: everything about me, and a PIN."""
    system, user = body["messages"][0]["content"], body["messages"][1]["content"]
    if "You extract long-term memories" in system and '"s2-e0"' in user:
        asked = [{"query": "everything about me", "source_event_ids": ["s2-e0"]}]
        return json.dumps({"facts": [], "forget_requests": asked})
    if "You extract long-term memories" in system and '"s3-e0"' in user:
        asked = [{"query": "my bank PIN", "source_event_ids": ["s3-e0"]}]
        return json.dumps({"facts": [], "forget_requests": asked})
    return plausible_chat(body)


def test_the_llm_path_erases_everything_asked_and_reports_an_unmatched_request(
    llm_stub: LLMStub, tmp_path: Path
) -> None:
    llm_stub.chat_default = _handler
    settings = stub_settings(llm_stub, tmp_path / "store")
    alice = make_session("s1", [("user", "I like jazz music a lot"), ("user", "My sister Mia lives in Porto")])
    ingest_sessions([alice, make_session("s1", [("user", "I work at Acme as an engineer")], user="bob")], settings)
    unmatched = ingest_sessions([make_session("s3", [("user", "please forget my bank PIN")], day=1, user="bob")],
                                settings)  # fmt: skip
    erased = ingest_sessions([make_session("s2", [("user", "forget everything you know about me")], day=2)], settings)
    prompts = [r["messages"][0]["content"] for r in llm_stub.chat_requests()]
    assert any('"everything about me"' in p and "takes back" in p for p in prompts)
    assert "same attribute" in DECIDE and '"supersedes", whatever words announce it' in DECIDE
    assert erased.erased_on_request == [["app", "alice"]]
    assert len(unmatched.forgets_unmatched) == 1 and "my bank PIN" in unmatched.forgets_unmatched[0]
    store = open_store(settings)
    assert {r["user_id"] for r in store.rows(MEMORIES)} == {"bob"}
    assert [r["flow"] for r in store.rows(RUNS)].count("erase") == 1
