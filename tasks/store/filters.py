"""Safe building blocks for LanceDB ``where`` clauses (they are SQL): values are never pasted raw.

Strings are emitted as SQL literals with quotes doubled, checked by the id rule of :mod:`tasks.ids`; column
names must come from a fixed allow-list; timestamps are rendered from parsed datetimes only.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from tasks.clock import utc
from tasks.errors import InvalidFilterError
from tasks.ids import value_problem


def literal(value: str) -> str:
    """A SQL string literal for ``value``: quotes doubled; values the id rule refuses raise."""
    problem = value_problem(value)
    if problem:
        raise InvalidFilterError(f"filter value {problem}")
    return "'" + value.replace("'", "''") + "'"


def column(name: str, allowed: Iterable[str]) -> str:
    """A column name, accepted only from the caller's allow-list (never from user input)."""
    if name not in set(allowed):
        raise InvalidFilterError(f"unknown column {name!r}")
    return f"`{name}`"


def ts_literal(value: datetime) -> str:
    """A timestamp literal from a real datetime (naive values are taken as UTC)."""
    if not isinstance(value, datetime):
        raise InvalidFilterError("time filters take datetimes")
    return f"CAST('{utc(value).strftime('%Y-%m-%dT%H:%M:%S.%f')}' AS TIMESTAMP)"


def eq(name: str, value: str, allowed: Iterable[str]) -> str:
    return f"{column(name, allowed)} = {literal(value)}"


def is_in(name: str, values: Iterable[str], allowed: Iterable[str]) -> str:
    items = [literal(v) for v in values]
    if not items:
        raise InvalidFilterError(f"empty value list for {name!r}")
    return f"{column(name, allowed)} IN ({', '.join(items)})"


def all_of(*clauses: str | None) -> str:
    parts = [c for c in clauses if c]
    return " AND ".join(f"({c})" for c in parts)


def scope(app_name: str, user_id: str) -> str:
    """The tenant filter every per-user read starts with."""
    cols = ("app_name", "user_id")
    return all_of(eq("app_name", app_name, cols), eq("user_id", user_id, cols))
