"""A new version whose text carries the old one cites the turns that said the old one.

"I live in Berlin.", then "I moved to Munich.": the current memory reads "User lives in Munich (changed from
Berlin on …)" but cited only the Munich turn, so the Berlin it still says had no source (round 37's note). It
cites its own turns first (a re-run finds its row by them), then the old version's; a third version does not
cite what the second carried, and an LLM consolidator's merged text cites the old turns only when it says
something only the old version said.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tasks.ingest.run import ingest_sessions
from tasks.settings import Settings
from tasks.store.tables import MEMORIES, open_store
from tests.llm_stub import LLMStub, stub_settings
from tests.test_forgotten_repeats import session

CHANGES = [
    ("I live in Berlin.", "I moved to Munich."),
    ("I drink coffee every morning.", "I switched to tea, no more coffee."),
    ("My favourite colour is blue.", "Actually my favourite colour is green now."),
]


def _rows(tmp_path: Path, *said: str) -> list[dict[str, object]]:
    settings = Settings(store_uri=str(tmp_path / "store"))
    ingest_sessions([session(day, text) for day, text in enumerate(said)], settings)
    return sorted(open_store(settings).rows(MEMORIES), key=lambda r: r["version"])


@pytest.mark.parametrize(("first", "then"), CHANGES)
def test_a_version_carrying_the_old_text_cites_the_old_turns(tmp_path: Path, first: str, then: str) -> None:
    old, new = _rows(tmp_path, first, then)
    assert "(" in str(new["content"]) and new["status"] == "active", new["content"]  # it carries the old text
    assert new["source_event_ids"] == ["s1-e0", "s0-e0"]
    assert old["source_event_ids"] == ["s0-e0"]


def test_a_third_version_cites_only_what_it_carries(tmp_path: Path) -> None:
    rows = _rows(tmp_path, "I live in Berlin.", "I moved to Munich.", "I moved to Vienna.")
    assert [r["source_event_ids"] for r in rows] == [["s0-e0"], ["s1-e0", "s0-e0"], ["s2-e0", "s1-e0"]]
    assert "Berlin" not in str(rows[-1]["content"])  # notes never nest: Berlin is not said, nor cited


@pytest.mark.parametrize(
    ("merged", "cites_old"),
    [("User drinks tea now, no longer coffee", True), ("User drinks tea now", False)],
)
def test_an_llm_merged_text_cites_the_old_turns_when_it_says_the_old(
    tmp_path: Path, merged: str, cites_old: bool
) -> None:
    """An OpenAI-compatible consolidator writes its own merged text, with no note: a word only the old version
    said ("coffee") is what tells that it carries the old one."""

    def decide(body: dict[str, Any]) -> str:
        doc = json.loads(body["messages"][1]["content"])
        memories = doc.get("memories") or []
        if not memories:
            return json.dumps({"action": "ADD", "target_memory_id": None, "new_content": None, "relation": None,
                               "reason": "new"})  # fmt: skip
        return json.dumps({"action": "UPDATE", "target_memory_id": memories[0]["id"], "new_content": merged,
                           "relation": "supersedes", "reason": "changed"})  # fmt: skip

    stub = LLMStub(chat_default=decide).start()
    try:
        settings = stub_settings(stub, tmp_path / "store", extractor="local", summarizer="local", embedder="local")
        ingest_sessions([session(0, "I drink coffee every morning."), session(1, "I drink tea now.")], settings)
    finally:
        stub.stop()
    rows = sorted(open_store(settings).rows(MEMORIES), key=lambda r: r["version"])
    assert [r["content"] for r in rows][-1] == merged
    assert rows[-1]["source_event_ids"] == (["s1-e0", "s0-e0"] if cites_old else ["s1-e0"])
