"""`factjudge bench` with the local model, killed with SIGKILL mid-run, then resumed."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FELM_WK = ROOT.parent / "shared" / "data" / "felm_wk.jsonl"
pytestmark = [pytest.mark.local_model, pytest.mark.slow,
              pytest.mark.skipif(not FELM_WK.exists(), reason="needs ../shared/data")]


def bench_command(run_dir: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "factjudge.cli", "bench", str(FELM_WK), "--limit", "5",
            "--grid", "strategy=vanilla,fact", "--model", "local:smollm2", "--run-dir", str(run_dir),
            "--concurrency", "2", "--deadline", "600",  # a loaded machine must not fail a resume test
            "--no-progress", *extra]


def count_lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def test_sigkill_then_resume_finishes_every_item_once_and_pays_no_call_twice(tmp_path: Path) -> None:
    pytest.importorskip("llama_cpp")
    env = {**os.environ, "FACTJUDGE_CACHE": str(tmp_path / "calls.sqlite")}
    run_dir = tmp_path / "run"
    results = run_dir / "results.jsonl"
    process = subprocess.Popen(bench_command(run_dir), cwd=ROOT, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 240
    while count_lines(results) < 3 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert process.poll() is None, process.stderr.read() if process.stderr else ""
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    killed_at = count_lines(results)
    assert 3 <= killed_at < 10

    resumed = subprocess.run(bench_command(run_dir, "--resume"), cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    assert f"{killed_at} already done" in resumed.stdout

    lines = [json.loads(line) for line in results.read_text().splitlines()]
    keys = [(line["example_id"], line["setup"]) for line in lines]
    assert len(keys) == 10 and len(set(keys)) == 10  # every item exactly once
    with sqlite3.connect(tmp_path / "calls.sqlite") as db:
        recomputed = db.execute("SELECT COUNT(*) FROM completions WHERE computed > 1").fetchone()[0]
        entries = db.execute("SELECT COUNT(*) FROM completions").fetchone()[0]
    assert recomputed == 0 and entries >= 10  # nothing judged twice: no call was made again
    manifest = json.loads((run_dir / "manifest.json").read_text())
    assert manifest["sessions"][0]["finished"] is None  # the killed session never got to finish
    assert manifest["sessions"][1]["done"] == 10 - killed_at
