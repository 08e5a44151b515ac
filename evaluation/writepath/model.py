"""The write-path suite's records: a case (sessions and what must hold after them) and a family."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from evaluation.writepath.values import Gen

Split = Literal["dev", "heldout"]
Kind = Literal["change", "negation", "retraction", "confirm", "add", "fact", "forget"]


@dataclass(frozen=True)
class Case:
    case_id: str
    family: str
    split: Split
    kind: Kind
    sessions: tuple[tuple[str, ...], ...]
    new: tuple[str, ...] = ()
    old: tuple[str, ...] = ()
    keep: tuple[str, ...] = ()
    verbatim: tuple[str, ...] = ()
    single: bool = False
    question: str = ""
    #: Wording no active memory may hold ("lives in" after moving to the night shift).
    absent: tuple[str, ...] = ()


@dataclass(frozen=True)
class Family:
    name: str
    split: Split
    kind: Kind
    build: Callable[[Gen, int], dict[str, object]]
    domains: tuple[str, ...] = field(default=())
