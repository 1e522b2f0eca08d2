"""KnowledgeBase: SQLite storage and FTS5 BM25 search over a multilingual fixture."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from factjudge.retrieval.kb import KnowledgeBase, fts_match, query_tokens

FIXTURE = Path(__file__).parent / "fixtures" / "kb_multilingual.jsonl"
DOCS = [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines() if line.strip()]
TEXT = {(d["lang"], d["topic"]): d["text"] for d in DOCS}

# One query per (language, topic), worded differently from the passage where the language allows.
QUERIES = {
    "en": {"everest": "How high is the tallest mountain in Nepal?",
           "curie": "Who discovered polonium and radium?",
           "amazon": "Which river flows through Peru and Brazil into the Atlantic?"},
    "es": {"everest": "¿Cuál es la montaña más alta del Himalaya?",
           "curie": "¿Quién descubrió el polonio y el radio?",
           "amazon": "¿Qué río atraviesa Perú y Brasil?"},
    "ar": {"everest": "ما هو أعلى جبل في الهيمالايا؟",
           "curie": "من اكتشف البولونيوم والراديوم؟",
           "amazon": "ما النهر الذي يمر عبر البرازيل وبيرو؟"},
    "bn": {"everest": "হিমালয়ের সর্বোচ্চ পর্বত কোনটি?",
           "curie": "পোলোনিয়াম ও রেডিয়াম কে আবিষ্কার করেন?",
           "amazon": "কোন নদী পেরু ও ব্রাজিলের মধ্য দিয়ে প্রবাহিত?"},
    "zh": {"everest": "喜马拉雅山脉最高的山峰是哪座？",
           "curie": "谁发现了钋和镭？",
           "amazon": "哪条河流经秘鲁和巴西？"},
    "hi": {"everest": "हिमालय का सबसे ऊँचा पर्वत कौन सा है?",
           "curie": "पोलोनियम और रेडियम की खोज किसने की?",
           "amazon": "कौन सी नदी पेरू और ब्राज़ील से होकर बहती है?"},
}
CASES = [(lang, topic) for lang, topics in QUERIES.items() for topic in topics]


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> KnowledgeBase:
    path = tmp_path_factory.mktemp("kb") / "kb.sqlite"
    base = KnowledgeBase(path)
    assert base.add_documents(DOCS) == len(DOCS)
    return base


def test_fixture_covers_required_languages() -> None:
    assert {"en", "es", "ar", "bn", "zh", "hi"} <= {d["lang"] for d in DOCS}
    assert len({d["topic"] for d in DOCS}) >= 3


@pytest.mark.parametrize(("lang", "topic"), CASES)
def test_bm25_finds_right_passage_in_each_language(kb: KnowledgeBase, lang: str, topic: str) -> None:
    hits = kb.search_bm25(QUERIES[lang][topic], k=3)
    assert hits, "no hits"
    # Bengali and Hindi cost many cl100k tokens, so their documents span several passages.
    assert hits[0].text in TEXT[(lang, topic)]
    assert hits[0].source == "kb"
    assert hits[0].score is not None and hits[0].score > 0
    assert [h.score for h in hits] == sorted((h.score or 0.0 for h in hits), reverse=True)


def test_info_counts_documents_passages_and_languages(kb: KnowledgeBase) -> None:
    info = kb.info()
    assert info["documents"] == len(DOCS)
    assert info["passages"] >= len(DOCS)
    assert info["languages"] == {"ar": 3, "bn": 3, "en": 3, "es": 3, "hi": 3, "zh": 3}


def test_title_restricts_to_one_document(kb: KnowledgeBase) -> None:
    # The query is about Everest, but restricted to the Amazon article only it may answer.
    hits = kb.search_bm25("highest mountain river", k=5, title="Amazon River")
    assert hits and all(h.title == "Amazon River" for h in hits)
    assert kb.search_bm25("polonium", k=5, title="Mount Everest") == []
    # "Marie Curie" is the title in two languages; lang narrows it to one.
    es = kb.search_bm25("Marie Curie radio", k=5, title="Marie Curie", lang="es")
    assert [h.text for h in es] == [TEXT[("es", "curie")]]


def test_documents_added_later_are_found(tmp_path: Path) -> None:
    path = tmp_path / "kb.sqlite"
    with KnowledgeBase(path) as base:
        base.add_documents(DOCS[:3])
        assert base.search_bm25("Himalayas 珠穆朗玛峰", k=1)[0].title == "Mount Everest"
    # Reopen the file and add more: both old and new documents are searchable.
    with KnowledgeBase(path) as base:
        base.add_documents([{"title": "Nile", "text": "The Nile flows north through Egypt into the "
                             "Mediterranean Sea.", "lang": "en", "source": "https://example.org/nile"}])
        hit = base.search_bm25("Where does the Nile reach the Mediterranean?", k=1)[0]
        assert hit.title == "Nile" and hit.url == "https://example.org/nile"
        assert base.search_bm25("polonium", k=1)[0].title == "Marie Curie"
        assert base.info()["documents"] == 4


def test_long_document_is_split_into_ordered_passages(tmp_path: Path) -> None:
    with KnowledgeBase(tmp_path / "kb.sqlite") as base:
        sentences = [f"Sentence number {i} mentions the word zebra{i}." for i in range(60)]
        base.add_documents([{"title": "Long", "text": " ".join(sentences), "lang": "en"}], passage_tokens=40)
        passages = list(base.iter_passages(batch_size=3))
        assert len(passages) > 3
        assert [p.ord for p in passages] == list(range(len(passages)))
        hit = base.search_bm25("zebra42", k=1)[0]
        assert "zebra42" in hit.text


@pytest.mark.parametrize(
    "query",
    ['AND OR NOT " * (', '"unbalanced', "NEAR(a b)", "title:foo", "a* OR", ")", "^start", "-x +y", "{a b}: c",
     "", "   ", "!!!"],
)
def test_fts_syntax_in_query_does_not_crash(kb: KnowledgeBase, query: str) -> None:
    assert isinstance(kb.search_bm25(query, k=3), list)
    assert isinstance(kb.search_bm25(query, k=3, title="Mount Everest"), list)


def test_fts_query_quotes_every_token() -> None:
    assert fts_match(query_tokens("polonium radium")) == '"polonium" OR "radium"'
    assert fts_match(query_tokens("")) == ""
    # Stop words are dropped unless nothing else is left.
    assert fts_match(query_tokens("the")) == '"the"'


def test_non_latin_tokens_survive_as_single_fts_terms(kb: KnowledgeBase) -> None:
    # A Bengali word with vowel signs, a Devanagari word with a virama, and a Chinese bigram.
    assert "রেডিয়াম" in kb.search_bm25("রেডিয়াম", k=1)[0].text
    assert "रेडियम" in kb.search_bm25("रेडियम", k=1)[0].text
    assert kb.search_bm25("西藏", k=1)[0].text in TEXT[("zh", "everest")]
    # A mark-less prefix of a Bengali word must not match it: the word is one term.
    assert kb.search_bm25("র", k=1) == []
