"""A run directory (issue 14): one bench at a time, duplicates counted once, a corrupt manifest refused."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from factjudge.cli import main
from factjudge.eval.report import write_report
from factjudge.eval.results import read_results

ROOT = Path(__file__).resolve().parents[2]
BEGIN = ROOT.parent / "shared" / "data" / "begin_dev_wow.tsv"
pytestmark = pytest.mark.skipif(not BEGIN.exists(), reason="needs ../shared/data")
HOLD_LOCK = ("import sys, time; from pathlib import Path; from factjudge.eval.run_lock import RunLock\n"
             "with RunLock(Path(sys.argv[1])):\n    print('locked', flush=True); time.sleep(120)")


def bench(run_dir: Path, *extra: str) -> int:
    """A bench with a model-free judge on four BEGIN pairs."""
    return main(["bench", str(BEGIN), "--limit", "4", "--strategy", "token_f1", "--run-dir", str(run_dir),
                 "--no-progress", *extra])


def test_a_second_bench_on_a_run_dir_in_use_is_refused_and_a_killed_holder_blocks_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", HOLD_LOCK, str(run_dir)], cwd=ROOT,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        assert bench(run_dir) == 2
        err = capsys.readouterr().err
        assert err == f"factjudge: error: run dir {run_dir} is in use by another bench (pid {holder.pid})\n"
        assert not (run_dir / "results.jsonl").exists()  # refused before anything was written
    finally:
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait()
    # The lock file is still there, but its flock died with the process.
    assert (run_dir / "bench.lock").exists()
    assert bench(run_dir, "--resume") == 0
    assert len(read_results(run_dir / "results.jsonl")) == 4


def test_report_counts_each_example_and_setup_once(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    assert bench(run_dir) == 0
    results = run_dir / "results.jsonl"
    lines = results.read_text(encoding="utf-8").splitlines()
    changed = json.loads(lines[0])
    changed["seconds"] = 99.0
    # As two benches on one run dir once wrote: every line twice, the later copy different.
    results.write_text("\n".join([*lines, *lines[1:], json.dumps(changed)]) + "\n", encoding="utf-8")
    kept = read_results(results)
    assert len(kept) == 4 and kept[0]["seconds"] == 99.0  # the last copy wins
    markdown = write_report(run_dir)["markdown"].read_text(encoding="utf-8")
    assert "4 results, 0 failed;" in markdown


@pytest.mark.parametrize("manifest", [b"{not json", b"[1, 2]", b"\xff\xfe"])
def test_a_corrupt_manifest_is_one_line_in_report_and_resume(manifest: bytes, tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = tmp_path / "run"
    assert bench(run_dir) == 0
    capsys.readouterr()
    path = run_dir / "manifest.json"
    path.write_bytes(manifest)
    for command in (lambda: main(["report", str(run_dir)]), lambda: bench(run_dir, "--resume")):
        code = command()
        err = capsys.readouterr().err
        assert code == 2 and err.count("\n") == 1 and f"cannot read {path}" in err, err


def test_resume_refuses_a_manifest_bench_did_not_write(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = tmp_path / "run"
    assert bench(run_dir) == 0
    (run_dir / "manifest.json").write_text('{"sessions": "x"}', encoding="utf-8")
    assert bench(run_dir, "--resume") == 2
    assert "not what bench writes" in capsys.readouterr().err
