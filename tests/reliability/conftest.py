"""A clean, uninterrupted ingest of the sample sessions: what every crash and concurrency case must equal."""

from __future__ import annotations

from typing import Any

import pytest

from tasks.ingest.run import run_ingest
from tasks.settings import Settings
from tests.reliability.crash import KEEP_FORGOTTEN, SAMPLE, snapshot


@pytest.fixture(scope="session")
def clean(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple[Any, ...]]]:
    settings = Settings(
        store_uri=str(tmp_path_factory.mktemp("clean") / "store"), sessions_uri=str(SAMPLE), **KEEP_FORGOTTEN
    )
    run_ingest(settings)
    return snapshot(settings)
