"""Reading FActScore's way on every backend: the subject's whole article, or no evidence and why."""

from __future__ import annotations

from pathlib import Path

import pytest

from factjudge.llm.tokens import count_tokens
from factjudge.retrieval.wiki.base import PASSAGE_TOKENS
from factjudge.retrieval.wiki.factscore_db import FactScoreWiki
from factjudge.retrieval.wiki.mediawiki import MediaWikiApi
from factjudge.retrieval.wiki.packaged import PackagedWiki
from factjudge.retrieval.wiki.topic import Subjects
from factjudge.text.segmenter import split_sentences
from tests.retrieval.wiki.mediawiki_server import MediaWikiServer, serve
from tests.retrieval.wiki.test_factscore_db import DOCUMENTS, make_db
from tests.retrieval.wiki.test_packaged import write_files

BIO_QUESTION = "Tell me a bio of Lanny Flaherty."
BIO = ("Lanny Flaherty is an American actor born in Pensacola, Florida. He has appeared in films such "
       "as Natural Born Killers. On television, he has appeared in The Sopranos. Flaherty has also "
       "worked in theater in New York. He lives in Sydney, Australia.")

# A whole article, long enough for several passages of about 256 tokens: the fact asked about is
# deep in it, where a lead alone would not reach.
CURIE = " ".join([
    "Marie Curie was a Polish and naturalised-French physicist and chemist who conducted pioneering "
    "research on radioactivity.",
    *[f"In her year {i} of study she read widely on mathematics, physics and chemistry, attended "
      f"lectures and worked in the laboratory late into the evening with other students." for i in range(40)],
    "In 1911 she received the Nobel Prize in Chemistry for the discovery of polonium and radium.",
    *[f"Her notebook number {i} is still radioactive and kept in a lead-lined box." for i in range(30)],
    "She died in 1934 at the Sancellemoz sanatorium in Passy, of aplastic anaemia.",
])


def _read_all(wiki: object, question: str, answer: str, k: int = 3) -> list:
    subjects = Subjects.of(question, answer)
    return [wiki.read(item, k, subjects=subjects, language="en")  # type: ignore[attr-defined]
            for item in split_sentences(answer)]


@pytest.fixture
def packaged(tmp_path: Path) -> PackagedWiki:
    return PackagedWiki(tmp_path / "cache", write_files(tmp_path))


def test_a_biography_the_source_lacks_gets_no_evidence_and_says_why(packaged: PackagedWiki) -> None:
    readings = _read_all(packaged, BIO_QUESTION, BIO)
    # "Sydney, Australia", "New York", "Florida": every one an article some other source may hold,
    # none of them about him.
    assert all(r.evidence == () for r in readings)
    assert {r.note for r in readings} == {
        "no article about Lanny Flaherty in the packaged Wikipedia summaries"}
    assert not any(r.has_article for r in readings)


def test_items_about_the_topic_read_its_article_and_items_about_another_name_read_that_ones(
        packaged: PackagedWiki) -> None:
    answer = ("Australia is a country in Oceania. Its capital is Sydney. The Sydney Opera House opened in "
              "1973. Canberra was founded in 1913.")
    readings = _read_all(packaged, "Tell me about Australia.", answer)
    assert [(r.subject, r.article) for r in readings] == [
        ("Australia", "Australia"), ("Australia", "Australia"),
        ("Sydney Opera House", "Sydney Opera House"),  # a sure name opening the item: its own article
        ("Canberra", "Canberra"),  # a lone word no lead writes in lower case, with an article: its own
    ]
    assert [e.title for r in readings for e in r.evidence] == ["Australia", "Australia",
                                                               "Sydney Opera House", "Canberra"]


def test_a_lone_common_word_opening_an_item_leaves_it_with_the_answers_topic(tmp_path: Path) -> None:
    files = write_files(tmp_path, {"en": {
        "Australia": "Australia is a country in Oceania, where violence against settlers marked history.",
        "Violence": "Violence is the use of physical force to injure. Domestic violence is violence at home.",
    }})
    wiki = PackagedWiki(tmp_path / "cache", files)
    readings = _read_all(wiki, "Tell me about Australia.", "Australia is a country. Violence is rare there.")
    # "Violence" has an article, but the leads write it in lower case: it may be no name here.
    assert [(r.subject, r.article) for r in readings] == [("Australia", "Australia")] * 2


