"""Stated expiries from the LLM extractor: the model's date, else the "until Friday" rules, through the stub."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tasks.ingest.run import ingest_sessions
from tasks.providers.openai_extractor import OpenAIExtractor
from tasks.store.tables import MEMORIES, open_store
from tests.llm_stub import LLMStub, Scripted, make_session, plausible_chat, stub_settings

# make_session starts on Sunday 2 March 2025 09:00 UTC; turn i is at 09:0i.
TURNS = [
    ("user", "I'm in Lisbon until Friday and I love jazz"),
    ("user", "I'm staying with my sister for two weeks"),
    ("user", "My old passport expired years ago"),
    ("agent", "Noted, enjoy the trip until Friday!"),
]
END_OF_FRIDAY = datetime(2025, 3, 8, tzinfo=UTC)


def fact(content: str, event: str, expires_on: str | None) -> dict[str, Any]:
    return {"topic": "key_conversation_details", "content": content, "source_event_ids": [event], "importance": 0.5,
            "slot": None, "value": None, "expires_on": expires_on}  # fmt: skip


def test_expiry_from_the_model_or_the_rules(llm_stub: LLMStub, tmp_path: Path) -> None:
    facts = [
        fact("The user is in Lisbon", "s1-e0", "2025-03-07"),  # the model's date: end of that day
        fact("The user loves jazz", "s1-e0", None),  # shares its turn with the Lisbon fact: no expiry
        fact("The user is staying with her sister", "s1-e1", None),  # its own turn says "for two weeks"
        fact("The user's old passport expired", "s1-e2", "2024-01-01"),  # a past date is not an expiry
        fact("The user is away this weekend", "s1-e2", "next Friday"),  # unreadable: ignored
        fact("The user is off work until Friday", "s1-e3", None),  # the fact's own words; cites the agent turn
    ]
    llm_stub.chat.append(Scripted(content=json.dumps({"facts": facts, "forget_requests": []})))
    out = OpenAIExtractor(stub_settings(llm_stub, tmp_path / "store")).extract(make_session("s1", TURNS))
    got = {f.content: f.expires_at for f in out.facts}
    assert got == {
        "The user is in Lisbon": END_OF_FRIDAY,
        "The user loves jazz": None,
        "The user is staying with her sister": datetime(2025, 3, 16, tzinfo=UTC),
        "The user's old passport expired": None,
        "The user is away this weekend": None,
        "The user is off work until Friday": END_OF_FRIDAY,
    }
    schema = llm_stub.chat_requests()[0]["response_format"]["json_schema"]["schema"]
    assert "expires_on" in json.dumps(schema)
    assert "expires_on" in llm_stub.chat_requests()[0]["messages"][0]["content"]


def test_stated_expiry_reaches_the_memory_row(llm_stub: LLMStub, tmp_path: Path) -> None:
    """Through ingest: the plausible stub's facts carry no expires_on, so the rules read the fact itself."""
    llm_stub.chat_default = plausible_chat
    settings = stub_settings(llm_stub, tmp_path / "store", openai_embedding_dim=64)
    ingest_sessions([make_session("s1", [("user", "I'm in Lisbon until Friday"), ("agent", "Enjoy!")])], settings)
    [row] = open_store(settings).rows(MEMORIES)
    assert row["content"] == "User: I'm in Lisbon until Friday"
    assert row["expires_at"].astimezone(UTC) == END_OF_FRIDAY
