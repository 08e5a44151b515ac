"""One OpenAI-compatible client for every LLM provider: key, retries, in-flight bound, usage, JSON replies.

Why our own retry loop (the client's ``max_retries`` is 0): the policy is explicit and testable
(429, 5xx, timeouts and connection errors only, exponential backoff with jitter, or the wait a 429 or
503 names in ``Retry-After``, capped at ``openai_backoff_max_seconds``), and every attempt
passes through one process-wide semaphore, so a backfill never has more than
``openai_max_in_flight`` requests open whatever the number of threads.
"""

from __future__ import annotations

import json
import logging
import math
import os
import random
import re
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from contextvars import copy_context
from datetime import UTC
from email.utils import parsedate_to_datetime
from functools import lru_cache
from typing import Any, TypeVar, cast

import openai
from pydantic import BaseModel, ValidationError

from tasks.errors import ProviderCallError, ProviderConfigError, ProviderReplyError
from tasks.providers.local_server import endpoint_for, local_settings
from tasks.providers.openai_slots import in_flight
from tasks.providers.openai_usage import count_event, count_usage
from tasks.settings import Settings

log = logging.getLogger(__name__)
T = TypeVar("T")
R = TypeVar("R")
M = TypeVar("M", bound=BaseModel)
_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)


# -- concurrency ------------------------------------------------------------------------------


def map_concurrent(fn: Callable[[T], R], items: Iterable[T], settings: Settings) -> list[R | BaseException]:
    """``fn`` over ``items`` on up to twice ``openai_max_in_flight`` threads, results (or exceptions) in order.

    The ingest stage calls this for per-session work; the HTTP calls inside stay bounded by the
    process-wide semaphore, so nesting (a session's chunks, an embedder's batches) cannot overshoot.
    Twice: while a thread reads its reply and builds its next request, another of this batch already
    waits for the freed slot, so the batch keeps its slots against lower-priority work (openai_slots).
    """
    work = list(items)
    if len(work) <= 1:
        return [_capture(fn, item) for item in work]
    with ThreadPoolExecutor(max_workers=min(len(work), 2 * settings.openai_max_in_flight)) as pool:
        # Each item in a copy of the caller's context, so its calls count in the caller's run.
        futures = [pool.submit(copy_context().run, _capture, fn, item) for item in work]
        return [f.result() for f in futures]


def _capture(fn: Callable[[T], R], item: T) -> R | BaseException:
    try:
        return fn(item)
    except Exception as exc:  # handed back to the caller, who decides per item
        return exc


# -- client -----------------------------------------------------------------------------------


def resolve_api_key(settings: Settings) -> str:
    """The key from settings, OPENAI_API_KEY, or a Prefect Secret block; a placeholder for local servers."""
    if settings.openai_api_key is not None:
        return settings.openai_api_key.get_secret_value()
    if os.environ.get("OPENAI_API_KEY"):
        return os.environ["OPENAI_API_KEY"]
    if settings.openai_api_key_secret:
        from prefect.blocks.system import Secret

        try:
            value = cast(Any, Secret.load(settings.openai_api_key_secret)).get()
        except Exception as exc:  # the block's own error may not say what to do
            raise ProviderConfigError(
                f"cannot load the Prefect Secret block {settings.openai_api_key_secret!r}: {type(exc).__name__}"
            ) from None
        return str(value)
    if settings.openai_base_url:  # Ollama, vLLM, llama.cpp accept any key
        return "unused"
    raise ProviderConfigError(
        "no OpenAI API key: set OPENAI_API_KEY, MEMORY_PIPELINE_OPENAI_API_KEY or "
        "MEMORY_PIPELINE_OPENAI_API_KEY_SECRET (a Prefect Secret block), or point openai_base_url at a local server"
    )


def _retryable(exc: Exception) -> bool:
    if isinstance(exc, openai.APITimeoutError | openai.APIConnectionError):
        return True
    return isinstance(exc, openai.APIStatusError) and (exc.status_code == 429 or exc.status_code >= 500)


def retry_after(exc: Exception, cap: float, clock: Callable[[], float] = time.time) -> float | None:
    """The wait a 429 or 503 asks for (``retry-after-ms``, or ``Retry-After`` in seconds or as an HTTP
    date, counted from ``clock``), at most ``cap`` seconds; None when it names none (the backoff applies)."""
    if not isinstance(exc, openai.APIStatusError) or exc.status_code not in (429, 503):
        return None
    headers = exc.response.headers
    seconds: float | None = None
    with suppress(ValueError):
        seconds = float(headers.get("retry-after-ms", "")) / 1000
    raw = headers.get("retry-after", "").strip()
    if seconds is None and raw:
        try:
            seconds = float(raw)
        except ValueError:
            with suppress(TypeError, ValueError, IndexError):
                when = parsedate_to_datetime(raw)
                seconds = (when if when.tzinfo else when.replace(tzinfo=UTC)).timestamp() - clock()
    if seconds is None or not math.isfinite(seconds):
        return None
    return min(cap, max(0.0, seconds))


