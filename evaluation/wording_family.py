"""The wording suite's record: a family of rewrite cases and chat cases, ``dev`` or ``heldout``."""

from __future__ import annotations

from dataclasses import dataclass

from evaluation.writepath.cases import Split

Case = tuple[str, str, str]
#: A user's turn, phrases its memories must contain, phrases they must not.
ChatCase = tuple[str, tuple[str, ...], tuple[str, ...]]


@dataclass(frozen=True)
class Family:
    name: str
    split: Split
    cases: tuple[Case, ...] = ()
    chat: tuple[ChatCase, ...] = ()
