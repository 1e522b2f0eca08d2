"""A persistent SQLite cache of completions, so a rerun makes no model call.

Keyed by backend and model name, messages and decoding parameters. Each entry counts
how often it was computed: more than once means a call was paid twice (the bench
resume tests check that it never is).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
from pathlib import Path

from factjudge.llm.base import ChatModel, Completion, GenerationParams, Message

SCHEMA = """
CREATE TABLE IF NOT EXISTS completions (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    completion TEXT NOT NULL,
    computed INTEGER NOT NULL DEFAULT 1,
    created TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP
)
"""


def default_cache_path() -> Path:
    """``$FACTJUDGE_CACHE`` or ``~/.cache/factjudge/calls.sqlite``."""
    env = os.environ.get("FACTJUDGE_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "factjudge" / "calls.sqlite"


def cache_key(model: str, messages: list[Message], params: GenerationParams) -> str:
    """Stable hash of everything that determines a reply."""
    payload = json.dumps({"model": model, "messages": messages, "params": params.to_dict()},
                         sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(payload.encode()).hexdigest()


class CachedChatModel:
    """Wraps a ChatModel; a hit returns the stored completion marked ``cached`` without a call."""

    def __init__(self, inner: ChatModel, path: str | Path | None = None) -> None:
        self.inner = inner
        self.name = inner.name
        self.path = Path(path) if path else default_cache_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.hits = 0
        self.misses = 0
        self._local = threading.local()
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        with self._connect() as db:
            db.execute("PRAGMA journal_mode=WAL")  # readers don't block the writer; kill-safe
            db.execute(SCHEMA)

    def _connect(self) -> sqlite3.Connection:
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=30)
            # In WAL mode NORMAL survives a killed process (only a power cut may lose the last
            # commits); FULL would fsync every stored reply and serialise concurrent calls on disk.
            db.execute("PRAGMA synchronous=NORMAL")
            self._local.db = db
        return db

    def get(self, key: str) -> Completion | None:
        """The stored completion for ``key``, if any."""
        row = self._connect().execute("SELECT completion FROM completions WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        data = json.loads(row[0])
        data["cached"] = True
        return Completion.from_dict(data)

    def put(self, key: str, completion: Completion) -> None:
        """Store a fresh completion (counting recomputations of the same key)."""
        data = json.dumps(completion.to_dict(), ensure_ascii=False)
        # One writer at a time inside the process: SQLite's own busy handler sleeps in
        # growing steps when writers collide, which stalled 32-way runs by seconds.
        with self._write_lock, self._connect() as db:
            db.execute(
                "INSERT INTO completions (key, model, completion) VALUES (?, ?, ?) "
                "ON CONFLICT(key) DO UPDATE SET completion = excluded.completion, computed = computed + 1",
                (key, self.name, data),
            )

    def _lookup(self, messages: list[Message], params: GenerationParams) -> tuple[str, Completion | None]:
        key = cache_key(self.name, messages, params)
        hit = self.get(key)
        with self._lock:
            if hit is None:
                self.misses += 1
            else:
                self.hits += 1
        return key, hit

    def complete(self, messages: list[Message], params: GenerationParams) -> Completion:
        """Serve from the cache, or call the inner model and store its reply."""
        key, hit = self._lookup(messages, params)
        if hit is not None:
            return hit
        completion = self.inner.complete(messages, params)
        self.put(key, completion)
        return completion

    async def acomplete(self, messages: list[Message], params: GenerationParams) -> Completion:
        """Async twin of ``complete``."""
        key, hit = self._lookup(messages, params)
        if hit is not None:
            return hit
        completion = await self.inner.acomplete(messages, params)
        self.put(key, completion)
        return completion

    def stats(self) -> dict[str, int]:
        """Entries stored and how many of them were computed more than once."""
        db = self._connect()
        entries, repeated = db.execute(
            "SELECT COUNT(*), COALESCE(SUM(computed > 1), 0) FROM completions"
        ).fetchone()
        return {"entries": entries, "recomputed": repeated, "hits": self.hits, "misses": self.misses}
