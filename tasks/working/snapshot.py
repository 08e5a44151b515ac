"""Snapshots of a run's working memory: what a sub-agent is handed, and what a restart restores exactly.

A snapshot is versioned. :func:`load_snapshot` upgrades older versions step by step (each step one small
function), and refuses a newer or unknown one with a clear :class:`~tasks.working.items.SnapshotError`
instead of guessing.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from tasks.working.items import SnapshotError, WorkingItem

#: 1: the first layout (``type``, a ``metadata`` dict, text content only); 2: item types, content kinds,
#: related ids and per-item owner runs.
SNAPSHOT_VERSION = 2


class Snapshot(BaseModel):
    """Every item a run sees, in store order, with the scope they belong to."""

    model_config = ConfigDict(frozen=True)

    version: int = SNAPSHOT_VERSION
    app_name: str
    user_id: str
    run_id: str
    taken_at: datetime
    items: tuple[WorkingItem, ...]


def _v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    items = []
    for seq, old in enumerate(data.get("items", [])):
        meta = dict(old.get("metadata") or {})
        content = old.get("content", "")
        items.append({
            "memory_id": old["id"], "run_id": old.get("run_id", data["run_id"]), "sequence": old.get("sequence", seq),
            "item_type": old.get("type", "custom"), "kind": "text", "content": content,
            "size": len(content.encode("utf-8")), "created_at": old["created_at"],
            "expires_at": old.get("expires_at"),
            "meta": {"source": meta.get("source", ""), "title": meta.get("title"), "url": meta.get("url"),
                     "tags": meta.get("tags", []), "related_ids": []},
        })  # fmt: skip
    return {**data, "version": 2, "items": items}


#: Upgrades from version N to N + 1.
UPGRADES: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _v1_to_v2}


def load_snapshot(raw: str | bytes | dict[str, Any] | Snapshot) -> Snapshot:
    """A snapshot from its JSON (or parsed JSON), upgraded to the current version."""
    if isinstance(raw, Snapshot):
        return raw
    try:
        data = json.loads(raw) if isinstance(raw, str | bytes) else dict(raw)
    except json.JSONDecodeError as exc:
        raise SnapshotError(f"a snapshot is JSON: {exc.msg} at character {exc.pos}") from None
    if not isinstance(data, dict):
        raise SnapshotError("a snapshot is a JSON object")
    version = data.get("version")
    if not isinstance(version, int) or version < 1:
        raise SnapshotError(f"snapshot has no valid version ({version!r})")
    if version > SNAPSHOT_VERSION:
        raise SnapshotError(f"snapshot version {version} is newer than this code reads ({SNAPSHOT_VERSION}): upgrade")
    try:
        while version < SNAPSHOT_VERSION:
            data = UPGRADES[version](data)
            version = data["version"]
        return Snapshot.model_validate(data)
    except (KeyError, TypeError, ValidationError) as exc:
        raise SnapshotError(f"snapshot (version {data.get('version')}) is not well formed: {exc}") from None
