"""One owner of what a process holds: models and resources closed for real, never while in use."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from factjudge.checking.checker import Checker
from factjudge.checking.session import Session, check_scope
from factjudge.checking.verifier import Verifier
from factjudge.config import CheckConfig
from factjudge.errors import InputError
from factjudge.llm.base import ChatModel, Completion, GenerationParams, Message
from factjudge.llm.cache import CachedChatModel
from factjudge.llm.deadline import remaining
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.records import Trace
from factjudge.resources import Resources, current
from factjudge.retrieval.kb import KnowledgeBase
from factjudge.retrieval.sources import KBRetriever
from factjudge.retrieval.wiki.factscore_db import FactScoreWiki
from factjudge.retrieval.wiki.packaged import PackagedWiki
from factjudge.transcript import record
from tests.retrieval.test_kb import DOCS
from tests.retrieval.wiki.test_factscore_db import make_db
from tests.retrieval.wiki.test_packaged import write_files
from tests.test_resources import Opened


def test_a_resource_dropped_while_a_check_uses_it_is_closed_when_the_check_ends() -> None:
    held = Resources(size=1)
    with held.in_use():
        first = held.get("wiki", "a", lambda: Opened("a"))
        # Another check (another thread, outside this one's scope) opens a second: the first is dropped.
        others: list[Opened] = []
        thread = threading.Thread(target=lambda: others.append(held.get("wiki", "b", lambda: Opened("b"))))
        thread.start()
        thread.join()
        assert not first.closed and held.held("wiki") == 1
        held.close()  # a Verifier closed while its check runs
        assert not first.closed and others[0].closed  # the second was used by no check
    assert first.closed


def test_a_resource_two_checks_use_is_closed_when_the_last_ends() -> None:
    held = Resources(size=1)
    started, finish = threading.Event(), threading.Event()

    def other_check() -> None:
        with held.in_use():
            held.get("kb", "a", lambda: Opened("a"))
            started.set()
            finish.wait(5)

    thread = threading.Thread(target=other_check)
    thread.start()
    started.wait(5)
    with held.in_use():
        shared = held.get("kb", "a", lambda: Opened("again"))
        held.get("kb", "b", lambda: Opened("b"))  # drops the shared one
    assert not shared.closed  # the other check still reads it
    finish.set()
    thread.join()
    assert shared.closed


def test_one_scope_carries_a_checks_deadline_budget_transcript_and_resources() -> None:
    held = Resources()
    config = CheckConfig(deadline=30, max_calls=7)
    with check_scope(config, held) as transcript:
        assert current() is held
        left = remaining()
        assert left is not None and 29 < left <= 30
        assert record(Trace("fetch", "", "", (), "", error="x")) == 0 and len(transcript.traces) == 1
    assert current() is not held and remaining() is None


class ClosingModel(ScriptedChatModel):
    def __init__(self, replies: list[str], gate: threading.Event | None = None) -> None:
        super().__init__(replies, name="closing")
        self.gate = gate
        self.closed = False

    def complete(self, messages: list[Message], params: GenerationParams) -> Completion:
        assert not self.closed, "called after close"
        if self.gate is not None:
            self.gate.wait(5)
        return super().complete(messages, params)

    def close(self) -> None:
        self.closed = True


def test_a_verifier_closes_the_models_it_built(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[ClosingModel] = []

    def build(config: CheckConfig) -> ChatModel:
        built.append(ClosingModel(["Answer: ALL_CORRECT"] * 3))
        return built[-1]

    monkeypatch.setattr("factjudge.checking.model_pool.build_model", build)
    with Verifier(CheckConfig(model="openai:m", strategy="vanilla")) as verifier:
        verifier.verify("q", "Paris is in France.")
        verifier.verify("q", "Rome is in Italy.")
        assert len(built) == 1 and not built[0].closed  # built once, kept for the next check
    assert built[0].closed


def test_a_session_closed_during_a_check_closes_when_the_check_ends() -> None:
    inside, gate = threading.Event(), threading.Event()
    opened: list[Opened] = []

    class Waiting(ClosingModel):
        def complete(self, messages: list[Message], params: GenerationParams) -> Completion:
            opened.append(current().get("limiter", "x", lambda: Opened("limiter")))  # the check's
            inside.set()
            return super().complete(messages, params)

    model = Waiting(["Answer: ALL_CORRECT"], gate)
    session = Session(model_factory=lambda config: model)
    config = CheckConfig(model="openai:m", strategy="vanilla")

    def one_check() -> None:
        from factjudge.checking.api import check

        check("q", "Paris is in France.", config, session=session)

    thread = threading.Thread(target=one_check)
    thread.start()
    assert inside.wait(5)
    session.close()  # while the check waits for its model
    assert not model.closed and not opened[0].closed
    gate.set()
    thread.join()
    assert model.closed and opened[0].closed


def test_resources_holding_a_file_close_it(tmp_path: Path) -> None:
    path = tmp_path / "kb.sqlite"
    with KnowledgeBase(path) as kb:
        kb.add_documents(DOCS[:2])
    retriever = KBRetriever(path)
    assert retriever.search(DOCS[0]["title"], 1)
    retriever.close()
    with pytest.raises(InputError, match="closed database"):
        retriever.kb.search_bm25("x", 1)

    factscore = FactScoreWiki(make_db(tmp_path / "enwiki.db"))
    factscore.close()
    with pytest.raises(sqlite3.ProgrammingError):
        factscore._db.execute("SELECT 1")

    packaged = PackagedWiki(tmp_path / "cache", write_files(tmp_path))
    packaged.close()
    with pytest.raises(InputError, match="closed database"):
        packaged._kb.search_bm25("x", 1)


def test_a_cached_model_closes_every_threads_connection_and_its_model(tmp_path: Path) -> None:
    inner = ClosingModel(["a", "b"])
    cached = CachedChatModel(inner, tmp_path / "calls.sqlite")
    params = GenerationParams(max_tokens=4)
    cached.complete([{"role": "user", "content": "one"}], params)
    worker = threading.Thread(target=cached.complete, args=([{"role": "user", "content": "two"}], params))
    worker.start()
    worker.join()
    dbs = list(cached._dbs)
    assert len(dbs) == 2
    cached.close()
    assert inner.closed
    for db in dbs:
        with pytest.raises(sqlite3.ProgrammingError):
            db.execute("SELECT 1")


def test_the_checker_runs_in_the_process_resources_without_a_session() -> None:
    seen: list[Resources] = []

    def judge(messages: list[dict[str, str]]) -> str:
        seen.append(current())
        return "Answer: ALL_CORRECT"

    Checker(CheckConfig(strategy="vanilla"), ScriptedChatModel(judge)).check("q", "Paris is in France.")
    assert seen == [current()]
