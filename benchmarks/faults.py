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

The kill part kills the bench with SIGKILL five times, spread over the run, resumes it each
time, and prints lost, duplicated and repeated calls against the calls in flight at the kills.

The local-deadline part runs the embedded llama.cpp path with SmolLM2 (`local:smollm2`): `factjudge
check --deadline 2` on 40 sentences, then `factjudge serve --deadline 10 --request-timeout 15
--max-concurrency 1` sent an answer of 100 sentences with a 200 KB context and, as soon as it is
answered, small requests one after another: how long the big one took, whether the only slot was
free for the next request within the request timeout, how many requests were lost (no reply, or
503), and how many items a partial result names as not judged.

The retrieval-deadline part runs checks against servers on 127.0.0.1 that take 2 s a reply: a
MediaWiki API (`--wiki api:URL`, 7 sentences) and 6 or 20 reference links, with `deadline = 5`, and
prints how long each check took and how many requests it sent.

    python benchmarks/faults.py                        # faults, cache and kill: 40 answers, 20% faults
    python benchmarks/faults.py --part kill --kills 5 --rate 0.2 --limit 40
    python benchmarks/faults.py --part local-deadline
    python benchmarks/faults.py --part retrieval-deadline
    python benchmarks/faults.py --part bounds          # fifo, slow-clients, listing, damaged-index

The bounds part (benchmarks/bounds.py, issue 44) measures what a FIFO named as a data file does to
auto, `wiki status` and `serve`'s start-up; `/healthz` and the server's descriptors under 300
slow-header clients; the Kiwix listing parse at 400 KB and 16 MB; and the checks after the packaged
index is damaged inside a page.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import os
import signal
import socketserver
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
sys.path.insert(0, str(ROOT))  # this checkout's factjudge, and the tests' MediaWiki server

