"""A local OpenAI-compatible HTTP server for tests and benchmarks (stdlib only, 127.0.0.1, port 0).

Serves ``/v1/chat/completions`` and ``/v1/embeddings``. Each endpoint answers from a queue of
scripted replies (status, text, delay) and, when the queue is empty, from a default handler. Every
request is recorded (path, JSON body, headers) so tests can check what the real ``openai`` client sent.
:func:`plausible_chat` makes replies from the prompt itself (one fact per person turn, ADD decisions),
for end-to-end runs; :func:`hashed_embedding` gives deterministic bag-of-words vectors.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tasks.models import Event, Session
from tasks.settings import Settings
from tasks.tokens import count_tokens

_WORD = re.compile(r"[a-zà-ÿ0-9]+")
#: Words the stub's embedding ignores, so that texts are close when they share content words.
_STOP = frozenset(
    re.findall(
        r"\S+",
        """a an the and or but of to in on at for with by from as is are was were be been i me my we our you your
        he she they them his her their it its this that so very really just also too than then about what how do
        did have has had not no yes oh wow that's i'm it's""",
    )
)


@dataclass
class Scripted:
    """One scripted reply: an HTTP status, the chat message text (or a whole JSON body), a delay."""

    status: int = 200
    content: str | None = None
    body: dict[str, Any] | None = None
    delay: float = 0.0
    #: Extra response headers (e.g. Retry-After).
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class Recorded:
    path: str
    body: dict[str, Any]
    headers: dict[str, str]


@dataclass
class LLMStub:
    """The server; ``latency`` is added to every request (the benchmark's injected model time)."""

    chat_default: Callable[[dict[str, Any]], str] = lambda body: "{}"
    dim: int = 64
    latency: float = 0.0
    chat: deque[Scripted] = field(default_factory=deque)
    embeddings: deque[Scripted] = field(default_factory=deque)
    requests: list[Recorded] = field(default_factory=list)
    #: Requests being served now, and the most ever served at once.
    active: int = 0
    peak: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _server: ThreadingHTTPServer | None = None

    @property
    def base_url(self) -> str:
        assert self._server is not None, "start() the stub first"
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def start(self) -> LLMStub:
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                return

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                stub.handle(self, body)

            def do_GET(self) -> None:  # /stats: what a stub in another process served
                data = json.dumps(stub.stats()).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def stats(self) -> dict[str, Any]:
        with self._lock:
            paths = [r.path.rsplit("/", 1)[-1] for r in self.requests]
            by_path = {p: paths.count(p) for p in sorted(set(paths))}
            return {"requests": len(paths), "by_path": by_path, "peak": self.peak}

    def chat_requests(self) -> list[dict[str, Any]]:
        return [r.body for r in self.requests if r.path.endswith("/chat/completions")]

    def handle(self, handler: BaseHTTPRequestHandler, body: dict[str, Any]) -> None:
        path = handler.path
        with self._lock:
            self.requests.append(Recorded(path, body, {k.lower(): v for k, v in handler.headers.items()}))
            queue = self.chat if path.endswith("/chat/completions") else self.embeddings
            script = queue.popleft() if queue else None
            self.active += 1
            self.peak = max(self.peak, self.active)
        try:
            self._reply(handler, body, script)
        finally:
            with self._lock:
                self.active -= 1

    def _reply(self, handler: BaseHTTPRequestHandler, body: dict[str, Any], script: Scripted | None) -> None:
        path = handler.path
        time.sleep(self.latency + (script.delay if script else 0.0))
        if path.endswith("/chat/completions"):
            status, payload = self._chat(body, script)
        elif path.endswith("/embeddings"):
            status, payload = self._embeddings(body, script)
        else:
            status, payload = 404, {"error": {"message": "not found"}}
        data = json.dumps(payload).encode()
        try:
            handler.send_response(status)
            handler.send_header("Content-Type", "application/json")
            handler.send_header("Content-Length", str(len(data)))
            for name, value in (script.headers if script else {}).items():
                handler.send_header(name, value)
            handler.end_headers()
            handler.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout test)
            pass

    def _chat(self, body: dict[str, Any], script: Scripted | None) -> tuple[int, dict[str, Any]]:
        if script and script.status != 200:
            return script.status, script.body or {"error": {"message": f"scripted {script.status}", "type": "x"}}
        if script and script.body is not None:
            return 200, script.body
        content = script.content if script and script.content is not None else self.chat_default(body)
        prompt = sum(count_tokens(str(m.get("content", ""))) for m in body.get("messages", []))
        usage = {"prompt_tokens": prompt, "completion_tokens": count_tokens(content)}
        usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
        return 200, {
            "id": "chatcmpl-stub", "object": "chat.completion", "created": 1_700_000_000, "model": body.get("model"),
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": content}}],
            "usage": usage,
        }  # fmt: skip

    def _embeddings(self, body: dict[str, Any], script: Scripted | None) -> tuple[int, dict[str, Any]]:
        if script and script.status != 200:
            return script.status, script.body or {"error": {"message": f"scripted {script.status}", "type": "x"}}
        texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
        vectors: list[Any] = [hashed_embedding(t, self.dim) for t in texts]
        if body.get("encoding_format") == "base64":  # what the openai client asks for by default, as servers do
            vectors = [base64.b64encode(np.asarray(v, dtype="<f4").tobytes()).decode() for v in vectors]
        data = [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vectors)]
        tokens = sum(count_tokens(t) for t in texts)
        return 200, {"object": "list", "data": data, "model": body.get("model"),
                     "usage": {"prompt_tokens": tokens, "total_tokens": tokens}}  # fmt: skip