def _describe(exc: Exception) -> str:
    """What failed, without the request (headers carry the key)."""
    status = getattr(exc, "status_code", None)
    return f"{type(exc).__name__}" + (f" (HTTP {status})" if status else "")


@lru_cache(maxsize=8)
def _openai(api_key: str, base_url: str | None, timeout: float) -> openai.OpenAI:
    """One ``openai`` client (and HTTP connection pool) per endpoint, key and timeout in the process.

    Why: building one (an HTTP client, its TLS context) took tens of milliseconds of the GIL, and a run
    builds providers per stage and per user; a shared pool also keeps its connections alive between
    stages. The client is thread-safe; retries are ours (``max_retries=0``).
    """
    return openai.OpenAI(api_key=api_key, base_url=base_url, timeout=timeout, max_retries=0)


class LLMClient:
    """The calls one provider makes; ``provider`` names it in the usage counts and logs."""

    def __init__(
        self,
        settings: Settings,
        provider: str,
        *,
        model: str | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.provider = provider
        self._sleep, self._clock = sleep, clock
        # With local_llm_gguf (and no other endpoint), the project's own server: see local_server.
        self._configured = settings
        self.settings, self.local = endpoint_for(settings)
        self.model = model or self.settings.openai_chat_model
        self._generation = self.local.generation if self.local else 0
        self.client = self._client()

    def _client(self) -> openai.OpenAI:
        s = self.settings
        return _openai(resolve_api_key(s), s.openai_base_url, s.openai_timeout_seconds)

    def _recovered(self, exc: Exception, what: str) -> bool:
        """After a failed attempt: True if the local server had died and now runs again (the client is
        pointed at it); raises :class:`ProviderCallError` at once if it stays down; False otherwise."""
        if self.local is None or (self.local.alive() and self.local.generation == self._generation):
            return False
        if not self.local.recover(self._generation):
            raise ProviderCallError(
                f"{self.provider} {what}: the local model server is down ({_describe(exc)}; restarted once already)"
            ) from exc
        self.settings = local_settings(self._configured, self.local)
        self._generation = self.local.generation
        self.client = self._client()
        return True

    def call(self, fn: Callable[[], T], what: str) -> T:
        """Run one request with the retry policy, each attempt inside the in-flight bound."""
        s = self.settings
        for attempt in range(s.openai_max_retries + 1):
            try:
                with in_flight(s):
                    return fn()
            except Exception as exc:
                if self._recovered(exc, what):
                    return self.call(fn, what)  # at most once: a second death raises in _recovered
                if not _retryable(exc):
                    raise
                if attempt == s.openai_max_retries:
                    raise ProviderCallError(
                        f"{self.provider} {what}: {_describe(exc)} after {attempt + 1} attempts"
                    ) from exc
                delay = retry_after(exc, s.openai_backoff_max_seconds, self._clock)
                told = delay is not None
                if delay is None:
                    delay = min(s.openai_backoff_max_seconds, s.openai_backoff_base_seconds * 2**attempt)
                    delay *= 0.5 + random.random() / 2  # jitter: clients that failed together retry apart
                log.warning("%s %s: %s, retry %d in %.2fs%s", self.provider, what, _describe(exc), attempt + 1, delay,
                            " (as the server asked)" if told else "")  # fmt: skip
                self._sleep(delay)
        raise AssertionError("unreachable")

    def complete(
        self, messages: list[dict[str, str]], response_format: dict[str, Any], what: str, max_tokens: int | None = None
    ) -> str:
        """One chat completion; returns the reply text and counts its tokens.

        ``max_tokens`` (what the caller's input can need) lowers the setting's cap, so a model caught in a
        repetition loop stops early; the local server also stops at a run of blank lines, which JSON never
        needs (strings escape their newlines).
        """
        cap = self.settings.openai_max_output_tokens
        params: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "response_format": response_format,
            "temperature": self.settings.openai_temperature,
            "max_tokens": min(cap, max_tokens) if max_tokens else cap,
        }
        if self.local is not None:
            params["stop"] = ["\n\n\n\n"]
        response = self.call(lambda: self.client.chat.completions.create(**params), what)
        usage = response.usage
        count_usage(self.provider, usage.prompt_tokens if usage else 0, usage.completion_tokens if usage else 0)
        _count_timings(self.provider, response)
        choice = response.choices[0] if response.choices else None
        if choice is not None and choice.finish_reason == "length":
            count_event(self.provider, "truncated")
        return (choice.message.content or "") if choice else ""

    def chat_json(self, system: str, user: str, schema: type[M], what: str, max_tokens: int | None = None) -> M:
        """A reply validated against ``schema``; one repair attempt, then :class:`ProviderReplyError`."""
        fmt = response_format(schema, self.settings, bounded=self.local is not None)
        if fmt["type"] == "json_object":  # JSON mode: the schema travels in the prompt
            system += "\n\nReply with one JSON object that follows this JSON schema:\n" + json.dumps(
                schema.model_json_schema()
            )
        messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
        raw = self.complete(messages, fmt, what, max_tokens)
        try:
            return parse_reply(raw, schema)
        except ValidationError as exc:
            first_error = _short(exc)
        log.warning("%s %s: invalid JSON reply (%s); asking once for a repair", self.provider, what, first_error)
        repair = (
            f"Your reply was not valid JSON for the required schema ({first_error}). "
            "Reply again with only the complete, corrected JSON object."
        )
        messages += [{"role": "assistant", "content": raw}, {"role": "user", "content": repair}]
        count_event(self.provider, "repairs")
        raw2 = self.complete(messages, fmt, f"{what} (repair)", max_tokens)
        try:
            return parse_reply(raw2, schema)
        except ValidationError as exc:
            raise ProviderReplyError(
                f"{self.provider} {what}: invalid JSON reply after one repair attempt: {_short(exc)}",
                raw=f"{raw}\n--- repair reply ---\n{raw2}",
            ) from None

    def embed(self, texts: list[str], model: str) -> list[list[float]]:
        response = self.call(lambda: self.client.embeddings.create(model=model, input=texts), "embeddings")
        usage = response.usage
        count_usage(self.provider, usage.prompt_tokens if usage else 0, 0)
        return [list(d.embedding) for d in sorted(response.data, key=lambda d: d.index)]


