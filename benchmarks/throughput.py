"""Model-call efficiency: wall time against the ideal, tokens per answer, batching modes, cache reruns.

Starts a real OpenAI-compatible server on 127.0.0.1 that answers in the real output
contracts after a fixed latency, runs the bench runner over the shipped FELM
world-knowledge answers at claim granularity, and prints what it measured.

    python benchmarks/throughput.py                      # all parts
    python benchmarks/throughput.py --part throughput --latency 0.2 --concurrency 32
    python benchmarks/throughput.py --part accuracy --limit 10   # batching modes, the embedded judge
"""

from __future__ import annotations

import argparse
import hashlib
import http.client
import json
import math
import multiprocessing as mp
import re
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]

from factjudge.config import CheckConfig  # noqa: E402
from factjudge.eval.datasets import load_dataset  # noqa: E402
from factjudge.eval.results import read_lines  # noqa: E402
from factjudge.eval.runner import BenchRun, RunSummary, Setup  # noqa: E402
from factjudge.eval.summary import metric_rows  # noqa: E402
from factjudge.llm.base import ChatModel, Message  # noqa: E402
from factjudge.llm.cache import CachedChatModel  # noqa: E402
from factjudge.llm.openai_backend import OpenAIChatModel  # noqa: E402
from factjudge.llm.registry import make_model  # noqa: E402
from factjudge.testing.openai_server import OpenAIServer  # noqa: E402

FELM_WK = ROOT.parent / "shared" / "data" / "felm_wk.jsonl"
MODES = {"all claims in one call (FELM)": None, "groups of 3": 3, "one call per claim (FActScore)": 1}


def _numbered(prompt: str, tag: str) -> list[str]:
    tail = prompt[prompt.rindex("Now "):]
    block = tail[tail.index(f"<{tag}>") + len(tag) + 2 : tail.rindex(f"</{tag}>")]
    return re.findall(r"^\d+\. (.*)$", block, flags=re.M)


def realistic_reply(messages: list[Message]) -> str:
    """Replies in factjudge's contracts: claims split from each segment; a few claims judged wrong."""
    prompt = messages[-1]["content"] if len(messages) == 1 else messages[0]["content"]
    if "Claim 1." in prompt:
        blocks = []
        for i, segment in enumerate(_numbered(prompt, "segments"), start=1):
            parts = [p.strip(" .") for p in re.split(r",| and ", segment) if len(p.split()) > 2][:3]
            claims = "".join(f"Claim {n}. {part}.\n" for n, part in enumerate(parts or [segment], 1))
            blocks.append(f"Segment {i}:\n{claims}")
        return "".join(blocks)
    items = _numbered(prompt, "claims" if "<claims>" in prompt[prompt.rindex("Now "):] else "segments")
    wrong = [n for n, item in enumerate(items, 1) if hashlib.sha256(item.encode()).digest()[0] < 40]
    if not wrong:
        return "Answer: ALL_CORRECT"
    return "Answer: " + ", ".join(f'{n} ["{" ".join(items[n - 1].split()[:3])}"]' for n in wrong)


@contextmanager
def endpoint(latency: float) -> Iterator[str]:
    """The scripted server in its own process, so it does not share the client's GIL."""
    ready: mp.Queue[str] = mp.get_context("fork").Queue()

    def serve() -> None:
        with OpenAIServer(responder=realistic_reply, latency=latency) as server:
            ready.put(server.base_url)
            threading.Event().wait()

    process = mp.get_context("fork").Process(target=serve, daemon=True)
    process.start()
    try:
        yield ready.get(timeout=30)
    finally:
        process.terminate()
        process.join()


def bare_client(base_url: str, answers: int, calls_per_answer: int, concurrency: int,
                prompt_words: int) -> float:
    """Wall time of the same call pattern from ``http.client``: what this machine and server allow."""
    url = urlsplit(base_url)
    local = threading.local()
    prompt = "context " * prompt_words + "Now judge <segments>\n1. x\n</segments>"
    body = json.dumps({"model": "bench-model", "messages": [{"role": "user", "content": prompt}]})

    def answer(_: int) -> None:
        if not hasattr(local, "conn"):
            local.conn = http.client.HTTPConnection(url.hostname, url.port)
        for _ in range(calls_per_answer):
            local.conn.request("POST", f"{url.path}/chat/completions", body=body,
                               headers={"content-type": "application/json"})
            local.conn.getresponse().read()

    started = time.perf_counter()
    with ThreadPoolExecutor(concurrency) as pool:
        list(pool.map(answer, range(answers)))
    return time.perf_counter() - started


def bench(run_dir: Path, model: ChatModel, limit: int | None, concurrency: int, batch_size: int | None,
          granularity: str = "claim", resume: bool = False, strategy: str | None = None
          ) -> tuple[RunSummary, float]:
    """One bench run over FELM-wk; returns its summary and wall time."""
    examples = load_dataset(str(FELM_WK))[:limit]
    config = CheckConfig(model=model.name, granularity=granularity, batch_size=batch_size, strategy=strategy)
    run = BenchRun(run_dir, examples, [Setup(f"batch={batch_size}", config)], model_factory=lambda c: model,
                   dataset=str(FELM_WK), dataset_hash="felm-wk", concurrency=concurrency)
    started = time.perf_counter()
    summary = run.run(resume=resume, show_progress=False)
    return summary, time.perf_counter() - started


