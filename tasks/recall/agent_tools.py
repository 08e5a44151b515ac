"""Memory for agents: a ``recall_memory`` tool (OpenAI tools format) and a preload block.

The tenant (app, user) always comes from the caller, never from the model's arguments, so a
prompt-injected tool call cannot read another user's memories. The preload block goes into the
system instructions (as ADK's PreloadMemoryTool does), not into the message list.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from tasks.models import RecallHit
from tasks.recall.abstain import NOTHING_KNOWN, nothing_from
from tasks.recall.context import format_context
from tasks.recall.recaller import Recaller, recaller_for
from tasks.settings import Settings

MAX_LIMIT = 20
DEFAULT_LIMIT = 5

RECALL_MEMORY_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "recall_memory",
        "description": (
            "Search long-term memory of past conversations with this user: facts they stated, "
            "preferences, instructions and summaries of earlier sessions. Use it when the answer "
            "may depend on something the user said before. Returns dated memories, best first."
        ),
        "parameters": {
            "type": "object",
            "properties": {
                "query": {
                    "type": "string",
                    "description": "What to look for, in natural language (e.g. 'user's dog name').",
                },
                "limit": {
                    "type": "integer",
                    "description": f"Maximum number of memories to return (1-{MAX_LIMIT}).",
                    "minimum": 1,
                    "maximum": MAX_LIMIT,
                    "default": DEFAULT_LIMIT,
                },
            },
            "required": ["query"],
            "additionalProperties": False,
        },
    },
}

PRELOAD_OPEN = "<PAST_CONVERSATIONS>"
PRELOAD_CLOSE = "</PAST_CONVERSATIONS>"
PRELOAD_PREAMBLE = (
    "The following is from your previous conversations with this user. "
    "It may help with the current request; it may also be outdated."
)


def handle_recall_memory(
    arguments: str | dict[str, Any],
    app_name: str,
    user_id: str,
    *,
    settings: Settings,
    recaller: Recaller | None = None,
    abstain: bool = False,
    now: datetime | None = None,
) -> str:
    """Run a ``recall_memory`` tool call asked at ``now`` (default: the clock); always returns JSON text
    (errors included) for the model.

    With ``abstain``, ``confident`` tells the model whether the best memory is close enough to be
    about the query; when it is not, a ``note`` says so, so the model can say it does not know.
    """
    try:
        query, limit = _parse_arguments(arguments)
    except ValueError as exc:
        return json.dumps({"error": str(exc)})
    with recaller_for(settings, recaller) as active:
        result = active.recall_result(query, app_name, user_id, k=limit, now=now)
    body: dict[str, Any] = {"memories": [_tool_view(h) for h in result.hits]}
    if result.evidence:  # the verbatim turns that say more than the memories (speaker in "speaker")
        body["evidence"] = [{**_tool_view(h), "speaker": h.speaker} for h in result.evidence]
    if result.searched_as:  # a word respelt as the memories spell it: the model sees what was searched
        body["searched_as"] = result.searched_as
    if result.untimely:  # the time asked about holds nothing: the memories are of other times
        body["note"] = nothing_from(result.untimely)
    if abstain:
        body["confident"] = result.confident and not result.untimely
        if not result.confident:
            body["note"] = NOTHING_KNOWN
    return json.dumps(body, ensure_ascii=False)


def preload_memories(
    latest_user_turn: str,
    app_name: str,
    user_id: str,
    *,
    settings: Settings,
    max_tokens: int | None = None,
    recaller: Recaller | None = None,
    abstain: bool = False,
    now: datetime | None = None,
) -> str:
    """A ``<PAST_CONVERSATIONS>`` block for the system instructions ("" when nothing is recalled).

    With ``abstain``, nothing is preloaded when no memory is close enough to the turn: an unrelated
    memory in the instructions invites the model to use it.
    """
    if not latest_user_turn.strip():
        return ""
    with recaller_for(settings, recaller) as active:
        result = active.recall_result(latest_user_turn, app_name, user_id, now=now)
    if abstain and (not result.confident or result.untimely):
        return ""
    hits = result.hits
    budget = settings.context_max_tokens if max_tokens is None else max_tokens
    wrapper = (f"{PRELOAD_OPEN}\n{PRELOAD_PREAMBLE}\n\n", f"\n{PRELOAD_CLOSE}")
    return format_context(hits, budget, wrapper=wrapper, evidence=result.evidence)


def _parse_arguments(arguments: str | dict[str, Any]) -> tuple[str, int]:
    """Model-written arguments: JSON text or a dict; anything malformed is a readable error."""
    if isinstance(arguments, str):
        try:
            parsed = json.loads(arguments or "{}")
        except json.JSONDecodeError as exc:
            raise ValueError(f"arguments are not valid JSON: {exc.msg}") from exc
    else:
        parsed = arguments
    if not isinstance(parsed, dict):
        raise ValueError("arguments must be a JSON object")
    query = parsed.get("query")
    if not isinstance(query, str) or not query.strip():
        raise ValueError("'query' must be a non-empty string")
    limit = parsed.get("limit", DEFAULT_LIMIT)
    if isinstance(limit, bool) or not isinstance(limit, int | float):
        raise ValueError("'limit' must be an integer")
    return query, max(1, min(MAX_LIMIT, int(limit)))


def _tool_view(hit: RecallHit) -> dict[str, Any]:
    when = hit.stated_at or hit.created_at
    return {
        "id": hit.id,
        "kind": hit.kind,
        "topic": hit.topic,
        "content": hit.content,
        "date": when.date().isoformat(),
        "score": round(hit.score, 4),
    }
