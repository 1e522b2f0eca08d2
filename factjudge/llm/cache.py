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
import logging
import sqlite3
import threading
from concurrent.futures import Future
from pathlib import Path

from factjudge.environment import call_cache_path
from factjudge.errors import ModelError
from factjudge.llm.base import ChatModel, Completion, GenerationParams, Message, not_utf8
from factjudge.llm.deadline import past_deadline, remaining
from factjudge.llm.reply_check import completion_problem

log = logging.getLogger(__name__)
# Longest wait for another process's write lock when no deadline is nearer.
BUSY_SECONDS = 30.0

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
    """``$FACTJUDGE_CACHE``, else ``calls.sqlite`` in the user cache (``environment.call_cache_path``)."""
    return call_cache_path()


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
    """Wraps a ChatModel; a hit returns the stored completion marked ``cached`` without a call.

    The file is opened at the first call, so a check that calls no model never touches it. A
    cache that cannot be used (not a database, damaged, unreadable) is bypassed with one warning;
    one that another process holds locked is waited on within the check's deadline; a paid
    completion that cannot be stored is returned all the same, with a warning.
    """

    def __init__(self, inner: ChatModel, path: str | Path | None = None) -> None:
        self.inner = inner
        self.name = inner.name
        self.path = Path(path) if path else default_cache_path()
        self.hits = 0
        self.misses = 0
        self.endpoint: str | None = getattr(inner, "endpoint", None)
        self.joined = 0
        self._local = threading.local()
        self._lock = threading.Lock()
        self._in_flight: dict[str, Future[Completion]] = {}
        self._write_lock = threading.Lock()
        self._opened = False
        self._bypass = False
        self._warned: set[str] = set()
        self._dbs: list[sqlite3.Connection] = []  # every thread's connection, closed by ``close``

    def _warn(self, kind: str, message: str) -> None:
        """Log ``message`` the first time something of ``kind`` goes wrong, never again after."""
        with self._lock:
            if kind in self._warned:
                return
            self._warned.add(kind)
        log.warning("call cache %s: %s", self.path, message)

    def _open(self) -> sqlite3.Connection | None:
        """This thread's connection, the file made ready on first use; None while bypassed."""
        if self._bypass:
            return None
        try:
            db = self._connect()
            if not self._opened:
                with self._write_lock:
                    if not self._opened:
                        db.execute("PRAGMA journal_mode=WAL")  # readers don't block the writer; kill-safe
                        db.execute(SCHEMA)
                        self._opened = True
            return db
        except (sqlite3.Error, OSError) as exc:
            if _busy(exc):
                self._warn("busy", f"locked by another process ({exc}); not used for this call")
                return None
            self._bypass = True
            self._warn("unusable", f"cannot be used ({exc}); calls are made without it "
                       "(move the file away, or set FACTJUDGE_CACHE, to start a new one)")
            return None

    def _connect(self) -> sqlite3.Connection:
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # Used by its thread only; ``close`` closes every thread's once the calls are over.
            db = sqlite3.connect(self.path, timeout=BUSY_SECONDS, check_same_thread=False)
            with self._lock:
                self._dbs.append(db)
            # In WAL mode NORMAL survives a killed process (only a power cut may lose the last
            # commits); FULL would fsync every stored reply and serialise concurrent calls on disk.
            db.execute("PRAGMA synchronous=NORMAL")
            self._local.db = db
        # Another process's lock is waited on within the deadline; set only on a change, as a
        # statement per call costs a 32-way run a few per cent.
        wait = _busy_ms()
        if wait != getattr(self._local, "wait", None):
            db.execute(f"PRAGMA busy_timeout = {wait}")
            self._local.wait = wait
        return db

    def close(self) -> None:
        """Close the cache file's connections and the model it wraps (when that has a ``close``)."""
        with self._lock:
            dbs, self._dbs = self._dbs, []
            self._bypass = True  # a call after close goes to the model, not to a closed file
        for db in dbs:
            db.close()
        close = getattr(self.inner, "close", None)
        if callable(close):
            close()

    def get(self, key: str) -> Completion | None:
        """The stored completion for ``key``, if any (an entry not well formed is none)."""
        db = self._open()
        if db is None:
            return None
        try:
            row = db.execute("SELECT completion FROM completions WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error as exc:
            self._failed(exc)
            return None
        if row is None:
            return None
        try:
            data = json.loads(row[0])
            data["cached"] = True
            completion = Completion.from_dict(data)
        except (ValueError, TypeError, KeyError, RecursionError):
            return None
        return None if completion_problem(completion) else completion

    def put(self, key: str, completion: Completion) -> None:
        """Store a fresh completion (counting recomputations); if it cannot be, warn and go on."""
        db = self._open()
        if db is None:
            return
        data = json.dumps(completion.to_dict(), ensure_ascii=False)
        try:
            data.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate in a reply ("\ud800" in its JSON): stored escaped
            data = json.dumps(completion.to_dict())
        # One writer at a time inside the process: SQLite's own busy handler sleeps in
        # growing steps when writers collide, which stalled 32-way runs by seconds.
        try:
            with self._write_lock, db:
                db.execute(
                    "INSERT INTO completions (key, model, completion) VALUES (?, ?, ?) "
                    "ON CONFLICT(key) DO UPDATE SET completion = excluded.completion, "
                    "computed = computed + 1",
                    (key, self.name, data),
                )
        except sqlite3.Error as exc:
            self._failed(exc, stored=False)

    def _failed(self, exc: sqlite3.Error, *, stored: bool = True) -> None:
        """Warn of a read or write that failed; a cache that is not merely busy is bypassed from now on."""
        lost = "" if stored else "; the reply was used but not stored"
        if _busy(exc):
            self._warn("busy", f"locked by another process past the wait ({exc}){lost}")
            return
        self._bypass = True
        self._warn("unusable", f"cannot be used ({exc}){lost}; calls are made without it from now on")

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
            problem = completion_problem(outcome) if isinstance(outcome, Completion) else None
            if problem:  # never cached: the next call asks the model again
                outcome = ModelError(f"{self.name} sent a malformed reply: {problem}", "a malformed reply")
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
        """Entries stored and how many of them were computed more than once (0 for a cache not in use)."""
        db = self._open()
        entries = repeated = 0
        if db is not None:
            try:
                entries, repeated = db.execute(
                    "SELECT COUNT(*), COALESCE(SUM(computed > 1), 0) FROM completions"
                ).fetchone()
            except sqlite3.Error as exc:
                self._failed(exc)
        return {"entries": entries, "recomputed": repeated, "hits": self.hits, "misses": self.misses,
                "joined": self.joined}


def _busy(exc: BaseException) -> bool:
    """True for SQLite's "locked" or "busy": another connection holds the lock it needs."""
    return isinstance(exc, sqlite3.OperationalError) and any(
        word in str(exc) for word in ("locked", "busy"))


def _busy_ms() -> int:
    """How long to wait for another process's lock: BUSY_SECONDS, cut to the check's deadline."""
    left = remaining()
    return int(1000 * (BUSY_SECONDS if left is None else min(BUSY_SECONDS, left)))
