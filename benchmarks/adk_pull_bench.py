"""ADK session database source: what an incremental run costs next to the first one.

Builds an ADK-schema SQLite database (the SqliteSessionService layout, written with the spool
writer, so ADK itself is not needed) with N ended sessions, then times three ingest runs: the first
(everything new), one with nothing changed, and one after 1% of the sessions gained two events.
Prints seconds per run and the pull stage's share; figures vary with the machine, ratios less.

    python benchmarks/adk_pull_bench.py --sessions 300
"""

from __future__ import annotations

import argparse
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from tasks.ingest.run import Stages, run_ingest
from tasks.integrations.spool import SpooledEvent, enqueue
from tasks.settings import Settings
from tasks.sources import pull_at

T0 = datetime(2026, 1, 1, tzinfo=UTC)
LINES = ["I love coffee.", "Noted.", "I prefer aisle seats.", "Sure.", "I work as a nurse at Mercy Hospital.", "Ok."]


def _events(session: int, start: int, count: int) -> list[SpooledEvent]:
    out = []
    for i in range(start, start + count):
        author = "user" if i % 2 == 0 else "helper"
        at = (T0 + timedelta(hours=session, minutes=i)).timestamp()
        data = {"author": author, "content": {"parts": [{"text": LINES[i % len(LINES)]}]}, "timestamp": at}
        out.append(SpooledEvent(id=f"s{session}-e{i}", invocation_id=f"inv{i}", timestamp=at, data=data))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=300)
    parser.add_argument("--events", type=int, default=6)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'sessions.db'}"
        for s in range(args.sessions):
            enqueue(url, "app", f"user{s % 50}", f"session-{s}", _events(s, 0, args.events), "session_ended")
        settings = Settings(store_uri=str(Path(tmp) / "store"), session_source="adk_db", adk_db_url=url)
        changed = max(1, args.sessions // 100)

        def run(label: str, at: datetime) -> None:
            pulled: list[float] = []
            pull = pull_at(at)

            def timed_pull(s: Settings):  # type: ignore[no-untyped-def]
                started = time.perf_counter()
                result = pull(s)
                pulled.append(time.perf_counter() - started)
                return result

            started = time.perf_counter()
            summary = run_ingest(settings, stages=Stages(pull=timed_pull))
            total = time.perf_counter() - started
            print(f"{label:<32} {summary.sessions_processed:>5} segments  {total:7.2f} s  (pull {pulled[0]:.3f} s)")

        run(f"first run ({args.sessions} sessions)", T0 + timedelta(days=60))
        run("nothing changed", T0 + timedelta(days=61))
        for s in range(changed):
            enqueue(url, "app", f"user{s % 50}", f"session-{s}", _events(s, args.events, 2), "session_ended")
        run(f"{changed} sessions grew", T0 + timedelta(days=62))


if __name__ == "__main__":
    main()
