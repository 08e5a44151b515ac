"""Recall's evidence side: the verbatim turns that best cover a question, after what the memories say.

Why: a memory names the right turn but keeps only what extraction understood of it; the words an
answer needs (the third item of a list the agent gave, the exact number) are in the turn. The
evidence table is searched with the same hybrid legs and tenant filter as the memories; a passage
whose words the memories already shown hold adds nothing and is skipped; a found turn's neighbour
comes with it where the conversation continues into it: a question's answer is the next turn, a
short reply ("Yes, the second one") means the turn before it, and a neighbour sharing the question's
words carries them too. Each passage is shown with its date and speaker.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from tasks.consolidate.evidence_redact import FORGOTTEN
from tasks.models import RecallHit
from tasks.recall.legs import BM25, COSINE, FUSED, OFFSET, Leg
from tasks.store.filters import all_of, column, is_in, scope, ts_literal
from tasks.store.tables import EVIDENCE, Store
from tasks.textrules import content_words

COLUMNS = ("evidence_id", "session_id", "event_id", "turn", "passage", "author", "role", "text", "timestamp",
           "created_at", "memory_ids", "vector")  # fmt: skip
#: What the tenant scan reads of every turn: where it sits (its neighbours are found in the scan).
PLACE = ("session_id", "turn", "passage")
_FILTER_COLS = ("app_name", "user_id", "session_id", "turn", "timestamp", "evidence_id")
#: A passage whose content words are at least this share in the memories already shown adds nothing.
COVERED_SHARE = 0.8
#: A reply this short (content words) leans on the turn before it.
SHORT_REPLY_WORDS = 4


def evidence_leg(
    app_name: str, user_id: str, since: datetime | None, until: datetime | None, as_of: datetime | None
) -> Leg:
    """The evidence table's leg: the tenant's turns, said within the recall's time filters."""
    ts = column("timestamp", _FILTER_COLS)
    where = all_of(
        scope(app_name, user_id),
        f"{ts} >= {ts_literal(since)}" if since else None,
        f"{ts} <= {ts_literal(until)}" if until else None,
        f"{ts} <= {ts_literal(as_of)}" if as_of else None,
    )
    return Leg(EVIDENCE, where, "text", COLUMNS, PLACE)


def dicts(rows: pa.Table) -> list[dict[str, Any]]:
    """Rows as dicts, the vector as a numpy row (a Python list of 384 floats per candidate cost ~3 ms a recall)."""
    if "vector" not in rows.column_names or not rows.num_rows:
        plain: list[dict[str, Any]] = rows.to_pylist()
        return plain
    vectors = rows.column("vector").combine_chunks()
    matrix = vectors.flatten().to_numpy(zero_copy_only=False).reshape(rows.num_rows, -1)
    out: list[dict[str, Any]] = rows.drop_columns(["vector"]).to_pylist()
    for row, vector in zip(out, matrix, strict=True):
        row["vector"] = vector
    return out


def ranked_rows(rows: pa.Table | None) -> list[dict[str, Any]]:
    """Fused candidates best first: RRF when both legs ran, else the cosine (BM25 breaks ties)."""
    if rows is None or not rows.num_rows:
        return []
    out = dicts(rows)
    key = FUSED if FUSED in rows.column_names else COSINE
    return sorted(out, key=lambda r: (-(r.get(key) or 0.0), -(r.get(BM25) or 0.0), r["evidence_id"]))


def to_hit(row: dict[str, Any], score: float) -> RecallHit:
    vector = row.get("vector")
    return RecallHit(
        id=row["evidence_id"], kind="evidence", topic="evidence", content=row["text"], score=score,
        score_parts={"cosine": float(row.get(COSINE) or 0.0), "bm25": float(row.get(BM25) or 0.0)},
        session_id=row["session_id"], source_event_ids=[row["event_id"]], stated_at=row["timestamp"],
        created_at=row["created_at"], speaker=row["author"], memory_ids=list(row.get("memory_ids") or []),
        vector=None if vector is None else [float(x) for x in vector],
    )  # fmt: skip


def _words(text: str) -> set[str]:
    """Content words without a plural or third-person "s" ("works" and "work" are one word here)."""
    return {w[:-1] if len(w) > 3 and w.endswith("s") else w for w in content_words(text)}


def _covered(words: set[str], shown: set[str]) -> bool:
    return bool(words) and len(words & shown) >= COVERED_SHARE * len(words)


def select(
    query: str,
    candidates: list[dict[str, Any]],
    memories: Sequence[RecallHit],
    n: int,
    neighbours: dict[tuple[str, int], list[dict[str, Any]]],
) -> list[RecallHit]:
    """Up to ``n`` passages best first, each followed by the neighbours that carry it on, none twice,
    none the memories already say (their words: ``memories``)."""
    asked = _words(query)
    shown = {w for m in memories for w in _words(m.content)}
    out: list[RecallHit] = []
    taken: set[str] = set()
    for rank, row in enumerate(candidates):
        if len(out) >= n:
            break
        if row["evidence_id"] in taken:
            continue
        words = _words(row["text"])
        if row["text"].strip() == FORGOTTEN or _covered(words, shown):
            continue
        score = 1.0 / (1 + rank)
        out.append(to_hit(row, score))
        taken.add(row["evidence_id"])
        for near in _carried(row, words, asked, neighbours.get((row["session_id"], int(row["turn"])), [])):
            if near["evidence_id"] not in taken and len(out) < n:
                out.append(to_hit(near, score * 0.9))
                taken.add(near["evidence_id"])
    return out


