"""`factjudge bench` against a misbehaving endpoint: faults of every kind, then SIGKILLs and resumes.

Starts the fault-injecting OpenAI-compatible server of the tests (factjudge/testing/openai_server.py)
on 127.0.0.1, answering in factjudge's output contracts and injecting a fault into a share of
the requests (429, 500, 503, hangs past the timeout, dropped and truncated connections, garbage
bodies, empty choices, malformed usage, off-contract replies, 2 MB replies, replies trickled a
byte every 0.2 s, each byte well within the timeout between two reads), and runs the real
command, `factjudge bench` on the first FELM world-knowledge answers at claim granularity, as a
subprocess. It prints what the run left behind:

- done, failed (errors.jsonl), unparseable (items with a verdict the parser gave up on),
  lost (neither done nor failed), duplicated (result lines for the same item);
- calls paid more than once: requests the server answered with a well-formed completion
  more than once, and call-cache entries computed more than once;
- the longest check and the checks that outlasted the deadline set for every check.

The cache part runs it with the call cache broken (garbage bytes) and locked by another process's
write transaction for a few seconds: every check must end within its deadline, none be lost.

The last part kills the bench with SIGKILL five times, spread over the run, resumes it each
time, and prints lost, duplicated and repeated calls against the calls in flight at the kills.

    python benchmarks/faults.py                        # both parts: 40 answers, 20% faults
    python benchmarks/faults.py --part kill --kills 5 --rate 0.2 --limit 40
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from throughput import FELM_WK, realistic_reply  # noqa: E402

from factjudge.testing.openai_server import FAULTS, FaultPlan, OpenAIServer  # noqa: E402

TIMEOUT = 2.0  # seconds per model call; a hang lasts longer
DEADLINE = 20.0  # seconds per check, across its calls and retries


def bench(server: OpenAIServer, tmp: Path, limit: int, concurrency: int,
          resume: bool) -> subprocess.Popen[str]:
    """Start `factjudge bench` on FELM-wk against the server, as a user would run it."""
    config = tmp / "check.toml"
    config.write_text(f"[check]\ntimeout = {TIMEOUT}\ndeadline = {DEADLINE}\n", encoding="utf-8")
    command = [sys.executable, "-m", "factjudge.cli", "bench", str(FELM_WK), "--limit", str(limit),
               "--grid", "granularity=claim", "--model", "openai:bench-model", "--base-url", server.base_url,
               "--config", str(config), "--run-dir", str(tmp / "run"), "--concurrency", str(concurrency),
               "--no-progress", *(["--resume"] if resume else [])]
    env = {**os.environ, "FACTJUDGE_CACHE": str(tmp / "calls.sqlite"), "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def lines(path: Path) -> list[dict[str, Any]]:
    """The complete JSON lines of a results file (a kill may leave half a line at the end)."""
    if not path.exists():
        return []
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        with contextlib.suppress(ValueError):
            rows.append(json.loads(line))
    return rows


def outcome(server: OpenAIServer, tmp: Path, expected: int) -> dict[str, Any]:
    """What the run directory and the server say happened."""
    results = lines(tmp / "run" / "results.jsonl")
    errors = lines(tmp / "run" / "errors.jsonl")
    done = {(r["example_id"], r["setup"]) for r in results}
    failed = {(r["example_id"], r["setup"]) for r in errors} - done
    verdicts = [r["result"]["segment_verdicts"] + r["result"]["claim_verdicts"] for r in results]
    unparseable = sum(any(v["label"] == "unparseable" for v in item) for item in verdicts)
    try:
        with sqlite3.connect(tmp / "calls.sqlite") as db:
            recomputed = db.execute("SELECT COUNT(*) FROM completions WHERE computed > 1").fetchone()[0]
    except sqlite3.Error:  # the cache part's broken file: nothing was stored
        recomputed = "n/a"
    seconds = [r["seconds"] for r in results if isinstance(r.get("seconds"), int | float)]
    return {"done": len(done), "failed": len(failed), "unparseable": unparseable,
            "lost": expected - len(done | failed), "duplicated": len(results) - len(done),
            "paid twice": server.paid_twice(), "cache recomputed": recomputed,
            "longest check (s)": max(seconds, default=0.0),
            "checks past the deadline": sum(s > DEADLINE + 1 for s in seconds),
            "errors": Counter(e["error"].split(":")[0] for e in errors)}


def faults_part(args: argparse.Namespace) -> None:
    """One run to the end under faults."""
    plan = FaultPlan(args.rate, args.kinds, hang_seconds=TIMEOUT * 2, rotate=True)
    with OpenAIServer(responder=realistic_reply, latency=args.latency, faults=plan) as server, \
            tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        started = time.perf_counter()
        process = bench(server, tmp, args.limit, args.concurrency, resume=False)
        stdout, stderr = process.communicate()
        wall = time.perf_counter() - started
        seen = outcome(server, tmp, args.limit)
        print(f"\n## Faults: FELM-wk, {args.limit} answers at claim granularity, {args.rate:.0%} of requests "
              f"faulty, timeout {TIMEOUT:g} s, deadline {DEADLINE:g} s, concurrency {args.concurrency}\n")
        said = (stdout or stderr).strip().splitlines()[-1]
        print(f"bench exit {process.returncode} in {wall:.1f} s: {said}\n")
        print(f"requests: {len(server.requests)}, faults injected: {sum(server.injected.values())} "
              f"({', '.join(f'{k} {server.injected[k]}' for k in args.kinds)})\n")
        print("| measure | value |\n|---|---|")
        for key in ("done", "failed", "unparseable", "lost", "duplicated", "paid twice", "cache recomputed",
                    "longest check (s)", "checks past the deadline"):
            print(f"| {key} | {seen[key]} |")
        if seen["errors"]:
            print(f"\nerrors.jsonl: {dict(seen['errors'])}")


def cache_part(args: argparse.Namespace) -> None:
    """The call cache broken (garbage bytes) or locked by another process's write transaction for
    ``LOCKED_SECONDS``: every check must end, within its deadline, and no paid reply be lost."""
    print(f"\n## The call cache: FELM-wk, {args.limit} answers, no endpoint faults\n")
    print("| cache | bench exit | done | failed | lost | paid twice | longest check (s) "
          "| checks past the deadline |")
    print("|---|---|---|---|---|---|---|---|")
    for case in ("broken", "locked"):
        with OpenAIServer(responder=realistic_reply, latency=args.latency) as server, \
                tempfile.TemporaryDirectory() as name:
            tmp = Path(name)
            holder = None
            if case == "broken":
                (tmp / "calls.sqlite").write_bytes(b"not a database " * 100)
            else:  # another process holds a write transaction, then lets go
                holder = subprocess.Popen([sys.executable, "-c", LOCK_HOLDER, str(tmp / "calls.sqlite"),
                                           str(LOCKED_SECONDS)], stdout=subprocess.PIPE, text=True)
                assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
            process = bench(server, tmp, args.limit, args.concurrency, resume=False)
            process.communicate()
            if holder is not None:
                holder.wait()
            seen = outcome(server, tmp, args.limit)
            print(f"| {case} | {process.returncode} | {seen['done']} | {seen['failed']} | {seen['lost']} | "
                  f"{seen['paid twice']} | {seen['longest check (s)']:.1f} "
                  f"| {seen['checks past the deadline']} |")


LOCKED_SECONDS = 15.0
# Another process's write transaction on the cache file: BEGIN IMMEDIATE holds SQLite's write lock.
LOCK_HOLDER = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("CREATE TABLE IF NOT EXISTS held (x)")
db.execute("BEGIN IMMEDIATE")
db.execute("INSERT INTO held VALUES (1)")
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
db.execute("ROLLBACK")
"""