def words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in _STOP]


@lru_cache(maxsize=65536)
def _bucket(word: str, dim: int) -> tuple[int, float]:
    digest = hashlib.sha256(word.encode()).digest()
    return int.from_bytes(digest[:4], "little") % dim, 1.0 if digest[4] % 2 else -1.0


def hashed_embedding(text: str, dim: int) -> list[float]:
    """A deterministic bag-of-words vector: texts sharing words are close, others near-orthogonal."""
    vec = np.zeros(dim, dtype=np.float64)
    for word in words(text):
        slot, sign = _bucket(word, dim)
        vec[slot] += sign
    if not vec.any():
        vec[0] = 1.0
    return [float(x) for x in vec / np.linalg.norm(vec)]


def _schema_name(body: dict[str, Any]) -> str:
    fmt = body.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        return str(fmt["json_schema"]["name"])
    system = str(body["messages"][0]["content"])
    for marker, name in (("You extract long-term memories", "ExtractionReply"),
                         ("episodic memory", "EpisodeReply"), ("asked that something", "ForgetReply"),
                         ("maintain a person", "DecisionReply"), ("You grade", "Verdict"),
                         ("Answer the question", "AnswerReply")):  # fmt: skip
        if marker in system:
            return name
    return ""


def _session(body: dict[str, Any]) -> dict[str, Any]:
    text = str(body["messages"][1]["content"])
    return dict(json.loads(text.split("<session>", 1)[1].rsplit("</session>", 1)[0]))


def plausible_chat(body: dict[str, Any]) -> str:
    """A reply a small model could give, derived from the prompt: one fact per person turn, ADD, etc."""
    name = _schema_name(body)
    if name == "ExtractionReply":
        turns = [t for t in _session(body)["turns"] if t["role"] != "agent" and len(words(t["text"])) >= 3]
        fixed = {"topic": "key_conversation_details", "importance": 0.5, "slot": None, "value": None}
        facts = [
            fixed | {"content": f"{t['speaker']}: {t['text'][:300]}", "source_event_ids": [t["id"]]} for t in turns
        ]
        return json.dumps({"facts": facts, "forget_requests": []})
    if name == "EpisodeReply":
        turns = _session(body)["turns"]
        sentences = [
            {"text": f"{t['speaker']} said: {t['text'][:160]}", "source_event_ids": [t["id"]]} for t in turns[:4]
        ]
        topics = [w for w, _ in _top_words(" ".join(t["text"] for t in turns))]
        return json.dumps({"sentences": sentences, "topics": topics, "key_facts": []})
    if name == "DecisionReply":
        return json.dumps({"action": "ADD", "target_memory_id": None, "new_content": None, "relation": None,
                           "reason": "new information"})  # fmt: skip
    if name == "ForgetReply":
        return json.dumps({"deletions": []})
    if name == "AnswerReply":
        doc = json.loads(body["messages"][1]["content"])
        return json.dumps({"answer": (doc["context"].splitlines() or ["not mentioned"])[0]})
    if name == "Verdict":
        doc = json.loads(body["messages"][1]["content"])
        hit = set(words(doc["gold_answer"])) <= set(words(doc["answer"]))
        return json.dumps({"label": "CORRECT" if hit else "WRONG", "reason": "word overlap (stub)"})
    return "{}"


def _top_words(text: str) -> list[tuple[str, int]]:
    counts: dict[str, int] = {}
    for w in words(text):
        if len(w) > 3:
            counts[w] = counts.get(w, 0) + 1
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:5]


@pytest.fixture
def llm_stub() -> Iterator[LLMStub]:
    """A started stub with no latency; scripted replies go in ``stub.chat`` / ``stub.embeddings``."""
    stub = LLMStub().start()
    yield stub
    stub.stop()


# -- helpers for the tests that use the stub ----------------------------------------------------

TEST_KEY = "sk-test-7f3a9c-never-log-me"
T0 = datetime(2025, 3, 2, 9, 0, tzinfo=UTC)


def stub_settings(stub: LLMStub, store: Path, **overrides: Any) -> Settings:
    """Every provider on the stub, short backoff (never a test's wall time), a key to look for in logs."""
    values: dict[str, Any] = {
        "store_uri": str(store), "openai_base_url": stub.base_url, "openai_api_key": TEST_KEY,
        "extractor": "openai", "summarizer": "openai", "consolidator": "openai", "embedder": "openai",
        "openai_embedding_model": "stub-embed", "openai_backoff_base_seconds": 0.01,
        "openai_backoff_max_seconds": 0.02, "openai_timeout_seconds": 5.0,
    }  # fmt: skip
    return Settings(**(values | overrides))


def make_session(sid: str, turns: list[tuple[str, str]], *, day: int = 0, user: str = "alice") -> Session:
    """A session of ``(author, text)`` turns one minute apart; author "agent" is the agent, else a user."""
    start = T0 + timedelta(days=day)
    events = tuple(
        Event(id=f"{sid}-e{i}", author=author, role="agent" if author == "agent" else "user", text=text,
              timestamp=start + timedelta(minutes=i))
        for i, (author, text) in enumerate(turns)
    )  # fmt: skip
    return Session(app_name="app", user_id=user, session_id=sid, started_at=start,
                   ended_at=events[-1].timestamp, events=events)  # fmt: skip
