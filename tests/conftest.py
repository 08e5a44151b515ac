"""Shared fixtures: quiet offline Prefect, a store in tmp_path, one loaded embedder per test run."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

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

from tasks.providers import build_embedder  # noqa: E402
from tasks.providers.base import Embedder  # noqa: E402
from tasks.settings import Settings  # noqa: E402
from tests.llm_stub import llm_stub  # noqa: E402, F401 - the local OpenAI-compatible server fixture

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
LOCOMO_DEV = SHARED / "datasets" / "locomo-dev"


@pytest.fixture(scope="session")
def prefect_harness() -> Iterator[None]:
    """A real, temporary Prefect API for flow tests (started once per test run)."""
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