def _count_timings(provider: str, response: Any) -> None:
    """llama.cpp's own timings of a reply (a field OpenAI does not send), so a run can report tokens/s."""
    timings = (getattr(response, "model_extra", None) or {}).get("timings")
    if isinstance(timings, dict):
        for key, event in (("prompt_ms", "prompt_ms"), ("predicted_ms", "generation_ms")):
            value = timings.get(key)
            if isinstance(value, int | float) and math.isfinite(value):
                count_event(provider, event, round(value))


def _short(exc: ValidationError) -> str:
    first = exc.errors()[0] if exc.errors() else {"msg": str(exc)}
    where = ".".join(str(p) for p in first.get("loc", ()))
    return f"{first['msg']}{f' at {where}' if where else ''}; {exc.error_count()} error(s)"


def parse_reply(raw: str, schema: type[M]) -> M:
    """Validate a reply, tolerating a Markdown code fence around the JSON (common with local models)."""
    match = _FENCE.match(raw)
    return schema.model_validate_json(match.group(1) if match else raw)


#: Bounds the local server's grammar puts on every string and list of a reply (``bounded``).
MAX_STRING_CHARS = 400
MAX_ITEMS = 12


def response_format(schema: type[BaseModel], settings: Settings, *, bounded: bool = False) -> dict[str, Any]:
    """The request's ``response_format``; ``bounded`` (the project's llama.cpp server, whose constrained
    decoding enforces it) caps strings and lists, so a small model looping inside a string or a list
    closes it instead of running to the token limit. Hosted strict modes may reject these keywords."""
    if settings.openai_structured_output == "json_object":
        return {"type": "json_object"}
    fixed = strict_schema(schema)
    return {
        "type": "json_schema",
        "json_schema": {"name": schema.__name__, "schema": _bounded(fixed) if bounded else fixed, "strict": True},
    }


def _bounded(node: Any) -> Any:
    if isinstance(node, dict):
        node = {k: _bounded(v) for k, v in node.items()}
        if node.get("type") == "string":
            node.setdefault("maxLength", MAX_STRING_CHARS)
        elif node.get("type") == "array":
            node.setdefault("maxItems", MAX_ITEMS)
        return node
    if isinstance(node, list):
        return [_bounded(v) for v in node]
    return node


def strict_schema(schema: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON schema in the form strict structured output accepts.

    Every object closed (``additionalProperties: false``) with every property required (optional
    fields stay nullable), and no defaults, which strict mode rejects.
    """

    def fix(node: Any, names: bool = False) -> Any:
        if isinstance(node, dict):
            if names:  # a "properties" map: its keys are field names, not keywords
                return {k: fix(v) for k, v in node.items()}
            node = {k: fix(v, k in ("properties", "$defs")) for k, v in node.items() if k not in ("default", "title")}
            if node.get("type") == "object" and "properties" in node:
                node["additionalProperties"] = False
                node["required"] = list(node["properties"])
            return node
        if isinstance(node, list):
            return [fix(v) for v in node]
        return node

    fixed: dict[str, Any] = fix(schema.model_json_schema())
    return fixed
