"""Property-based fuzz: generated JSONL (valid sessions and hostile mutations of them) never raises,
and every line ends up ingested (ledger), quarantined with a reason, or pending; a re-run adds nothing.

Profiles: ``reliability-ci`` (default; derandomized, so CI time and results are stable) and
``reliability-deep`` (``RELIABILITY_FUZZ_PROFILE=reliability-deep``: random, ten times as many).
Per CI run: 30 files x 35..60 lines through read_source → validate_batch, and 8 stores x 10..30
lines through two real ingests each: over 1,000 generated lines.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tasks.ingest.run import run_ingest
from tasks.ingest.validate import validate_batch
from tasks.models import QuarantineRecord, stable_id
from tasks.settings import Settings
from tasks.sources.files import read_source
from tasks.sources.raw import RawSession
from tasks.store.tables import LEDGER, QUARANTINE, open_store
from tests.reliability.hostile import HOSTILE_IDS, TEXTS, line, session

pytestmark = pytest.mark.slow  # end to end: `make test-fast` leaves it out

_COMMON = {"deadline": None, "suppress_health_check": list(HealthCheck), "database": None}
settings.register_profile("reliability-ci", derandomize=True, **_COMMON)  # type: ignore[arg-type]
settings.register_profile("reliability-deep", derandomize=False, **_COMMON)  # type: ignore[arg-type]
PROFILE = os.environ.get("RELIABILITY_FUZZ_PROFILE", "reliability-ci")
SCALE = 10 if PROFILE == "reliability-deep" else 1

ids = st.one_of(
    st.sampled_from(HOSTILE_IDS),
    st.text(st.characters(codec="utf-8", exclude_categories=("Cc", "Cs")), min_size=1, max_size=12),
    st.text(min_size=0, max_size=6),  # any code point: control characters, lone surrogates, blanks
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)
texts = st.lists(st.sampled_from(TEXTS) | st.text(max_size=40), min_size=1, max_size=5).map(tuple)


@st.composite
def lines(draw: st.DrawFn, index: int) -> tuple[str, bytes]:
    """One JSONL line: a valid session or a hostile mutation of one (session id unique per line)."""
    obj = session(app=draw(st.sampled_from(["app", "other"])), user=draw(ids), sid=f"s{index}",
                  texts=draw(texts))  # fmt: skip
    kind = draw(st.sampled_from(["valid", "valid", "field", "event", "truncate", "bytes", "deep", "drop"]))
    data = line(obj)
    if kind == "field":
        obj[draw(st.sampled_from(sorted(obj)))] = draw(json_values)
        data = line(obj)
    elif kind == "event":
        event = obj["events"][0]
        event[draw(st.sampled_from(sorted(event)))] = draw(json_values | ids)
        data = line(obj)
    elif kind == "truncate":
        data = data[: draw(st.integers(0, len(data) - 1))] + b"\n"
    elif kind == "bytes":
        at = draw(st.integers(0, len(data) - 1))
        data = data[:at] + draw(st.binary(min_size=1, max_size=6)) + data[at:]
    elif kind == "deep":
        depth = draw(st.integers(500, 5000))
        data = b'{"a": ' * depth + b"1" + b"}" * depth + b"\n"
    elif kind == "drop":
        del obj[draw(st.sampled_from(sorted(obj)))]
        data = line(obj)
    plain = kind == "valid" and obj["user_id"] in HOSTILE_IDS and all(e["text"] in TEXTS for e in obj["events"])
    return ("plain" if plain else kind), data.rstrip(b"\n").replace(b"\n", b" ") + b"\n"


def batches(min_size: int, max_size: int) -> st.SearchStrategy[list[tuple[str, bytes]]]:
    return st.integers(min_size, max_size).flatmap(lambda n: st.tuples(*(lines(i) for i in range(n))).map(list))


def _key(raw: RawSession) -> str:
    return stable_id(str(raw.app_name), str(raw.user_id), str(raw.session_id))


def _read(folder: Path, data: list[bytes]) -> tuple[list[RawSession], list[QuarantineRecord]]:
    (folder / "fuzz.jsonl").write_bytes(b"".join(data))
    items = list(read_source(str(folder)))
    assert len(items) == sum(1 for d in data if d.strip()), "one record per non-blank line"
    raws = [i for i in items if isinstance(i, RawSession)]
    return raws, [i for i in items if isinstance(i, QuarantineRecord)]


def _utf8(*values: str) -> bool:
    return all(v.encode("utf-8") is not None for v in values)


@settings(settings.get_profile(PROFILE), max_examples=30 * SCALE)
@given(batches(35, 60))
def test_every_line_is_a_session_a_quarantine_record_or_pending(generated: list[tuple[str, bytes]]) -> None:
    data = [d for _, d in generated]
    with tempfile.TemporaryDirectory() as tmp:
        raws, unreadable = _read(Path(tmp), data)
    result = validate_batch(raws)
    placed = {int(s.source.rsplit(":", 1)[1]) for s in result.sessions}
    quarantined = {q.line for q in unreadable + result.quarantined}
    keys = {s.key for s in result.sessions}
    for record in unreadable + result.quarantined:
        assert record.reason.strip() and _utf8(record.reason, record.raw, record.source)
    for typed in result.sessions:
        assert _utf8(json.dumps(typed.model_dump(mode="json"), ensure_ascii=False))
    unplaced = [r for r in raws if r.line not in placed | quarantined and _key(r) not in keys]
    assert len(unplaced) == result.pending, f"lines neither ingested, quarantined nor pending: {unplaced[:3]}"
    clean = [n for n, (kind, _) in enumerate(generated, 1) if kind == "plain"]
    assert all(n in placed for n in clean), "a plainly valid line was not accepted"


@settings(settings.get_profile(PROFILE), max_examples=8 * SCALE)
@given(batches(10, 30))
def test_ingest_places_every_line_and_a_second_run_adds_nothing(generated: list[tuple[str, bytes]]) -> None:
    data = [d for _, d in generated]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "sessions"
        folder.mkdir()
        raws, _ = _read(folder, data)
        cfg = Settings(store_uri=str(Path(tmp) / "store"), sessions_uri=str(folder))
        first = run_ingest(cfg)
        store = open_store(cfg)
        ledger = {r["session_key"] for r in store.rows(LEDGER, columns=["session_key"])}
        quarantine = {r["line"]: r["reason"] for r in store.rows(QUARANTINE)}
        assert all(reason.strip() for reason in quarantine.values())
        assert not first.sessions_failed
        unplaced = [n for n, d in enumerate(data, 1) if d.strip() and n not in quarantine]
        unplaced = [n for n in unplaced if not any(r.line == n and _key(r) in ledger for r in raws)]
        assert len(unplaced) == first.sessions_pending, f"lines lost: {unplaced}"
        second = run_ingest(cfg)
        assert (second.sessions_processed, second.sessions_quarantined) == (0, 0)
        assert store.table(QUARANTINE).count_rows() == len(quarantine)
