"""One llama.cpp context's evaluated prompt: line-sized chunks, reused across calls, read where needed.

llama.cpp's logits for a token depend on how the tokens before it were batched (its
matrix kernels tile a batch differently by size): evaluating one Qwen prompt whole, in
two pieces or token by token moved P(False) by up to 0.02. So a prompt is always
evaluated in the same chunks, cut after the lines, whatever the previous call left in
the context. Where two prompts are cut the same way over their shared tokens, those
chunks are computed identically by either, and a later call re-evaluates only from the
first chunk that differs: with the instructions, worked
example and passages before the item, an item pays for its own lines only, and its
verdict is the same as if the whole prompt had been evaluated from scratch.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass
from typing import Any

import numpy as np

from factjudge.llm.base import TokenLogprob
from factjudge.llm.deadline import stop_if_past
from factjudge.llm.prefix_store import PrefixStore
from factjudge.llm.state_memory import StateMemory

# Lines shorter than this many tokens join the chunk before them.
SHORT_LINE = 8
# Prompts remembered to find a prefix worth saving to the prefix store.
RECENT = 8


def _same_chunks(old_tokens: list[int], old_ends: list[int], tokens: list[int], ends: list[int]) -> int:
    """Tokens at the start of ``tokens`` in chunks cut exactly as in the old prompt, the last chunk excepted.

    The last chunk is never shared: its logits must be computed live.
    """
    shared = 0
    for a, b in zip(old_tokens, tokens, strict=False):
        if a != b:
            break
        shared += 1
    keep = 0
    for old, new in zip(old_ends, ends, strict=False):
        if old != new or new > shared or new == len(tokens):
            break
        keep = new
    return keep


@dataclass
class EvalStats:
    """What the context evaluated and reused; the benchmark reads it."""

    calls: int = 0
    prompt_tokens: int = 0
    reused_tokens: int = 0
    prompt_seconds: float = 0.0
    generated_tokens: int = 0
    generation_seconds: float = 0.0
    one_pass: int = 0
    restored_tokens: int = 0  # of the reused ones, those read back from the prefix store
    recalled_tokens: int = 0  # of the reused ones, those put back from a prompt kept in memory
    grammar_full_checks: int = 0  # generated tokens for which the whole vocabulary met the grammar

    def evaluated_tokens(self) -> int:
        """Prompt tokens that had to be evaluated (not served from the reused prefix)."""
        return self.prompt_tokens - self.reused_tokens


class PromptState:
    """Evaluates prompts in canonical line chunks, from the longest prefix already evaluated: the last
    prompt's in the context, an earlier one's kept in memory, or one saved on disk."""

    def __init__(self, llama: Any, *, reuse: bool = True, store: PrefixStore | None = None,
                 memory: StateMemory | None = None) -> None:
        self.llama = llama
        self.reuse = reuse
        self.store = store if reuse else None
        self.memory = memory if reuse else None
        self.stats = EvalStats()
        self._tokens: list[int] = []  # the last prompt, whose chunks are in the context
        self._ends: list[int] = []
        self._recent: deque[tuple[list[int], list[int]]] = deque(maxlen=RECENT)
        self._line_end: dict[int, bool] = {}

    def _ends_line(self, token: int) -> bool:
        if token not in self._line_end:
            self._line_end[token] = "\n" in self.piece(token)
        return self._line_end[token]

    def chunk_ends(self, tokens: list[int]) -> list[int]:
        """Where each chunk of ``tokens`` ends: after each line, a short line joined to the chunk before it.

        Joining short lines (a closing tag, the chat template's turn markers) makes an item's
        own tokens one batch, as llama.cpp would evaluate them alone, instead of four.
        """
        ends: list[int] = []
        start, limit = 0, self.llama.n_batch
        for i, token in enumerate(tokens):
            end = i + 1
            if not (self._ends_line(token) or end == len(tokens) or end - start >= limit):
                continue
            chunk_start = ends[-2] if len(ends) > 1 else 0
            if ends and end - start < SHORT_LINE and end - chunk_start <= limit:
                ends[-1] = end
            else:
                ends.append(end)
            start = end
        return ends

    def evaluate(self, tokens: list[int]) -> None:
        """Leave ``tokens`` evaluated in the context, with live logits at the last position.

        The check's deadline (``llm.deadline``) is looked at before every batch: when it has
        passed, the deadline error is raised and the batches already evaluated stay reusable.
        """
        started = time.perf_counter()
        ends = self.chunk_ends(tokens)
        keep = _same_chunks(self._tokens, self._ends, tokens, ends) if self.reuse else 0
        if self.memory is not None:
            recalled, kept = self.memory.best(tokens, ends, _same_chunks)
            if kept is not None and recalled > keep:
                keep = recalled if self.memory.restore(self.llama, kept) else 0
                self.stats.recalled_tokens += keep
        self.llama.n_tokens = keep  # ``eval`` drops the cache from here (and any generated tokens)
        save_at = 0
        if self.store is not None:
            restored = self.store.restore(self.llama, tokens, ends, above=keep)
            if restored:
                keep = restored
                self.stats.restored_tokens += restored
            # A prefix shared with an earlier prompt, not the last (claim extraction's
            # instructions between an answer's judge calls), is saved once evaluated.
            save_at = max((_same_chunks(*old, tokens, ends) for old in self._recent), default=0)
            if save_at <= keep:
                self.store.save(self.llama, tokens, ends, keep)
        start = keep
        try:
            for end in ends:
                if end > keep:
                    # llama.cpp cannot be stopped inside a batch (at most n_batch tokens): between two
                    # of them is where a check's deadline can stop a long prompt.
                    stop_if_past("evaluating a prompt on the local model")
                    self.llama.eval(tokens[start:end])
                    start = end
                    if end == save_at and self.store is not None:
                        self.store.save(self.llama, tokens, ends, end)
        except BaseException:
            # Interrupted: the context holds the chunks evaluated so far, which a later prompt may reuse.
            self._tokens, self._ends = list(tokens[:start]), [end for end in ends if end <= start]
            raise
        self._tokens, self._ends = list(tokens), ends
        self._recent.append((self._tokens, ends))
        if self.memory is not None:
            self.memory.keep(self.llama, self._tokens, ends)
        self.stats.calls += 1
        self.stats.prompt_tokens += len(tokens)
        self.stats.reused_tokens += keep
        self.stats.prompt_seconds += time.perf_counter() - started

    def forget(self) -> None:
        """Start the next prompt from scratch (the context may have been used directly)."""
        self._tokens, self._ends = [], []
        self.llama.n_tokens = 0

    def piece(self, token: int) -> str:
        """The text of one token."""
        return bytes(self.llama.detokenize([int(token)])).decode("utf-8", errors="replace")

    def logits(self) -> np.ndarray:
        """The live logits at the last evaluated position, as float64."""
        import llama_cpp

        pointer = llama_cpp.llama_get_logits_ith(self.llama.ctx, -1)
        return np.ctypeslib.as_array(pointer, shape=(self.llama.n_vocab(),)).astype(np.float64)

    def token_logprob(self, token: int, top: int) -> TokenLogprob:
        """``token``'s log-probability at the last position and the ``top`` alternatives."""
        logits = self.logits()
        shifted = logits - logits.max()
        logz = np.log(np.exp(shifted).sum())
        best = np.argpartition(-shifted, top)[:top] if top else np.array([], dtype=int)
        return TokenLogprob(self.piece(token), float(shifted[token] - logz),
                            {self.piece(t): float(shifted[t] - logz) for t in best})

    def choice_tokens(self, choices: tuple[str, ...]) -> dict[int, int] | None:
        """Each single token that can begin exactly one choice → that choice's index; None if ambiguous.

        These are the first tokens a grammar allowing only ``choices`` would let greedy
        decoding pick, and the first fixes the rest of the word.
        """
        starts: dict[int, int] = {}
        for index, word in enumerate(choices):
            for cut in range(1, len(word) + 1):
                pieces = self.llama.tokenize(word[:cut].encode("utf-8"), add_bos=False, special=False)
                if len(pieces) != 1 or self.piece(pieces[0]) != word[:cut]:
                    continue
                if starts.get(pieces[0], index) != index:
                    return None
                starts[pieces[0]] = index
        return starts if all(i in starts.values() for i in range(len(choices))) else None

    def decide(self, starts: dict[int, int]) -> tuple[int, int]:
        """The greedy pick among the choices' first tokens at the last position: (token, choice index)."""
        logits = self.logits()
        token = max(starts, key=lambda t: logits[t])
        return token, starts[token]
