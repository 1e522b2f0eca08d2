"""How fast the embedded judge is on this machine, against llama.cpp's floor and the code before issue 16.

    python benchmarks/local_model.py                       # the README's Performance figures
    python benchmarks/local_model.py --answers 5 --compare-answers 2
    python benchmarks/local_model.py --model local:smollm2 --no-before   # the 135M test model (a smoke run)

Prints, all in one run after the model is loaded (load times printed apart):
- the README demo checked end to end (segment level, default strategy, with its context) by
  today's backend and by the backend before issue 16 (``logits_all=True``, llama-cpp-python's
  chat completion, a grammar-constrained decision decoded token by token);
- the per-item `fact` judgement after the first item of an answer, on FELM world-knowledge
  answers, for today's backend, the old one, and the floor: llama.cpp alone evaluating exactly
  the tokens that were new to each prompt (what the previous prompt did not share), one batch each;
- seconds per judged item and per answer for each strategy and granularity on FELM-wk, with
  prompt-evaluation and generation tokens per second and the share of prompt tokens served from
  the reused prefix.
The call cache is off throughout: every figure is a real model call.
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from factjudge.checking.api import check
from factjudge.config import CheckConfig
from factjudge.eval.datasets import Example, load_dataset
from factjudge.llm.base import Completion, GenerationParams, Message, TokenLogprob
from factjudge.llm.llama_state import EvalStats
from factjudge.llm.local import LocalChatModel, choice_grammar, llama_threads, smollm2_path
from factjudge.llm.model_file import QWEN_1_5B, ensure_model_file
from factjudge.llm.registry import LOCAL_DEFAULT
from factjudge.records import CheckResult, Evidence

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
DEMO_QUESTION = "When did the Golden Gate Bridge open, and how long is it?"
DEMO_ANSWER = ("The Golden Gate Bridge opened in 1937. Its main span is about 4,200 metres long. "
               "I think it is the most beautiful bridge in the world!")
DEMO_CONTEXT = ("The Golden Gate Bridge is a suspension bridge spanning the Golden Gate strait at the "
                "entrance to San Francisco Bay. It opened to traffic in May 1937. Its main span is 1,280 "
                "metres long, and it was the longest suspension bridge span in the world until 1964.")


class BeforeIssue16:
    """The local backend as it was before issue 16 (git 95e2402), pointed at the same GGUF file."""

    def __init__(self, path: Path, n_threads: int) -> None:
        from llama_cpp import Llama

        started = time.perf_counter()
        self.name = LOCAL_DEFAULT
        self.llama = Llama(model_path=str(path), n_ctx=8192, n_threads=n_threads, logits_all=True,
                           verbose=False, seed=0)
        self.load_seconds = time.perf_counter() - started

    def forget(self) -> None:
        """Start the next prompt from scratch, as a fresh process would."""
        self.llama.reset()

    def complete(self, messages: list[Message], params: GenerationParams) -> Completion:
        """Chat completion with log-probabilities of every position, as the old backend did."""
        from llama_cpp import LlamaGrammar

        source = params.grammar or (choice_grammar(params.choices) if params.choices else None)
        response: Any = self.llama.create_chat_completion(
            messages=messages, max_tokens=params.max_tokens, temperature=params.temperature,
            stop=list(params.stop) or None, seed=params.seed, logprobs=params.logprobs,
            top_logprobs=params.top_logprobs if params.logprobs else None,
            grammar=LlamaGrammar.from_string(source, verbose=False) if source else None)
        choice = response["choices"][0]
        content = (choice.get("logprobs") or {}).get("content") or []
        logprobs = tuple(TokenLogprob(t["token"], float(t["logprob"]),
                                      {a["token"]: float(a["logprob"]) for a in t.get("top_logprobs") or []})
                         for t in content)
        usage = response.get("usage") or {}
        return Completion(text=choice["message"].get("content") or "",
                          prompt_tokens=usage.get("prompt_tokens", 0),
                          completion_tokens=usage.get("completion_tokens", 0),
                          logprobs=logprobs or None, model=self.name)


@dataclass
class Timed:
    """A model wrapper that records when each call started and the prompts it was given."""

    inner: Any
    starts: list[float] = field(default_factory=list)
    ended: float = 0.0
    prompts: list[list[Message]] = field(default_factory=list)

    @property
    def name(self) -> str:
        """The wrapped model's name (the strategy default follows it)."""
        return str(self.inner.name)

    def complete(self, messages: list[Message], params: GenerationParams) -> Completion:
        """Record, then call the wrapped model."""
        self.starts.append(time.perf_counter())
        self.prompts.append(messages)
        return self.inner.complete(messages, params)


