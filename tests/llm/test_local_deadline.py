"""A check's deadline holds with any model (issue 34.1): between calls, and inside a local model's call
between evaluation batches and generated tokens, its context left reusable."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from factjudge import explain
from factjudge.checking.api import check
from factjudge.config import CheckConfig
from factjudge.llm.base import GenerationParams
from factjudge.llm.deadline import DeadlinePassed, deadline
from factjudge.llm.llama_state import PromptState
from factjudge.llm.local import LocalChatModel, smollm2_path
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.records import CheckResult
from tests.support.timing import HANG_GUARD

ROOT = Path(__file__).resolve().parents[2]
NEWLINE = 0
# 20 lines of 10 tokens: 20 chunks (llm/llama_state.py cuts a prompt after its lines).
PROMPT = ([1] * 9 + [NEWLINE]) * 20


class SlowLlama:
    """Stands in for llama.cpp's ``Llama``: tokens are ints, 0 ends a line, every batch takes a while."""

    n_batch = 512

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.n_tokens = 0
        self.batches: list[list[int]] = []

    def detokenize(self, tokens: list[int]) -> bytes:
        return b"\n" if tokens == [NEWLINE] else b"w"

    def eval(self, tokens: list[int]) -> None:
        time.sleep(self.seconds)
        self.batches.append(list(tokens))
        self.n_tokens += len(tokens)


def outcome_of_a_stopped_check(run: object) -> str:
    """What a check stopped by its deadline says: its error, or the result that names what it left
    unjudged (the checker may keep the items judged in time)."""
    try:
        result = run()  # type: ignore[operator]
    except DeadlinePassed as exc:
        return str(exc)
    assert isinstance(result, CheckResult)
    return explain.result_json(result)


def test_a_prompt_stops_between_batches_at_the_deadline_and_what_was_evaluated_is_reused() -> None:
    llama = SlowLlama(seconds=0.05)
    state = PromptState(llama)
    chunks = len(state.chunk_ends(PROMPT))
    with deadline(0.15), pytest.raises(DeadlinePassed, match="evaluating a prompt on the local model"):
        state.evaluate(PROMPT)
    stopped_after = len(llama.batches)
    assert stopped_after < chunks  # 20 batches take 1 s; the deadline was 0.15 s
    state.evaluate(PROMPT)  # no deadline: the rest of the prompt, from where it stopped
    assert len(llama.batches) == chunks
    assert [t for batch in llama.batches for t in batch] == PROMPT
    assert llama.n_tokens == len(PROMPT)


def test_a_call_waits_for_a_busy_local_model_no_longer_than_its_deadline() -> None:
    model = LocalChatModel("/nonexistent.gguf")  # never loaded: the wait comes first
    held, release = threading.Event(), threading.Event()

    def other_check() -> None:
        with model._lock:
            held.set()
            release.wait(30)

    holder = threading.Thread(target=other_check)
    holder.start()
    try:
        held.wait(30)
        with deadline(0.2), pytest.raises(DeadlinePassed, match="busy with another check"):
            model.complete([{"role": "user", "content": "hi"}], GenerationParams(max_tokens=5))
    finally:
        release.set()
        holder.join(30)


def test_the_deadline_stops_a_check_between_calls_whatever_the_model() -> None:
    # A scripted model knows nothing of deadlines: every call passes ``agents.calling.ask``.
    model = ScriptedChatModel(lambda messages: "True", name="scripted:slow", delay=0.05)
    answer = " ".join(f"Bridge {i} opened in {1900 + i}." for i in range(40))
    config = CheckConfig(model="scripted", strategy="fact", deadline=0.5, use_cache=False)
    said = outcome_of_a_stopped_check(lambda: check("Bridges?", answer, config, model=model))
    assert "deadline of 0.5 s passed" in said
    assert len(model.calls) < 40  # 40 calls take 2 s at least


@pytest.fixture(scope="module")
def smollm2() -> LocalChatModel:
    pytest.importorskip("llama_cpp")
    # One thread: on a machine busy with other jobs, threads waiting for each other at every layer
    # made a 200-token prompt take 37 s instead of 6.
    return LocalChatModel(smollm2_path(), name="local:smollm2-135m", n_threads=1)


@pytest.mark.local_model
def test_smollm2_stops_inside_a_call_and_its_next_replies_are_unchanged(smollm2: LocalChatModel) -> None:
    # About 3,000 prompt tokens in 150 lines, then up to 400 tokens of free text: seconds of work.
    notes = "\n".join(f"Note {i}: the river town number {i} holds a market every {i % 7 + 1} days."
                      for i in range(150))
    long = [{"role": "user", "content": f"Summarise these notes at length.\n{notes}"}]
    short = [{"role": "user", "content": "\n".join(long[0]["content"].splitlines()[:3])}]  # its first lines
    question = [{"role": "user", "content": "Is Paris in France? Answer True or False."}]
    params = GenerationParams(max_tokens=8)
    before = [smollm2.complete(messages, params).text for messages in (short, question)]
    generated = smollm2.stats.generated_tokens
    with deadline(0.3), pytest.raises(DeadlinePassed, match="on the local model"):
        smollm2.complete(long, GenerationParams(max_tokens=400))
    assert smollm2.stats.generated_tokens - generated < 400
    # The interrupted call's batches are reused by a prompt that shares them, and change no reply.
    assert [smollm2.complete(messages, params).text for messages in (short, question)] == before


@pytest.mark.local_model
def test_check_with_smollm2_and_deadline_2_stops_without_judging_every_sentence(tmp_path: Path) -> None:
    # 40 sentences took 19 s with --deadline 2: the embedded model never looked at the deadline.
    pytest.importorskip("llama_cpp")
    answer = " ".join(f"The bridge number {i} opened in {1900 + i} and is {100 + i} metres long."
                      for i in range(40))
    env = {**os.environ, "FACTJUDGE_CACHE": str(tmp_path / "calls.sqlite"), "FACTJUDGE_THREADS": "1",
           "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "factjudge.cli", "check", "Tell me about the bridges.", answer, "--model",
         "local:smollm2", "--deadline", "2", "--context", "The bridges opened in the twentieth century.",
         "--json"], capture_output=True, text=True, cwd=ROOT, env=env, timeout=HANG_GUARD)
    if done.returncode == 3:
        assert done.stderr.count("\n") == 1 and "the check's deadline of 2 s passed" in done.stderr
    else:  # a checker that keeps what was judged in time names the rest
        assert done.returncode == 0 and "deadline of 2 s passed" in done.stdout, done.stderr
    with sqlite3.connect(tmp_path / "calls.sqlite") as db:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
        made = db.execute("SELECT COUNT(*) FROM completions").fetchone()[0] if "completions" in tables else 0
    assert made < 40
