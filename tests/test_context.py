"""Context block, recall_memory tool and preload block on a real store."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

import pytest

from tasks.models import RecallHit
from tasks.providers.base import Embedder
from tasks.recall.agent_tools import RECALL_MEMORY_TOOL, handle_recall_memory, preload_memories
from tasks.recall.context import EPISODES_HEADER, FACTS_HEADER, build_context, format_context
from tasks.recall.recaller import Recaller
from tasks.settings import Settings
from tasks.store.tables import EPISODES, MEMORIES, Store
from tasks.tokens import count_tokens
from tests.test_recall import APP, DISTRACTORS, NOW, USER, episode, memory

LINE = re.compile(r"^\d{1,2} [A-Z][a-z]+ \d{4} - \S.*$")


@pytest.fixture
def recaller(settings: Settings, embedder: Embedder) -> Recaller:
    store = Store(settings.store_uri, embedder.model, embedder.dim)
    facts = [*DISTRACTORS, "User loves African Grey parrots", "User's parrot is called Kiwi"]
    store.upsert(MEMORIES, [memory(embedder, c, days_ago=i + 1) for i, c in enumerate(facts)])
    store.upsert(EPISODES, [episode(embedder, "User asked how to teach a parrot to talk; agent suggested routines")])
    return Recaller(settings, store=store, embedder=embedder)


def _lines(block: str) -> list[str]:
    return [ln for ln in block.splitlines() if ln and ln not in (FACTS_HEADER, EPISODES_HEADER)]


def test_context_block_sections_and_line_format(settings: Settings, recaller: Recaller) -> None:
    block = build_context("Tell me about my parrot", APP, USER, 500, settings=settings, recaller=recaller, now=NOW)
    assert block.startswith(FACTS_HEADER)
    assert EPISODES_HEADER in block
    lines = _lines(block)
    assert lines and all(LINE.match(ln) for ln in lines)
    assert any("African Grey" in ln for ln in lines)
    assert any("teach a parrot" in ln for ln in lines)


@pytest.mark.parametrize("budget", [0, 5, 12, 20, 40, 80, 300])
def test_context_never_exceeds_budget(settings: Settings, recaller: Recaller, budget: int) -> None:
    block = build_context("parrot", APP, USER, budget, settings=settings, recaller=recaller, now=NOW)
    assert count_tokens(block) <= budget
    assert all(LINE.match(ln) for ln in _lines(block))


def test_long_lines_are_cut_and_skipped_not_overflowed() -> None:
    when = datetime(2024, 5, 1, tzinfo=UTC)
    long_hit = RecallHit(
        id="1",
        kind="episode",
        topic="episode",
        content="word " * 400,
        score=1.0,
        session_id="s",
        created_at=when,
    )
    short = RecallHit(id="2", kind="memory", topic="t", content="Short fact", score=0.5, session_id="s",
                      stated_at=when, created_at=when)  # fmt: skip
    block = format_context([long_hit, short], 30)
    assert block == f"{FACTS_HEADER}\n1 May 2024 - Short fact"
    roomy = format_context([long_hit, short], 300)
    assert count_tokens(roomy) <= 300 and "…" in roomy
    assert format_context([], 100) == ""


def test_recall_memory_tool_matches_openai_tools_format() -> None:
    tool = RECALL_MEMORY_TOOL
    assert tool["type"] == "function"
    fn = tool["function"]
    assert fn["name"] == "recall_memory" and fn["description"]
    params = fn["parameters"]
    assert params["type"] == "object" and params["required"] == ["query"]
    assert params["properties"]["query"]["type"] == "string"
    assert params["properties"]["limit"]["type"] == "integer"
    json.dumps(tool)  # plain JSON
    chat = pytest.importorskip("openai.types.chat")
    from pydantic import TypeAdapter

    validated = TypeAdapter(chat.ChatCompletionToolParam).validate_python(tool)
    assert validated["function"]["name"] == "recall_memory"
    try:
        from jsonschema import Draft202012Validator
    except ImportError:
        return
    Draft202012Validator.check_schema(params)
    Draft202012Validator(params).validate({"query": "parrot", "limit": 3})


def test_handle_recall_memory_returns_json(settings: Settings, recaller: Recaller) -> None:
    out = json.loads(
        handle_recall_memory('{"query": "bird", "limit": 2}', APP, USER, settings=settings, recaller=recaller, now=NOW)
    )
    assert len(out["memories"]) == 2
    first = out["memories"][0]
    assert {"id", "kind", "topic", "content", "date", "score"} <= set(first)
    as_dict = json.loads(
        handle_recall_memory({"query": "bird"}, APP, USER, settings=settings, recaller=recaller, now=NOW)
    )
    assert as_dict["memories"]
    # The model cannot widen the tenant: extra arguments are ignored, the caller's user is used.
    other = handle_recall_memory(
        {"query": "bird", "user_id": "bob"}, APP, "bob", settings=settings, recaller=recaller, now=NOW
    )
    assert json.loads(other) == {"memories": []}
    for bad in ("not json", "[]", '{"limit": 2}', '{"query": "  "}', '{"query": "x", "limit": "many"}'):
        assert "error" in json.loads(
            handle_recall_memory(bad, APP, USER, settings=settings, recaller=recaller, now=NOW)
        )


def test_preload_block_for_system_instructions(settings: Settings, recaller: Recaller) -> None:
    block = preload_memories("What should I feed my parrot?", APP, USER, settings=settings, recaller=recaller, now=NOW)
    assert block.startswith("<PAST_CONVERSATIONS>") and block.endswith("</PAST_CONVERSATIONS>")
    assert "African Grey" in block
    assert count_tokens(block) <= settings.context_max_tokens
    small = preload_memories("parrot", APP, USER, settings=settings, recaller=recaller, max_tokens=60, now=NOW)
    assert count_tokens(small) <= 60
    assert preload_memories("parrot", APP, "nobody", settings=settings, recaller=recaller, now=NOW) == ""
    assert preload_memories("   ", APP, USER, settings=settings, recaller=recaller, now=NOW) == ""
