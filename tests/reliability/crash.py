"""Helpers for the crash and concurrency tests: an ingest in a child process, table snapshots."""

from __future__ import annotations

import json
import multiprocessing
import os
import resource
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tasks.ingest.faults import FAULT_ENV
from tasks.ingest.run import run_ingest
from tasks.models import Session
from tasks.providers import embedder_loads
from tasks.settings import Settings
from tasks.store.tables import CHANGES, EPISODES, EVIDENCE, KEYS, LEDGER, MEMORIES, QUARANTINE, open_store

REPO = Path(__file__).resolve().parents[2]
SAMPLE = REPO / "data" / "sessions"
DATA_TABLES = (MEMORIES, CHANGES, EPISODES, LEDGER, QUARANTINE, EVIDENCE)
#: Columns that differ between runs by nature (who wrote the row, when); everything else must match.
VOLATILE = {"run_id", "created_at", "updated_at", "processed_at", "vector"}
#: Crash tests keep forgotten rows (the purge after a run has its own crash test in test_erasure.py):
#: with immediate purging, the sample's forget request would remove the tags these tests check.
KEEP_FORGOTTEN: dict[str, float] = {"forgotten_retention_days": 36_500.0}


#: Children fork from one server process per test worker that has imported the ingest modules and loaded
#: the embedder once (:mod:`tests.reliability.child_server`): a fresh interpreter spends seconds of CPU
#: importing LanceDB and the rest before its first line, and a child of a server that had only imported
#: them still spent 2.3 s of its 3.3 s on the rest of the imports and the embedder's load.
_CHILDREN = multiprocessing.get_context("forkserver")
_CHILDREN.set_forkserver_preload(["tests.reliability.child_server"])


class Child:
    """An ingest in a child process, with the parts of ``subprocess.Popen`` the tests use.

    Its standard output and error go to files (file descriptors 1 and 2, so the native libraries'
    output too); ``communicate`` returns them once it has ended, however it ended."""

    def __init__(self, settings: Settings, fault_at: str | None) -> None:
        self._files = [_scratch(".out"), _scratch(".err")]
        retention = str(settings.forgotten_retention_days)
        env = {FAULT_ENV: fault_at or "", "MEMORY_PIPELINE_FORGOTTEN_RETENTION_DAYS": retention}
        self._process = _CHILDREN.Process(
            target=_child, args=(settings.store_uri, settings.sessions_uri, env, *self._files)
        )
        self._process.start()
        self.pid = self._process.pid

    @property
    def returncode(self) -> int | None:
        """The exit code, negative for the signal that ended it (as ``Popen``); None while it runs."""
        return self._process.exitcode

    def send_signal(self, sig: int) -> None:
        if self.pid is not None and self._process.exitcode is None:
            os.kill(self.pid, sig)

    def cpu_seconds(self) -> float | None:
        """CPU time (user + system, all threads) the child has used so far; None once it is gone."""
        try:
            with open(f"/proc/{self.pid}/stat", encoding="ascii") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            return None
        if fields[0] in ("Z", "X"):
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def kill_after_cpu(self, seconds: float) -> None:
        """SIGKILL the child once it has used ``seconds`` of CPU: a point mid-run that does not move with the
        machine's load, as a wall-clock timer's does (on 2 busy cores a child may get no CPU for a second)."""
        while (used := self.cpu_seconds()) is not None and used < seconds:
            time.sleep(0.005)  # polling the child's CPU clock, not a timer: the kill follows its progress
        self.send_signal(signal.SIGKILL)

    def communicate(self, timeout: float) -> tuple[str, str]:
        self._process.join(timeout)
        if self._process.exitcode is None:
            self._process.kill()
            self._process.join()
            raise TimeoutError(f"the ingest child did not end within {timeout} s")
        texts = [Path(p).read_text(encoding="utf-8", errors="replace") for p in self._files]
        for path in self._files:
            os.unlink(path)
        return texts[0], texts[1]


def _scratch(suffix: str) -> str:
    fd, path = tempfile.mkstemp(prefix="ingest-child-", suffix=suffix)
    os.close(fd)
    return path


def _child(store_uri: str, sessions_uri: str, env: dict[str, str], out: str, err: str) -> None:
    """The child's body: its output to the files, the environment of a fresh process, one ingest."""
    for fd, path in ((1, out), (2, err)):
        with open(path, "wb") as handle:
            os.dup2(handle.fileno(), fd)
    for name in [n for n in os.environ if n.startswith("MEMORY_PIPELINE_")]:
        del os.environ[name]
    os.environ.update({k: v for k, v in env.items() if v})
    loads = embedder_loads()
    try:
        summary = run_ingest(Settings(store_uri=store_uri, sessions_uri=sessions_uri))
    except BaseException:
        traceback.print_exc()
        sys.stderr.flush()
        os._exit(1)
    usage = resource.getrusage(resource.RUSAGE_SELF)  # this process since its fork, every thread
    report = {"embedder_loads": embedder_loads() - loads, "cpu_seconds": usage.ru_utime + usage.ru_stime}
    print(json.dumps(report), flush=True)
    print(summary.model_dump_json(), flush=True)


def child_report(stdout: str) -> dict[str, Any]:
    """What a child that ran to the end says about its run: ``embedder_loads`` (0: the forkserver's embedder
    served it) and ``cpu_seconds``; the last line is the run's :class:`IngestSummary`."""
    report: dict[str, Any] = json.loads(stdout.strip().splitlines()[-2])
    return report


def start_ingest(settings: Settings, fault_at: str | None = None) -> Child:
    """``run_ingest`` in a child process (optionally SIGKILLed at a kill point)."""
    return Child(settings, fault_at)


def snapshot(settings: Settings) -> dict[str, list[tuple[Any, ...]]]:
    """Every data table as sorted rows without the volatile columns."""
    store = open_store(settings)
    out = {}
    for table in DATA_TABLES:
        rows = store.rows(table)
        out[table] = sorted(tuple((k, repr(v)) for k, v in sorted(r.items()) if k not in VOLATILE) for r in rows)
    return out


def duplicate_keys(settings: Settings) -> dict[str, int]:
    store = open_store(settings)
    out = {}
    for table in DATA_TABLES:
        key = KEYS[table]
        columns = [key] if isinstance(key, str) else list(key)
        keys = [tuple(r[k] for k in columns) for r in store.rows(table)]
        out[table] = len(keys) - len(set(keys))
    return out


def killed_like_clean(sessions: Sequence[Session], tmp_path: Path, fault_at: str = "after_memories") -> None:
    """``sessions`` ingested once cleanly and once killed at ``fault_at`` then run again: the same tables, no
    duplicate keys."""
    path = tmp_path / "sessions.jsonl"
    path.write_text("".join(s.model_dump_json() + "\n" for s in sessions))
    clean = Settings(store_uri=str(tmp_path / "clean"), sessions_uri=str(path), **KEEP_FORGOTTEN)
    run_ingest(clean)
    killed = clean.model_copy(update={"store_uri": str(tmp_path / "killed")})
    child = start_ingest(killed, fault_at=fault_at)
    _, err = child.communicate(timeout=300)
    assert child.returncode == -signal.SIGKILL, err[-2000:]
    run_ingest(killed)
    assert duplicate_keys(killed) == dict.fromkeys(duplicate_keys(clean), 0)
    assert snapshot(killed) == snapshot(clean)
