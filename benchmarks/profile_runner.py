"""Run one ``factjudge`` command in this process; write where its time went as JSON (benchmarks/profile.py).

    python benchmarks/profile_runner.py OUT.json check QUESTION ANSWER --context ... --no-cache
    python benchmarks/profile_runner.py OUT.json --rate      # this machine's prompt tokens a second

The package is not changed for it: before ``factjudge.cli.main`` runs, the methods where a check
spends its time are wrapped on their classes (model load, prompt evaluation, generation, the
evidence gatherer, the transcript), so the same runner profiles an older commit put on PYTHONPATH.
Each wrapped span is charged its own time, less the wrapped spans inside it (a source that asks
the model is charged its retrieval only). Whatever a commit lacks is left unwrapped.
"""

from __future__ import annotations

import json
import math
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

STARTED = time.perf_counter()
# This folder holds profile.py, which would shadow the standard library's module of that name.
HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]

RATE_TOKENS = 512  # a prompt of a RAG check's size, long enough for batches of llama.cpp's usual 512
SPANS = ("load", "retrieval", "prompt", "prefix_store", "generation", "model_other")
seconds: dict[str, float] = dict.fromkeys(SPANS, 0.0)
calls: Counter[str] = Counter()
cached: Counter[str] = Counter()
models: list[Any] = []
first: dict[str, float] = {}  # seconds from the process's start to each span's first entry
batches: Counter[str] = Counter()  # llama.cpp forward passes and the tokens they evaluated
_stack: list[list[float]] = []  # per open span: [start, seconds of the wrapped spans inside it]


def _timed(span: str, method: Callable[..., Any]) -> Callable[..., Any]:
    """``method`` charging its own time (less the wrapped spans it runs) to ``span``."""
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        frame = [time.perf_counter(), 0.0]
        first.setdefault(span, frame[0] - STARTED)
        _stack.append(frame)
        try:
            return method(*args, **kwargs)
        finally:
            _stack.pop()
            spent = time.perf_counter() - frame[0]
            seconds[span] += spent - frame[1]
            if _stack:
                _stack[-1][1] += spent

    wrapper.__wrapped__ = method  # type: ignore[attr-defined]
    return wrapper


def _wrap(module: str, cls: str, method: str, span: str) -> None:
    """Wrap ``module.cls.method`` when this commit has it."""
    try:
        owner = getattr(__import__(module, fromlist=[cls]), cls)
    except (ImportError, AttributeError):
        return
    if hasattr(owner, method):
        setattr(owner, method, _timed(span, getattr(owner, method)))


def _remember_models() -> None:
    """Keep every local model loaded, to read its counters at the end."""
    try:
        from factjudge.llm.local import LocalChatModel
    except ImportError:
        return
    load = LocalChatModel.load

    def tracked(self: Any) -> Any:
        if self not in models:
            models.append(self)
        state = load(self)
        _count_batches(type(state.llama))
        return state

    LocalChatModel.load = tracked  # type: ignore[method-assign]


def _count_batches(llama_class: Any) -> None:
    """Count llama.cpp's forward passes: each costs a read of all the weights, however few its tokens."""
    if getattr(llama_class.eval, "_counted", False):
        return
    evaluate = llama_class.eval

    def counted(self: Any, tokens: Any) -> Any:
        batches["passes"] += 1
        batches["tokens"] += len(tokens)
        return evaluate(self, tokens)

    counted._counted = True  # type: ignore[attr-defined]
    llama_class.eval = counted


def _count_calls() -> None:
    """Count each model call of the check by its step (judge, read_value, extract …)."""
    try:
        from factjudge.transcript import Transcript
    except ImportError:
        return
    add = Transcript.add

    def counted(self: Any, trace: Any) -> Any:
        calls[trace.step] += 1
        cached[trace.step] += bool(getattr(trace, "cached", False))
        return add(self, trace)

    Transcript.add = counted  # type: ignore[method-assign]


def _instrument() -> None:
    _wrap("factjudge.llm.local", "LocalChatModel", "load", "load")
    _remember_models()
    _wrap("factjudge.llm.llama_state", "PromptState", "evaluate", "prompt")
    for method in ("restore", "save"):
        _wrap("factjudge.llm.prefix_store", "PrefixStore", method, "prefix_store")
    _wrap("factjudge.llm.local", "LocalChatModel", "_generate", "generation")
    _wrap("factjudge.llm.local", "LocalChatModel", "complete", "model_other")
    for method in ("from_config", "for_answer", "gather"):
        _wrap("factjudge.checking.gather", "Gatherer", method, "retrieval")
    _count_calls()


def _counters() -> dict[str, float]:
    """The prompt counters (``EvalStats``) of every model loaded, added up."""
    totals: Counter[str] = Counter()
    for model in models:
        state = getattr(model, "_state", None)
        if state is None:
            continue
        for name in ("calls", "prompt_tokens", "reused_tokens", "restored_tokens", "generated_tokens",
                     "one_pass"):
            totals[name] += getattr(state.stats, name, 0)
    return dict(totals)


def _rate() -> dict[str, float]:
    """Prompt tokens a second of the embedded model evaluating one long prompt from scratch, and the
    seconds of a one-token forward pass (the least any batch costs), best of 2 each."""
    from factjudge.llm.registry import make_model

    state = make_model("local", cache_path=False).load()  # type: ignore[attr-defined]
    text = " ".join(f"Sentence {n} says that bridge {n} opened in {1900 + n} and is {n * 37} metres long."
                    for n in range(80))
    tokens = list(state.llama.tokenize(text.encode("utf-8"), add_bos=True, special=False))[:RATE_TOKENS]
    best = 0.0
    for _ in range(2):
        state.forget()
        started = time.perf_counter()
        for start in range(0, len(tokens), state.llama.n_batch):
            state.llama.eval(tokens[start : start + state.llama.n_batch])
        best = max(best, len(tokens) / (time.perf_counter() - started))
    one = math.inf
    for _ in range(2):
        state.forget()
        state.llama.eval(tokens[:1])
        started = time.perf_counter()
        state.llama.eval(tokens[1:2])
        one = min(one, time.perf_counter() - started)
    return {"tokens": len(tokens), "tokens_per_second": best, "pass_seconds": one}


def main() -> int:
    """Run the command after the runner's own arguments; write the profile to the first."""
    out, argv = Path(sys.argv[1]), sys.argv[2:]
    if argv == ["--rate"]:
        out.write_text(json.dumps(_rate()), encoding="utf-8")
        return 0
    from factjudge.cli import main as cli_main

    imported = time.perf_counter() - STARTED
    _instrument()
    code: int | str | None = 1
    try:
        code = cli_main(argv)
    except SystemExit as exc:  # --help, or argparse refusing the arguments
        code = exc.code
        raise
    finally:
        profile = {"exit": code, "import_seconds": imported, "seconds": seconds, "first": first,
                   "runner_seconds": time.perf_counter() - STARTED, "counters": _counters(),
                   "calls": dict(calls), "cached_calls": dict(cached), "batches": dict(batches)}
        out.write_text(json.dumps(profile), encoding="utf-8")
    return code


if __name__ == "__main__":
    sys.exit(main())
