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


#: With this set to a file path as well, only the first process to reach the point dies (it creates the
#: file first): a worker killed once mid-partition, whose partition the retry then finishes (issue 66).
FAULT_ONCE_ENV = "MEMORY_PIPELINE_FAULT_ONCE"


def fault_point(name: str) -> None:
    """Die here (SIGKILL) when the environment names this point; otherwise do nothing."""
    if os.environ.get(FAULT_ENV) == name:
        once = os.environ.get(FAULT_ONCE_ENV)
        if once:
            try:
                os.close(os.open(once, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            except FileExistsError:
                return  # someone died here already
        os.kill(os.getpid(), signal.SIGKILL)
