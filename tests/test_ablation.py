"""The ablation harness: which modules are rules, how one is switched off, and the table it writes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

from evaluation.ablation import write_table
from evaluation.rule_switch import NOT_RULES, PROVIDERS_DIR, ablatable, neutral, rule_lines, rule_modules
from evaluation.timeaware import cases, measure
from evaluation.writepath.runner import CaseResult

ROOT = Path(__file__).resolve().parents[1]


def test_rule_modules_are_the_providers_files_that_are_not_clients_or_protocols() -> None:
    names = rule_modules()
    assert "base" not in names and "openai_client" not in names and "onnx_embedder" not in names
    assert set(names) | NOT_RULES >= {p.stem for p in PROVIDERS_DIR.glob("*.py")}
    assert "local_extractor" in names and "local_extractor" not in ablatable()
    assert rule_lines(["base"]) == len((PROVIDERS_DIR / "base.py").read_text(encoding="utf-8").splitlines())


def _bool(text: str) -> bool:
    return bool(text)


def _maybe(text: str) -> str | None:
    return text


def _items(text: str) -> list[str]:
    return [text]


def _rewrite(text: str) -> str:
    return text.upper()


def _pair(text: str) -> tuple[str, str]:
    return text, text


def test_each_result_shape_has_its_did_not_fire_answer() -> None:
    assert neutral(_bool, {})("x") is False  # type: ignore[arg-type, misc]
    assert neutral(_bool, {f"{__name__}._bool": True})("") is True  # type: ignore[arg-type, misc]
    assert neutral(_maybe, {})("x") is None  # type: ignore[arg-type, misc]
    assert neutral(_items, {})("x") == []  # type: ignore[arg-type, misc]
    assert neutral(_rewrite, {})("keep me") == "keep me"  # type: ignore[arg-type, misc]
    assert neutral(_pair, {}) is None  # type: ignore[arg-type]  # a fixed tuple stays on


def test_switching_a_module_off_replaces_it_where_other_modules_imported_it() -> None:
    code = (
        "from evaluation.rule_switch import switch_off\n"
        "import tasks.providers.local_extractor as le, tasks.providers.reactions as r\n"
        "before = le.is_reaction\n"
        "done = switch_off('reactions', everything=False)\n"
        "assert le.is_reaction is not before and r.is_reaction is le.is_reaction\n"
        "assert le.is_reaction('Wow, that is so cool!') is False and 'is_reaction' in done['off']\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False)
    assert out.stdout.strip() == "ok", out.stderr[-2000:]


def test_the_table_gives_each_row_as_its_change_from_the_baseline(tmp_path: Path) -> None:
    same, lower = {"wp_dev": 0.9, "ta_dev_changes": 0.5}, {"wp_dev": 0.8, "ta_dev_changes": 0.5}
    rows: dict[str, dict[str, Any]] = {
        "baseline": {"figures": same},
        "reactions": {"figures": same, "switched": {"reactions": {"off": ["a"], "kept_on": []}}},
        "people": {"figures": lower, "switched": {"people": {"off": ["a", "b"], "kept_on": ["c"]}}},
        "jobs": {"error": "KeyError: x"},
    }
    out = tmp_path / "ablation.md"
    write_table(rows, out)
    text = out.read_text(encoding="utf-8")
    assert "| reactions |" in text and "+0.000 | +0.000 | free on measured |" in text
    assert "| people |" in text and "-0.100" in text and "2/3" in text and "| costs |" in text
    assert "breaks: KeyError: x" in text


def test_time_aware_cases_load_and_are_counted_by_group() -> None:
    chosen = cases()
    assert {c.split for c in chosen} == {"dev", "heldout"} and len(chosen) == 80
    by_kind = {(c.split, c.kind, bool(c.old)) for c in chosen}
    assert ("heldout", "forget", False) in by_kind and ("dev", "fact", False) in by_kind
    results = [
        CaseResult(case_id=c.case_id, family=c.family, split=c.split, kind=c.kind, decision_ok=c.kind != "change",
                   survived_ok=True if c.verbatim else None, episode_ok=None)
        for c in chosen
    ]  # fmt: skip
    figures = measure(results, chosen)
    assert figures["dev"]["changes"] == [0, 14] and figures["heldout"]["traps"] == [10, 10]
    assert figures["heldout"]["specifics"] == [8, 8] and figures["dev"]["forgets"] == [8, 8]