from bounds import PARTS as BOUNDS  # noqa: E402
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
    ``--locked-seconds``: every check must end, within its deadline, and no paid reply be lost."""
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
                                           str(args.locked_seconds)], stdout=subprocess.PIPE, text=True)
                assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
            process = bench(server, tmp, args.limit, args.concurrency, resume=False)
            process.communicate()
            if holder is not None:
                holder.wait()
            seen = outcome(server, tmp, args.limit)
            print(f"| {case} | {process.returncode} | {seen['done']} | {seen['failed']} | {seen['lost']} | "
                  f"{seen['paid twice']} | {seen['longest check (s)']:.1f} "
                  f"| {seen['checks past the deadline']} |")


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


def cli_env(tmp: Path) -> dict[str, str]:
    """The environment of a `factjudge` subprocess: this checkout, a fresh call cache, and llama.cpp's
    threads (``--threads``: on a machine busy with other jobs one thread is faster than two)."""
    return {**os.environ, "FACTJUDGE_CACHE": str(tmp / "calls.sqlite"), "PYTHONPATH": str(ROOT),
            "FACTJUDGE_THREADS": os.environ.get("FACTJUDGE_THREADS", "1")}


def bridges(n: int) -> str:
    """An answer of ``n`` sentences, each a checkable fact."""
    return " ".join(f"The bridge number {i} opened in {1900 + i} and is {100 + i} metres long."
                    for i in range(n))


def http(method: str, url: str, body: dict[str, Any] | None = None, timeout: float = 600) -> tuple[int, str]:
    """One request with the standard library: status and body text (an HTTP error is a status too)."""
    import urllib.error
    import urllib.request

    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method,
                                     headers={"Content-Type": "application/json"} if data else {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as reply:
            return reply.status, reply.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def not_judged(body: str) -> int | str:
    """How many items a result names as left unjudged by the deadline ("—": no result came back)."""
    try:
        result = json.loads(body)
    except ValueError:
        return "—"
    if "segment_verdicts" not in result:
        return "—"
    verdicts = result["segment_verdicts"] + result["claim_verdicts"]
    return sum("deadline" in json.dumps(v) for v in verdicts)


def local_deadline_part(args: argparse.Namespace) -> None:
    """The embedded model's deadline: the CLI on 40 sentences, then the service's slot after a 504."""
    try:
        from factjudge.llm.local import smollm2_path

        smollm2_path()
        import llama_cpp  # noqa: F401
    except Exception as exc:  # any reason the model cannot run ends this part, with the reason
        print(f"\n## Local model deadline: skipped ({exc})")
        return
    threads = os.environ.get("FACTJUDGE_THREADS", "1")
    print(f"\n## Local model deadline: SmolLM2 through llama.cpp, {threads} thread(s)\n")
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "factjudge.cli", "check", "Tell me about the bridges.",
                               bridges(40), "--model", "local:smollm2", "--deadline", "2", "--context",
                               "The bridges opened in the twentieth century."],
                              capture_output=True, text=True, cwd=ROOT, env=cli_env(tmp))
        wall = time.perf_counter() - started
        said = (done.stderr.strip() or done.stdout.strip()).splitlines()[-1]
        print(f"`check --deadline 2 --model local:smollm2`, 40 sentences: exit {done.returncode} in "
              f"{wall:.1f} s (Python start and model load included): {said}\n")

        port = free_port()
        server = subprocess.Popen([sys.executable, "-m", "factjudge.cli", "serve", "--port", str(port),
                                   "--model", "local:smollm2", "--deadline", "10", "--request-timeout", "15",
                                   "--max-concurrency", "1", "--log-level", "warning"],
                                  cwd=ROOT, env=cli_env(tmp), stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, text=True)
        base = f"http://127.0.0.1:{port}"
        try:
            wait_until_up(base, server)
            small = {"answer": "Bridge 1 opened in 1901.", "context": ["Bridge 1 opened in 1901."]}
            http("POST", f"{base}/v1/check", small)  # loads the model
            line = ("Passage {j}, line {i}: the bridge number {i} was built of stone by the river guild in "
                    "{year}, and carts crossed it every market day.")
            context = [" ".join(line.format(j=j, i=i, year=1890 + i) for i in range(100))
                       for j in range(16)]  # about 200 KB
            big = {"answer": bridges(100), "context": context}
            started = time.perf_counter()
            status, body = http("POST", f"{base}/v1/check", big)
            took = time.perf_counter() - started
            followers = []
            for k in range(args.followers):  # each a new sentence: a model call, not the call cache
                one = {"answer": f"Bridge {k + 2} opened in {1902 + k}.", "context": small["context"]}
                started = time.perf_counter()
                try:
                    follower_status: int | str = http("POST", f"{base}/v1/check", one)[0]
                except OSError as exc:
                    follower_status = type(exc).__name__
                followers.append((follower_status, time.perf_counter() - started))
        finally:
            server.terminate()
            server.wait(30)
        statuses = Counter(str(s) for s, _ in followers)
        lost = sum(s != 200 for s, _ in followers)
        first_wait = followers[0][1] if followers else 0.0
        print("`serve --model local:smollm2 --deadline 10 --request-timeout 15 --max-concurrency 1`: an "
              "answer of 100 sentences with a 200 KB context, then small requests one after another\n")
        print("| measure | value |\n|---|---|")
        print(f"| the big request | {status} in {took:.1f} s |")
        print(f"| items it names as not judged | {not_judged(body)} |")
        print(f"| the next request (waits for the only slot) | {followers[0][0]} in {first_wait:.1f} s |")
        free = "yes" if followers[0][0] == 200 else "no"
        print(f"| slot free within the request timeout (15 s) | {free} |")
        print(f"| small requests after it: statuses | {dict(statuses)} |")
        print(f"| lost (no reply, 503 or other error) | {lost} |")


def free_port() -> int:
    """A port free on 127.0.0.1 now."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until_up(base: str, server: subprocess.Popen[str], seconds: float = 120) -> None:
    """Poll /healthz until the service answers; its stderr when it died instead."""
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        if server.poll() is not None:
            said = server.stderr.read() if server.stderr else ""
            raise RuntimeError(f"serve exited {server.returncode}: {said}")
        with contextlib.suppress(OSError):
            if http("GET", f"{base}/healthz", timeout=2)[0] == 200:
                return
        time.sleep(0.2)
    raise RuntimeError("serve did not answer /healthz")


SLOW_SECONDS = 2.0  # every reply of the retrieval part's servers
RETRIEVAL_DEADLINE = 5.0
WIKI_ARTICLES = {name: f"{name} is the capital of {country}. It is a large city with a long history."
                 for name, country in (("Madrid", "Spain"), ("Paris", "France"), ("Rome", "Italy"),
                                       ("Berlin", "Germany"), ("Vienna", "Austria"), ("Lisbon", "Portugal"),
                                       ("Prague", "Czechia"))}


