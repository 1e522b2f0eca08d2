"""Results files that hold odd text, foreign lines or hit a full disk (issue 22 point 10)."""

from __future__ import annotations

import json
import logging
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from factjudge.cli import main
from factjudge.eval.results import read_lines
from tests.support.timing import HANG_GUARD

ROOT = Path(__file__).resolve().parents[2]
# A model-free judge on TRUE-style pairs: a bench of many items in a second, no model built.
CHEAP = ["--strategy", "always_true", "--no-progress"]


def pairs(path: Path, n: int, odd: str = "") -> Path:
    rows = [{"id": f"item{i}", "question": "Where is it?",
             "answer": f"The Eiffel Tower is in Paris. Item {i}.{odd if i == 1 else ''}",
             "grounding": "The Eiffel Tower is a lattice tower in Paris, France.", "response_label": True}
            for i in range(n)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")  # "\ud800" as an escape
    return path


def bench(data: Path, run: Path, *more: str) -> int:
    return main(["bench", str(data), "--run-dir", str(run), *CHEAP, *more])


def test_a_lone_surrogate_in_a_row_is_written_resumed_and_reported(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data, run = pairs(tmp_path / "data.jsonl", 3, " \ud800"), tmp_path / "run"
    assert bench(data, run) == 0
    lines = list(read_lines(run / "results.jsonl"))
    assert len(lines) == 3 and any("\ud800" in ln["result"]["answer"] for ln in lines)  # read back as it was
    assert bench(data, run, "--resume") == 0
    assert "0 done, 3 already done" in capsys.readouterr().out
    assert main(["report", str(run)]) == 0
    assert "\\ud800" in (run / "report" / "report.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("foreign", ["{}", "null", "[1, 2]", '"text"', '{"example_id": "item0"}',
                                     '{"example_id": 1, "setup": [], "result": {}, "gold": {}}'])
def test_a_foreign_line_is_skipped_with_a_warning_naming_it(foreign: str, tmp_path: Path,
                                                           caplog: pytest.LogCaptureFixture,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    data, run = pairs(tmp_path / "data.jsonl", 2), tmp_path / "run"
    assert bench(data, run) == 0
    with (run / "results.jsonl").open("a", encoding="utf-8") as handle:
        handle.write(foreign + "\n")
    (run / "errors.jsonl").write_text(foreign + "\n", encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        assert main(["report", str(run)]) == 0
        assert bench(data, run, "--resume") == 0
    assert "0 done, 2 already done" in capsys.readouterr().out
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any("results.jsonl:3: skipped" in w for w in warned)
    assert any("errors.jsonl:1: skipped" in w for w in warned)


def _limit_file_size() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (16 * 1024, 16 * 1024))  # as `ulimit -f 16`


def test_a_full_disk_is_one_line_and_the_session_is_closed_as_failed(tmp_path: Path) -> None:
    data, run = pairs(tmp_path / "data.jsonl", 60), tmp_path / "run"
    done = subprocess.run([sys.executable, "-m", "factjudge.cli", "bench", str(data), "--run-dir", str(run),
                           *CHEAP], capture_output=True, cwd=ROOT, timeout=HANG_GUARD,
                          preexec_fn=_limit_file_size,
                          env={**os.environ, "FACTJUDGE_CACHE": str(tmp_path / "calls.sqlite")})
    assert done.returncode == 1, done.stderr
    assert b"Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert b"cannot write" in done.stderr and b"results.jsonl" in done.stderr and b"--resume" in done.stderr
    session = json.loads((run / "manifest.json").read_text())["sessions"][-1]
    assert session["finished"] and "cannot write" in session["error"]
    kept = list(read_lines(run / "results.jsonl"))
    assert 0 < len(kept) < 60 and session["done"] >= len(kept)
    # With room again, the run resumes where it stopped and ends with every item once.
    assert bench(data, run, "--resume") == 0
    assert sorted(ln["example_id"] for ln in read_lines(run / "results.jsonl")) == sorted(f"item{i}"
                                                                                        for i in range(60))
