"""Peak memory of the service checking answers of many capitalised words (issue 34: name finding).

    python benchmarks/wiki_memory.py                          # 400, 800, 1,600, 3,200 words
    python benchmarks/wiki_memory.py --words 400 800 --limit-mb 6000

For each size a fresh ``factjudge serve`` starts on 127.0.0.1 (``--serve``: by default the
model-free ``token_f1`` judge reading the packaged Wikipedia, so the figure is what finding names
and reading Wikipedia cost, not a model's 2 GB), checks a short answer (so imports and the index
are in), then one answer of N capitalised words (about 8 bytes a word), and its peak resident
set (``VmHWM``) is read from /proc. A server past ``--limit-mb`` is killed and shown as such.
Run it with ``PYTHONPATH`` at another checkout to measure that code.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

WORDS = ["Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel", "India", "Juliett", "Kilo",
         "Lima", "Mike", "November", "Oscar", "Papa", "Quebec", "Romeo", "Sierra", "Tango", "Uniform",
         "Victor", "Whiskey", "Xray", "Yankee", "Zulu"]


def answer_of(words: int) -> str:
    """``words`` capitalised words and no full stop: one sentence, one run of capitals."""
    return " ".join(f"{WORDS[i % len(WORDS)]}{i // len(WORDS) or ''}" for i in range(words))


def _status(pid: int, key: str) -> int:
    """A /proc/PID/status figure in kB (VmHWM: peak resident set, VmRSS: now)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0


def _post(port: int, body: dict[str, object], timeout: float) -> tuple[int, dict[str, object]]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}/v1/check", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


def measure(words: int, port: int, limit_mb: float, flags: list[str]) -> str:
    """One fresh service, one warm-up check, one answer of ``words`` words: its figures as a row."""
    server = subprocess.Popen([sys.executable, "-m", "factjudge.cli", "serve", "--port", str(port),
                               "--max-concurrency", "1", "--log-level", "warning", *flags],
                              env=os.environ.copy(),
                              cwd=tempfile.gettempdir())  # not this checkout: PYTHONPATH decides
    try:
        for _ in range(600):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        # A check that reads the index and calls no model (no article about him: unverified).
        _post(port, {"question": "Tell me a bio of Lanny Flaherty.", "answer": "He is an actor."}, 300)
        warm = _status(server.pid, "VmHWM") / 1024
        outcome: list[tuple[int, dict[str, object]]] = []
        started = time.monotonic()
        poster = threading.Thread(target=lambda: outcome.append(_post(
            port, {"question": "", "answer": answer_of(words)}, 3600)), daemon=True)
        poster.start()
        while poster.is_alive():
            poster.join(0.2)
            if _status(server.pid, "VmRSS") / 1024 > limit_mb:
                server.kill()
                size = len(answer_of(words))
                return f"| {words:,} | {size:,} | {warm:,.0f} | > {limit_mb:,.0f} (killed) | | |"
        peak = _status(server.pid, "VmHWM") / 1024
        status, result = outcome[0]
        labels = {v["label"] for v in result.get("segment_verdicts", [])}  # type: ignore[union-attr]
        return (f"| {words:,} | {len(answer_of(words)):,} | {warm:,.0f} | {peak:,.0f} | "
                f"{time.monotonic() - started:.2f} | {status} {'/'.join(sorted(labels))} |")
    finally:
        server.terminate()
        server.wait(30)


def main() -> None:
    """Print one row per answer size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", type=int, nargs="+", default=[400, 800, 1600, 3200])
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--limit-mb", type=float, default=6000.0, help="kill a server past this resident set")
    parser.add_argument("--serve", default="--strategy token_f1 --evidence wiki --wiki packaged",
                        help="the service's set-up (default: model-free, reading the packaged Wikipedia, so "
                        "the figure is retrieval's; '' for the embedded judge, whose model is 2 GB)")
    args = parser.parse_args()
    import factjudge

    print(f"factjudge from {Path(factjudge.__file__).parent}; serve {args.serve}")
    print("| capitalised words | answer bytes | peak RSS after a short check (MB) | peak RSS (MB) | "
          "seconds | reply |")
    print("| ---: | ---: | ---: | ---: | ---: | --- |")
    for words in args.words:
        print(measure(words, args.port, args.limit_mb, args.serve.split()), flush=True)


if __name__ == "__main__":
    main()
