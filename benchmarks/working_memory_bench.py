"""Working memory for action results: conversation tokens of a scripted research agent, with and without.

A real ADK ``Runner`` drives a scripted model (an in-process ``BaseLlm``, no network) through the 25
actions of ``benchmarks/fixtures/working/research.json``: web searches, page fetches (pages of 20-80 KB)
and database queries (JSON rows). Their results are generated deterministically from each action's seed,
with one fact planted in each. Every request ADK sends the model is counted (cl100k tokens of the system
instruction, every text, call and function response as JSON).

- without: the tools' results go into the conversation as they are (ADK's default);
- with: ``WorkingMemoryPlugin`` stores each result, shows it in full in the next request only (its first
  use) and as a citation afterwards; at the end the agent calls ``retrieve_from_memory(id, "excerpt",
  query=question)`` for every planted fact and checks the answer is in what comes back.

"Conversation tokens after N iterations" is what the conversation carries once the N-th result has had
its first use (every result a citation); the peak request (the N-th in full) is printed too, and the
128k count uses the peak. Also measured: ``retrieve(id, "excerpt")`` p95 on a 1 MB item, snapshot and
restore of 1,000 items.

    python benchmarks/working_memory_bench.py --json     # last line: the JSON summary
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncGenerator, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from google.adk.agents import LlmAgent
from google.adk.models._capabilities import LlmCapabilities
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import Runner
from google.adk.sessions import InMemorySessionService
from google.adk.tools.function_tool import FunctionTool
from google.genai import types
from pydantic import Field, PrivateAttr

from tasks.integrations import WorkingMemoryPlugin
from tasks.settings import Settings
from tasks.tokens import count_tokens
from tasks.working.memory import WorkingMemory
from tasks.working.policy import MARKER

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "working" / "research.json"
APP, USER = "research-bench", "analyst"
CONTEXT = 128_000
NOW = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
_SYLLABLES = ("ber", "cal", "dun", "fen", "gar", "hol", "kel", "lor", "mar", "nes", "or", "pen", "ros", "sel",
              "tav", "ul", "ven", "wyn", "yar", "zel")  # fmt: skip
_NOUNS = ("committee", "survey", "ledger", "inspection", "repair", "toll", "deck", "pier", "abutment", "parapet")


# -- the recorded results (generated from seeds) ------------------------------------------------------------


def _name(rng: random.Random) -> str:
    return "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 3))).capitalize()


def _sentence(rng: random.Random, words: list[str]) -> str:
    a, b = rng.sample(words, 2)
    noun = rng.choice(_NOUNS)
    forms = (
        f"In {rng.randint(1790, 2020)} the {_name(rng)} {a} {noun} reviewed the {b} accounts and found "
        f"{rng.randint(3, 900)} entries.",
        f"Records of the {_name(rng)} {a} show {rng.randint(2, 60)} {noun} works near the {b} between "
        f"{rng.randint(1800, 1900)} and {rng.randint(1901, 2000)}.",
        f"Local accounts describe the {a} at {_name(rng)} as busy, with the {b} {noun} kept by the parish.",
        f"The {noun} of the {_name(rng)} {a} cost {rng.randint(100, 9000)} pounds, paid from the {b} rate.",
    )
    return rng.choice(forms)


def page(action: dict[str, Any], words: list[str]) -> dict[str, Any]:
    rng = random.Random(action["seed"])
    target = action["kb"] * 1024
    paragraphs: list[str] = []
    size = 0
    while size < target:
        para = " ".join(_sentence(rng, words) for _ in range(rng.randint(3, 7)))
        block = (f"<h2>{_name(rng)} {rng.choice(words)}</h2>\n" if rng.random() < 0.2 else "") + f"<p>{para}</p>"
        paragraphs.append(block)
        size += len(block) + 2
    for fact in action["facts"]:
        at = rng.randint(len(paragraphs) // 4, len(paragraphs) - 1)
        paragraphs.insert(at, f"<p>{_sentence(rng, words)} {fact['plant']} {_sentence(rng, words)}</p>")
    body = "\n\n".join(paragraphs)
    slug = action["title"].lower().replace(" ", "-")
    head = f"<html><head><title>{action['title']}</title></head><body><h1>{action['title']}</h1>"
    html = f"{head}\n\n{body}</body></html>"
    return {"url": f"https://bridges.example.org/{slug}", "title": action["title"], "content": html}


def table(action: dict[str, Any], words: list[str]) -> dict[str, Any]:
    rng = random.Random(action["seed"])
    rows = [{"structure": f"{_name(rng)} {rng.choice(words)}", "district": _name(rng),
             "built": rng.randint(1700, 2020), "span_m": round(rng.uniform(3, 400), 1),
             "load_t": rng.randint(3, 80), "notes": _sentence(rng, words)} for _ in range(action["rows"])]  # fmt: skip
    for fact in action["facts"]:
        rows.insert(rng.randint(1, len(rows) - 1), {"structure": fact["answer"], "district": _name(rng),
                    "built": rng.randint(1700, 2020), "span_m": round(rng.uniform(3, 400), 1),
                    "load_t": rng.randint(3, 80), "notes": _sentence(rng, words)})  # fmt: skip
    return {"query": f"SELECT * FROM structures WHERE region_seed = {action['seed']}", "rows": rows}


def search(action: dict[str, Any], words: list[str]) -> dict[str, Any]:
    rng = random.Random(action["seed"])
    results = [{"title": f"{_name(rng)} {rng.choice(words)} {rng.choice(_NOUNS)}",
                "url": f"https://{_name(rng).lower()}.example.com/{rng.randint(1, 999)}",
                "snippet": _sentence(rng, words)} for _ in range(9)]  # fmt: skip
    for fact in action["facts"]:
        subject = fact["question"].rstrip("?").split(" the ", 1)[-1]
        results.insert(rng.randint(0, 9), {"title": f"The {subject}", "url": f"https://{fact['answer']}/",
                                           "snippet": _sentence(rng, words)})  # fmt: skip
    return {"query": action["query"], "results": results}


def load_actions(count: int) -> tuple[list[dict[str, Any]], list[str]]:
    """The fixture's actions, cycled with new seeds when more than 25 are asked for."""
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    base = data["actions"]
    actions = [dict(base[i % len(base)], seed=base[i % len(base)]["seed"] + 1000 * (i // len(base)))
               for i in range(count)]  # fmt: skip
    return actions, list(data["topic_words"])


def result_of(action: dict[str, Any], words: list[str]) -> dict[str, Any]:
    return {"page": page, "table": table, "search": search}[action["kind"]](action, words)


# -- the scripted agent ------------------------------------------------------------------------------------


def request_text(request: LlmRequest, cite: Callable[[str], dict[str, Any]] | None = None) -> str:
    """Everything the model is shown: system instruction, texts, calls and responses (as JSON); with
    ``cite``, each result shown in full counted as its citation instead (what the conversation keeps)."""
    chunks = [str(request.config.system_instruction or "")]
    for content in request.contents:
        for part in content.parts or []:
            if part.text:
                chunks.append(part.text)
            if part.function_call is not None:
                chunks.append(json.dumps({"call": part.function_call.name, "args": part.function_call.args}))
            if part.function_response is not None:
                response = part.function_response.response
                if cite is not None and isinstance(response, dict) and isinstance(response.get(MARKER), str) \
                        and "result" in response:  # fmt: skip
                    response = cite(response[MARKER])
                chunks.append(json.dumps(response, ensure_ascii=False, default=str))
    return "\n".join(chunks)


class ResearchAgent(BaseLlm):
    """Calls each action's tool in turn, then (with working memory) retrieves every planted fact."""

    model: str = "scripted-research"
    actions: list[dict[str, Any]] = Field(default_factory=list)
    retrieve: bool = False
    requests: list[int] = Field(default_factory=list)
    carried: list[int] = Field(default_factory=list)
    found: list[bool] = Field(default_factory=list)
    _ids: list[str] = PrivateAttr(default_factory=list)
    _step: int = PrivateAttr(default=0)
    _asked: list[dict[str, Any]] = PrivateAttr(default_factory=list)
    _pending: list[dict[str, Any]] = PrivateAttr(default_factory=list)
    _cite: Callable[[str], dict[str, Any]] | None = PrivateAttr(default=None)

    @property
    def capabilities(self) -> LlmCapabilities:
        return LlmCapabilities()

    async def generate_content_async(self, llm_request: LlmRequest, stream: bool = False
                                     ) -> AsyncGenerator[LlmResponse, None]:  # fmt: skip
        self.requests.append(count_tokens(request_text(llm_request)))
        self.carried.append(self._carried(llm_request))
        last = llm_request.contents[-1].parts or [] if llm_request.contents else []
        answer = next((p.function_response.response for p in last if p.function_response is not None), None)
        if isinstance(answer, dict) and isinstance(answer.get(MARKER), str) and self._step <= len(self.actions):
            self._ids.append(answer[MARKER])
        if isinstance(answer, dict) and "transform" in answer and self._asked:
            fact = self._asked.pop(0)
            self.found.append(fact["answer"] in json.dumps(answer.get("content"), ensure_ascii=False))
        yield LlmResponse(content=types.Content(role="model", parts=[self._next()]))

    def _carried(self, request: LlmRequest) -> int:
        return count_tokens(request_text(request, self._cite)) if self._cite is not None else 0

    def _next(self) -> types.Part:
        if self._step < len(self.actions):
            action = self.actions[self._step]
            self._step += 1
            arg = {"page": "url", "table": "sql", "search": "query"}[action["kind"]]
            return types.Part.from_function_call(name=action["tool"], args={arg: f"{action['kind']}-{self._step}"})
        if self.retrieve and self._step == len(self.actions):
            self._step += 1
            self._asked = [dict(f, memory_id=mid) for a, mid in zip(self.actions, self._ids, strict=False)
                           for f in a["facts"]]  # fmt: skip
            self._pending = list(self._asked)
        if self.retrieve and self._pending:
            fact = self._pending.pop(0)
            return types.Part.from_function_call(name="retrieve_from_memory", args={
                "memory_id": fact["memory_id"], "transform": "excerpt", "query": fact["question"]})  # fmt: skip
        return types.Part.from_text(text="Research done.")


def run_agent(settings: Settings, actions: list[dict[str, Any]], words: list[str], *, with_memory: bool
              ) -> tuple[ResearchAgent, WorkingMemoryPlugin | None]:  # fmt: skip
    results = {f"{a['kind']}-{i + 1}": result_of(a, words) for i, a in enumerate(actions)}

    def fetch_page(url: str) -> dict[str, Any]:
        """Fetch a web page."""
        return results[url]

    def run_query(sql: str) -> dict[str, Any]:
        """Run a database query."""
        return results[sql]

    def web_search(query: str) -> dict[str, Any]:
        """Search the web."""
        return results[query]

    plugin = WorkingMemoryPlugin(settings, goal="the history of the region's bridges", now=lambda: NOW) \
        if with_memory else None  # fmt: skip
    llm = ResearchAgent(actions=actions, retrieve=with_memory)
    tools: list[Any] = [FunctionTool(fetch_page), FunctionTool(run_query), FunctionTool(web_search)]
    if plugin is not None:
        tools += plugin.tools()
    agent = LlmAgent(name="researcher", model=llm, instruction="Research the region's bridges.", tools=tools)
    service = InMemorySessionService()
    runner = Runner(app_name=APP, agent=agent, session_service=service, plugins=[plugin] if plugin else [])

    async def go() -> None:
        session = await service.create_session(app_name=APP, user_id=USER)
        if plugin is not None:
            policy = plugin.policy(APP, USER, session.id)
            llm._cite = lambda mid: policy.stored(mid)
        message = types.Content(role="user", parts=[types.Part.from_text(text="Find out about the bridges.")])
        async for _ in runner.run_async(user_id=USER, session_id=session.id, new_message=message):
            pass

    asyncio.run(go())
    return llm, plugin


def fits(peaks: list[int]) -> int:
    """Iterations whose request fits in the context (the count before the first that does not)."""
    for i, tokens in enumerate(peaks):
        if tokens > CONTEXT:
            return i
    return len(peaks)


# -- latency figures ---------------------------------------------------------------------------------------


def excerpt_latency(settings: Settings, words: list[str], *, embedder: bool = True) -> dict[str, float]:
    """retrieve(id, "excerpt") on a 1 MB page holding each planted fact once: the first call (index build,
    model load), then every question 4 times (the first time each is new: query and sentences embedded)."""
    memory = WorkingMemory(settings.model_copy(update={"working_excerpt_embedder": embedder}), APP, USER,
                           "latency", persist=False)  # fmt: skip
    actions, _ = load_actions(25)
    pages = [a for a in actions if a["kind"] == "page"]
    parts = [page(a, words)["content"] for a in pages]
    while sum(map(len, parts)) < 1024 * 1024:
        parts.append(page(pages[len(parts) % len(pages)] | {"seed": 500 + len(parts), "facts": []}, words)["content"])
    text = "\n\n".join(parts)[: 1024 * 1024]
    memory_id = memory.store(text, "web_content", now=NOW)
    t0 = time.perf_counter()
    memory.retrieve(memory_id, "excerpt", query="bridge")
    first = (time.perf_counter() - t0) * 1000
    times, found = [], 0
    for q, answer in [(f["question"], f["answer"]) for a in pages for f in a["facts"]] * 4:
        t0 = time.perf_counter()
        got = memory.retrieve(memory_id, "excerpt", query=q)
        times.append((time.perf_counter() - t0) * 1000)
        found += answer in got
    times.sort()
    tag = "" if embedder else "_lexical"
    return {f"excerpt{tag}_first_ms": round(first, 1), f"excerpt{tag}_p50_ms": round(statistics.median(times), 2),
            f"excerpt{tag}_p95_ms": round(times[int(0.95 * (len(times) - 1))], 2),
            f"excerpt{tag}_found": round(found / len(times), 3)}  # fmt: skip


def snapshot_latency(settings: Settings) -> dict[str, Any]:
    memory = WorkingMemory(settings, APP, USER, "snap", persist=False)
    for i in range(1000):
        memory.store({"row": i, "text": f"result {i} " * 40}, "database_result", source="q", tags=("t",),
                     now=NOW + timedelta(seconds=i))  # fmt: skip
    t0 = time.perf_counter()
    raw = memory.snapshot(now=NOW).model_dump_json()
    restored = WorkingMemory.restore(settings, raw, persist=False)
    took = (time.perf_counter() - t0) * 1000
    exact = [i.model_dump() for i in restored.items()] == [i.model_dump() for i in memory.items()]
    return {"snapshot_restore_1000_ms": round(took, 1), "snapshot_exact": exact}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--iterations", type=int, default=25)
    parser.add_argument("--horizon", type=int, default=60, help="iterations run with working memory (>= --iterations)")
    parser.add_argument("--json", action="store_true", help="end with the JSON summary line")
    args = parser.parse_args(argv)
    n = args.iterations
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(store_uri=str(Path(tmp) / "store"))
        actions, words = load_actions(max(n, args.horizon))
        t0 = time.perf_counter()
        plain, _ = run_agent(settings, actions[:n], words, with_memory=False)
        t1 = time.perf_counter()
        cited, _ = run_agent(settings, actions[: max(n, args.horizon)], words, with_memory=True)
        t2 = time.perf_counter()
        lat = excerpt_latency(settings, words) | excerpt_latency(settings, words, embedder=False)
        snap = snapshot_latency(settings)
    # Request i + 1 follows the i-th result (request 0 is the user's message alone).
    without = plain.requests[1 : n + 1]
    peak_with = cited.requests[1 : max(n, args.horizon) + 1]
    carried_with = cited.carried[1 : max(n, args.horizon) + 1]
    print(f"{'iter':>4} {'without':>9} {'with (carried)':>15} {'with (peak)':>12}")
    for i in range(n):
        print(f"{i + 1:>4} {without[i]:>9,} {carried_with[i]:>15,} {peak_with[i]:>12,}")
    at20 = min(20, n) - 1
    print(
        f"after 20: without {without[at20]:,}, with {carried_with[at20]:,} carried / {peak_with[at20]:,} peak "
        f"({1 - carried_with[at20] / without[at20]:.1%} / {1 - peak_with[at20] / without[at20]:.1%} fewer)"
    )
    print(
        f"facts retrievable: {sum(cited.found)} of {len(cited.found)}; runs took {t1 - t0:.1f} s without, "
        f"{t2 - t1:.1f} s with ({max(n, args.horizon)} iterations)"
    )
    print(
        f"excerpt on 1 MB: first {lat['excerpt_first_ms']} ms (index build, model load), p50 "
        f"{lat['excerpt_p50_ms']} ms, p95 {lat['excerpt_p95_ms']} ms, answer in {lat['excerpt_found']:.0%}; "
        f"lexical only: p50 {lat['excerpt_lexical_p50_ms']} ms, p95 {lat['excerpt_lexical_p95_ms']} ms; "
        f"snapshot + restore of 1,000 items {snap['snapshot_restore_1000_ms']} ms, exact {snap['snapshot_exact']}"
    )
    summary = {
        "iterations": n, "tokens_without": without[-1], "tokens_with": carried_with[n - 1],
        "reduction": round(1 - carried_with[n - 1] / without[-1], 4),
        "facts_retrievable": round(sum(cited.found) / max(1, len(cited.found)), 4),
        "iterations_in_128k_without": fits(without), "iterations_in_128k_with": fits(peak_with),
        "peak_tokens_with": peak_with[n - 1], "reduction_at_20": round(1 - carried_with[at20] / without[at20], 4),
        "horizon_with": max(n, args.horizon), **lat, **snap,
    }  # fmt: skip
    if args.json:
        print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
