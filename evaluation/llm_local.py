"""Evaluation with a real model: the LLM write path and the LLM judge on a subset (``evaluate --llm``).

``--llm local --model PATH`` serves the user's GGUF file with the project's own llama.cpp server
(:mod:`tasks.providers.local_server`); ``--llm openai`` uses the configured OpenAI-compatible endpoint
(vLLM, Ollama, llama.cpp's own ``llama-server``: ``openai_base_url``). Either way the extractor, summarizer,
consolidator and judge go through the openai providers and the embedder stays as configured. ``--limit N``
keeps the first N sessions (a CPU model needs minutes per session) and the questions they answer.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Literal

from tasks.providers.openai_usage import usage_snapshot
from tasks.settings import Settings, checked_gguf

LLMChoice = Literal["local", "openai"]


def llm_settings(settings: Settings, llm: LLMChoice, model: Path | None) -> Settings:
    """``settings`` with every LLM stage and the judge on the chosen model (a GGUF path checked as a setting is)."""
    values: dict[str, object] = {
        "extractor": "openai", "summarizer": "openai", "consolidator": "openai", "judge": "openai",
    }  # fmt: skip
    if llm == "local":
        if model is None:
            raise ValueError("--llm local needs --model PATH (a GGUF file)")
        values |= {"local_llm_gguf": checked_gguf(model), "openai_base_url": None}
    elif model is not None:
        values["openai_chat_model"] = str(model)
    return settings.model_copy(update=values)


def throughput(before: dict[str, dict[str, int]], after: dict[str, dict[str, int]]) -> dict[str, float | int]:
    """Calls, tokens and tokens/s between two usage snapshots (tokens/s from the server's own timings,
    when it sends them: llama.cpp does; other endpoints give calls and tokens only)."""

    def total(key: str, snap: dict[str, dict[str, int]]) -> int:
        return sum(v.get(key, 0) for name, v in snap.items() if name != "embedder")

    delta = {k: total(k, after) - total(k, before) for k in
             ("calls", "prompt_tokens", "completion_tokens", "prompt_ms", "generation_ms", "fallbacks", "repairs",
              "unknown_ids", "truncated")}  # fmt: skip
    out: dict[str, float | int] = dict(delta)
    if delta["generation_ms"]:
        out["generated_tokens_per_second"] = round(delta["completion_tokens"] / (delta["generation_ms"] / 1000), 2)
    if delta["prompt_ms"]:
        out["prompt_tokens_per_second"] = round(delta["prompt_tokens"] / (delta["prompt_ms"] / 1000), 2)
    return out


@contextmanager
def measured() -> Iterator[dict[str, float | int]]:
    """The LLM throughput of the block, filled in when it ends."""
    figures: dict[str, float | int] = {}
    before = usage_snapshot()
    try:
        yield figures
    finally:
        figures.update(throughput(before, usage_snapshot()))


def throughput_line(figures: dict[str, float | int], sessions: int, seconds: float) -> str:
    """One line for the console and the report."""
    per_session = figures.get("calls", 0) / sessions if sessions else 0.0
    rate = f"{sessions / seconds * 60:.2f} sessions/min" if seconds else "n/a"
    gen = figures.get("generated_tokens_per_second")
    return (
        f"LLM: {figures.get('calls', 0)} calls ({per_session:.1f} per session), {rate} ingest, "
        f"{gen if gen is not None else 'n/a'} generated tokens/s, {figures.get('fallbacks', 0)} fallbacks, "
        f"{figures.get('repairs', 0)} repairs, {figures.get('unknown_ids', 0)} unknown ids dropped"
    )
