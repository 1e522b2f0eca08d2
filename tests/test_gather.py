"""Evidence gathering by source name: kb, web (local search server), llm, and translation."""

from __future__ import annotations

import pytest

from factjudge.checking.gather import _FROM, Gathered, Gatherer
from factjudge.config import EVIDENCE_SOURCES, CheckConfig
from factjudge.errors import InputError
from factjudge.llm.base import Message
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.records import Evidence
from factjudge.retrieval.wiki.reading import EnglishTitle, Reading
from factjudge.retrieval.wiki.topic import Subjects
from factjudge.transcript import Transcript
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
    evidence = list(Gatherer(("kb",), model=None, kb_retriever=kb, k=3).gather(CLAIM_EN).evidence)
    assert evidence == [KB]
    assert kb.queries == [(CLAIM_EN, 3)]


def test_sources_are_combined_in_the_order_given(transcript: Transcript) -> None:
    router = Router(search=["Query: largest ocean in the world", "DONE"],
                    question=["Question: Which ocean is the largest?"], passage=[f"Passage: {PASSAGE}"])
    traces = transcript.traces
    with LocalSearchServer(serve) as server:
        gatherer = Gatherer(("llm", "web", "kb"), model=ScriptedChatModel(router), kb_retriever=FakeKB(),
                            search_provider=provider_for("searxng", server))
        evidence = list(gatherer.gather(CLAIM_EN).evidence)
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
        gatherer = Gatherer(("kb", "web"), model=ScriptedChatModel(router), kb_retriever=kb,
                            search_provider=provider_for("searxng", server), translate="before",
                            language="bn")
        evidence = list(gatherer.gather(CLAIM_BN).evidence)
    assert len(evidence) == 2
    assert kb.queries == [(CLAIM_EN, 5)]
    assert "from Bengali" in router.prompts("translate")[0] and CLAIM_BN in router.prompts("translate")[0]
    assert CLAIM_EN in router.prompts("search")[0] and CLAIM_BN not in router.prompts("search")[0]


def test_translate_before_is_a_no_op_for_english() -> None:
    kb = FakeKB()
    Gatherer(("kb",), model=ScriptedChatModel([]), kb_retriever=kb, translate="before",
             language="en").gather(CLAIM_EN)
    assert kb.queries == [(CLAIM_EN, 5)]


def test_translate_after_retrieval_translates_the_passages() -> None:
    bengali = Evidence(source="kb", text="প্রশান্ত মহাসাগর বৃহত্তম।", url="https://bn.wikipedia.org/x")

    class BengaliKB:
        def search(self, query: str, k: int) -> list[Evidence]:
            return [bengali]

    router = Router(translate=["1. The Pacific is the largest."])
    evidence = Gatherer(("kb",), model=ScriptedChatModel(router), kb_retriever=BengaliKB(),
                        translate="after", language="bn").gather(CLAIM_BN).evidence
    assert evidence == (Evidence(source="kb", text="The Pacific is the largest.", url="https://bn.wikipedia.org/x"),)
    # The search ran with the original claim; only the passages were translated.
    assert bengali.text in router.prompts("translate")[0] and CLAIM_BN not in router.prompts("translate")[0]


def test_a_failed_translation_falls_back_to_the_original_and_is_traced(transcript: Transcript) -> None:
    kb = FakeKB()
    traces = transcript.traces
    model = ScriptedChatModel(["Sure: it means the Arctic is largest."] * 3)
    gatherer = Gatherer(("kb",), model=model, kb_retriever=kb, translate="before", language="bn")
    gatherer.gather(CLAIM_BN)
    assert kb.queries == [(CLAIM_BN, 5)]
    assert [t.step for t in traces] == ["translate"] * 3 and all(t.error for t in traces)


@pytest.mark.parametrize(("changes", "message"), [
    ({"evidence": ("kb", "wikipedia"), "kb": "kb.sqlite"}, "unknown evidence source 'wikipedia'"),
    ({"evidence": ("kb",)}, "needs a knowledge base: --kb PATH"),
    ({"evidence": ("web",)}, "needs --search-provider"),
    ({"evidence": ("web",), "search_provider": "bing"}, "unknown search provider 'bing'"),
    ({"evidence": ("links",)}, "read by every strategy whose prompt shows passages"),
    ({"retriever": "tfidf"}, "unknown retriever 'tfidf'"),
    ({"translate": "during"}, "translate must be one of before, after"),
    ({"k": 0}, "at least 1"),
])
def test_a_bad_set_up_fails_when_the_config_is_made(changes: dict[str, object], message: str) -> None:
    with pytest.raises(InputError, match=message):
        CheckConfig(**changes)  # type: ignore[arg-type]


def test_every_source_the_config_accepts_is_gathered() -> None:
    assert set(_FROM) == set(EVIDENCE_SOURCES)
    assert Gatherer((), model=None).gather(CLAIM_EN).evidence == ()


def test_wiki_evidence_is_read_about_the_answers_subjects_and_says_when_there_is_no_article() -> None:
    asked: list[tuple[str, int, Subjects | None, str | None]] = []

    class Wiki:
        name = "a test wiki"

        def read(self, query: str, k: int, *, subjects: Subjects | None = None,
                 language: str | None = None, english_title: EnglishTitle | None = None) -> Reading:
            asked.append((query, k, subjects, language))
            if "Sydney" in query:
                return Reading((Evidence("wikipedia", "Canberra is the capital of Australia.",
                                         title="Australia"),), self.name, "Australia", "Australia")
            return Reading((), self.name, "Lanny Flaherty")

    subjects = Subjects.of("Tell me about Australia.", "Its capital is Sydney.")
    gatherer = Gatherer(("wiki",), model=None, k=4, language="en", wiki=Wiki(),  # type: ignore[arg-type]
                        subjects=subjects)
    found = gatherer.gather("Its capital is Sydney, not Canberra.")
    assert found.evidence[0].title == "Australia" and found.note is None
    assert asked == [("Its capital is Sydney, not Canberra.", 4, subjects, "en")]
    none = Gathered((), "no article about Lanny Flaherty in a test wiki")
    assert gatherer.gather("He was born in 1949.") == none
    assert [r.has_article for r in gatherer.readings] == [True, False]