def run_check(model: Any, example: Example, config: CheckConfig,
              context: str | None = None) -> tuple[CheckResult, float, Timed]:
    """One end-to-end check; returns the result, its seconds and the timing wrapper."""
    timed = Timed(model)
    started = time.perf_counter()
    result = check(example.question, example.answer, config, model=timed,
                   context=[Evidence("context", context)] if context else (),
                   segments=list(example.segments) or None)
    timed.ended = time.perf_counter()
    return result, timed.ended - started, timed


def after_first(timed: Timed) -> list[float]:
    """Seconds each judged item after the first cost: from its call's start to the next one (or the end)."""
    marks = [*timed.starts, timed.ended]
    return [marks[i + 1] - marks[i] for i in range(1, len(timed.starts))]


def floor_seconds(model: LocalChatModel, prompts: list[list[Message]]) -> list[float]:
    """llama.cpp alone evaluating, for each prompt after the first, the tokens the previous did not share."""
    llama = model.load().llama
    times = []
    previous = model.prompt_tokens(prompts[0])
    for messages in prompts[1:]:
        tokens = model.prompt_tokens(messages)
        shared = next((i for i, (a, b) in enumerate(zip(previous, tokens, strict=False)) if a != b),
                      min(len(previous), len(tokens)))
        shared = min(shared, len(tokens) - 1)
        llama.n_tokens = 0
        llama.eval(previous[:shared])
        started = time.perf_counter()
        llama.eval(tokens[shared:])  # one batch: n_batch (512) exceeds any item's own tokens here
        times.append(time.perf_counter() - started)
        previous = tokens
    model.load().forget()
    return times


def mean(values: list[float]) -> float:
    """The arithmetic mean, 0 for none."""
    return sum(values) / len(values) if values else 0.0


def cold(model: LocalChatModel) -> None:
    """Start the next check as a first-ever `factjudge check` does: nothing evaluated, nothing saved."""
    model.load().forget()
    if model.prefix_dir is not None:
        shutil.rmtree(model.prefix_dir, ignore_errors=True)


def demo_part(fast: LocalChatModel, before: BeforeIssue16 | None, repeats: int) -> None:
    """The README demo end to end, today against before: the fastest of ``repeats`` runs each."""
    demo = Example(id="demo", question=DEMO_QUESTION, answer=DEMO_ANSWER)
    config = CheckConfig(model="local", use_cache=False)
    runs = []
    for _ in range(repeats):
        cold(fast)
        runs.append(run_check(fast, demo, config, DEMO_CONTEXT))
    result, seconds = runs[0][0], min(r[1] for r in runs)
    print(f"\n## README demo, end to end ({result.strategy}, segment level, with its context)\n")
    print(f"- today: {seconds:.2f} s, verdicts {[v.label for v in result.segment_verdicts]}")
    if before is not None:
        old_runs = []
        for _ in range(repeats):
            before.forget()
            old_runs.append(run_check(before, demo, config, DEMO_CONTEXT))
        old_seconds = min(r[1] for r in old_runs)
        print(f"- before issue 16: {old_seconds:.2f} s, verdicts "
              f"{[v.label for v in old_runs[0][0].segment_verdicts]}")
        print(f"- speed-up: {old_seconds / seconds:.2f}x")


def per_item_part(fast: LocalChatModel, before: BeforeIssue16 | None, examples: list[Example],
                  repeats: int) -> None:
    """Per-item `fact` cost after an answer's first item: today, before, and llama.cpp's floor.

    Each figure is, item by item, the fastest of ``repeats`` runs: on a shared machine the
    minimum is what the code costs, the rest is other processes.
    """
    config = CheckConfig(model="local", strategy="fact", granularity="segment", use_cache=False)
    today: list[float] = []
    old: list[float] = []
    floor: list[float] = []
    for example in examples:
        runs = []
        for _ in range(repeats):
            cold(fast)
            runs.append(run_check(fast, example, config)[2])
        today += [min(t) for t in zip(*(after_first(r) for r in runs), strict=True)]
        if len(runs[0].prompts) > 1:
            floors = [floor_seconds(fast, runs[0].prompts) for _ in range(repeats)]
            floor += [min(t) for t in zip(*floors, strict=True)]
        if before is not None:
            olds = []
            for _ in range(repeats):
                before.forget()
                olds.append(after_first(run_check(before, example, config)[2]))
            old += [min(t) for t in zip(*olds, strict=True)]
    print(f"\n## `fact` per item after the first of an answer ({len(examples)} FELM-wk answers, "
          f"{len(today)} items, fastest of {repeats} runs)\n")
    print(f"- today: {mean(today):.3f} s per item; floor (llama.cpp alone, same tokens): "
          f"{mean(floor):.3f} s; today / floor = {mean(today) / mean(floor):.2f}")
    if old:
        print(f"- before issue 16: {mean(old):.3f} s per item; "
              f"before / today = {mean(old) / mean(today):.2f}")


