"""Evidence gathering by source name: kb, web (local search server), llm, and translation."""

from __future__ import annotations

import pytest

from factjudge.errors import InputError
from factjudge.llm.base import Message
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.records import Evidence, Trace
from factjudge.retrieval.gather import gather_evidence
from tests.retrieval.local_search_server import LocalSearchServer, Reply, Seen, provider_for, searxng_payload

CLAIM_BN = "আর্কটিক মহাসাগর বিশ্বের বৃহত্তম মহাসাগর।"
CLAIM_EN = "The Arctic Ocean is the largest ocean in the world."
KB = Evidence(source="kb", text="The Arctic Ocean is the smallest ocean.",
              url="https://en.wikipedia.org/wiki/Arctic_Ocean", score=7.1)
HIT = ("Arctic Ocean", "https://www.britannica.com/place/Arctic-Ocean", "Smallest of the world's oceans.")
PASSAGE = "The Pacific Ocean is the largest ocean; the Arctic Ocean is the smallest of the five oceans."
PROMPTS = {"You search the web": "search", "You help check": "question", "You write a short": "passage",
           "You translate": "translate"}


class FakeKB:
    """A retriever stand-in that records the queries it got."""

    def __init__(self) -> None:
        self.queries: list[tuple[str, int]] = []

    def search(self, query: str, k: int) -> list[Evidence]:
        self.queries.append((query, k))
        return [KB]


class Router:
    """Replies by which prompt the model was given, so sources can run in any order."""

    def __init__(self, **replies: list[str]) -> None:
        self.replies = replies
        self.seen: list[tuple[str, str]] = []

    def __call__(self, messages: list[Message]) -> str:
        prompt = messages[0]["content"]
        kind = next(kind for start, kind in PROMPTS.items() if prompt.startswith(start))
        self.seen.append((kind, prompt))
        return self.replies[kind].pop(0)

    def prompts(self, kind: str) -> list[str]:
        return [prompt for k, prompt in self.seen if k == kind]


def serve(seen: Seen) -> Reply:
    return Reply(searxng_payload([HIT], seen.query["q"][0]))


def test_kb_alone_needs_no_model() -> None:
    kb = FakeKB()
    evidence = gather_evidence(CLAIM_EN, ["kb", "links", "kb"], model=None, traces=[], kb_retriever=kb, k=3)
    assert evidence == [KB]
    assert kb.queries == [(CLAIM_EN, 3)]


def test_sources_are_combined_in_the_order_given() -> None:
    router = Router(search=["Query: largest ocean in the world", "DONE"],
                    question=["Question: Which ocean is the largest?"], passage=[f"Passage: {PASSAGE}"])
    traces: list[Trace] = []
    with LocalSearchServer(serve) as server:
        evidence = gather_evidence(CLAIM_EN, ["llm", "web", "kb"], model=ScriptedChatModel(router),
                                   traces=traces, kb_retriever=FakeKB(),
                                   search_provider=provider_for("searxng", server))
    assert evidence == [
        Evidence(source="llm", text=PASSAGE, title="Which ocean is the largest?", verified=False),
        Evidence(source="web", text=HIT[2], url=HIT[1], title=HIT[0]),
        KB,
    ]
    assert server.requests[0].query["q"] == ["largest ocean in the world"]
    assert [t.step for t in traces] == ["knowledge_question", "knowledge_passage", "search", "search"]
    assert CLAIM_EN in router.prompts("search")[0] and CLAIM_EN in router.prompts("question")[0]


def test_translate_before_retrieval_searches_with_the_english_claim() -> None:
    router = Router(translate=[f"1. {CLAIM_EN}"], search=["Query: largest ocean", "DONE"])
    kb = FakeKB()
    with LocalSearchServer(serve) as server:
        evidence = gather_evidence(CLAIM_BN, ["kb", "web"], model=ScriptedChatModel(router), traces=[],
                                   kb_retriever=kb, search_provider=provider_for("searxng", server),
                                   translate=True, language="bn")
    assert len(evidence) == 2
    assert kb.queries == [(CLAIM_EN, 5)]
    assert "from Bengali" in router.prompts("translate")[0] and CLAIM_BN in router.prompts("translate")[0]
    assert CLAIM_EN in router.prompts("search")[0] and CLAIM_BN not in router.prompts("search")[0]


def test_translate_before_is_a_no_op_for_english() -> None:
    kb = FakeKB()
    gather_evidence(CLAIM_EN, ["kb"], model=ScriptedChatModel([]), traces=[], kb_retriever=kb,
                    translate="before", language="en")
    assert kb.queries == [(CLAIM_EN, 5)]


def test_translate_after_retrieval_translates_the_passages() -> None:
    bengali = Evidence(source="kb", text="প্রশান্ত মহাসাগর বৃহত্তম।", url="https://bn.wikipedia.org/x")

    class BengaliKB:
        def search(self, query: str, k: int) -> list[Evidence]:
            return [bengali]

    router = Router(translate=["1. The Pacific is the largest."])
    evidence = gather_evidence(CLAIM_BN, ["kb"], model=ScriptedChatModel(router), traces=[],
                               kb_retriever=BengaliKB(), translate="after", language="bn")
    assert evidence == [Evidence(source="kb", text="The Pacific is the largest.", url="https://bn.wikipedia.org/x")]
    # The search ran with the original claim; only the passages were translated.
    assert bengali.text in router.prompts("translate")[0] and CLAIM_BN not in router.prompts("translate")[0]


def test_a_failed_translation_falls_back_to_the_original_and_is_traced() -> None:
    kb = FakeKB()
    traces: list[Trace] = []
    model = ScriptedChatModel(["Sure: it means the Arctic is largest."] * 3)
    gather_evidence(CLAIM_BN, ["kb"], model=model, traces=traces, kb_retriever=kb,
                    translate=True, language="bn")
    assert kb.queries == [(CLAIM_BN, 5)]
    assert [t.step for t in traces] == ["translate"] * 3 and all(t.error for t in traces)


@pytest.mark.parametrize(("sources", "kw", "message"), [
    (["kb", "wikipedia"], {}, "unknown evidence source 'wikipedia'"),
    (["kb"], {}, "needs a knowledge-base retriever"),
    (["web"], {"model": ScriptedChatModel([])}, "needs a search provider"),
    (["llm"], {}, "a chat model is needed for llm"),
    (["kb"], {"kb_retriever": FakeKB(), "translate": "during"}, "translate must be"),
])
def test_a_bad_set_up_fails_before_any_call(sources: list[str], kw: dict[str, object], message: str) -> None:
    kw.setdefault("model", None)
    with pytest.raises(InputError, match=message):
        gather_evidence(CLAIM_EN, sources, traces=[], **kw)  # type: ignore[arg-type]


def test_only_links_gives_nothing() -> None:
    assert gather_evidence(CLAIM_EN, ["links"], model=None, traces=[]) == []
