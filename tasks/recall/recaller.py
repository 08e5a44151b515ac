"""Recall: one user's memories and episodes for a query, hybrid-searched in LanceDB, then ranked.

:mod:`tasks.recall.search` runs the vector (cosine) and full-text legs on the Lance datasets and
fuses them by RRF (LanceDB's formula); this module builds tenant-safe filters and hands the fused
rows to :mod:`tasks.recall.hits`, which ranks them column-wise and materialises only the top k.
Access counts are kept in memory and written in one merge-insert per table per flush, so a busy
agent does not create a table version per query.
"""

from __future__ import annotations

import logging
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime
from functools import partial
from typing import TypedDict, Unpack

import lancedb
import numpy as np
import numpy.typing as npt

from tasks.errors import ProviderConfigError
from tasks.models import RecallHit
from tasks.providers import build_embedder
from tasks.providers.base import Embedder
from tasks.recall.abstain import PairScorer, RecallResult, answers, judge
from tasks.recall.aliases import found_names, merged_all, with_names
from tasks.recall.anchor import anchor_of, anchored
from tasks.recall.contrast import second_opinion
from tasks.recall.cross_encoder import build_reranker, pair_scorer
from tasks.recall.current import marked
from tasks.recall.evidence import COLUMNS as EVIDENCE_COLUMNS
from tasks.recall.evidence import evidence_leg, interleaved, neighbours_in, neighbours_of, ranked_rows, select
from tasks.recall.hits import TablePlan, candidate_texts, candidates_of, top_hits
from tasks.recall.kinds import kind_of, listed
from tasks.recall.legs import fts_text
from tasks.recall.pack import focused, pack
from tasks.recall.ranking import Reranker, timely_first
from tasks.recall.search import HybridSearcher, Leg
from tasks.recall.spelling import respelled
from tasks.recall.statement import abstain_threshold, query_vector
from tasks.recall.when import window_of
from tasks.settings import Settings
from tasks.store.filters import all_of, column, eq, is_in, scope, ts_literal
from tasks.store.tables import EPISODES, EVIDENCE, KEYS, MEMORIES, Store, open_store, retry_conflicts

log = logging.getLogger(__name__)

#: Tokens of one (question, item) pair the abstention check reads: the start of a long turn says what it is about.
ANSWER_MAX_TOKENS = 128
#: Fewest candidates fetched per leg and table (the multiple of k is ``settings.recall_pool_factor``).
MIN_POOL = 20
_MEMORY_COLS = (
    "row_id", "topic", "content", "importance", "confirmations", "access_count",
    "source_session_id", "source_event_ids", "stated_at", "created_at", "speaker", "vector",
)  # fmt: skip
_EPISODE_COLS = (
    "episode_id", "summary", "access_count", "session_id", "source_event_ids",
    "started_at", "created_at", "sentences",
)  # fmt: skip
_LINEAGE_COLS = ("app_name", "user_id", "memory_id", "status")
_FILTER_COLS = (
    "status", "topic", "stated_at", "valid_from", "valid_to", "started_at", "ended_at",
    "row_id", "episode_id",
)  # fmt: skip


class RecallOptions(TypedDict, total=False):
    """The filters of :meth:`Recaller.recall`. Current memories by default; with ``as_of`` the versions
    valid at that time, whatever their status now. Episodes join unless disabled or a topic filter
    leaves them out (``"episode"`` in ``topics`` keeps them). ``now`` is when the question is asked:
    "last week" and recency are read against it (default: ``as_of``, else the clock)."""

    k: int | None
    topics: Sequence[str] | None
    since: datetime | None
    until: datetime | None
    as_of: datetime | None
    include_episodes: bool | None
    now: datetime | None
    #: Search the verbatim turns too (default ``settings.recall_evidence``; a topic filter without
    #: ``"evidence"`` leaves them out): :meth:`Recaller.recall_result` returns them apart.
    include_evidence: bool | None


