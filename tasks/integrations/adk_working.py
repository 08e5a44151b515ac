"""Working and procedural memory in a Google ADK agent: one ``BasePlugin`` and three tools.

``Runner(..., plugins=[WorkingMemoryPlugin(settings)])`` and ``LlmAgent(tools=plugin.tools())``:

- every tool result is stored in the session's working memory (run id = the ADK session id, so it
  survives a restart) and the event records only its id and citation; when a prompt is built, a result
  not shown yet is expanded in full (its first use), every earlier one stays a citation
  (:class:`tasks.working.policy.CitationPolicy`); the agent reads more with ``retrieve_from_memory``;
- ``store_in_memory`` / ``retrieve_from_memory`` / ``query_memory`` call :class:`tasks.working.memory.WorkingMemory`;
- with ``task_type`` (or the session state key ``procedure_task_type``), the run's actions are recorded
  as a trace at its end (outcome: state ``task_feedback``, else ``task_status``, else tool errors) and the
  best procedures for the task type are added to the first prompt of each invocation.

Lance and ONNX calls are synchronous; they run in a worker thread so the event loop is never blocked.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from google.adk.agents.callback_context import CallbackContext
from google.adk.agents.invocation_context import InvocationContext
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.plugins.base_plugin import BasePlugin
from google.adk.tools.base_tool import BaseTool
from google.adk.tools.function_tool import FunctionTool
from google.adk.tools.tool_context import ToolContext
from google.genai import types

from tasks.clock import now as wall_now
from tasks.procedures.models import Step, Trace, arg_shape, read_outcome
from tasks.procedures.recall import offer_procedures
from tasks.procedures.record import record_run
from tasks.procedures.section import procedures_section
from tasks.settings import Settings
from tasks.working.items import ItemType, WorkingMemoryError
from tasks.working.memory import WorkingMemory
from tasks.working.policy import MARKER, CitationPolicy
from tasks.working.transforms import TRANSFORMS

TOOL_NAMES = ("store_in_memory", "retrieve_from_memory", "query_memory")
#: Sessions whose policy (what was shown in full) is kept in this process; an evicted one reopens from the
#: table and shows each result in full once more.
MAX_SESSIONS = 256
TASK_TYPE_KEY, STATUS_KEY, FEEDBACK_KEY = "procedure_task_type", "task_status", "task_feedback"


def _item_type(result: dict[str, Any]) -> ItemType:
    """A result's type from its shape: a page (text with a url), rows, or any other action result."""
    if isinstance(result.get("url"), str) and isinstance(result.get("content") or result.get("text"), str):
        return "web_content"
    if isinstance(result.get("rows"), list):
        return "database_result"
    return "action_result"