def retrieval_deadline_part(args: argparse.Namespace) -> None:
    """Checks reading slow servers (MediaWiki, reference links) under ``deadline = 5``."""
    from factjudge.checking.api import check
    from factjudge.config import CheckConfig
    from factjudge.errors import FactJudgeError
    from factjudge.retrieval import links
    from tests.retrieval.wiki.mediawiki_server import MediaWikiServer, serve

    # The servers are on 127.0.0.1, which a check refuses to fetch from: let this process's fetcher in.
    allowed = links.address_problem
    links.address_problem = lambda ip, **kw: allowed(ip, **{**kw, "allow_loopback": True})
    # A fetch the deadline cut short leaves its server writing to a closed socket: not worth a traceback.
    socketserver.BaseServer.handle_error = lambda self, request, address: None  # type: ignore[method-assign]

    class SlowWiki(MediaWikiServer):
        def reply(self, params: dict[str, str]) -> dict[str, object]:
            time.sleep(SLOW_SECONDS)
            return super().reply(params)

    def timed(run: Any) -> tuple[float, str]:
        started = time.perf_counter()
        try:
            run()
            said = "finished"
        except FactJudgeError as exc:
            said = str(exc).split(";")[0]
        return time.perf_counter() - started, said

    print(f"\n## Retrieval deadline: servers on 127.0.0.1 answering in {SLOW_SECONDS:g} s, "
          f"deadline = {RETRIEVAL_DEADLINE:g} s, the model-free token_f1 judge\n")
    print("| check | took | requests | ended |\n|---|---|---|---|")
    config = CheckConfig(strategy="token_f1", deadline=RETRIEVAL_DEADLINE, use_cache=False)
    answer = " ".join(WIKI_ARTICLES[name].split(".")[0] + "." for name in WIKI_ARTICLES)
    server = SlowWiki(dict(WIKI_ARTICLES))
    with serve(server):
        wiki = config.replace(evidence=("wiki",), wiki=f"api:{server.url}")
        took, said = timed(lambda: check("Which cities are capitals?", answer, wiki))
        print(f"| `--wiki api:URL`, {len(WIKI_ARTICLES)} sentences | {took:.1f} s | {len(server.requests)} "
              f"| {said} |")
    for count in (6, 20):
        with slow_pages() as (base, seen):
            refs = [f"{base}/page{i}" for i in range(count)]
            took, said = timed(functools.partial(check, "Where is Etna?", "Mount Etna is in Sicily.", config,
                                                 refs=refs))
            print(f"| {count} reference links | {took:.1f} s | {len(seen)} | {said} |")


@contextlib.contextmanager
def slow_pages() -> Any:
    """Pages on 127.0.0.1 that each take SLOW_SECONDS; yields the base URL and the paths asked."""
    from http.server import BaseHTTPRequestHandler

    from factjudge.testing.live import serve_handler

    seen: list[str] = []
    page = b"<html><body><p>Mount Etna is an active volcano on the east coast of Sicily.</p></body></html>"

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            seen.append(self.path)
            time.sleep(SLOW_SECONDS)
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(page)))
                self.end_headers()
                self.wfile.write(page)

        def log_message(self, *args: Any) -> None:
            pass

    with serve_handler(Handler) as base:
        yield base, seen


def main() -> None:
    """Parse flags and run the chosen parts."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--part", choices=["faults", "cache", "kill", "local-deadline", "retrieval-deadline",
                                           "bounds", *BOUNDS, "all"], default="all",
                        help="all: faults, cache and kill (the deadline parts and the bounds run only when "
                        f"named; bounds: {', '.join(BOUNDS)})")
    parser.add_argument("--limit", type=int, default=40, help="answers (default 40)")
    parser.add_argument("--rate", type=float, default=0.2,
                        help="share of requests with a fault, every 1/rate-th, the kinds in turn "
                        "(default 0.2)")
    parser.add_argument("--kinds", type=lambda s: tuple(s.split(",")), default=FAULTS,
                        help=f"faults to inject, comma-separated (default all: {','.join(FAULTS)})")
    parser.add_argument("--kills", type=int, default=5)
    parser.add_argument("--locked-seconds", type=float, default=15.0,
                        help="cache: how long another process holds the cache's write lock (default 15)")
    parser.add_argument("--latency", type=float, default=0.1, help="seconds per reply (default 0.1)")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--followers", type=int, default=5,
                        help="local-deadline: small requests sent after the big one (default 5)")
    args = parser.parse_args()
    if args.part == "local-deadline":
        local_deadline_part(args)
        return
    if args.part == "retrieval-deadline":
        retrieval_deadline_part(args)
        return
    if args.part == "bounds" or args.part in BOUNDS:
        for name, part in BOUNDS.items():
            if args.part in ("bounds", name):
                part()
        return
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