def throughput(latency: float, concurrency: int, limit: int | None) -> None:
    """Wall time against the ideal and a bare client (claim granularity), then a rerun that makes no call."""
    with endpoint(latency) as base_url, tempfile.TemporaryDirectory() as tmp:
        model = CachedChatModel(OpenAIChatModel("bench-model", base_url=base_url), Path(tmp) / "calls.sqlite")
        summary, wall = bench(Path(tmp) / "run", model, limit, concurrency, None)
        calls = summary.usage.calls
        ideal = calls * latency / concurrency
        answers = summary.done
        rounds = math.ceil(calls / concurrency) * latency
        # Prompts of the size the run sent (the scripted server counts words as tokens); twice,
        # because on a shared machine two runs of the same thing differ by a few percent.
        floors = [bare_client(base_url, answers, calls // answers, concurrency,
                              summary.usage.prompt_tokens // calls) for _ in range(2)]
        floor = sum(floors) / len(floors)
        # The same run again in this process, with a new cache: what the calls cost once the
        # one-time start-up (tiktoken's encoding, the word pattern) is paid.
        fresh = CachedChatModel(OpenAIChatModel("bench-model", base_url=base_url), Path(tmp) / "fresh.sqlite")
        _, warm = bench(Path(tmp) / "warm", fresh, limit, concurrency, None)
        print(f"\n## Throughput: FELM-wk, claim granularity, {answers} answers, "
              f"latency {latency * 1000:.0f} ms, "
              f"concurrency {concurrency}\n")
        print("| measure | value |\n|---|---|")
        print(f"| model calls | {calls} ({calls / answers:.2f} per answer) |")
        print(f"| ideal wall time (calls × latency ÷ concurrency) | {ideal:.2f} s |")
        print(f"| whole rounds (⌈calls ÷ concurrency⌉ × latency): no schedule beats it | {rounds:.2f} s "
              f"({rounds / ideal:.2f} × ideal) |")
        print(f"| bare HTTP client, same calls in the same chains, no checking (two runs) | "
              f"{floors[0]:.2f} s, {floors[1]:.2f} s ({floor / ideal:.2f} × ideal) |")
        print(f"| measured wall time | {wall:.2f} s ({wall / ideal:.2f} × ideal, "
              f"{wall / floor:.2f} × bare) |")
        print(f"| the same run again in this process, new cache (start-up paid) | {warm:.2f} s "
              f"({warm / ideal:.2f} × ideal, {warm / floor:.2f} × bare) |")
        print(f"| prompt tokens per answer | {summary.usage.prompt_tokens / answers:.0f} |")
        print(f"| completion tokens per answer | {summary.usage.completion_tokens / answers:.0f} |")
        again, rerun_wall = bench(Path(tmp) / "rerun", model, limit, concurrency, None)
        made = again.usage.calls
        served = again.usage.cached_calls / max(1, again.usage.cached_calls + again.usage.calls)
        print(f"| rerun (new run dir, same cache) | {made} calls, {served:.0%} served from the cache, "
              f"{rerun_wall:.2f} s |")


def batching(latency: float, concurrency: int, limit: int | None) -> None:
    """Tokens and wall time of each batching mode against the same answers."""
    print(f"\n## Batching: FELM-wk, claim granularity, latency {latency * 1000:.0f} ms, "
          f"concurrency {concurrency}\n")
    print("| mode | calls per answer | prompt tokens per answer | completion tokens per answer | wall time |")
    print("|---|---|---|---|---|")
    for name, size in MODES.items():
        with endpoint(latency) as base_url, tempfile.TemporaryDirectory() as tmp:
            model = CachedChatModel(OpenAIChatModel("bench-model", base_url=base_url),
                                    Path(tmp) / "calls.sqlite")
            summary, wall = bench(Path(tmp) / "run", model, limit, concurrency, size)
            n = summary.done
            print(f"| {name} | {summary.usage.calls / n:.2f} | {summary.usage.prompt_tokens / n:.0f} | "
                  f"{summary.usage.completion_tokens / n:.0f} | {wall:.2f} s |")


def accuracy(limit: int) -> None:
    """Segment-level balanced accuracy per batching mode with the embedded judge."""
    print(f"\n## Does batching move accuracy? FELM-wk, first {limit} answers, claim granularity, "
          "vanilla strategy (the one batching applies to; a local model's default, fact, asks per "
          "item), the embedded judge (Qwen2.5-Coder-1.5B-Instruct: near chance on world knowledge "
          "without evidence, so the numbers show whether batching moves it, not a strong judge)\n")
    print("| mode | segment BA | response BA | calls | wall time |\n|---|---|---|---|---|")
    local = make_model("local", cache_path=False)
    for name, size in MODES.items():
        with tempfile.TemporaryDirectory() as tmp:
            model = CachedChatModel(local, Path(tmp) / "calls.sqlite")
            summary, wall = bench(Path(tmp) / "run", model, limit, 1, size, strategy="vanilla")
            rows = metric_rows(read_lines(Path(tmp) / "run" / "results.jsonl"))
            overall = rows[rows["domain"] == "overall"].iloc[0]
            print(f"| {name} | {overall['segment_ba']} | {overall['response_ba']} | {summary.usage.calls} | "
                  f"{wall:.0f} s |")


def main() -> None:
    """Parse flags and run the chosen parts."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--part", choices=["throughput", "batching", "accuracy", "all"], default="all")
    parser.add_argument("--latency", type=float, default=0.2, help="seconds per model call (default 0.2)")
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--limit", type=int, help="answers (default: all 184; accuracy: 10)")
    args = parser.parse_args()
    if not FELM_WK.exists():
        sys.exit(f"benchmark data missing: {FELM_WK}")
    if args.part in ("throughput", "all"):
        throughput(args.latency, args.concurrency, args.limit)
    if args.part in ("batching", "all"):
        batching(args.latency, args.concurrency, args.limit)
    if args.part in ("accuracy", "all"):
        accuracy(args.limit or 10)


if __name__ == "__main__":
    main()
