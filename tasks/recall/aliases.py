"""A person the question calls by another name than the memories do: "What instrument is Nora learning?"
when the user said "my sister is learning the cello" before they ever named her.

The write path ties a name to the user once they say it ("my sister Nora" → "User's sister Nora ...";
:mod:`tasks.providers.people`), and from then on writes both. What was said before the tie, or with
one of the two only ("Had coffee with Nora, she just adopted a greyhound"), keeps the one it said, so a
question with the other matches it only by meaning, as closely as anyone else's cello or cat.

Recall reads the ties among the candidates its first search found (the question's name or relation
brings the tie's memory along), and when the question says one side of a tie and not the other, it
searches again with the other side said too (:func:`with_names`). A relation with two names ("my
brother" Leo and Sam) adds neither: it would be a guess.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import numpy as np
import pyarrow as pa

from tasks.providers.people import memory_ties
from tasks.recall.abstain import name_words
from tasks.recall.legs import BM25, COSINE, FUSED

#: The owner of the ties read from memories: the single user of an assistant's store.
OWNER = "User"


def other_names(query: str, contents: Iterable[str]) -> tuple[tuple[str, str], ...]:
    """(what the query says, the other side of its tie) for each tie the query says one side of:
    ("Nora", "my sister"), ("my sister", "Nora"), in the order the query says them."""
    known = memory_ties(contents, OWNER)
    if not known:
        return ()
    by_relation: dict[str, list[str]] = {}
    for name, relation in known.items():
        by_relation.setdefault(relation, []).append(name)
    out: list[tuple[int, str, str]] = []
    names_said = set()
    for at, name in name_words(query):
        if name in known:
            names_said.add(name)
            if _relation_at(query, known[name]) is None:
                out.append((at, name, f"my {known[name]}"))
    for relation, names in by_relation.items():
        if len(names) == 1 and names[0] not in names_said and (said := _relation_at(query, relation)):
            out.append((said.start(), said[0], names[0]))
    return tuple((said, other) for _, said, other in sorted(out))


def found_names(query: str, results: Sequence[pa.Table | None]) -> tuple[tuple[str, str], ...]:
    """:func:`other_names` from the ties among the memories a search found (memories are its first table)."""
    found = results[0] if results else None
    if found is None or not found.num_rows or "content" not in found.column_names:
        return ()
    return other_names(query, (text for text in found.column("content").to_pylist() if text))


def _relation_at(query: str, relation: str) -> re.Match[str] | None:
    """Where the query says the relation as the user's own: "my sister", "our dog", "User's best friend"."""
    return re.search(rf"\b(?:my|our|user['’]s) {re.escape(relation)}\b", query, re.I)


def with_names(query: str, names: tuple[tuple[str, str], ...], *, both: bool = False) -> str:
    """The query saying the other names instead ("What instrument is my sister learning?"), or beside
    them with ``both`` ("What instrument is Nora (my sister) learning?")."""
    for said, other in names:
        query = query.replace(said, f"{said} ({other})" if both else other, 1)
    return query


def merged(first: pa.Table | None, second: pa.Table | None, key: str) -> pa.Table | None:
    """One table's candidates found by either query, each row once with its better score of the two
    (cosine, BM25 and fused alike): a memory that says the name and one that says the relation both
    stay candidates."""
    if first is None or not first.num_rows:
        return second
    if second is None or not second.num_rows:
        return first
    rows = pa.concat_tables([first, second], promote_options="default")
    first_row: dict[object, int] = {}  # each key's first row, in the order the keys come
    for i, value in enumerate(rows.column(key).to_pylist()):
        first_row.setdefault(value, i)
    group_of = {value: g for g, value in enumerate(first_row)}
    groups = np.array([group_of[v] for v in rows.column(key).to_pylist()])
    out = rows.take(pa.array(list(first_row.values())))
    for name in (COSINE, BM25, FUSED):
        if name in rows.column_names:
            values = rows.column(name).to_numpy(zero_copy_only=False).astype(np.float64)
            best = np.full(len(group_of), -np.inf)
            np.fmax.at(best, groups, values)  # a missing (NaN) score never wins
            column = pa.array(best, type=rows.schema.field(name).type, mask=np.isneginf(best))
            out = out.set_column(out.column_names.index(name), name, column)
    return out


def merged_all(
    first: Sequence[pa.Table | None], second: Sequence[pa.Table | None], keys: Sequence[str]
) -> list[pa.Table | None]:
    """:func:`merged` per table."""
    return [merged(a, b, k) for a, b, k in zip(first, second, keys, strict=True)]
