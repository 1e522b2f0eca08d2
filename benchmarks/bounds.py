"""The bounds of issue 44, measured (run through ``benchmarks/faults.py --part bounds``):

- fifo: FIFOs named ``enwiki.db``, ``wikipedia_en_all_maxi_2024-01.zim`` and the packaged index in the
  data folder and cache: how long `auto` (what a default check asks first), `wiki status` and `serve`'s
  start-up take, each in a fresh process stopped after 60 s;
- slow-clients: 300 clients on 127.0.0.1 each sending a header line a byte a second and never ending
  it, for 15 s, against `factjudge serve` with its bounds and with them lifted, the server's open-file
  limit at 256 (macOS's default): the server's open descriptors and `/healthz` latency, sampled;
- listing: seconds to read a Kiwix listing of `wikipedia_` repeated (400 KB and the 16 MB cap), and the
  former pattern's seconds at 10, 20 and 40 KB (it grows with the square: 400 KB took 90 s);
- damaged-index: a packaged index of 3,000 articles with one page overwritten in the middle: what the
  next three runs reading every article (each a fresh process) do, and how long SQLite's quick_check takes.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
FLOOD, FLOOD_SECONDS, FD_LIMIT = 300, 15.0, 256


def _env(**extra: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), **extra}


def _timed(command: list[str], env: dict[str, str], seconds: float = 60) -> tuple[str, float]:
    """How a command ended ("exit N" or "still running, stopped") and how long it took."""
    started = time.perf_counter()
    try:
        done = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, timeout=seconds)
        said = f"exit {done.returncode}"
    except subprocess.TimeoutExpired:
        said = f"still running after {seconds:g} s, stopped"
    return said, time.perf_counter() - started


def fifo_part() -> None:
    """auto, wiki status and serve's start-up with FIFOs named as data files."""
    print("\n## FIFOs named as data files (enwiki.db, a Kiwix .zim, the packaged index)\n")
    print("| what | ended | seconds |\n|---|---|---|")
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        data, cache = tmp / "data" / "factjudge" / "wiki", tmp / "cache" / "factjudge" / "wiki"
        data.mkdir(parents=True)
        cache.mkdir(parents=True)
        for fifo in (data / "enwiki-20230401.db", data / "wikipedia_en_all_maxi_2024-01.zim",
                     cache / "packaged-0123456789abcdef-v1.sqlite"):
            os.mkfifo(fifo)
        env = _env(XDG_DATA_HOME=str(tmp / "data"), XDG_CACHE_HOME=str(tmp / "cache"))
        auto = [sys.executable, "-c", "from factjudge.config import CheckConfig\n"
                "print(CheckConfig(language='en').wiki_source())"]
        for what, command in (("auto (a default check's first step)", auto),
                              ("wiki status", [sys.executable, "-m", "factjudge.cli", "wiki", "status"])):
            said, took = _timed(command, env)
            print(f"| {what} | {said} | {took:.1f} |")
        port = free_port()
        server = subprocess.Popen([sys.executable, "-m", "factjudge.cli", "serve", "--port", str(port),
                                   "--model", "openai:unused", "--base-url", "http://127.0.0.1:9/v1",
                                   "--log-level", "warning"], env=env, cwd=ROOT,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        started = time.perf_counter()
        try:
            up = "/healthz answered" if _wait_up(port, server) else "no answer in 60 s"
        finally:
            server.terminate()
            server.wait(10)
        print(f"| serve start-up | {up} | {time.perf_counter() - started:.1f} |")


def free_port() -> int:
    """A port free on 127.0.0.1 now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_up(port: int, server: subprocess.Popen[Any], seconds: float = 60) -> bool:
    """Whether the server answers /healthz within ``seconds`` (False at once if it exits)."""
    ends = time.monotonic() + seconds
    while time.monotonic() < ends and server.poll() is None:
        if _healthz_ms(port) is not None:
            return True
        time.sleep(0.2)
    return False


def _open_fds(pid: int) -> int | str:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return "n/a"


def _healthz_ms(port: int) -> float | None:
    """Milliseconds /healthz takes on a new connection (None: no answer within 2 s)."""
    started = time.perf_counter()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as sock:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            if not sock.recv(100).startswith(b"HTTP/1.1 200"):
                return None
    except OSError:
        return None
    return (time.perf_counter() - started) * 1000


def _flood(port: int, stop: threading.Event, opened: list[int]) -> None:
    """FLOOD clients each sending a header a byte a second, reconnecting when closed, until ``stop``."""
    socks: list[socket.socket | None] = [None] * FLOOD
    try:
        while not stop.is_set():
            for i in range(FLOOD):
                sock = socks[i]
                try:
                    if sock is None:
                        sock = socket.create_connection(("127.0.0.1", port), timeout=1)
                        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                        socks[i] = sock
                        opened[0] += 1
                    else:
                        sock.sendall(b"x")
                except OSError:
                    if sock is not None:
                        sock.close()
                    socks[i] = None
            stop.wait(1.0)
    finally:
        for sock in socks:
            if sock is not None:
                sock.close()


# The service as `serve` ran it before issue 44: the same app, uvicorn's own connection handling.
BEFORE = """
import sys, uvicorn
from factjudge.cli import build_parser
from factjudge.integrations.serve_cli import build_app
args = build_parser().parse_args(["serve", *sys.argv[1:]])
uvicorn.run(build_app(args), host=args.host, port=args.port, log_level=args.log_level)
"""


def slow_clients_part() -> None:
    """/healthz and the server's descriptors under 300 slow-header clients, bounds on and lifted."""
    print(f"\n## {FLOOD} slow-header clients for {FLOOD_SECONDS:g} s, the server's open-file limit "
          f"{FD_LIMIT}\n")
    print("| serve | healthz answered | healthz ms (median, max) | server's open descriptors (max) "
          "| accepts failed: too many open files | connections the clients opened |")
    print("|---|---|---|---|---|---|")
    serve = [sys.executable, "-m", "factjudge.cli", "serve"]
    for label, command in (("`serve` (header 10 s, body 30 s, connections bounded)", serve),
                           ("uvicorn's defaults (`serve` before issue 44)", [sys.executable, "-c", BEFORE])):
        port = free_port()
        log = tempfile.NamedTemporaryFile("w+", suffix=".log")  # noqa: SIM115  (a pipe unread would fill)
        server = subprocess.Popen(
            [*command, "--port", str(port), "--model", "openai:unused", "--base-url", "http://127.0.0.1:9/v1",
             "--log-level", "warning"],
            env=_env(), cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log, text=True,
            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (FD_LIMIT, FD_LIMIT)))
        try:
            if not _wait_up(port, server):
                raise RuntimeError(f"serve did not start: {Path(log.name).read_text()[-500:]}")
            stop, opened = threading.Event(), [0]
            flood = threading.Thread(target=_flood, args=(port, stop, opened), daemon=True)
            flood.start()
            samples, fds = [], []
            ends = time.monotonic() + FLOOD_SECONDS
            while time.monotonic() < ends:
                samples.append(_healthz_ms(port))
                fds.append(_open_fds(server.pid))
                time.sleep(0.5)
            stop.set()
            flood.join(10)
        finally:
            server.terminate()
            server.wait(30)
        refused = Path(log.name).read_text(errors="replace").count("Too many open files")
        log.close()
        answered = [ms for ms in samples if ms is not None]
        shown = f"{statistics.median(answered):.0f}, {max(answered):.0f}" if answered else "—"
        most = max((f for f in fds if isinstance(f, int)), default="n/a")
        print(f"| {label} | {len(answered)} of {len(samples)} | {shown} | {most} | {refused} | {opened[0]} |")


