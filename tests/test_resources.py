"""What checks open once (Wikipedia, knowledge bases, embedders, limiters): one owner, a size, a close."""

from __future__ import annotations

import threading

from factjudge.checking.verifier import Verifier
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.resources import PROCESS, Resources, current, held_by
from factjudge.retrieval.web_search.rate_limit import shared_limiter


class Opened:
    def __init__(self, name: str) -> None:
        self.name = name
        self.closed = False

    def close(self) -> None:
        self.closed = True


def test_each_kind_keeps_its_most_recently_used_and_closes_what_it_drops() -> None:
    held = Resources(size=2)
    a = held.get("wiki", "a", lambda: Opened("a"))
    b = held.get("wiki", "b", lambda: Opened("b"))
    assert held.get("wiki", "a", lambda: Opened("again")) is a  # opened once
    c = held.get("wiki", "c", lambda: Opened("c"))  # b is the least recently used
    assert b.closed and not a.closed and not c.closed and held.held("wiki") == 2
    other = held.get("kb", "a", lambda: Opened("kb"))  # kinds are apart
    held.close()
    assert a.closed and c.closed and other.closed and held.held("wiki") == 0


def test_two_threads_asking_at_once_open_it_once() -> None:
    held = Resources()
    opened: list[int] = []
    gate = threading.Event()

    def opener() -> Opened:
        opened.append(1)
        gate.wait(0.2)
        return Opened("slow")

    threads = [threading.Thread(target=held.get, args=("wiki", "k", opener)) for _ in range(4)]
    for thread in threads:
        thread.start()
    gate.set()
    for thread in threads:
        thread.join()
    assert opened == [1]


def test_a_verifier_holds_what_its_checks_open_and_closes_it() -> None:
    seen: list[Resources] = []

    def judge(messages: list[dict[str, str]]) -> str:
        seen.append(current())
        return "Yes"

    with Verifier(model=ScriptedChatModel(judge, name="m")) as verifier:
        verifier.verify("q", "The museum opened in 1998.", context=["The museum opened in 1998."])
        assert seen and all(r is verifier.resources for r in seen) and current() is PROCESS
        limiter = verifier.resources.get("limiter", ("x", "y"), lambda: Opened("limiter"))
    assert limiter.closed and verifier.resources.held("limiter") == 0


def test_rate_limiters_are_shared_by_whoever_holds_the_checks_resources() -> None:
    mine = Resources()
    with held_by(mine):
        first = shared_limiter("serper", "https://example.org", 2.0)
        assert shared_limiter("serper", "https://example.org", 2.0) is first
    assert shared_limiter("serper", "https://example.org", 2.0) is not first  # the process's own
