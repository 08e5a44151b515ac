"""Probe and held-out case lists as data: one JSONL file a list, one case a line, read by :func:`read_cases`.

Cases are data, not code, so that adding a probe set is adding a file, and a case is read the same way by
every probe. Each probe declares the shape of its cases (a TypedDict) and reads its files through one
validating loader, so a malformed line fails with its file and line instead of surfacing as a wrong count.
"""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

from pydantic import TypeAdapter, ValidationError

__all__ = ["CASES_DIR", "CaseFileError", "read_cases"]

CASES_DIR = Path(__file__).parent
T = TypeVar("T")


class CaseFileError(ValueError):
    """A case file is missing or a line does not have its probe's shape."""


def read_cases(name: str, shape: TypeAdapter[T], *, folder: Path = CASES_DIR) -> list[T]:
    """The cases of ``<folder>/<name>.jsonl`` in file order, each validated against ``shape``."""
    path = folder / f"{name}.jsonl"
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise CaseFileError(f"cannot read case file {path}: {error}") from error
    cases: list[T] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            cases.append(shape.validate_json(line, strict=False))
        except ValidationError as error:
            raise CaseFileError(f"{path.name}:{number}: not a case of this probe: {error}") from error
    return cases