class Recaller:
    """Opens the store and embedder once; answers many recalls; batches access tracking."""

    def __init__(
        self,
        settings: Settings,
        *,
        store: Store | None = None,
        embedder: Embedder | None = None,
        reranker: Reranker | None = None,
        refresh_seconds: float | None = None,
        use_ann: bool = False,
    ) -> None:
        self.settings = settings
        self.use_ann = use_ann
        self.refresh_seconds = settings.recall_refresh_seconds if refresh_seconds is None else refresh_seconds
        self.embedder = embedder if embedder is not None else build_embedder(settings)
        self.store = store if store is not None else open_store(settings)
        self.reranker = reranker if reranker is not None else build_reranker(settings)
        self._pending: dict[str, Counter[str]] = {MEMORIES: Counter(), EPISODES: Counter()}
        self._last_access: datetime | None = None
        self._vectors: dict[str, npt.NDArray[np.float32]] = {}
        self._scorer: PairScorer | None = None
        self._no_scorer = False
        self._search = HybridSearcher(self.store, self.refresh_seconds, settings.recall_whole_tenant_max_rows)

    def __enter__(self) -> Recaller:
        return self

    def __exit__(self, *exc: object) -> None:
        self.flush_access()
        self._search.close()

    def recall(self, query: str, app_name: str, user_id: str, **options: Unpack[RecallOptions]) -> list[RecallHit]:
        """Best ``k`` hits for ``query`` in this app and user's scope, best first (filters: :class:`RecallOptions`)."""
        hits, *_, timed = self._ranked(query, app_name, user_id, **options)
        return self._current(app_name, user_id, hits, [], timed)[0]

    def _ranked(
        self, query: str, app_name: str, user_id: str, **options: Unpack[RecallOptions]
    ) -> tuple[list[RecallHit], list[RecallHit], str | None, Callable[[], bool] | None, str, bool]:
        """The hits :meth:`recall` returns, the embedder's own top k before any reranker (what the
        abstention verdict is judged on, so that a reranker changes what is shown, not whether anything
        is), the time the question names when no candidate lies in it, the reranker's second opinion
        on a misattribution (:mod:`tasks.recall.contrast`), the question as searched (respelt), and
        whether the question names a time that holds candidates (then it asks of that time, not of what
        holds now; "on Saturday mornings" read as last Saturday, with nothing said then, does not)."""
        k, topics, as_of = options.get("k"), options.get("topics"), options.get("as_of")
        since, until, include_episodes = options.get("since"), options.get("until"), options.get("include_episodes")
        k = self.settings.recall_k if k is None else k
        if k <= 0:
            return [], [], None, None, query, False
        tenant = scope(app_name, user_id)  # validates ids before any work
        now = options.get("now") or as_of or datetime.now(UTC)
        window = window_of(query, now) if self.settings.recall_time_window else None
        anchor = anchor_of(query) if self.settings.recall_time_window and window is None else None
        text, limit = fts_text(query), max(k * self.settings.recall_pool_factor, MIN_POOL)
        episodes = self.settings.include_episodes if include_episodes is None else include_episodes
        plans = self._plans(tenant, topics, since, until, as_of, episodes)
        # The query is embedded while the text legs and the reads of the tenant's vectors run:
        # with legs that read only offsets, scores and vectors, this overlap saved 2-4 ms p95 on
        # two cores (with heavier legs it had only slowed both down).
        legs = [Leg(p.table, p.where, p.text_col, p.columns) for p in plans]
        searched = self._search.search(legs, text, lambda: self._embed(query), limit, self.use_ann)
        results = searched.tables
        spoken = query  # the question a reranker reads, its words' other spellings said beside them
        texts = (candidate_texts(results, plans, kind) for kind in ("memory", "episode"))
        if self.settings.recall_respell and (respelt := respelled(query, *texts)):
            query, spoken = respelt.searched, respelt.asked  # searched again as the memories spell it
            respelt_rows = self._search.search(legs, fts_text(query), lambda: self._embed(query), limit, self.use_ann)
            results = merged_all(results, respelt_rows.tables, [KEYS[p.table] for p in plans])
        kind = kind_of(query) if self.settings.recall_kinds else None
        if kind is not None and kind.search_text:  # "Which cities…": the members' names are searched too
            again = self._search.search_words(searched, kind.search_text, limit)
            results = merged_all(results, again, [KEYS[p.table] for p in plans])
        asked = spoken  # what a reranker reads: the question, with the other names said beside its own
        if self.settings.recall_known_names and (named := found_names(query, results)):
            other = with_names(query, named)  # "my sister" for "Nora": search again, the other name said
            again = self._search.search(legs, fts_text(other), lambda: self._embed(other), limit, self.use_ann).tables
            results = merged_all(results, again, [KEYS[p.table] for p in plans])
            asked = with_names(spoken, named, both=True)
        found = [
            candidates_of(plan, rows, now, self.settings, window)
            for plan, rows in zip(plans, results, strict=True)
            if rows is not None and rows.num_rows
        ]
        if anchor is not None:  # "after the road trip": the event's candidate dates the window
            found, window = anchored(found, anchor, now)
        packed = self.settings.recall_pack_depth > 1
        depth = k * self.settings.recall_pack_depth if packed else k
        hits = top_hits(found, self.settings, depth if self.reranker is None and kind is None else None)
        cut = pack if packed else lambda ranked, n: ranked[:n]
        basis, confirm = cut(hits, k), None  # what abstention judges: the episodes' own sentences
        focus = packed and self.settings.recall_focus_episodes
        show = partial(pack, focus=True) if focus else cut
        if self.reranker is not None:
            reranked = self.reranker(asked, hits)
            confirm = second_opinion(self.settings, self.reranker, asked, basis, hits, reranked)
            hits = show(listed(timely_first(reranked) if window else reranked, k, kind, query), k)
        else:  # an event's own words pull its rows, on neither side of it, above the answers
            timed = anchor is not None and window is not None
            if timed or kind:
                hits = show(listed(timely_first(hits) if timed else hits, k, kind, query), k)
            else:  # the basis, packed once: focusing it shows the same as packing again with focus
                hits = focused(basis, hits) if focus else basis
        self._track(hits)
        in_time = any(f.signals.timely is not None and f.signals.timely.any() for f in found) and not (
            window is not None and window.empty
        )
        untimely = window.phrase if window is not None and not in_time else None
        return hits, basis, untimely, confirm, query, (window is not None and in_time) or anchor is not None

    def recall_result(self, query: str, app_name: str, user_id: str, **options: Unpack[RecallOptions]) -> RecallResult:
        """:meth:`recall`'s hits with the abstention verdict: ``confident`` is False when even the
        best hit is too far from the query (``settings.recall_abstain_min_cosine``) to be about it,
        or when the question names one person and its best match was said by someone else; ``untimely``
        is the time the question names when no candidate lies in it."""
        hits, basis, untimely, confirm, searched, timed = self._ranked(query, app_name, user_id, **options)
        verdict = judge(basis, abstain_threshold(searched, self.settings), searched, untimely=untimely, confirm=confirm)
        evidence = self._evidence(searched, app_name, user_id, hits, options)
        if verdict.confident and (scorer := self._answer_scorer()) is not None:
            depth = self.settings.recall_abstain_answer_depth
            score = answers(scorer, searched, interleaved(hits, evidence), depth)
            verdict = replace(verdict, answer_score=score,
                              confident=score >= self.settings.recall_abstain_min_answer_score)  # fmt: skip
        hits, evidence = self._current(app_name, user_id, hits, evidence, timed)
        return replace(verdict, hits=hits, searched_as=searched if searched != query else None, evidence=evidence)

    def _answer_scorer(self) -> PairScorer | None:
        """The cross-encoder of the abstention check, loaded once; None when off or not installed."""
        if not self.settings.recall_abstain_answer_check or self._no_scorer:
            return None
        if self._scorer is None:
            try:
                self._scorer = pair_scorer(self.settings, ANSWER_MAX_TOKENS)
            except ProviderConfigError as error:
                log.warning("abstention check off: %s", error)
                self._no_scorer = True
        return self._scorer

    def _current(
        self, app_name: str, user_id: str, hits: list[RecallHit], evidence: list[RecallHit], timed: bool
    ) -> tuple[list[RecallHit], list[RecallHit]]:
        """``hits`` and ``evidence`` marked current or earlier (:mod:`tasks.recall.current`); the cited
        lineages' active versions come from one read of the memories. A question that names a time
        ("in November", "after the trip") asks of that time: what was said then is not "earlier"
        because something of the same kind was said since (``timed``: only replaced turns are)."""
        if not self.settings.recall_current:
            return hits, evidence
        cited = sorted({m for e in evidence for m in e.memory_ids})
        lineages: dict[str, datetime | None] = dict.fromkeys(cited)
        if cited:
            where = all_of(scope(app_name, user_id), is_in("memory_id", cited, _LINEAGE_COLS),
                           eq("status", "active", _LINEAGE_COLS))  # fmt: skip
            for row in self.store.rows(MEMORIES, where, columns=["memory_id", "valid_from"]):
                seen = lineages.get(row["memory_id"])
                lineages[row["memory_id"]] = row["valid_from"] if seen is None else max(seen, row["valid_from"])
        slot = None if timed else self.settings.recall_current_slot_cosine
        return marked(hits, evidence, lineages, slot, self.settings.recall_current_query_margin)

    def _evidence(
        self, query: str, app_name: str, user_id: str, hits: Sequence[RecallHit], options: RecallOptions
    ) -> list[RecallHit]:
        """The verbatim passages for ``query`` beside ``hits`` (:mod:`tasks.recall.evidence`): the same
        hybrid legs, tenant filter and time filters, the query vector already computed reused."""
        wanted = options.get("include_evidence")
        topics = options.get("topics")
        if not (self.settings.recall_evidence if wanted is None else wanted) or (topics and "evidence" not in topics):
            return []
        k = self.settings.recall_k if options.get("k") is None else options.get("k")
        n = self.settings.recall_evidence_k if self.settings.recall_evidence_k is not None else k
        if not n or not self.store.has(EVIDENCE):
            return []
        leg = evidence_leg(app_name, user_id, options.get("since"), options.get("until"), options.get("as_of"))
        limit = max(int(n) * self.settings.recall_pool_factor, MIN_POOL)
        found = self._search.search([leg], fts_text(query), lambda: self._embed(query), limit, self.use_ann)
        rows = ranked_rows(found.tables[0])
        reach, side, dataset = self.settings.recall_evidence_neighbours, found.vectors[0], found.datasets[0]
        if side is not None and side.tenant is not None and dataset is not None:  # the scan holds every turn's place
            take = partial(dataset.take, columns=list(EVIDENCE_COLUMNS))
            near = neighbours_in(side.tenant.rows, take, rows[: int(n)], reach)
        else:
            near = neighbours_of(self.store, app_name, user_id, rows[: int(n)], reach)
        return select(query, rows, [h for h in hits if h.kind == "memory"], int(n), near)

    def _embed(self, query: str) -> npt.NDArray[np.float32]:
        """The query's vector, remembered for the last few queries (the evidence search reuses it)."""
        vector = self._vectors.get(query)
        if vector is None:
            vector = query_vector(self.embedder, query, self.settings.recall_statement_query)
            if len(self._vectors) >= 8:
                self._vectors.pop(next(iter(self._vectors)))
            self._vectors[query] = vector
        return vector

    def flush_access(self) -> int:
        """Add pending access counts in place; rows updated.

        One Lance update per table and distinct count, ``access_count = access_count + n``: the
        increment is evaluated against the rows as committed, so two processes flushing at once
        both count (read-then-write lost one). A commit conflict applied nothing and is retried.
        """
        updated = 0
        stamp = ts_literal(self._last_access or datetime.now(UTC))
        for name, counts in self._pending.items():
            tbl = self._table(name) if counts else None
            groups: dict[int, list[str]] = defaultdict(list)
            for key_value, n in counts.items():
                groups[n].append(key_value)
            for n, ids in sorted(groups.items()):
                if tbl is None:
                    break
                where = is_in(KEYS[name], sorted(ids), _FILTER_COLS)
                sql = {"access_count": f"coalesce(access_count, 0) + {int(n)}", "last_accessed_at": stamp}
                updated += retry_conflicts(partial(_updated, tbl, where, sql), f"access counts of {name}")
            counts.clear()
        self._last_access = None
        return updated

    def _track(self, hits: Sequence[RecallHit]) -> None:
        for hit in hits:
            if hit.kind != "evidence":
                self._pending[MEMORIES if hit.kind == "memory" else EPISODES][hit.id] += 1
        if hits:
            self._last_access = datetime.now(UTC)

    def _table(self, name: str) -> lancedb.table.Table | None:
        """The table if it exists, never created by a read (the store may be read-only).

        The store's connection is read-consistent, so the handle sees other writers' commits.
        """
        return self.store.table(name) if self.store.has(name) else None

    def _plans(
        self,
        tenant: str,
        topics: Sequence[str] | None,
        since: datetime | None,
        until: datetime | None,
        as_of: datetime | None,
        include_episodes: bool,
    ) -> list[TablePlan]:
        """What to search: current (or as-of) memories, and episodes unless left out."""
        memories = all_of(
            tenant,
            _valid_at(as_of) if as_of else eq("status", "active", _FILTER_COLS),
            is_in("topic", topics, _FILTER_COLS) if topics else None,
            _cmp("stated_at", ">=", since),
            _cmp("stated_at", "<=", until),
        )
        plans = [TablePlan(MEMORIES, "memory", memories, "content", _MEMORY_COLS, "source_session_id", "stated_at")]
        if include_episodes and (not topics or "episode" in topics):
            episodes = all_of(
                tenant,
                eq("status", "active", _FILTER_COLS),
                _cmp("ended_at", "<=", as_of),
                _cmp("ended_at", ">=", since),
                _cmp("started_at", "<=", until),
            )
            plans.append(TablePlan(EPISODES, "episode", episodes, "summary", _EPISODE_COLS, "session_id", "started_at"))
        return plans


