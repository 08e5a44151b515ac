"""Kill points for crash-recovery tests: ``MEMORY_PIPELINE_FAULT_AT=<point>`` SIGKILLs the run there.

The write stage calls :func:`fault_point` at each boundary between durable writes. Unset (always,
outside the reliability tests) it is one dictionary lookup. SIGKILL, not an exception, so that no
``finally`` or Prefect retry runs: the process dies exactly as it would on an OOM kill or power cut.
This is a test hook read from the environment on purpose, not a setting: no deployment sets it.
"""

from __future__ import annotations

import os
import signal

FAULT_ENV = "MEMORY_PIPELINE_FAULT_AT"

#: Every boundary, in the order a run passes them (see :mod:`tasks.ingest.commit`).
POINTS = (
    "after_extract",
    "after_run_started",
    "after_quarantine",
    "after_audit",
    "after_memories",
    "after_evidence",
    "after_episodes",
    "after_indexes",
    "after_ledger",
    "after_tags",
)


def fault_point(name: str) -> None:
    """Die here (SIGKILL) when the environment names this point; otherwise do nothing."""
    if os.environ.get(FAULT_ENV) == name:
        os.kill(os.getpid(), signal.SIGKILL)
