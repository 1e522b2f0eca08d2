"""Evaluated prompt prefixes kept on disk, so a new process does not evaluate its prompts' instructions again.

A prefix that a prompt shared with a recent one (a judge's instructions and worked example,
reused by every item; claim extraction's, between an answer's judge calls) is saved as
llama.cpp's state of that sequence; a later prompt, or a process that starts cold, loads the
longest saved prefix of its prompt instead of evaluating it. The KV
state was computed with the same chunks a fresh evaluation would use, so a verdict does not
depend on whether it came from disk. Least recently used files go past a size budget.

A check's prompts of one kind share their instructions *and* their passages, so what is saved is
both; the next check, on other passages, shares only the instructions. So each shorter chunk prefix
of a saved one gets a link file naming it: a prompt sharing only that part loads the saved state and
drops the positions past it (a position's keys and values depend on the tokens before it alone).
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import os
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

# Below this, evaluating the prefix costs less than reading it back.
MIN_TOKENS = 64
BUDGET_BYTES = 256 * 1024 * 1024
# A temporary file this old was left by a process killed while writing it (a write takes < 1 s).
STALE_TMP_SECONDS = 3600


class PrefixStore:
    """One folder of saved prefixes for one model file and context setting."""

    def __init__(self, folder: Path, identity: str, budget: int = BUDGET_BYTES) -> None:
        self.folder = folder
        self.identity = identity
        self.budget = budget

    def _name(self, tokens: Sequence[int], ends: Sequence[int]) -> str:
        digest = hashlib.sha256(self.identity.encode("utf-8"))
        digest.update(repr((list(tokens), list(ends))).encode("ascii"))
        return digest.hexdigest()[:32]

    def _saved(self, tokens: list[int], ends: list[int], i: int) -> Path | None:
        """The file holding the prefix ending at chunk ``i``: saved as it is, or a longer one linked."""
        name = self._name(tokens[: ends[i]], ends[: i + 1])
        path = self.folder / f"{name}.kv"
        if path.exists():
            return path
        try:
            linked = (self.folder / f"{name}.link").read_text(encoding="ascii").strip()
        except (OSError, UnicodeDecodeError):
            return None
        return self.folder / f"{linked}.kv" if linked.isalnum() else None

    def restore(self, llama: Any, tokens: list[int], ends: list[int], above: int) -> int:
        """Load the longest saved prefix of ``tokens`` longer than ``above``; returns its length (0: none)."""
        import llama_cpp

        for i in range(len(ends) - 1, -1, -1):
            end = ends[i]
            if end <= max(above, MIN_TOKENS - 1) or end == len(tokens):
                continue
            path = self._saved(tokens, ends, i)
            if path is None:
                continue
            try:
                stored = path.read_bytes()
            except OSError:
                continue
            # llama.cpp trusts the bytes it is given: a damaged file must never reach it.
            digest, data = stored[:32], stored[32:]
            if hashlib.sha256(data).digest() != digest:
                path.unlink(missing_ok=True)
                continue
            llama._ctx.kv_cache_seq_rm(-1, 0, -1)
            buffer = (ctypes.c_uint8 * len(data)).from_buffer_copy(data)
            if llama_cpp.llama_state_seq_set_data(llama.ctx, buffer, len(data), 0) != len(data):
                llama._ctx.kv_cache_seq_rm(-1, 0, -1)  # a partial read leaves nothing usable
                continue
            llama._ctx.kv_cache_seq_rm(-1, end, -1)  # a longer prefix linked: only the shared part
            llama.n_tokens = end
            llama.input_ids[:end] = tokens[:end]
            os.utime(path)
            return end
        return 0

    def save(self, llama: Any, tokens: list[int], ends: list[int], keep: int) -> None:
        """Save the context's first ``keep`` tokens (a chunk boundary) unless they are saved already."""
        import llama_cpp

        if keep < MIN_TOKENS:
            return
        within = [e for e in ends if e <= keep]
        name = self._name(tokens[:keep], within)
        path = self.folder / f"{name}.kv"
        if path.exists():
            os.utime(path)
            return
        llama._ctx.kv_cache_seq_rm(-1, keep, -1)
        size = llama_cpp.llama_state_seq_get_size(llama.ctx, 0)
        buffer = (ctypes.c_uint8 * size)()
        if llama_cpp.llama_state_seq_get_data(llama.ctx, buffer, size, 0) != size:
            return
        if self.write(path, bytes(buffer)):
            for i, end in enumerate(within[:-1]):
                if end >= MIN_TOKENS:
                    self._link(self._name(tokens[:end], within[: i + 1]), name)

    def _link(self, name: str, target: str) -> None:
        """Say that the prefix ``name`` is the start of the saved prefix ``target`` (a newer one wins)."""
        with contextlib.suppress(OSError):
            (self.folder / f"{name}.link").write_text(target, encoding="ascii")

    def write(self, path: Path, data: bytes) -> bool:
        """Save ``data`` (with its hash) as ``path`` whole or not at all, then keep the folder in budget;
        whether it was saved."""
        temp: str | None = None
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            handle, temp = tempfile.mkstemp(dir=self.folder, suffix=".tmp")
            with os.fdopen(handle, "wb") as out:
                out.write(hashlib.sha256(data).digest() + data)
            os.replace(temp, path)
            temp = None
            self._prune()
            return path.exists()
        except OSError:
            return False  # a cache that cannot be written (a full disk) costs speed, never a verdict
        finally:
            if temp is not None:
                Path(temp).unlink(missing_ok=True)

    def _prune(self) -> None:
        """Remove the least recently used prefixes past the budget, and what killed writers left."""
        now = time.time()
        for temp in self.folder.glob("*.tmp"):
            with contextlib.suppress(OSError):  # another process's write in progress is younger
                if now - temp.stat().st_mtime > STALE_TMP_SECONDS:
                    temp.unlink()
        entries = []
        for path in self.folder.glob("*.kv"):
            try:
                stat = path.stat()
            except OSError:
                continue
            entries.append((stat.st_mtime, stat.st_size, path))
        total = sum(size for _, size, _ in entries)
        for _, size, path in sorted(entries):
            if total <= self.budget:
                break
            path.unlink(missing_ok=True)
            total -= size
        for link in self.folder.glob("*.link"):  # links to prefixes pruned
            with contextlib.suppress(OSError, UnicodeDecodeError):
                if not (self.folder / f"{link.read_text(encoding='ascii').strip()}.kv").exists():
                    link.unlink()