def recall(
    query: str, app_name: str, user_id: str, *, settings: Settings, **options: Unpack[RecallOptions]
) -> list[RecallHit]:
    """One-shot recall (opens, recalls, flushes access); long-lived callers should keep a Recaller."""
    with recaller_for(settings) as recaller:
        return recaller.recall(query, app_name, user_id, **options)


@contextmanager
def recaller_for(settings: Settings, recaller: Recaller | None = None) -> Iterator[Recaller]:
    """The caller's Recaller, or a one-shot one that is flushed and closed afterwards."""
    if recaller is not None:
        yield recaller
        return
    with Recaller(settings) as own:
        yield own


def _updated(tbl: lancedb.table.Table, where: str, values_sql: dict[str, str]) -> int:
    return int(tbl.update(where=where, values_sql=values_sql).rows_updated)


def _cmp(name: str, op: str, value: datetime | None) -> str | None:
    return None if value is None else f"{column(name, _FILTER_COLS)} {op} {ts_literal(value)}"


def _valid_at(when: datetime) -> str:
    """Versions valid at ``when``: valid_from <= T and (valid_to open or > T).

    A memory the user asked to forget never comes back through recall, not even for a time before
    the request; the audit trail (``history``) still shows it to an operator.
    """
    t = ts_literal(when)
    start, end = column("valid_from", _FILTER_COLS), column("valid_to", _FILTER_COLS)
    status = column("status", _FILTER_COLS)
    return f"{start} <= {t} AND ({end} IS NULL OR {end} > {t}) AND {status} != 'deleted'"
