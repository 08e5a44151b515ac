"""The views ``retrieve`` gives of an item: full, a query-focused excerpt, a summary, its start or end, a JSON part.

``filtered`` takes a JSONPath-like ``path`` (``$.results[*].title``, ``$.rows[0]``, ``$['odd key']``) and/or
``keys`` (the fields kept of an object or of each record); a JSON filter on an item that is not JSON, an
invalid path or a path that selects nothing raises :class:`~tasks.working.items.TransformError`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any, Literal

from tasks.providers.base import Embedder
from tasks.working.compaction import PLUGINS, clip, visible_text
from tasks.working.index import PassageIndex, excerpt
from tasks.working.items import TransformError, WorkingItem

Transform = Literal["full", "excerpt", "summary", "first_n", "last_n", "filtered"]
TRANSFORMS: tuple[str, ...] = ("full", "excerpt", "summary", "first_n", "last_n", "filtered")
_STEP = re.compile(r"\.([A-Za-z_][\w-]*)|\[(\d+|\*|'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")\]|\.\*")


def parse_path(path: str) -> list[str | int | None]:
    """The steps of a path: a key, an index, or None for every element (``[*]`` / ``.*``)."""
    text = path.strip()
    if not text.startswith("$"):
        raise TransformError(f"a JSON path starts with '$': {path!r}")
    steps: list[str | int | None] = []
    pos = 1
    while pos < len(text):
        m = _STEP.match(text, pos)
        if not m:
            raise TransformError(f"invalid JSON path {path!r} at character {pos}")
        if m.group(1) is not None:
            steps.append(m.group(1))
        elif m.group(2) is None or m.group(2) == "*":
            steps.append(None)
        elif m.group(2).isdigit():
            steps.append(int(m.group(2)))
        else:
            steps.append(json.loads('"' + m.group(2)[1:-1].replace('\\"', '"') + '"'))
        pos = m.end()
    return steps


def select(value: Any, steps: Sequence[str | int | None]) -> list[Any]:
    """Every value the path's steps reach (a wildcard fans out)."""
    current = [value]
    for step in steps:
        nxt: list[Any] = []
        for v in current:
            if step is None:
                nxt.extend(v.values() if isinstance(v, dict) else v if isinstance(v, list) else [])
            elif isinstance(step, int):
                if isinstance(v, list) and -len(v) <= step < len(v):
                    nxt.append(v[step])
            elif isinstance(v, dict) and step in v:
                nxt.append(v[step])
        current = nxt
    return current


def keep_keys(value: Any, keys: Sequence[str]) -> Any:
    if isinstance(value, dict):
        return {k: value[k] for k in keys if k in value}
    if isinstance(value, list):
        return [keep_keys(v, keys) for v in value]
    return value


def filtered(item: WorkingItem, path: str | None, keys: Sequence[str] | None) -> Any:
    if item.kind != "json":
        try:  # text that is JSON (a tool that returned a JSON string) is filtered too
            value = json.loads(item.text())
        except json.JSONDecodeError as exc:
            raise TransformError(f"item {item.memory_id} is not valid JSON ({exc.msg} at character {exc.pos}); "
                                 "use excerpt, first_n or last_n") from None  # fmt: skip
    else:
        value = item.value()
    if not path and not keys:
        raise TransformError("filtered takes a path ('$.results[*].title') or keys")
    if path:
        found = select(value, parse_path(path))
        if not found:
            raise TransformError(f"path {path!r} selects nothing in item {item.memory_id}")
        value = found[0] if len(found) == 1 and "*" not in path else found
    return keep_keys(value, keys) if keys else value


def summary(item: WorkingItem, limit: int) -> str:
    """A deterministic summary: the plugin's shape and title, then the lead sentence of each paragraph."""
    value = item.value() if item.kind != "text" else item.content
    plugin = next(p for p in PLUGINS if p.accepts(item, value))
    parts = plugin.compact(item, value, limit)
    head = " - ".join(x for x in (parts.title, parts.shape) if x)
    if item.kind != "text":
        return f"{head}\n{parts.excerpt}"
    body = visible_text(item.content) if "<" in item.content[:2000] else item.content
    leads: list[str] = []
    used = len(head)
    for para in re.split(r"\n\s*\n", body):
        sentence = re.split(r"(?<=[.!?])\s", " ".join(para.split()), maxsplit=1)[0]
        if len(sentence.split()) < 4:
            continue
        if used + len(sentence) > limit:
            break
        leads.append(sentence)
        used += len(sentence) + 1
    return f"{head}\n{' '.join(leads) or clip(body, limit)}"


def apply(
    item: WorkingItem,
    transform: str,
    *,
    index: PassageIndex | None = None,
    query: str = "",
    n: int | None = None,
    path: str | None = None,
    keys: Sequence[str] | None = None,
    max_chars: int = 1200,
    embedder: Embedder | None = None,
) -> Any:
    """The ``transform`` of ``item`` (``n`` characters for first_n / last_n; max_chars otherwise)."""
    if transform == "full":
        return item.value()
    if transform == "excerpt":
        return excerpt(index or PassageIndex.build(item.text()), query, max_chars, embedder)
    if transform == "summary":
        return summary(item, max_chars)
    if transform in ("first_n", "last_n"):
        count = max_chars if n is None else n
        if count < 0:
            raise TransformError(f"{transform} takes n >= 0, got {count}")
        text = item.text()
        return text[:count] if transform == "first_n" else text[len(text) - count :] if count else ""
    if transform == "filtered":
        return filtered(item, path, keys)
    raise TransformError(f"unknown transform {transform!r}; one of {', '.join(TRANSFORMS)}")
