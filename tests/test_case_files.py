"""The probes' case lists are data files (evaluation/cases/*.jsonl) read by one validating loader.

The digests pin each file to the cases the Python modules held before they became data (group labels
aside), so a probe's figures stay comparable; a bad line fails with its file and line.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import astuple
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter

from evaluation.asked_now import LIFE
from evaluation.asked_now import splits as asked_now_splits
from evaluation.attribution_probe import conversations
from evaluation.cases import CaseFileError, read_cases
from evaluation.chat_probe import CASE, cases
from evaluation.kinds_probe import conversations as kinds_conversations
from evaluation.life_endings import cases as life_endings_cases
from evaluation.session_probe import SESSION_CASE, splits

# name → (cases, sha256 prefix of the module's list as canonical JSON)
PINNED = {
    "chat_probe11": (64, "f9c6d389d337d6af"),
    "chat_probe12": (64, "5065ac6940233d61"),
    "chat_probe13": (64, "9d714be99dcf2458"),
    "chat_probe14": (64, "753e1b08256a8e07"),
    "session_probe15": (48, "3dd0bf4076088ba9"),
    "session_written_dev": (6, "97a2cb8b3cc9ae69"),
    "session_written_held": (6, "5a3323e0f0804a1a"),
    "asked_now_dev": (12, "c07ed188aaafbcdb"),
    "asked_now_held": (12, "23bf15a7d469bf85"),
    "asked_now_held2": (12, "b8120d7195c13fd8"),
}
SHAPES: dict[str, TypeAdapter[Any]] = {"chat": CASE, "session": SESSION_CASE, "asked": LIFE}


def _digest(loaded: list[Any]) -> str:
    bare = [{k: v for k, v in case.items() if k != "group"} if isinstance(case, dict) else case for case in loaded]
    return hashlib.sha256(json.dumps(bare, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]


@pytest.mark.parametrize("name", sorted(PINNED))
def test_case_file_holds_the_cases_its_module_held(name: str) -> None:
    loaded = read_cases(name, SHAPES[name.split("_")[0]])
    assert (len(loaded), _digest(loaded)) == PINNED[name]


def test_probes_read_their_files() -> None:
    assert [len(cases(n)) for n in (11, 12, 13, 14)] == [64, 64, 64, 64]
    assert {c["group"] for c in cases(14)} >= {"1. voice-to-text run-ons", "2. bullet / numbered lists"}
    written = splits(written=True)
    assert (len(written["DEV"]), len(written["HELD-OUT"])) == (6, 6)
    assert all(isinstance(turn, tuple) for case in written["DEV"] for turn in case["turns"])
    lives = asked_now_splits()
    assert {split: len(v) for split, v in lives.items()} == {"dev": 12, "held-out": 12, "held-out-2": 12}
    user, told, questions = lives["dev"][0]
    assert (user, type(told), type(questions[0][1])) == ("marguerite", tuple, tuple)
    with pytest.raises(ValueError, match="unknown chat probe 15"):
        cases(15)


def test_life_endings_cases_are_the_tuples_its_modules_held() -> None:
    def digest(split: str) -> str:
        told = life_endings_cases("dev" if split == "dev" else "held")
        return hashlib.sha256(json.dumps(told, ensure_ascii=False).encode()).hexdigest()[:16]

    assert (len(life_endings_cases("dev")), digest("dev")) == (150, "ae4fa5765578b5cd")
    assert (len(life_endings_cases("held")), digest("held")) == (56, "d9895efd8c94d5a3")
    batches = [row["batch"] for row in read_cases("life_endings_dev", TypeAdapter(dict[str, Any]))]
    assert [batches.count(b) for b in (1, 2, 3, 4)] == [32, 30, 48, 40]


def test_attribution_sets_are_the_conversations_their_module_and_file_held() -> None:
    def digest(case_set: int) -> str:
        by_split = {k: [astuple(c) for c in v] for k, v in conversations(case_set).items()}
        return hashlib.sha256(json.dumps(by_split, ensure_ascii=False).encode()).hexdigest()[:16]

    assert digest(1) == "e466fbd44d865549"
    assert digest(2) == "3a8e13d8d089622d"
    with pytest.raises(ValueError, match="unknown attribution set 3"):
        conversations(3)


def test_kinds_conversations_are_the_padded_ones_their_module_built() -> None:
    by_split = {k: [astuple(c) for c in v] for k, v in kinds_conversations().items()}
    assert {k: len(v) for k, v in by_split.items()} == {"DEV": 2, "HELD-OUT": 2, "HELD-OUT-2": 2}
    assert hashlib.sha256(json.dumps(by_split, ensure_ascii=False).encode()).hexdigest()[:16] == "9d266990cedb00ba"


def test_a_bad_line_names_its_file_and_line(tmp_path: Path) -> None:
    good = json.dumps({"text": "hi", "expect": [], "absent": ["hi"], "note": "pleasantry"})
    (tmp_path / "bad.jsonl").write_text(good + "\n\n" + json.dumps({"text": "no note"}) + "\n", encoding="utf-8")
    with pytest.raises(CaseFileError, match=r"bad\.jsonl:3: not a case"):
        read_cases("bad", CASE, folder=tmp_path)
    with pytest.raises(CaseFileError, match="cannot read case file"):
        read_cases("missing", CASE, folder=tmp_path)