def _carried(row: dict[str, Any], words: set[str], asked: set[str], near: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The neighbours of ``row`` that carry its answer on (see the module docstring)."""
    turn = int(row["turn"])
    out = []
    for other in near:
        step = int(other["turn"]) - turn
        other_words = _words(other["text"])
        answers = step == 1 and row["text"].rstrip().endswith("?")
        leaned_on = step == -1 and len(words) <= SHORT_REPLY_WORDS
        shares = bool((other_words & asked) - words)
        if answers or leaned_on or shares:
            out.append(other)
    return out


def neighbours_of(
    store: Store, app_name: str, user_id: str, found: Sequence[dict[str, Any]], reach: int
) -> dict[tuple[str, int], list[dict[str, Any]]]:
    """Each found passage's neighbouring turns (``reach`` either side, first passage of each), by
    (session, turn); one read for all of them."""
    if reach <= 0 or not found or not store.has(EVIDENCE):
        return {}
    wanted: dict[str, set[int]] = {}
    for row in found:
        turn = int(row["turn"])
        wanted.setdefault(row["session_id"], set()).update(
            t for t in range(turn - reach, turn + reach + 1) if t >= 0 and t != turn
        )
    turn_col = column("turn", _FILTER_COLS)
    clauses = [
        f"({is_in('session_id', [session], _FILTER_COLS)} AND {turn_col} IN ({', '.join(str(int(t)) for t in turns)}))"
        for session, turns in sorted(wanted.items())
        if turns
    ]
    if not clauses:
        return {}
    where = all_of(scope(app_name, user_id), "(" + " OR ".join(clauses) + ")")
    rows = store.rows(EVIDENCE, where, columns=list(COLUMNS))
    by_turn: dict[tuple[str, int], dict[str, Any]] = {}
    for r in sorted(rows, key=lambda r: (r["session_id"], r["turn"], r["passage"])):
        by_turn.setdefault((r["session_id"], int(r["turn"])), r)
    return _around(found, by_turn, reach)


def neighbours_in(
    scan: pa.Table, take: Callable[[list[int]], pa.Table], found: Sequence[dict[str, Any]], reach: int
) -> dict[tuple[str, int], list[dict[str, Any]]]:
    """:func:`neighbours_of` from the tenant scan the search already read (it holds every turn's place):
    the neighbours' rows come from the scan when it read them whole, else from one ``take`` by offset.
    Why: the filtered read of :func:`neighbours_of` cost ~38 ms a recall on LoCoMo-dev."""
    if reach <= 0 or not found or not scan.num_rows:
        return {}
    wanted = {
        (row["session_id"], t)
        for row in found
        for t in range(int(row["turn"]) - reach, int(row["turn"]) + reach + 1)
        if t >= 0 and t != int(row["turn"])
    }
    sessions = pa.array(sorted({s for s, _ in wanted}), pa.string())
    mask = pc.and_(pc.is_in(scan.column("session_id"), value_set=sessions), pc.equal(scan.column("passage"), 0))
    near = scan.filter(mask)
    places = zip(near.column("session_id").to_pylist(), near.column("turn").to_pylist(), strict=True)
    keep = [i for i, (session, turn) in enumerate(places) if (session, int(turn)) in wanted]
    if not keep:
        return {}
    picked = near.take(pa.array(keep, pa.int64()))
    if set(COLUMNS) <= set(picked.column_names):
        rows = dicts(picked.select(list(COLUMNS)))
    else:
        rows = dicts(take([int(o) for o in picked.column(OFFSET).to_pylist()]))
    by_turn = {(r["session_id"], int(r["turn"])): r for r in rows}
    return _around(found, by_turn, reach)


def _around(
    found: Sequence[dict[str, Any]], by_turn: dict[tuple[str, int], dict[str, Any]], reach: int
) -> dict[tuple[str, int], list[dict[str, Any]]]:
    """Each found turn's neighbours within ``reach``, in turn order, from the rows read by place."""
    out: dict[tuple[str, int], list[dict[str, Any]]] = {}
    for row in found:
        key = (row["session_id"], int(row["turn"]))
        out[key] = [
            by_turn[(key[0], t)] for t in range(key[1] - reach, key[1] + reach + 1)
            if t != key[1] and (key[0], t) in by_turn
        ]  # fmt: skip
    return out


def interleaved(memories: Sequence[RecallHit], evidence: Sequence[RecallHit]) -> list[RecallHit]:
    """Both layers in one ranked list: a memory, then a passage, and so on (the rest of the longer after).

    Why: each layer's best items beat the other's tenth; a context cut anywhere keeps both."""
    out: list[RecallHit] = []
    for i in range(max(len(memories), len(evidence))):
        out += [*memories[i : i + 1], *evidence[i : i + 1]]
    return out
