"""Working-memory items: what an action returned, its kind of content, and the errors of bad input.

Content is text, JSON (any JSON value) or bytes. Its size is checked before anything is copied, so a
50 MB result is refused with a clear :class:`ItemTooLargeError` instead of being held twice in memory.
"""

from __future__ import annotations

import base64
import json
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from tasks.errors import PipelineError
from tasks.models import stable_id
from tasks.working.rows import WorkingItemRow

ItemType = Literal["action_result", "web_content", "database_result", "custom"]
ContentKind = Literal["text", "json", "bytes"]
ITEM_TYPES: tuple[str, ...] = ("action_result", "web_content", "database_result", "custom")


class WorkingMemoryError(PipelineError):
    """Base of working memory's errors (each says what to do)."""


class ItemTooLargeError(WorkingMemoryError):
    """An item over ``working_max_item_bytes``: nothing was stored."""


class ItemNotFoundError(WorkingMemoryError, KeyError):
    """No item with this id in this run (another run's or tenant's id reads as not found)."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else "item not found"


class ReadOnlyItemError(WorkingMemoryError):
    """A sub-agent changed an item its parent shared read-only."""


class TransformError(WorkingMemoryError, ValueError):
    """A transform that cannot apply: an unknown one, a JSON filter on text, invalid JSON, a bad path."""


class SnapshotError(WorkingMemoryError, ValueError):
    """A snapshot that cannot be restored (unknown or newer version, wrong shape)."""


class ItemMeta(BaseModel):
    """What is known of an item besides its content (the source action, its tags, related items)."""

    model_config = ConfigDict(frozen=True)

    source: str = ""
    title: str | None = None
    url: str | None = None
    tags: tuple[str, ...] = ()
    related_ids: tuple[str, ...] = ()


class WorkingItem(BaseModel):
    """One stored result. ``content`` is the text, JSON text or base64 of the bytes (``kind`` says which)."""

    model_config = ConfigDict(frozen=True)

    memory_id: str
    run_id: str
    sequence: int
    item_type: ItemType
    kind: ContentKind
    content: str
    size: int
    meta: ItemMeta = Field(default_factory=ItemMeta)
    created_at: datetime
    expires_at: datetime | None = None

    def text(self) -> str:
        """The content as text: JSON as its text, bytes decoded leniently (for excerpts and citations)."""
        if self.kind == "bytes":
            return base64.b64decode(self.content).decode("utf-8", errors="replace")
        return self.content

    def value(self) -> Any:
        """The content as the caller stored it: str, the parsed JSON value, or bytes."""
        if self.kind == "json":
            return json.loads(self.content)
        if self.kind == "bytes":
            return base64.b64decode(self.content)
        return self.content

    def to_row(self, app_name: str, user_id: str) -> WorkingItemRow:
        return WorkingItemRow(
            row_key=stable_id(app_name, user_id, self.run_id, self.memory_id), memory_id=self.memory_id,
            app_name=app_name, user_id=user_id, run_id=self.run_id, sequence=self.sequence,
            item_type=self.item_type, content_kind=self.kind, content=self.content, size=self.size,
            source=self.meta.source, title=self.meta.title, url=self.meta.url, tags=list(self.meta.tags),
            related_ids=list(self.meta.related_ids), created_at=self.created_at, expires_at=self.expires_at,
        )  # fmt: skip

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> WorkingItem:
        meta = ItemMeta(source=row["source"] or "", title=row["title"], url=row["url"], tags=tuple(row["tags"] or ()),
                        related_ids=tuple(row["related_ids"] or ()))  # fmt: skip
        return cls(memory_id=row["memory_id"], run_id=row["run_id"], sequence=row["sequence"],
                   item_type=row["item_type"], kind=row["content_kind"], content=row["content"], size=row["size"],
                   meta=meta, created_at=row["created_at"], expires_at=row["expires_at"])  # fmt: skip


def encode_content(content: str | bytes | Any, max_bytes: int) -> tuple[ContentKind, str, int]:
    """(kind, stored text, size in bytes) of a content, refusing one over ``max_bytes`` before copying it.

    ``str`` is text; ``bytes`` are kept exactly (base64); anything else must be JSON-serialisable.
    """
    if isinstance(content, bytes | bytearray | memoryview):
        size = len(content)
        _check_size(size, max_bytes)
        return "bytes", base64.b64encode(bytes(content)).decode("ascii"), size
    if isinstance(content, str):
        if len(content) > max_bytes:  # a character is at least one byte: too large without encoding it
            _check_size(len(content), max_bytes)
        size = len(content.encode("utf-8", errors="surrogatepass"))
        _check_size(size, max_bytes)
        return "text", content, size
    try:
        text = json.dumps(content, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise WorkingMemoryError(f"content must be text, bytes or JSON-serialisable: {exc}") from None
    size = len(text.encode("utf-8"))
    _check_size(size, max_bytes)
    return "json", text, size


def _check_size(size: int, max_bytes: int) -> None:
    if size > max_bytes:
        raise ItemTooLargeError(
            f"item of {size:,} bytes is over working_max_item_bytes ({max_bytes:,}): nothing stored; store a "
            "part of it (a page's text, a query's first rows) or raise the limit"
        )


def item_id(app_name: str, user_id: str, run_id: str, sequence: int, content: str) -> str:
    """A stable id: the same content stored at the same place in the same run gets the same id."""
    return "wm-" + stable_id(app_name, user_id, run_id, str(sequence), stable_id(content, length=32), length=20)
