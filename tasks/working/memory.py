"""One agent run's working memory: store, retrieve, query, clear, snapshot / restore, sub-agent scopes.

Items live in the ``working_items`` table, keyed by (app, user, run, id), and in this object (the hot
path: a retrieve never reads the table for an item this run stored or loaded). Every read of the table
is filtered by the tenant and the run, so an id of another run or another user is not found: never
another tenant's item. A sub-agent (:meth:`WorkingMemory.spawn`) sees its parent's items as they were
when it started, read-only unless shared writable; on return its own items are merged back or dropped.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

from tasks.clock import now as wall_now
from tasks.clock import utc
from tasks.ids import value_problem
from tasks.providers.base import Embedder
from tasks.settings import Settings
from tasks.store.filters import all_of, eq, scope, ts_literal
from tasks.store.schema import WORKING_ITEMS
from tasks.store.tables import Store, open_store
from tasks.working.index import PassageIndex, words
from tasks.working.items import (
    ItemMeta,
    ItemNotFoundError,
    ItemType,
    ReadOnlyItemError,
    WorkingItem,
    WorkingMemoryError,
    encode_content,
    item_id,
)
from tasks.working.snapshot import Snapshot, load_snapshot
from tasks.working.transforms import apply

_COLS = ("app_name", "user_id", "run_id", "memory_id")
#: Passage indexes kept per memory (the items an agent reads excerpts of are few and recent).
INDEX_CACHE = 32


class WorkingMemory:
    """The working memory of run ``run_id`` of ``user_id`` in ``app_name``.

    ``persist=False`` keeps it in this process only (a throw-away sub-agent, a benchmark baseline).
    ``embedder`` reranks excerpts; None builds the configured one when first needed (if enabled).
    """

    def __init__(
        self,
        settings: Settings,
        app_name: str,
        user_id: str,
        run_id: str,
        *,
        persist: bool = True,
        embedder: Embedder | None = None,
        parent: WorkingMemory | None = None,
        inherited: Iterable[WorkingItem] = (),
        writable: bool = False,
        clock: Callable[[], datetime] = wall_now,
    ) -> None:
        for name, value in (("app_name", app_name), ("user_id", user_id), ("run_id", run_id)):
            eq(name, value, _COLS)  # the id rule, before anything is stored under it
        self.settings, self.app_name, self.user_id, self.run_id = settings, app_name, user_id, run_id
        self.persist = persist
        self._embedder = embedder
        self._own: dict[str, WorkingItem] = {}
        self._inherited: dict[str, WorkingItem] = {i.memory_id: i for i in inherited}
        self._parent = parent
        self.writable = writable
        #: The time of a store or a table read when the caller passes none (tests and replays pass a fixed one).
        self.clock = clock
        self._indexes: OrderedDict[str, PassageIndex] = OrderedDict()
        self._store: Store | None = None
        self._sequence = 0

    # -- opening -------------------------------------------------------------------------------

    @classmethod
    def open(cls, settings: Settings, app_name: str, user_id: str, run_id: str, *, now: datetime | None = None,
             embedder: Embedder | None = None, clock: Callable[[], datetime] = wall_now) -> WorkingMemory:  # fmt: skip
        """The run's memory with every unexpired item it stored before (after a crash: exactly those)."""
        memory = cls(settings, app_name, user_id, run_id, embedder=embedder, clock=clock)
        at = utc(now or clock())
        for row in memory._rows(None, at):
            item = WorkingItem.from_row(row)
            memory._own[item.memory_id] = item
        memory._sequence = max((i.sequence for i in memory._own.values()), default=-1) + 1
        return memory

    def _table(self) -> Store:
        if self._store is None:
            self._store = open_store(self.settings)
        return self._store

    def _rows(self, memory_id: str | None, at: datetime) -> list[dict[str, Any]]:
        store = self._table()
        live = f"(`expires_at` IS NULL OR `expires_at` > {ts_literal(at)})"
        where = all_of(scope(self.app_name, self.user_id), eq("run_id", self.run_id, _COLS),
                       eq("memory_id", memory_id, _COLS) if memory_id else None, live)  # fmt: skip
        return sorted(store.rows(WORKING_ITEMS, where), key=lambda r: r["sequence"])

    # -- store ---------------------------------------------------------------------------------

    def store(
        self,
        content: str | bytes | Any,
        item_type: ItemType = "action_result",
        *,
        source: str = "",
        title: str | None = None,
        url: str | None = None,
        tags: Sequence[str] = (),
        related_ids: Sequence[str] = (),
        now: datetime | None = None,
    ) -> str:
        """Store one result; returns its id. Too large: :class:`~tasks.working.items.ItemTooLargeError`."""
        if self._parent is not None and self.writable:
            return self._parent.store(content, item_type, source=source, title=title, url=url, tags=tags,
                                      related_ids=related_ids, now=now)  # fmt: skip
        kind, text, size = encode_content(content, self.settings.working_max_item_bytes)
        at = utc(now or self.clock())
        ttl = self.settings.working_ttl_hours
        seq = self._sequence
        item = WorkingItem(
            memory_id=item_id(self.app_name, self.user_id, self.run_id, seq, text), run_id=self.run_id,
            sequence=seq, item_type=item_type, kind=kind, content=text, size=size,
            meta=ItemMeta(source=source, title=title, url=url, tags=tuple(tags), related_ids=tuple(related_ids)),
            created_at=at, expires_at=at + timedelta(hours=ttl) if ttl else None,
        )  # fmt: skip
        self._put([item])
        return item.memory_id

    def _put(self, items: Sequence[WorkingItem]) -> None:
        if self.persist and items:
            self._table().upsert(WORKING_ITEMS, [i.to_row(self.app_name, self.user_id) for i in items])
        for item in items:
            self._own[item.memory_id] = item
            self._sequence = max(self._sequence, item.sequence + 1)

    # -- read ----------------------------------------------------------------------------------

    def get(self, memory_id: str, *, now: datetime | None = None) -> WorkingItem:
        """The item (this run's, or one the parent shared); else :class:`ItemNotFoundError`."""
        item = self._own.get(memory_id) or self._inherited.get(memory_id)
        if item is None and self._parent is not None and self.writable:
            item = self._parent._own.get(memory_id)
        if item is None and self.persist and isinstance(memory_id, str) and memory_id.startswith("wm-"):
            readable = len(memory_id) < 64 and value_problem(memory_id) is None  # else it cannot be an id of ours
            rows = self._rows(memory_id, utc(now or self.clock())) if readable else []
            if rows:
                item = WorkingItem.from_row(rows[0])
                self._own[item.memory_id] = item
        if item is None:
            raise ItemNotFoundError(f"no working-memory item {str(memory_id)[:80]!r} in run {self.run_id!r}")
        return item

    def retrieve(
        self,
        memory_id: str,
        transform: str = "full",
        *,
        query: str = "",
        n: int | None = None,
        path: str | None = None,
        keys: Sequence[str] | None = None,
        max_chars: int | None = None,
    ) -> Any:
        """The item through ``transform``: full, excerpt (for ``query``), summary, first_n, last_n, filtered."""
        item = self.get(memory_id)
        index = self._index(item) if transform == "excerpt" else None
        return apply(item, transform, index=index, query=query, n=n, path=path, keys=keys,
                     max_chars=max_chars or self.settings.working_excerpt_chars,
                     embedder=self.embedder() if transform == "excerpt" else None)  # fmt: skip

    def embedder(self) -> Embedder | None:
        if self._embedder is None and self.settings.working_excerpt_embedder:
            from tasks.providers import build_embedder

            self._embedder = build_embedder(self.settings)
        return self._embedder if self.settings.working_excerpt_embedder else None

    def _index(self, item: WorkingItem) -> PassageIndex:
        index = self._indexes.get(item.memory_id)
        if index is None:
            index = self._indexes[item.memory_id] = PassageIndex.build(item.text())
            while len(self._indexes) > INDEX_CACHE:
                self._indexes.popitem(last=False)
        self._indexes.move_to_end(item.memory_id)
        return index

    def items(self) -> list[WorkingItem]:
        """Every item this run sees: the inherited ones first, then its own, in store order."""
        seen = dict(self._inherited)
        if self._parent is not None and self.writable:
            seen |= self._parent._own
        return [*seen.values(), *(i for k, i in self._own.items() if k not in seen)]

    def query(
        self,
        *,
        item_type: str | None = None,
        source: str | None = None,
        tags: Sequence[str] = (),
        since: datetime | None = None,
        until: datetime | None = None,
        text: str | None = None,
        limit: int = 10,
    ) -> list[WorkingItem]:
        """Items matching every given condition; with ``text``, those sharing its words, most first."""
        found = [
            i for i in self.items()
            if (item_type is None or i.item_type == item_type) and (source is None or i.meta.source == source)
            and set(tags) <= set(i.meta.tags) and (since is None or i.created_at >= utc(since))
            and (until is None or i.created_at < utc(until))
        ]  # fmt: skip
        if text:
            wanted = set(words(text))
            scored = [(len(wanted & set(words(" ".join([i.meta.title or "", i.meta.source, i.meta.url or "",
                                                       i.text()[:20000]])))), i) for i in found]  # fmt: skip
            found = [i for s, i in sorted(scored, key=lambda si: (-si[0], -si[1].sequence)) if s]
        else:
            found.reverse()  # newest first
        return found[: max(0, limit)]

    # -- change --------------------------------------------------------------------------------

    def delete(self, memory_id: str) -> None:
        """Remove one item of this run; a parent's item only when it was shared writable."""
        if memory_id in self._own:
            del self._own[memory_id]
            self._indexes.pop(memory_id, None)
            self._delete_rows(eq("memory_id", memory_id, _COLS))
            return
        if memory_id in self._inherited or (self._parent is not None and memory_id in self._parent._own):
            if self._parent is not None and self.writable:
                self._parent.delete(memory_id)
                return
            raise ReadOnlyItemError(f"item {memory_id!r} belongs to the parent run and was shared read-only")
        raise ItemNotFoundError(f"no working-memory item {memory_id[:80]!r} in run {self.run_id!r}")

    def clear(self) -> int:
        """Drop every item of this run (the parent's stay); returns how many."""
        count = len(self._own)
        self._own.clear()
        self._indexes.clear()
        self._delete_rows(None)
        return count

    def _delete_rows(self, clause: str | None) -> None:
        if self.persist:
            store = self._table()
            if store.has(WORKING_ITEMS):
                where = all_of(scope(self.app_name, self.user_id), eq("run_id", self.run_id, _COLS), clause)
                store.table(WORKING_ITEMS).delete(where)

    # -- sub-agents and restarts ---------------------------------------------------------------

    def snapshot(self, *, now: datetime | None = None) -> Snapshot:
        """Every item this run sees, as they are now (items are immutable: no copy of the content)."""
        return Snapshot(app_name=self.app_name, user_id=self.user_id, run_id=self.run_id,
                        taken_at=utc(now or self.clock()), items=tuple(self.items()))  # fmt: skip

    def spawn(self, run_id: str, *, writable: bool | None = None, persist: bool | None = None) -> WorkingMemory:
        """A sub-agent's memory: this run's items as of now (none when sharing is off), its own items apart."""
        share = self.settings.working_share_with_subagents
        writable = self.settings.working_share_writable if writable is None else writable
        return WorkingMemory(self.settings, self.app_name, self.user_id, run_id,
                             persist=self.persist if persist is None else persist, embedder=self._embedder,
                             parent=self, inherited=self.items() if share else (),
                             writable=share and writable, clock=self.clock)  # fmt: skip

    def merge(self, child: WorkingMemory) -> list[str]:
        """Take a returning sub-agent's own items into this run (same ids, so its citations still resolve)."""
        if child._parent is not self:
            raise WorkingMemoryError(f"run {child.run_id!r} is not a sub-agent of run {self.run_id!r}")
        taken = [i.model_copy(update={"run_id": self.run_id, "sequence": self._sequence + n})
                 for n, i in enumerate(child._own.values()) if i.memory_id not in self._own]  # fmt: skip
        self._put(taken)
        child.clear()
        return [i.memory_id for i in taken]

    def drop(self, child: WorkingMemory) -> int:
        """Discard a returning sub-agent's own items."""
        if child._parent is not self:
            raise WorkingMemoryError(f"run {child.run_id!r} is not a sub-agent of run {self.run_id!r}")
        return child.clear()

    @classmethod
    def restore(cls, settings: Settings, snapshot: Snapshot | str | bytes | dict[str, Any], *,
                run_id: str | None = None, persist: bool = True, embedder: Embedder | None = None,
                clock: Callable[[], datetime] = wall_now) -> WorkingMemory:  # fmt: skip
        """A memory from a snapshot: the same run's items exactly (``run_id`` None), or a sub-agent's
        read-only view of them under its own ``run_id``. Older snapshot versions are upgraded first."""
        snap = load_snapshot(snapshot)
        if run_id is None or run_id == snap.run_id:
            memory = cls(
                settings, snap.app_name, snap.user_id, snap.run_id, persist=persist, embedder=embedder, clock=clock
            )
            own = [i for i in snap.items if i.run_id == snap.run_id]
            memory._inherited = {i.memory_id: i for i in snap.items if i.run_id != snap.run_id}
            memory._put(own)
            return memory
        return cls(settings, snap.app_name, snap.user_id, run_id, persist=persist, embedder=embedder,
                   inherited=snap.items, clock=clock)  # fmt: skip