def test_without_a_topic_a_lone_opening_word_is_a_subject_where_the_source_knows_it(
        packaged: PackagedWiki) -> None:
    [reading] = _read_all(packaged, "When was it founded?", "Canberra was founded in 1913.")
    assert (reading.subject, reading.article) == ("Canberra", "Canberra")
    assert reading.evidence[0].text.startswith("Canberra est la capitale")  # no English lead: the French


def test_an_answer_naming_nothing_is_still_searched(packaged: PackagedWiki) -> None:
    [reading] = _read_all(packaged, "", "It is a wrought-iron lattice tower completed in 1889.")
    assert reading.subject is None and reading.note is None
    assert reading.evidence[0].title == "Eiffel Tower"


def test_a_zim_item_is_read_in_passages_of_its_topics_whole_article(tmp_path: Path) -> None:
    from tests.retrieval.wiki.test_zim import make_zim

    zim_path = make_zim(tmp_path / "wikipedia_en_top.zim", {
        "Marie Curie": CURIE,
        "Nobel Prize in Chemistry": "The Nobel Prize in Chemistry is awarded yearly since 1901. In 1911 it "
                                    "went to a chemist for the discovery of polonium and radium.",
        "Paris": "Paris is the capital of France.",
    })
    from factjudge.retrieval.wiki.zim import ZimWiki

    wiki = ZimWiki(zim_path)
    answer = "Marie Curie was a physicist. In 1911 she won the Nobel Prize in Chemistry. She died in Paris."
    physicist, nobel, died = _read_all(wiki, "Tell me a bio of marie curie.", answer, k=2)
    assert {e.title for r in (physicist, nobel, died) for e in r.evidence} == {"Marie Curie"}
    assert len(nobel.evidence) == 2 and "In 1911 she received the Nobel Prize" in nobel.evidence[0].text
    assert "She died in 1934" in died.evidence[0].text
    assert all(count_tokens(e.text) <= PASSAGE_TOKENS for r in (nobel, died) for e in r.evidence)
    assert wiki.read("He was born in 1867.", 2, subjects=Subjects.of("Tell me a bio of Pierre Curie.", ""),
                     language="en").note == "no article about Pierre Curie in wikipedia_en_top.zim"


def test_a_factscore_item_reads_its_topics_stored_passages(tmp_path: Path) -> None:
    wiki = FactScoreWiki(make_db(tmp_path / "enwiki-20230401.db"))
    died, absent = (wiki.read("She died in 1934.", 2, subjects=Subjects.of(f"Tell me a bio of {who}.", ""),
                              language="en") for who in ("Marie Curie", "Lanny Flaherty"))
    assert died.evidence[0].text == DOCUMENTS["Marie Curie"][2]
    assert {e.title for e in died.evidence} == {"Marie Curie"}
    assert absent.evidence == () and absent.note == "no article about Lanny Flaherty in enwiki-20230401.db"


def test_a_mediawiki_item_reads_its_topics_whole_article_through_a_redirect() -> None:
    articles = {"Marie Curie": CURIE, "Paris": "Paris is the capital of France."}
    with serve(MediaWikiServer(articles, redirects={"Maria Skłodowska": "Marie Curie"})) as server:
        wiki = MediaWikiApi(server.url, cache_dir=None, allow_loopback=True, per_second=100.0)
        subjects = Subjects.of("Tell me a bio of Maria Skłodowska.", "")
        reading = wiki.read("She died in Paris in 1934.", 2, subjects=subjects, language="en")
        missing = wiki.read("He was a chemist.", 2, subjects=Subjects.of("Who was Lanny Flaherty?", ""),
                            language="en")
    assert reading.article == "Marie Curie" and reading.subject == "Maria Skłodowska"
    assert "She died in 1934" in reading.evidence[0].text
    assert {e.title for e in reading.evidence} == {"Marie Curie"}
    assert missing.note == "no article about Lanny Flaherty in 127.0.0.1"