OLD_LISTING = re.compile(r"wikipedia_[a-z0-9_-]+?_\d{4}-\d{2}\.zim(?![\w.])")  # the pattern before


def listing_part() -> None:
    """The listing parse: today's at 400 KB and 16 MB; the former pattern's at 10, 20 and 40 KB."""
    from factjudge.retrieval.wiki.download import newest_file

    print("\n## A Kiwix listing of `wikipedia_` repeated\n")
    print("| listing | parse | seconds |\n|---|---|---|")
    for size in (400_000, 16 * 1024**2):
        started = time.perf_counter()
        newest_file("wikipedia_" * (size // 10), "en", "top_nopic")
        shown = f"{size // 1000} KB" if size < 10**6 else f"{size // 1024**2} MB"
        print(f"| {shown} | linear scan (today) | {time.perf_counter() - started:.3f} |")
    for size in (10_000, 20_000, 40_000):
        started = time.perf_counter()
        list(OLD_LISTING.finditer("wikipedia_" * (size // 10)))
        print(f"| {size // 1000} KB | the former pattern | {time.perf_counter() - started:.3f} |")


DAMAGED_CHECK = """
import sys, time
from pathlib import Path
from factjudge.retrieval.wiki.packaged import PackagedWiki
files = {"en": Path(sys.argv[2])}
started = time.perf_counter()
try:
    wiki = PackagedWiki(Path(sys.argv[1]), files)
    for i in range(3000):  # every article once, as many checks would
        wiki.search(f"Article {i} is about the river town {i}.", 1)
    print(f"every article read in {time.perf_counter() - started:.2f} s")
except Exception as exc:
    print(f"{type(exc).__name__} after {time.perf_counter() - started:.2f} s: {str(exc)[:90]}")
"""


def damaged_index_part() -> None:
    """The next three checks after a page in the middle of the packaged index is overwritten."""
    import sqlite3

    from factjudge.retrieval.wiki.packaged import PackagedWiki

    print("\n## A packaged index (3,000 articles) with one page of its passages overwritten\n")
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        source = tmp / "summaries_en.json"
        source.write_text(json.dumps({f"Article {i}": {"title": f"Article {i}", "extract": (
            f"Article {i} is about the river town {i}, founded in {1000 + i}. " * 4)} for i in range(3000)}))
        index = PackagedWiki(tmp / "cache", {"en": source}).path
        size = int.from_bytes(index.read_bytes()[16:18], "big")
        pages = index.stat().st_size // size
        with contextlib.closing(sqlite3.connect(index)) as db:  # a leaf page of passages, the middle one
            try:
                leaves = [row[0] for row in db.execute("SELECT pageno FROM dbstat WHERE name = 'passages' "
                                                       "AND pagetype = 'leaf' ORDER BY pageno")]
            except sqlite3.Error:  # SQLite built without dbstat
                leaves = [pages // 2]
        page = leaves[len(leaves) // 2]
        with index.open("r+b") as handle:
            handle.seek((page - 1) * size)
            handle.write(b"\xa5" * size)
        started = time.perf_counter()
        with contextlib.closing(sqlite3.connect(index)) as db:
            try:
                said = db.execute("PRAGMA quick_check(1)").fetchone()[0].splitlines()[-1][:60]
            except sqlite3.DatabaseError as exc:
                said = str(exc)
        print(f"quick_check on {index.stat().st_size / 1024**2:.1f} MB ({pages} pages): "
              f"{time.perf_counter() - started:.2f} s: {said}\n")
        print("| run (a fresh process) | outcome |\n|---|---|")
        for n in range(1, 4):
            done = subprocess.run([sys.executable, "-c", DAMAGED_CHECK, str(tmp / "cache"), str(source)],
                                  env=_env(), cwd=ROOT, capture_output=True, text=True, timeout=300)
            print(f"| {n} | {(done.stdout.strip() or done.stderr.strip().splitlines()[-1])} |")


PARTS: dict[str, Any] = {"fifo": fifo_part, "slow-clients": slow_clients_part, "listing": listing_part,
                         "damaged-index": damaged_index_part}
