"""A forget request that names nothing ever said deletes nothing, and the run reports it as unmatched.

"please forget my bank PIN" after telling only a partner's name and an illness: no memory is a PIN, so
none is deleted; the audit log holds one IGNORE on no memory with the request's words, and the run's
summary (stored in its ``runs`` row) lists it under ``forgets_unmatched``. A request that does delete is
not listed.
"""

from __future__ import annotations

import json
from pathlib import Path

from tasks.ingest.run import ingest_sessions
from tasks.settings import Settings
from tasks.store.tables import CHANGES, MEMORIES, RUNS, open_store
from tests.test_forgotten_repeats import session


def test_a_forget_of_something_never_said_deletes_nothing_and_is_reported(tmp_path: Path) -> None:
    settings = Settings(store_uri=str(tmp_path / "store"))
    ingest_sessions([session(0, "My partner is Leo.", "I have asthma.")], settings)
    unmatched = ingest_sessions([session(1, "please forget my bank PIN")], settings)
    matched = ingest_sessions([session(2, "please forget that I have asthma")], settings)
    store = open_store(settings)
    active = [r["content"] for r in store.rows(MEMORIES) if r["status"] == "active"]
    assert any("Leo" in c for c in active) and not any("asthma" in c for c in active), active
    assert len(unmatched.forgets_unmatched) == 1 and "bank PIN" in unmatched.forgets_unmatched[0]
    assert matched.forgets_unmatched == []
    (ignored,) = [c for c in store.rows(CHANGES) if c["reason"].startswith("unmatched forget request")]
    assert ignored["action"] == "IGNORE" and ignored["run_id"] == unmatched.run_id
    (run,) = [r for r in store.rows(RUNS) if r["run_id"] == unmatched.run_id]
    assert json.loads(run["counts"])["forgets_unmatched"] == unmatched.forgets_unmatched