def kill_part(args: argparse.Namespace) -> None:
    """SIGKILL the bench ``--kills`` times, spread over the run, resuming each time; then finish it."""
    plan = FaultPlan(args.rate, args.kinds, hang_seconds=TIMEOUT * 2, rotate=True)
    with OpenAIServer(responder=realistic_reply, latency=args.latency, faults=plan) as server, \
            tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        results = tmp / "run" / "results.jsonl"
        in_flight: list[int] = []
        print(f"\n## Kill and resume: {args.kills} SIGKILLs, {args.limit} answers, {args.rate:.0%} faults\n")
        print("| kill | results before | calls in flight at the kill |\n|---|---|---|")
        for kill in range(1, args.kills + 1):
            process = bench(server, tmp, args.limit, args.concurrency, resume=kill > 1)
            target = kill * args.limit // (args.kills + 1)
            deadline = time.monotonic() + 300
            while len(lines(results)) < target and process.poll() is None and time.monotonic() < deadline:
                time.sleep(0.02)
            if process.poll() is not None:
                print(f"| {kill} | {len(lines(results))} | (bench had ended: exit {process.returncode}) |")
                continue
            with server.lock:
                in_flight.append(server.in_flight)
            os.kill(process.pid, signal.SIGKILL)
            process.communicate()
            print(f"| {kill} | {len(lines(results))} | {in_flight[-1]} |")
        final = bench(server, tmp, args.limit, args.concurrency, resume=True)
        stdout, stderr = final.communicate()
        seen = outcome(server, tmp, args.limit)
        print(f"\nfinal resume: exit {final.returncode}: {(stdout or stderr).strip().splitlines()[-1]}\n")
        print("| measure | value |\n|---|---|")
        for key in ("done", "failed", "lost", "duplicated", "paid twice", "cache recomputed"):
            print(f"| {key} | {seen[key]} |")
        print(f"| calls in flight at the kills (bound on repeated calls) | {sum(in_flight)} |")


def main() -> None:
    """Parse flags and run the chosen parts."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--part", choices=["faults", "cache", "kill", "all"], default="all")
    parser.add_argument("--limit", type=int, default=40, help="answers (default 40)")
    parser.add_argument("--rate", type=float, default=0.2,
                        help="share of requests with a fault, every 1/rate-th, the kinds in turn "
                        "(default 0.2)")
    parser.add_argument("--kinds", type=lambda s: tuple(s.split(",")), default=FAULTS,
                        help=f"faults to inject, comma-separated (default all: {','.join(FAULTS)})")
    parser.add_argument("--kills", type=int, default=5)
    parser.add_argument("--latency", type=float, default=0.1, help="seconds per reply (default 0.1)")
    parser.add_argument("--concurrency", type=int, default=8)
    args = parser.parse_args()
    if not FELM_WK.exists():
        sys.exit(f"benchmark data missing: {FELM_WK}")
    if args.part in ("faults", "all"):
        faults_part(args)
    if args.part in ("cache", "all"):
        cache_part(args)
    if args.part in ("kill", "all"):
        kill_part(args)


if __name__ == "__main__":
    main()
