"""The one rule for ids and filter values, applied at validation and in every read filter.

A value that validation accepts must be usable in a Lance ``where`` clause later, or one bad id
would wedge every later run; so both sides call :func:`value_problem`.
"""

from __future__ import annotations

import unicodedata

MAX_ID_CHARS = 512


def value_problem(value: object) -> str | None:
    """Why ``value`` cannot be stored as an id or used in a filter, or None when it can."""
    if not isinstance(value, str):
        return f"must be a string, got {type(value).__name__}"
    if len(value) > MAX_ID_CHARS:
        return f"longer than {MAX_ID_CHARS} characters"
    for ch in value:
        category = unicodedata.category(ch)
        if category == "Cc":
            return "contains control characters"
        if category == "Cs":
            return "is not valid UTF-8 (lone surrogate)"
    return None


def id_problem(value: object) -> str | None:
    """The id rule: a value (see :func:`value_problem`) that is not blank."""
    problem = value_problem(value)
    if problem is None and isinstance(value, str) and not value.strip():
        return "is empty or white space (ids must be not blank)"
    return problem
