"""The record of the session probe (:mod:`evaluation.session_probe`): a short session and what its store
must hold.

``turns``: ("user" | "agent", text) in order; ``expect``: lists of keywords that some active memory must
all contain (one list a fact); ``absent``: keywords no active memory may contain before its history
("(changed from …)"); ``note``: what the case tests.
"""

from __future__ import annotations

from typing import TypedDict


class SessionCase(TypedDict):
    turns: list[tuple[str, str]]
    expect: list[list[str]]
    absent: list[str]
    note: str


def S(turns: list[tuple[str, str]], expect: list[list[str]], absent: list[str], note: str) -> SessionCase:
    return {"turns": turns, "expect": expect, "absent": absent, "note": note}
