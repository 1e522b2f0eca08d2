from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from factjudge.errors import InputError
from factjudge.retrieval.wiki.zim import ZimWiki

writer = pytest.importorskip("libzim.writer")

PAGES = {
    "Madrid": "Madrid is the capital and most populous city of Spain. It lies on the Manzanares.",
    "Paris": "Paris is the capital of France. The Louvre museum is in Paris.",
    "Statue of Liberty": "The Statue of Liberty is a colossal sculpture on Liberty Island, New York Harbor.",
    "Córdoba": "Córdoba is a city in Andalusia, on the Guadalquivir river.",
}


class Page(writer.Item):  # type: ignore[misc]
    def __init__(self, title: str, text: str) -> None:
        super().__init__()
        self.title, self.text = title, text

    def get_path(self) -> str:
        return self.title.replace(" ", "_")

    def get_title(self) -> str:
        return self.title

    def get_mimetype(self) -> str:
        return "text/html"

    def get_contentprovider(self) -> object:
        return writer.StringProvider(f"<html><head><title>{self.title}</title></head>"
                                     f"<body><h1>{self.title}</h1><p>{self.text}</p></body></html>")

    def get_hints(self) -> dict[object, int]:
        return {writer.Hint.FRONT_ARTICLE: True}


def make_zim(path: Path, pages: dict[str, str] = PAGES, *, index: bool = True,
             language: str = "eng", name: str = "wikipedia_en_all_maxi") -> Path:
    with writer.Creator(path).config_indexing(index, language) as creator:
        creator.set_mainpath("Madrid")
        creator.add_metadata("Language", language)
        creator.add_metadata("Name", name)
        for title, text in pages.items():
            creator.add_item(Page(title, text))
        creator.add_redirection("Spanish_capital", "Spanish capital", "Madrid",
                                {writer.Hint.FRONT_ARTICLE: True})
    return path


@pytest.fixture(scope="module")
def zim(tmp_path_factory: pytest.TempPathFactory) -> ZimWiki:
    return ZimWiki(make_zim(tmp_path_factory.mktemp("zim") / "wikipedia_en.zim"))


def test_the_topic_article_comes_first(zim: ZimWiki) -> None:
    found = zim.search("Paris is the capital of France", 3, topics=["Madrid"])
    assert found[0].title == "Madrid"
    assert "Paris" in {e.title for e in found}
    assert found[0].url == "https://en.wikipedia.org/wiki/Madrid"
    assert found[0].source == "wikipedia"
    assert zim.spec.kind == "zim"


@pytest.mark.parametrize(("topic", "title"), [
    ("statue of liberty", "Statue of Liberty"),  # a title suggestion, compared folded
    ("Cordoba", "Córdoba"),  # the accent the question left out
    ("Spanish capital", "Madrid"),  # a redirect
])
def test_topics_are_found_by_title_however_spelt(zim: ZimWiki, topic: str, title: str) -> None:
    assert zim.search("a river", 2, topics=[topic])[0].title == title


def test_a_query_the_raw_and_search_misses_is_relaxed_until_it_finds(zim: ZimWiki) -> None:
    from libzim.search import Query

    question = "What is the capital city of Spain in Europe?"
    # libzim ANDs every term and no article says "Europe": the sentence as such finds nothing.
    assert zim._searcher.search(Query().set_query(question)).getEstimatedMatches() == 0
    found = zim.search(question, 2)
    assert found[0].title == "Madrid"
    assert "most populous city of Spain" in found[0].text


def test_the_user_text_is_no_search_syntax(zim: ZimWiki) -> None:
    assert zim.search('"Louvre" AND -museum OR capital*', 1)[0].title == "Paris"


def test_nothing_found_is_no_evidence(zim: ZimWiki) -> None:
    assert zim.search("zebra quokka", 3) == []
    assert zim.search("the of and", 3) == []


def test_searches_from_many_threads_agree(zim: ZimWiki) -> None:
    queries = ["capital of Spain", "Louvre museum", "New York Harbor", "Guadalquivir river"] * 4
    alone = [zim.search(q, 2) for q in queries]
    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(lambda q: zim.search(q, 2), queries)) == alone


def test_the_edition_language_makes_the_address_and_is_only_a_preference(tmp_path: Path) -> None:
    spanish = ZimWiki(make_zim(tmp_path / "es.zim", {"Madrid": "Madrid es la capital de España."},
                               language="spa", name="wikipedia_es_all_maxi"))
    assert spanish.lang == "es"
    found = spanish.search("capital de España", 1, language="en")
    assert found[0].url == "https://es.wikipedia.org/wiki/Madrid"
    other = ZimWiki(make_zim(tmp_path / "notes.zim", {"Madrid": "Madrid notes."}, name="my_notes"))
    assert other.search("Madrid notes", 1)[0].url is None  # not a Wikipedia: no made-up address


def test_a_missing_or_foreign_file_is_one_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no ZIM file at"):
        ZimWiki(tmp_path / "missing.zim")
    text = tmp_path / "text.zim"
    text.write_text("hello")
    with pytest.raises(InputError, match="is not a readable ZIM file"):
        ZimWiki(text)
    cut = tmp_path / "cut.zim"
    cut.write_bytes(make_zim(tmp_path / "whole.zim").read_bytes()[:3000])
    with pytest.raises(InputError, match="is not a readable ZIM file"):
        ZimWiki(cut)


def test_a_zim_without_a_full_text_index_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="has no full-text index"):
        ZimWiki(make_zim(tmp_path / "plain.zim", index=False))


def test_without_libzim_the_error_says_what_to_install(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "libzim.reader", None)
    with pytest.raises(InputError, match=r"pip install 'factjudge\[zim\]'"):
        ZimWiki(tmp_path / "any.zim")
