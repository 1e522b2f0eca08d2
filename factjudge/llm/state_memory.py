"""Evaluated prompts kept in memory: a prompt resumes from the earlier one it shares most chunks with.

llama.cpp's context holds one prompt, the last; a check's calls alternate (the judge's question
about an item, the reading of its values, then the next item's question), so the passages the
judge read are gone from the context when the next item asks about them, and were evaluated
again for every call. After each prompt its evaluated state (the sequence's KV cache: 28 KB a
token for Qwen2.5-1.5B, copied in milliseconds) is kept here; a later prompt that shares more
chunks with a kept one than with the live context restores it and evaluates only the rest. The
chunks restored were computed exactly as a fresh evaluation computes them (``llama_state``), so
no score changes. The least recently used states go past a byte budget.
"""

from __future__ import annotations

import ctypes
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

# Enough for a check's passages in every prompt kind that reads them (about 18,000 tokens of
# Qwen2.5-1.5B), little beside the model's own 2 GB.
BUDGET_BYTES = 512 * 1024 * 1024
# Below this, evaluating the prompt costs less than keeping it.
MIN_TOKENS = 64


@dataclass(frozen=True)
class Kept:
    """One evaluated prompt: its tokens, its chunk ends and llama.cpp's state of its sequence."""

    tokens: tuple[int, ...]
    ends: tuple[int, ...]
    state: Any  # a ctypes byte array, handed back to llama.cpp as it came

    @property
    def size(self) -> int:
        """Bytes held."""
        return ctypes.sizeof(self.state)


class StateMemory:
    """The states of the last prompts evaluated in one llama.cpp context, within a byte budget."""

    def __init__(self, budget: int = BUDGET_BYTES) -> None:
        self.budget = budget
        self._kept: OrderedDict[tuple[int, ...], Kept] = OrderedDict()
        self._bytes = 0

    def best(self, tokens: list[int], ends: list[int],
             shared: Callable[[list[int], list[int], list[int], list[int]], int]) -> tuple[int, Kept | None]:
        """The kept prompt sharing most chunks with ``tokens`` (``shared`` counts them), and how many."""
        found, most = None, 0
        for kept in self._kept.values():
            length = shared(list(kept.tokens), list(kept.ends), tokens, ends)
            if length > most:
                found, most = kept, length
        return most, found

    def keep(self, llama: Any, tokens: list[int], ends: list[int]) -> None:
        """Copy the context's state, which holds exactly ``tokens``, unless too short or too large."""
        import llama_cpp

        key = tuple(tokens)
        if len(tokens) < MIN_TOKENS:
            return
        if key in self._kept:
            self._kept.move_to_end(key)
            return
        size = llama_cpp.llama_state_seq_get_size(llama.ctx, 0)
        if size > self.budget:
            return
        state = (ctypes.c_uint8 * size)()
        if llama_cpp.llama_state_seq_get_data(llama.ctx, state, size, 0) != size:
            return
        self._kept[key] = Kept(key, tuple(ends), state)
        self._bytes += size
        while self._bytes > self.budget:
            _, dropped = self._kept.popitem(last=False)
            self._bytes -= dropped.size

    def restore(self, llama: Any, kept: Kept) -> bool:
        """Put ``kept``'s state back into the context (its tokens then stand evaluated); False if refused."""
        import llama_cpp

        self._kept.move_to_end(kept.tokens)
        llama._ctx.kv_cache_seq_rm(-1, 0, -1)
        if llama_cpp.llama_state_seq_set_data(llama.ctx, kept.state, kept.size, 0) != kept.size:
            llama._ctx.kv_cache_seq_rm(-1, 0, -1)  # a partial read leaves nothing usable
            llama.n_tokens = 0
            return False
        llama.n_tokens = len(kept.tokens)
        llama.input_ids[: len(kept.tokens)] = kept.tokens
        return True
