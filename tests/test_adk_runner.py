"""A real ADK Runner end to end: conversations stored by ADK's SQLite session service, pulled by the
ingest flow from that database, recalled through ADK's own load_memory and preload_memory tools.

The only stand-in is the model: a scripted in-process ``BaseLlm`` (no network) that records every
request ADK sends it. Nothing in ADK is patched.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("google.adk")

from google.adk.agents import LlmAgent
from google.adk.models._capabilities import LlmCapabilities
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import Runner
from google.adk.sessions.sqlite_session_service import SqliteSessionService
from google.adk.tools import ToolContext, load_memory, preload_memory
from google.genai import types
from pydantic import Field

from tasks.integrations.adk_memory import PipelineMemoryService
from tasks.settings import Settings
from tasks.store.tables import LEDGER, MEMORIES, open_store

pytestmark = pytest.mark.slow  # end to end: `make test-fast` leaves it out

APP, USER = "travel-assistant", "alice"


class ScriptedLlm(BaseLlm):
    """Answers with the next scripted part and keeps the text of every request it was sent."""

    model: str = "scripted"
    script: list[types.Part] = Field(default_factory=list)
    seen: list[str] = Field(default_factory=list)

    @property
    def capabilities(self) -> LlmCapabilities:
        return LlmCapabilities()

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        self.seen.append(_request_text(llm_request))
        yield LlmResponse(content=types.Content(role="model", parts=[self.script.pop(0)]))


def _request_text(request: LlmRequest) -> str:
    """Everything the model is shown: system instruction and every part of every content."""
    chunks = [str(request.config.system_instruction or "")]
    for content in request.contents:
        for part in content.parts or []:
            chunks.append(part.text or "")
            if part.function_response is not None:
                chunks.append(str(part.function_response.response))
    return "\n".join(chunks)


def end_conversation(tool_context: ToolContext) -> dict[str, Any]:
    """Ends the conversation: sets the end marker the pipeline's source looks for."""
    tool_context.state["session_ended"] = True
    return {"ended": True}


def _text(part: str) -> types.Part:
    return types.Part.from_text(text=part)


async def _converse(runner: Runner, service: SqliteSessionService, lines: list[str]) -> str:
    session = await service.create_session(app_name=APP, user_id=USER)
    for line in lines:
        message = types.Content(role="user", parts=[_text(line)])
        async for _ in runner.run_async(user_id=USER, session_id=session.id, new_message=message):
            pass
    return session.id


@pytest.fixture
def adk_settings(tmp_path: Path) -> Settings:
    return Settings(
        store_uri=str(tmp_path / "store"), session_source="adk_db", adk_db_url=f"sqlite:///{tmp_path}/sessions.db"
    )


def test_runner_conversations_become_memory_that_adk_tools_recall(
    prefect_harness: None, adk_settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    service = SqliteSessionService(adk_settings.adk_db_url or "")
    end = types.Part.from_function_call(name="end_conversation", args={})
    llm = ScriptedLlm(script=[_text("What a lovely bird!"), end, _text("Goodbye!"),
                              _text("That sounds demanding."), end, _text("Take care!")])  # fmt: skip
    talker = Runner(app_name=APP, agent=LlmAgent(name="helper", model=llm, tools=[end_conversation]),
                    session_service=service)  # fmt: skip
    first = asyncio.run(_converse(talker, service, ["I love African Grey parrots!", "That's all, thanks."]))
    second = asyncio.run(_converse(talker, service, ["I work as a nurse at Mercy Hospital.", "Bye for now."]))

    # The scheduled ingest flow, configured by environment like a deployment, pulls from ADK's database.
    from flows.ingest import IngestParams, ingest_flow

    monkeypatch.setenv("MEMORY_PIPELINE_SESSION_SOURCE", "adk_db")
    monkeypatch.setenv("MEMORY_PIPELINE_ADK_DB_URL", adk_settings.adk_db_url or "")
    summary = ingest_flow(IngestParams(store_uri=adk_settings.store_uri))
    assert summary.sessions_processed == 2
    store = open_store(adk_settings)
    assert {r["session_id"] for r in store.rows(LEDGER)} == {first, second}
    contents = {r["content"]: r["source_session_id"] for r in store.rows(MEMORIES)}
    assert contents["User loves African Grey parrots"] == first
    assert contents["User works as a nurse at Mercy Hospital"] == second

    memory = PipelineMemoryService(adk_settings)
    # A third conversation: the model calls ADK's load_memory tool and reads the answer.
    asker = ScriptedLlm(script=[types.Part.from_function_call(name="load_memory", args={"query": "favourite bird"}),
                                _text("You love African Grey parrots.")])  # fmt: skip
    runner = Runner(app_name=APP, agent=LlmAgent(name="helper", model=asker, tools=[load_memory]),
                    session_service=service, memory_service=memory)  # fmt: skip
    asyncio.run(_converse(runner, service, ["Which bird do I like?"]))
    assert "African Grey parrots" not in asker.seen[0]
    assert "User loves African Grey parrots" in asker.seen[1], "load_memory's answer reached the model"

    # Another: preload_memory puts what the user's words recall into the request before the model runs.
    preloaded = ScriptedLlm(script=[_text("You are a nurse at Mercy Hospital.")])
    runner = Runner(app_name=APP, agent=LlmAgent(name="helper", model=preloaded, tools=[preload_memory]),
                    session_service=service, memory_service=memory)  # fmt: skip
    asyncio.run(_converse(runner, service, ["Where do I work as a nurse?"]))
    assert "<PAST_CONVERSATIONS>" in preloaded.seen[0]
    assert "User works as a nurse at Mercy Hospital" in preloaded.seen[0]
    memory.close()