def grid_part(fast: LocalChatModel, examples: list[Example], strategies: list[str],
              granularities: list[str]) -> None:
    """Seconds per item and per answer, token rates and reuse, per strategy and granularity."""
    print(f"\n## Per strategy and granularity ({len(examples)} FELM-wk answers)\n")
    print("| strategy | granularity | s/answer | s/judged item | prompt tok/s | gen tok/s "
          "| reused prompt share |")
    print("|---|---|---|---|---|---|---|")
    cold(fast)
    for granularity in granularities:
        for strategy in strategies:
            config = CheckConfig(model="local", strategy=strategy, granularity=granularity, use_cache=False)
            stats_before = _copy(fast.stats)
            seconds, items = 0.0, 0
            for example in examples:
                result, spent, _ = run_check(fast, example, config)
                seconds += spent
                verdicts = result.claim_verdicts if granularity == "claim" else result.segment_verdicts
                items += sum(v.label in ("true", "false") for v in verdicts)
            s = _delta(fast.stats, stats_before)
            prompt_rate = s.evaluated_tokens() / s.prompt_seconds if s.prompt_seconds else 0.0
            gen_rate = s.generated_tokens / s.generation_seconds if s.generation_seconds else 0.0
            share = s.reused_tokens / s.prompt_tokens if s.prompt_tokens else 0.0
            print(f"| {strategy} | {granularity} | {seconds / len(examples):.2f} "
                  f"| {seconds / max(items, 1):.2f} | {prompt_rate:.0f} | {gen_rate:.1f} "
                  f"| {100 * share:.0f}% |", flush=True)


def _copy(stats: EvalStats) -> EvalStats:
    return EvalStats(**vars(stats))


def _delta(now: EvalStats, then: EvalStats) -> EvalStats:
    return EvalStats(**{k: getattr(now, k) - getattr(then, k) for k in vars(now)})


def main() -> None:
    """Parse flags, load the models, print every part."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--answers", type=int, default=20, help="FELM-wk answers for the strategy table")
    parser.add_argument("--compare-answers", type=int, default=5,
                        help="FELM-wk answers for the per-item comparison with the old backend and the floor")
    parser.add_argument("--strategies", default="fact,vanilla,cot")
    parser.add_argument("--granularities", default="segment,claim")
    parser.add_argument("--before", action=argparse.BooleanOptionalAction, default=True,
                        help="also time the backend before issue 16")
    parser.add_argument("--repeats", type=int, default=2, help="runs of the demo and per-item parts")
    parser.add_argument("--parts", default="demo,items,grid", help="comma-separated: demo, items, grid")
    parser.add_argument("--model", choices=("local", "local:smollm2"), default="local",
                        help="the embedded judge, or SmolLM2-135M (fast: a smoke run, not a judge)")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    path = smollm2_path() if args.model == "local:smollm2" else ensure_model_file(QWEN_1_5B)
    started = time.perf_counter()
    with path.open("rb") as model_file:  # into the page cache, so neither load below pays the disk
        while model_file.read(1 << 24):
            pass
    print(f"threads: {llama_threads()}; reading the model file: {time.perf_counter() - started:.2f} s; "
          "model load", end="")
    # A prefix store of its own, emptied before each cold run: the grid fills it as a first bench run would.
    fast = LocalChatModel(path, name=LOCAL_DEFAULT, prefix_dir=Path(tempfile.mkdtemp(prefix="factjudge-")))
    fast.load()
    print(f": today {fast.load_seconds:.2f} s", end="")
    parts = args.parts.split(",")
    # Only the demo and per-item parts compare with the old backend: the grid alone does not load it.
    compared = args.before and ("demo" in parts or "items" in parts)
    before = BeforeIssue16(path, llama_threads()) if compared else None
    print(f", before issue 16 {before.load_seconds:.2f} s" if before else "")
    examples = [e for e in load_dataset(args.data / "felm_wk.jsonl") if len(e.segments) > 1]
    if "demo" in parts:
        demo_part(fast, before, args.repeats)
    if "items" in parts:
        per_item_part(fast, before, examples[: args.compare_answers], args.repeats)
    if "grid" in parts:
        grid_part(fast, examples[: args.answers], args.strategies.split(","), args.granularities.split(","))
    cold(fast)


if __name__ == "__main__":
    main()