class WorkingMemoryPlugin(BasePlugin):
    """First-full-then-cited tool results, memory tools, and procedure recording and offering."""

    def __init__(
        self,
        settings: Settings,
        *,
        name: str = "working_memory",
        task_type: str | None = None,
        goal: str = "",
        use_llm_compaction: bool | None = None,
        now: Callable[[], datetime] = wall_now,
    ) -> None:
        super().__init__(name)
        self.settings = settings
        self.task_type = task_type
        self.goal = goal
        self.use_llm = settings.working_llm_compaction if use_llm_compaction is None else use_llm_compaction
        self._now = now
        self._policies: dict[tuple[str, str, str], CitationPolicy] = {}
        self._steps: dict[str, list[Step]] = {}
        self._started: dict[str, float] = {}
        self._offered: dict[str, str | None] = {}

    # -- the session's memory ------------------------------------------------------------------

    def policy(self, app_name: str, user_id: str, session_id: str) -> CitationPolicy:
        """The session's policy over its working memory (opened from the table once: a restart resumes)."""
        key = (app_name, user_id, session_id)
        if key not in self._policies:
            while len(self._policies) >= MAX_SESSIONS:  # the oldest session's items stay in the table
                self._policies.pop(next(iter(self._policies)))
            memory = WorkingMemory.open(self.settings, app_name, user_id, session_id, clock=self._now)
            self._policies[key] = CitationPolicy(memory, goal=self.goal, use_llm=self.use_llm)
        return self._policies[key]

    def _policy_of(self, ctx: CallbackContext | ToolContext) -> CitationPolicy:
        session = ctx.session
        return self.policy(session.app_name, session.user_id, session.id)

    # -- tool results --------------------------------------------------------------------------

    async def before_tool_callback(self, *, tool: BaseTool, tool_args: dict[str, Any],
                                   tool_context: ToolContext) -> dict[str, Any] | None:  # fmt: skip
        self._started[f"{tool_context.invocation_id}:{tool_context.function_call_id}"] = time.perf_counter()
        return None

    async def after_tool_callback(self, *, tool: BaseTool, tool_args: dict[str, Any], tool_context: ToolContext,
                                  result: dict[str, Any]) -> dict[str, Any] | None:  # fmt: skip
        self._step(tool, tool_args, tool_context, ok=not (isinstance(result, dict) and "error" in result))
        if not self.settings.working_enabled or tool.name in TOOL_NAMES or not isinstance(result, dict):
            return None
        if len(json.dumps(result, default=str)) <= 2 * self.settings.working_citation_chars:
            return None  # a small result costs less in full than its citation would
        policy = self._policy_of(tool_context)
        try:
            memory_id = await asyncio.to_thread(
                policy.memory.store, result, _item_type(result), source=tool.name, title=_str(result.get("title")),
                url=_str(result.get("url")), tags=(tool.name,), now=self._now(),
            )  # fmt: skip
        except WorkingMemoryError as exc:  # too large: the agent is told, the result is not pasted either
            return {"error": str(exc), "source": tool.name}
        return await asyncio.to_thread(policy.stored, memory_id)

    async def on_tool_error_callback(self, *, tool: BaseTool, tool_args: dict[str, Any], tool_context: ToolContext,
                                     error: Exception) -> dict[str, Any] | None:  # fmt: skip
        self._step(tool, tool_args, tool_context, ok=False)
        return None

    def _step(self, tool: BaseTool, args: dict[str, Any], ctx: ToolContext, *, ok: bool) -> None:
        started = self._started.pop(f"{ctx.invocation_id}:{ctx.function_call_id}", None)
        took = (time.perf_counter() - started) * 1000 if started is not None else 0.0
        self._steps.setdefault(ctx.invocation_id, []).append(
            Step(tool=tool.name, args=arg_shape(args), ok=ok, duration_ms=took)
        )

    # -- prompts -------------------------------------------------------------------------------

    async def before_model_callback(self, *, callback_context: CallbackContext,
                                    llm_request: LlmRequest) -> LlmResponse | None:  # fmt: skip
        if self.settings.working_enabled:
            await asyncio.to_thread(self._expand, self._policy_of(callback_context), llm_request)
        invocation = callback_context.invocation_id
        if invocation not in self._offered:
            task_type = self._task_type(callback_context.state.to_dict())
            section = await asyncio.to_thread(self._offer, callback_context, task_type) if task_type else ""
            self._offered[invocation] = section or None
        if self._offered[invocation]:
            llm_request.append_instructions([self._offered[invocation] or ""])
        return None

    def _expand(self, policy: CitationPolicy, request: LlmRequest) -> None:
        """Each marked result in full where it is first shown, as its citation everywhere after."""
        for content in request.contents:
            parts = content.parts or []
            for n, part in enumerate(parts):
                response = part.function_response
                payload = response.response if response is not None else None
                if not isinstance(payload, dict) or not isinstance(payload.get(MARKER), str) or response is None:
                    continue
                memory_id = payload[MARKER]
                try:
                    shown = policy.render(memory_id) if memory_id not in policy.shown else policy.stored(memory_id)
                except WorkingMemoryError as exc:  # expired or cleared: say so instead of failing the turn
                    shown = {MARKER: memory_id, "error": str(exc)}
                parts[n] = types.Part(function_response=types.FunctionResponse(
                    id=response.id, name=response.name, response=shown))  # fmt: skip

    def _task_type(self, state: dict[str, Any]) -> str | None:
        value = state.get(TASK_TYPE_KEY, self.task_type)
        return value if isinstance(value, str) and value.strip() else None

    def _offer(self, ctx: CallbackContext, task_type: str) -> str:
        session = ctx.session
        rows = offer_procedures(self.settings, session.app_name, session.user_id, task_type, context=self.goal)
        budget = int(self.settings.context_max_tokens * self.settings.procedure_context_share)
        return procedures_section(rows, budget)

    # -- the end of a run ----------------------------------------------------------------------

    async def after_run_callback(self, *, invocation_context: InvocationContext) -> None:
        invocation = invocation_context.invocation_id
        steps = self._steps.pop(invocation, [])
        self._offered.pop(invocation, None)
        session = invocation_context.session
        task_type = self._task_type(session.state)
        if not task_type or not steps:
            return
        feedback = session.state.get(FEEDBACK_KEY)
        status = session.state.get(STATUS_KEY)
        outcome, signal = read_outcome(steps, feedback=feedback if isinstance(feedback, bool) else None,
                                       final_status=status if isinstance(status, str) else None)  # fmt: skip
        trace = Trace(run_id=f"{session.id}:{invocation}", task_type=task_type, context=self.goal,
                      steps=tuple(steps), outcome=outcome, signal=signal,
                      duration_ms=sum(s.duration_ms for s in steps), ended_at=self._now())  # fmt: skip
        await asyncio.to_thread(record_run, self.settings, session.app_name, session.user_id, trace)

    # -- the agent's tools ---------------------------------------------------------------------

    def tools(self) -> list[FunctionTool]:
        """``store_in_memory``, ``retrieve_from_memory`` and ``query_memory`` over the session's memory."""
        plugin = self

        def store_in_memory(content: str, tool_context: ToolContext, title: str = "",
                            tags: list[str] | None = None) -> dict[str, Any]:  # fmt: skip
            """Store a note or a result in working memory; returns its memory_id and citation."""
            policy = plugin._policy_of(tool_context)
            try:
                memory_id = policy.memory.store(content, "custom", source="agent", title=title or None,
                                                tags=tuple(tags or ()), now=plugin._now())  # fmt: skip
            except WorkingMemoryError as exc:
                return {"error": str(exc)}
            policy.shown.add(memory_id)  # the agent wrote it: it need not be shown again
            return policy.stored(memory_id)

        def retrieve_from_memory(memory_id: str, tool_context: ToolContext, transform: str = "excerpt",
                                 query: str = "", n: int = 0, path: str = "",
                                 keys: list[str] | None = None) -> dict[str, Any]:  # fmt: skip
            """Read a stored result again: transform is full, excerpt (for query), summary, first_n, last_n
            (n characters) or filtered (a JSON path such as $.results[*].title, and/or keys)."""
            memory = plugin._policy_of(tool_context).memory
            try:
                value = memory.retrieve(memory_id, transform, query=query, n=n or None, path=path or None,
                                        keys=keys or None)  # fmt: skip
            except WorkingMemoryError as exc:
                return {"error": str(exc), "transforms": list(TRANSFORMS)}
            if isinstance(value, bytes):
                value = {"binary_bytes": len(value)}
            return {"memory_id": memory_id, "transform": transform, "content": value}

        def query_memory(tool_context: ToolContext, text: str = "", item_type: str = "", source: str = "",
                         tags: list[str] | None = None, limit: int = 5) -> dict[str, Any]:  # fmt: skip
            """Find stored results by words, type (action_result, web_content, database_result, custom),
            source tool or tags; returns their citations, best first."""
            policy = plugin._policy_of(tool_context)
            found = policy.memory.query(text=text or None, item_type=item_type or None, source=source or None,
                                        tags=tuple(tags or ()), limit=max(1, min(limit, 20)))  # fmt: skip
            return {"items": [policy.citation(i.memory_id).render() for i in found]}

        return [FunctionTool(store_in_memory), FunctionTool(retrieve_from_memory), FunctionTool(query_memory)]


def _str(value: object) -> str | None:
    return value if isinstance(value, str) and value.strip() else None
