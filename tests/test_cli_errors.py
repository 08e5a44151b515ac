"""Every CLI error is one line on stderr, exit 2 for usage and 1 for failure, a traceback only with --debug."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from flows.cli import main
from tests.conftest import REPO


def one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip()
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("memory-pipeline: error:"), err
    return lines[0]


def exit_code(argv: list[str]) -> int:
    """The command's exit code, whether main returns it or argparse exits."""
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


@pytest.mark.parametrize(
    ("argv", "code", "says"),
    [
        (["ingest", "--sessions", "/no/such/dir"], 1, "neither a file nor a folder"),
        (["evaluate", "--dataset", "locomo", "--path", "/no/such/dir"], 1, "/no/such/dir"),
        (["evaluate", "--dataset", "synthetic", "--systems", "pipeline,bogus"], 2, "bogus"),
        (["rollback", "no-such-run"], 1, "no memory store"),
        (["history", "no-such-memory"], 1, "no memory store"),
        (["recall", "--app", "a", "--user", "u", "tea"], 1, "no memory store"),
        (["edit", "x", "new text"], 1, "no memory store"),
        (["forget", "--app", "a", "--user", "u"], 1, "no memory store"),
        (["import", "/no/such/export"], 1, "not an export"),
        (["recall", "--app", "a", "--user", "u", "--k", "many", "tea"], 2, "invalid int value"),
        (["frobnicate"], 2, "invalid choice"),
    ],
)
def test_errors_are_one_line_with_the_right_code(argv, code, says, tmp_path: Path, capsys) -> None:
    store = tmp_path / "store"
    store_arg = [] if argv == ["frobnicate"] else ["--store", str(store)]

    assert exit_code([*argv, *store_arg]) == code

    err = capsys.readouterr().err.strip()
    assert "Traceback" not in err and says in err
    last = err.splitlines()[-1]
    assert last.startswith("memory-pipeline: error:") if code == 1 else last.startswith("memory-pipeline")
    if argv[0] in {"recall", "history", "rollback", "edit", "forget"}:
        assert not store.exists()  # read commands (and a failed edit) never create a store


@pytest.fixture(scope="module")
def sample_store(tmp_path_factory: pytest.TempPathFactory) -> str:
    store = str(tmp_path_factory.mktemp("sample") / "store")
    assert main(["ingest", "--sessions", str(REPO / "data" / "sessions" / "sample.jsonl"), "--store", store]) == 0
    return store


@pytest.mark.parametrize(
    ("argv", "code", "says"),
    [
        (["rollback", "no-such-run"], 1, "no run 'no-such-run'"),
        (["history", "no-such-memory"], 1, "no memory with id 'no-such-memory'"),
        (["edit", "no-such-memory", "new text"], 1, "no memory with id 'no-such-memory'"),
        (["delete", "x' OR '1'='1"], 1, "no memory with id"),
        (["memories", "--app", "a", "--user", "bad\x01id"], 2, "control characters"),
        (["forget", "--app", "travel-assistant", "--user", "alice", "--memory", "nope"], 1, "no memory"),
    ],
)
def test_errors_on_an_existing_store(argv, code, says, sample_store: str, capsys) -> None:
    capsys.readouterr()
    assert exit_code([*argv, "--store", sample_store]) == code
    line = one_line_error(capsys)
    assert says in line


def test_usage_errors_exit_2_through_argparse(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["evaluate", "--dataset", "synthetic", "--systems", "nope"])
    assert exit_info.value.code == 2
    assert "unknown system(s) ['nope']" in capsys.readouterr().err


def test_invalid_setting_from_the_environment_is_one_line(monkeypatch, tmp_path: Path, capsys) -> None:
    monkeypatch.setenv("MEMORY_PIPELINE_EXTRACTOR", "bogus")
    assert main(["ingest", "--sessions", str(tmp_path), "--store", str(tmp_path / "s")]) == 1
    line = one_line_error(capsys)
    assert "extractor" in line and "'local' or 'openai'" in line


def test_a_missing_settings_file_is_an_error(monkeypatch, tmp_path: Path, capsys) -> None:
    monkeypatch.setenv("MEMORY_PIPELINE_SETTINGS_FILE", str(tmp_path / "nope.toml"))
    assert main(["memories", "--app", "a", "--user", "u", "--store", str(tmp_path / "s")]) == 1
    line = one_line_error(capsys)
    assert "nope.toml" in line and "does not exist" in line


@pytest.mark.slow
def test_the_real_command_prints_one_line_and_debug_shows_the_traceback(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORY_PIPELINE_")} | {"PYTHONPATH": str(REPO)}
    argv = [sys.executable, "-m", "flows.cli", "ingest", "--sessions", "/no/such/dir", "--store", str(tmp_path / "s")]

    plain = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=300, cwd=tmp_path)
    debug = subprocess.run([*argv, "--debug"], env=env, capture_output=True, text=True, timeout=300, cwd=tmp_path)

    assert plain.returncode == 1 and plain.stdout == ""
    assert plain.stderr.strip().splitlines() == [
        "memory-pipeline: error: session source '/no/such/dir' is neither a file nor a folder"
    ]
    assert debug.returncode == 1 and "Traceback" in debug.stderr and "SourceError" in debug.stderr
