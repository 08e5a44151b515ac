"""The ADK side of issue 65 in a real ``Runner``: first-full-then-cited tool results, the memory tools, the
run recorded as a procedure and offered to the next run of its task type.

The only stand-in is the model: an in-process ``BaseLlm`` whose every reply is computed from the request
ADK sends it (so it can cite the ids it was shown). Nothing in ADK is patched.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncGenerator, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("google.adk")

from google.adk.agents import LlmAgent
from google.adk.models._capabilities import LlmCapabilities
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.plugins import BasePlugin
from google.adk.runners import Runner
from google.adk.sessions import InMemorySessionService
from google.adk.tools.function_tool import FunctionTool
from google.genai import types
from pydantic import Field

from tasks.integrations import WorkingMemoryPlugin
from tasks.procedures.consolidate import consolidate_procedures
from tasks.settings import Settings
from tasks.store.schema import PROCEDURE_RUNS
from tasks.store.tables import open_store
from tasks.working.policy import MARKER

APP, USER = "bridge-research", "ana"
NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ANSWER = "The Aldermoor bridge opened in 1887 after six years of work on its piers."
PAGE = (
    "<html><head><title>Aldermoor</title></head><body>"
    + "".join(
        f"<p>Parish accounts of {1800 + i} list {i % 40 + 3} repairs to the mill race and the canal locks.</p>\n\n"
        for i in range(400)
    )
    + f"<p>{ANSWER}</p></body></html>"
)
Reply = Callable[[LlmRequest], types.Part]


def request_text(request: LlmRequest) -> str:
    chunks = [str(request.config.system_instruction or "")]
    for content in request.contents:
        for part in content.parts or []:
            chunks.append(part.text or "")
            if part.function_response is not None:
                chunks.append(json.dumps(part.function_response.response))
    return "\n".join(chunks)


class ReactiveLlm(BaseLlm):
    """Answers each request with the next reply function's part; keeps what every request showed."""

    model: str = "reactive"
    replies: list[Reply] = Field(default_factory=list)
    seen: list[str] = Field(default_factory=list)
    systems: list[str] = Field(default_factory=list)

    @property
    def capabilities(self) -> LlmCapabilities:
        return LlmCapabilities()

    async def generate_content_async(self, llm_request: LlmRequest, stream: bool = False
                                     ) -> AsyncGenerator[LlmResponse, None]:  # fmt: skip
        self.seen.append(request_text(llm_request))
        self.systems.append(str(llm_request.config.system_instruction or ""))
        yield LlmResponse(content=types.Content(role="model", parts=[self.replies.pop(0)(llm_request)]))


def call(name: str, **args: Any) -> Reply:
    return lambda request: types.Part.from_function_call(name=name, args=args)


def say(text: str) -> Reply:
    return lambda request: types.Part.from_text(text=text)


def cited_ids(request: LlmRequest) -> list[str]:
    responses = [p.function_response.response for c in request.contents for p in c.parts or []
                 if p.function_response is not None]  # fmt: skip
    return [str(r[MARKER]) for r in responses if r and MARKER in r]


def fetch_page(url: str) -> dict[str, Any]:
    """Fetch a web page."""
    return {"url": f"https://bridges.example/{url}", "title": "Bridges of Aldermoor", "content": PAGE}


def web_search(query: str) -> dict[str, Any]:
    """Search the web."""
    return {"results": [{"title": f"Result {i} for {query}", "url": f"https://r{i}.example"} for i in range(9)]}


def clock_time() -> dict[str, Any]:
    """The time: a small result, passed as it is."""
    return {"now": "09:00"}


def run(settings: Settings, llm: ReactiveLlm, plugin: WorkingMemoryPlugin, state: dict[str, Any]) -> str:
    service = InMemorySessionService()
    tools = [FunctionTool(fetch_page), FunctionTool(web_search), FunctionTool(clock_time), *plugin.tools()]
    agent = LlmAgent(name="researcher", model=llm, tools=tools)
    runner = Runner(app_name=APP, agent=agent, session_service=service, plugins=[plugin])

    async def go() -> str:
        session = await service.create_session(app_name=APP, user_id=USER, state=state)
        message = types.Content(role="user", parts=[types.Part.from_text(text="When did the Aldermoor bridge open?")])
        async for _ in runner.run_async(user_id=USER, session_id=session.id, new_message=message):
            pass
        return session.id

    return asyncio.run(go())


def test_results_are_shown_in_full_once_then_cited_and_procedures_are_learned(tmp_path: Path) -> None:
    settings = Settings(store_uri=str(tmp_path / "store"), working_excerpt_embedder=False)
    plugin = WorkingMemoryPlugin(settings, goal="bridge history", now=lambda: NOW)
    assert isinstance(plugin, BasePlugin)
    question = "When did the Aldermoor bridge open?"
    llm = ReactiveLlm(replies=[
        call("fetch_page", url="aldermoor"),
        call("web_search", query="Aldermoor bridge"),
        call("clock_time"),
        lambda request: types.Part.from_function_call(name="retrieve_from_memory", args={
            "memory_id": cited_ids(request)[0], "transform": "excerpt", "query": question}),
        say("It opened in 1887."),
    ])  # fmt: skip
    session_id = run(settings, llm, plugin, {"procedure_task_type": "bridge_history"})

    first_use, later, answered = llm.seen[1], llm.seen[2], llm.seen[4]
    assert ANSWER in first_use and PAGE[:100] in first_use, "the page's first use is in full"
    assert ANSWER not in later and "Bridges of Aldermoor" in later, "then only its citation"
    assert "Result 8 for Aldermoor bridge" in later, "the search result's own first use is in full"
    assert '{"now": "09:00"}' in answered, "a small result is not stored, it passes as it is"
    assert ANSWER in answered, "retrieve_from_memory's excerpt brought the answer back"
    assert len(later) < len(first_use) / 10

    # A restart (a new plugin, as in a new process) finds the session's items in the table.
    page_id = WorkingMemoryPlugin(settings, now=lambda: NOW).policy(APP, USER, session_id).memory.items()[0]
    assert page_id.value()["content"] == PAGE

    [trace] = open_store(settings).rows(PROCEDURE_RUNS)
    assert (trace["task_type"], trace["outcome"], trace["signature"]) == (
        "bridge_history", "success", "fetch_page > web_search > clock_time > retrieve_from_memory")  # fmt: skip
    assert json.loads(trace["steps"])[0]["args"] == {"url": "string"}, "argument shapes, never values"

    [procedure] = consolidate_procedures(settings, APP, USER, now=NOW)
    assert (procedure.successes, procedure.failures, procedure.status) == (1, 0, "active")
    offered = ReactiveLlm(replies=[say("I will follow what worked.")])
    run(settings, offered, WorkingMemoryPlugin(settings, now=lambda: NOW), {"procedure_task_type": "bridge_history"})
    assert "For tasks like this, what worked:" in offered.systems[0]
    assert "fetch_page(url) > web_search(query) > clock_time() > retrieve_from_memory(" in offered.systems[0]


def test_a_result_too_large_is_refused_to_the_agent_not_pasted(tmp_path: Path) -> None:
    settings = Settings(store_uri=str(tmp_path / "store"), working_max_item_bytes=10_000)
    llm = ReactiveLlm(replies=[call("fetch_page", url="aldermoor"), say("The page was too large.")])
    run(settings, llm, WorkingMemoryPlugin(settings, now=lambda: NOW), {})
    assert "over working_max_item_bytes" in llm.seen[1] and ANSWER not in llm.seen[1]
