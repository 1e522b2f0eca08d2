"""A persistent SQLite cache of completions, so a rerun makes no model call.

Keyed by backend and model name, endpoint, messages and decoding parameters. Each entry
counts how often it was computed: more than once means a call was paid twice (the bench
resume tests check that it never is). Identical calls made while one is in flight wait
for it instead of paying again (single flight).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import sqlite3
import threading
from concurrent.futures import Future
from pathlib import Path

from factjudge.errors import ModelError
from factjudge.llm.base import ChatModel, Completion, GenerationParams, Message, not_utf8
from factjudge.llm.deadline import past_deadline, remaining

SCHEMA = """
CREATE TABLE IF NOT EXISTS completions (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    completion TEXT NOT NULL,
    computed INTEGER NOT NULL DEFAULT 1,
    created TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP
)
"""


class _Abandoned(Exception):
    """The call a waiter joined was interrupted (Ctrl-C) before it finished."""


def default_cache_path() -> Path:
    """``$FACTJUDGE_CACHE`` or ``~/.cache/factjudge/calls.sqlite``."""
    env = os.environ.get("FACTJUDGE_CACHE")
    return Path(env) if env else Path.home() / ".cache" / "factjudge" / "calls.sqlite"


def cache_key(
    model: str, messages: list[Message], params: GenerationParams, endpoint: str | None = None
) -> str:
    """Stable hash of everything that determines a reply."""
    fields = {"model": model, "messages": messages, "params": params.to_dict()}
    if endpoint:  # only backends with an endpoint have one, so older keys of the others stay valid
        fields["endpoint"] = endpoint
    payload = json.dumps(fields, sort_keys=True, ensure_ascii=False)
    try:
        return hashlib.sha256(payload.encode()).hexdigest()
    except UnicodeEncodeError as exc:
        raise not_utf8(exc) from None


class CachedChatModel:
    """Wraps a ChatModel; a hit returns the stored completion marked ``cached`` without a call."""

    def __init__(self, inner: ChatModel, path: str | Path | None = None) -> None:
        self.inner = inner
        self.name = inner.name
        self.path = Path(path) if path else default_cache_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.hits = 0
        self.misses = 0
        self.endpoint: str | None = getattr(inner, "endpoint", None)
        self.joined = 0
        self._local = threading.local()
        self._lock = threading.Lock()
        self._in_flight: dict[str, Future[Completion]] = {}
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
        key = cache_key(self.name, messages, params, self.endpoint)
        hit = self.get(key)
        with self._lock:
            if hit is None:
                self.misses += 1
            else:
                self.hits += 1
        return key, hit

    def _join(self, key: str) -> tuple[Future[Completion], bool]:
        """The call in flight for ``key`` and False, or a new one this caller must make and True."""
        with self._lock:
            flight = self._in_flight.get(key)
            if flight is not None:
                self.joined += 1
                return flight, False
            flight = Future()
            # A running future cannot be cancelled: one waiter giving up must not fail the others.
            flight.set_running_or_notify_cancel()
            self._in_flight[key] = flight
            return flight, True

    def _land(self, key: str, flight: Future[Completion], params: GenerationParams,
              outcome: Completion | BaseException) -> Completion:
        """Store a fresh completion, hand it (or the failure) to the waiters, and return it."""
        try:
            if isinstance(outcome, Completion) and len(outcome.text) > params.reply_limit():
                outcome = ModelError(f"{self.name} sent a reply of {len(outcome.text):,} characters "
                                     f"for max_tokens={params.max_tokens}", "a reply far too long")
            if isinstance(outcome, Completion):
                self.put(key, outcome)
        except BaseException as exc:
            outcome = exc
        finally:
            with self._lock:
                del self._in_flight[key]
        if isinstance(outcome, Completion):
            flight.set_result(outcome)
            return outcome
        # Waiters share a failure, but not an interruption of the first caller: they call again.
        flight.set_exception(outcome if isinstance(outcome, Exception) else _Abandoned())
        raise outcome

    def complete(self, messages: list[Message], params: GenerationParams) -> Completion:
        """Serve from the cache, join an identical call in flight, or call the inner model and store."""
        while True:
            key, hit = self._lookup(messages, params)
            if hit is not None:
                return hit
            flight, mine = self._join(key)
            if mine:
                try:
                    outcome: Completion | BaseException = self.inner.complete(messages, params)
                except BaseException as exc:
                    outcome = exc
                return self._land(key, flight, params, outcome)
            # Paid by the first caller; only an endpoint's calls count against the check's deadline.
            try:
                wait = remaining() if self.endpoint else None
                return dataclasses.replace(flight.result(timeout=wait), cached=True)
            except _Abandoned:
                continue
            except TimeoutError:
                raise past_deadline("waiting for an identical call in flight") from None

    def stats(self) -> dict[str, int]:
        """Entries stored and how many of them were computed more than once."""
        db = self._connect()
        entries, repeated = db.execute(
            "SELECT COUNT(*), COALESCE(SUM(computed > 1), 0) FROM completions"
        ).fetchone()
        return {"entries": entries, "recomputed": repeated, "hits": self.hits, "misses": self.misses,
                "joined": self.joined}
