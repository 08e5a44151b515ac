"""Shared fixtures: quiet offline Prefect, a store in tmp_path, one loaded embedder per test run."""

from __future__ import annotations

import os
import socket
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# Prefect reads these when first imported, so they are set before any test module imports it.
_PREFECT_HOME = tempfile.mkdtemp(prefix="prefect-home-")
os.environ.setdefault("PREFECT_HOME", _PREFECT_HOME)
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
os.environ.setdefault("PREFECT_LOGGING_LEVEL", "WARNING")
os.environ.setdefault("PREFECT_API_DATABASE_CONNECTION_URL", f"sqlite+aiosqlite:///{_PREFECT_HOME}/prefect.db")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
for _name in [n for n in os.environ if n.startswith("MEMORY_PIPELINE_")]:
    del os.environ[_name]
#: Under pytest-xdist the controller starts one Prefect API for all workers (see pytest_configure):
#: a server takes ~18 s of CPU to start (imports, migrations), and each worker used to start its own.
_SHARED_API = "TEST_SHARED_PREFECT_API_URL"

from tasks.providers import build_embedder  # noqa: E402
from tasks.providers.base import Embedder  # noqa: E402
from tasks.settings import Settings  # noqa: E402
from tests.llm_stub import llm_stub  # noqa: E402, F401 - the local OpenAI-compatible server fixture

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
LOCOMO_DEV = SHARED / "datasets" / "locomo-dev"


_SERVER: list[Any] = []


def pytest_configure(config: pytest.Config) -> None:
    """On the xdist controller: start the workers' shared Prefect API in the background.

    Its address is in the environment before the workers start (they inherit it); the server starts
    while the workers import and collect the tests, and ``prefect_harness`` waits for it. Prefect is
    pointed at it only inside that fixture: a CLI run with an API configured goes through Prefect.
    """
    if hasattr(config.option, "loadscopereorder"):
        # xdist's loadscope sorts modules by test count unless told not to, which undoes the slow-first
        # order of pytest_collection_modifyitems for every way the suite is started, not only `make test`.
        config.option.loadscopereorder = False
    if hasattr(config, "workerinput") or config.getoption("dist", "no") == "no" or os.environ.get(_SHARED_API):
        return
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    os.environ[_SHARED_API] = f"http://127.0.0.1:{port}/api"

    def start() -> None:
        from prefect.server.api.server import SubprocessASGIServer

        server = SubprocessASGIServer(port=port)
        _SERVER.append(server)
        server.start(timeout=600)

    threading.Thread(target=start, name="prefect-api", daemon=True).start()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Modules with the most end-to-end (``slow``) tests first, each module's own order kept.

    ``--dist loadscope`` hands whole modules to workers in collection order; a long module handed out
    last ran alone on one core while the other idled (the suite's last minutes). Every worker sorts the
    same collection the same way, as xdist requires.
    """

    def module(item: pytest.Item) -> str:
        return item.nodeid.split("::", 1)[0]

    slow: dict[str, int] = {}
    for item in items:
        slow[module(item)] = slow.get(module(item), 0) + (item.get_closest_marker("slow") is not None)
    first = {name: i for i, name in enumerate(slow)}
    items.sort(key=lambda item: (-slow[module(item)], first[module(item)]))


def pytest_unconfigure(config: pytest.Config) -> None:
    for server in _SERVER:
        server.stop()


def _wait_for_api(url: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(f"{url}/health", timeout=5) as answer:
                if answer.status == 200:
                    return
        except OSError:
            if time.monotonic() > deadline:
                raise
        time.sleep(0.2)


@pytest.fixture(scope="session")
def prefect_harness() -> Iterator[None]:
    """A real, temporary Prefect API for flow tests: the controller's shared one under xdist, else
    Prefect's test harness (started once per test run)."""
    shared = os.environ.get(_SHARED_API)
    if shared:
        from prefect.settings import PREFECT_API_URL, temporary_settings

        _wait_for_api(shared, 600)
        with temporary_settings(updates={PREFECT_API_URL: shared}):
            yield
        return
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=120):
        yield


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(store_uri=str(tmp_path / "store"), sessions_uri=str(tmp_path / "sessions"))


@pytest.fixture(scope="session")
def embedder() -> Embedder:
    return build_embedder(Settings())


@pytest.fixture
def locomo_dir() -> Path:
    if not LOCOMO_DEV.is_dir():
        pytest.skip(f"LoCoMo dev conversations not found at {LOCOMO_DEV} (they live in ../shared)")
    return LOCOMO_DEV
