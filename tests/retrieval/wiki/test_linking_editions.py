"""An item about a subject whose article is in Spanish or French reads that subject's English article too,
after it: the packaged Spanish and French leads are often shorter ("Le Canada est un pays d'Amérique
septentrionale …" never names its capital, the English lead does). Only a title or a name a lead gives
its subject links the two; an English item reads English alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from factjudge.llm.scripted import ScriptedChatModel
from factjudge.retrieval.wiki.linking import common_words
from factjudge.retrieval.wiki.packaged import PackagedWiki
from factjudge.retrieval.wiki.topic import Subjects
from factjudge.sources.wiki import WikipediaSource
from factjudge.transcript import Transcript
from tests.retrieval.wiki.leads import summary_files

LEADS = [
    ("Canada", "fr", "pays d'Amérique du Nord", "Géographie",
     "Le Canada est un pays d'Amérique septentrionale constitué de dix provinces et de trois territoires."),
    ("Canada", "en", "Country in North America", "Geography",
     "Canada is a country in North America. Its capital is Ottawa and its three largest metropolitan "
     "areas are Toronto, Montreal, and Vancouver."),
    ("Río Amazonas", "es", "río de América del Sur", "Geografía",
     "El río Amazonas es un río de América del Sur que atraviesa Perú, Colombia y Brasil."),
    ("Amazon River", "en", "Major river in South America", "Geography",
     "The Amazon River in South America is the largest river by discharge volume of water in the world."),
    ("Mujer Maravilla", "es", "superheroína", "Artes",
     "Mujer Maravilla es una superheroína, princesa de las amazonas, pueblo basado en las amazonas de "
     "la mitología griega."),
    ("Manaos", "es", "ciudad de Brasil", "Geografía",
     "Manaos es una ciudad de Brasil junto al río Negro, cerca de su unión con el Amazonas. Por el "
     "Amazonas llegan los barcos."),
    ("Musée du Louvre", "fr", "musée à Paris", "Arts",
     "Le musée du Louvre est un musée situé dans le 1er arrondissement de Paris."),
    ("Louvre", "en", "Art museum in Paris", "Arts",
     "The Louvre is a national art museum in Paris, France, opened in 1793."),
    ("Brésil", "fr", "pays d'Amérique du Sud", "Géographie",
     "Le Brésil est le plus grand pays d'Amérique du Sud."),
    ("Brazil", "en", "Country in South America", "Geography",
     "Brazil is the largest country in South America. Its capital is Brasília."),
    ("World War I", "en", "Global conflict (1914–1918)", "History",
     "World War I, or the First World War, was a global conflict fought from 1914 to 1918."),
    ("Primera Guerra Mundial", "es", "conflicto bélico mundial", "Historia",
     "La Primera Guerra Mundial fue un conflicto mundial entre dos coaliciones."),
    ("Moon", "en", "Natural satellite of Earth", "Uncategorized",
     "The Moon is the only natural satellite of Earth."),
    ("Francisco de Goya", "es", "pintor español", "Artes",
     "Francisco José de Goya y Lucientes fue un pintor y grabador español."),
    ("Francisco de Goya", "fr", "peintre espagnol", "Arts",
     "Francisco José de Goya y Lucientes, dit Francisco de Goya, est un peintre et graveur espagnol."),
    ("Francisco Goya", "en", "Spanish painter (1746–1828)", "Arts",
     "Francisco José de Goya y Lucientes was a Spanish romantic painter and printmaker."),
]


@pytest.fixture
def wiki(tmp_path: Path) -> PackagedWiki:
    return PackagedWiki(tmp_path / "cache", summary_files(tmp_path, LEADS))


def _urls(wiki: PackagedWiki, question: str, answer: str,
          english: dict[str, str] | None = None) -> list[str | None]:
    def titled(title: str, lang: str) -> str | None:
        return (english or {}).get(title)

    reading = wiki.read(answer, 4, subjects=Subjects.of(question, answer),
                        english_title=titled if english is not None else None)
    return list(dict.fromkeys(ev.url for ev in reading.evidence))


def test_a_french_item_reads_the_english_lead_of_its_subject_after_the_french_one(wiki: PackagedWiki) -> None:
    assert _urls(wiki, "Quelle est la capitale du Canada ?", "La capitale du Canada est Toronto.") == [
        "https://fr.wikipedia.org/wiki/Canada", "https://en.wikipedia.org/wiki/Canada"]


def test_a_name_its_lead_gives_links_the_english_article_where_its_title_is_another_languages(
        wiki: PackagedWiki) -> None:
    # "Francisco de Goya" is the French article's title too; the name both leads open with links the
    # English one.
    assert _urls(wiki, "¿Quién fue Francisco de Goya?", "Francisco de Goya nació en 1746.") == [
        "https://es.wikipedia.org/wiki/Francisco_de_Goya", "https://en.wikipedia.org/wiki/Francisco_Goya"]


def test_an_english_item_reads_english_alone(wiki: PackagedWiki) -> None:
    assert _urls(wiki, "What is the capital of Canada?", "The capital of Canada is Ottawa.") == [
        "https://en.wikipedia.org/wiki/Canada"]


def test_a_short_form_links_no_english_article(wiki: PackagedWiki) -> None:
    # "Louvre" is only a short form of *Musée du Louvre*; the English *Louvre* may be another thing.
    urls = _urls(wiki, "Qu'est-ce que le Louvre ?", "Le Louvre a ouvert en 1793.")
    assert urls == ["https://fr.wikipedia.org/wiki/Mus%C3%A9e_du_Louvre"]


def test_a_things_last_word_the_leads_write_as_a_name_more_often_than_in_lower_case_names_it(
        wiki: PackagedWiki) -> None:
    # "las amazonas" of the myth, twice in lower case; "río Amazonas" as a name: the river's tail is a name.
    assert "amazonas" not in common_words(lead for *_, lead in LEADS)
    assert "amazonas" in common_words(["las amazonas de la mitología", "las amazonas, guerreras"])
    urls = _urls(wiki, "¿Qué es el Amazonas?", "El Amazonas es el río más caudaloso del mundo.")
    assert urls[0] == "https://es.wikipedia.org/wiki/R%C3%ADo_Amazonas"


BRAZIL_GEONAMES = "https://www.geonames.org/3469034"


@pytest.mark.parametrize(("question", "answer", "english", "urls"), [
    # No name the leads share: the English title the model gives, as a title or a name its lead gives.
    ("Quelle est la capitale du Brésil ?", "La capitale du Brésil est Rio.", {"Brésil": "Brazil"},
     ["https://fr.wikipedia.org/wiki/Br%C3%A9sil", "https://en.wikipedia.org/wiki/Brazil"]),
    ("¿Cuándo terminó la Primera Guerra Mundial?", "La Primera Guerra Mundial terminó en 1918.",
     {"Primera Guerra Mundial": "First World War"},
     ["https://es.wikipedia.org/wiki/Primera_Guerra_Mundial", "https://en.wikipedia.org/wiki/World_War_I"]),
    # A title the English summaries do not hold, or none given, links nothing: the capital no lead read names
    # is the one GeoNames gives.
    ("Quelle est la capitale du Brésil ?", "La capitale du Brésil est Rio.", {"Brésil": "Brasil"},
     ["https://fr.wikipedia.org/wiki/Br%C3%A9sil", BRAZIL_GEONAMES]),
    ("Quelle est la capitale du Brésil ?", "La capitale du Brésil est Rio.", {},
     ["https://fr.wikipedia.org/wiki/Br%C3%A9sil", BRAZIL_GEONAMES]),
    # A title another French article bears names another thing ("Bretagne" given as "France").
    ("Quelle est la capitale du Brésil ?", "La capitale du Brésil est Rio.", {"Brésil": "Canada"},
     ["https://fr.wikipedia.org/wiki/Br%C3%A9sil", BRAZIL_GEONAMES]),
])
def test_the_english_title_the_model_gives_links_an_article_no_name_links(
        wiki: PackagedWiki, question: str, answer: str, english: dict[str, str], urls: list[str]) -> None:
    assert _urls(wiki, question, answer, english) == urls


def test_a_subject_a_name_links_asks_for_no_title(wiki: PackagedWiki) -> None:
    asked: list[str] = []
    answer = "La capitale du Canada est Toronto."
    wiki.read(answer, 4, subjects=Subjects.of("Quelle est la capitale du Canada ?", answer),
              english_title=lambda title, lang: asked.append(title) or None)
    assert asked == []


def test_the_source_asks_the_model_once_a_subject_and_traces_it(wiki: PackagedWiki,
                                                                transcript: Transcript) -> None:
    model = ScriptedChatModel(["Brazil"])
    source = WikipediaSource(wiki, model=model)
    answer = "Le Brésil est grand. La capitale du Brésil est Rio."
    subjects = Subjects.of("Quelle est la capitale du Brésil ?", answer)
    for item in ("Le Brésil est grand.", "La capitale du Brésil est Rio."):
        gathered = source.gather(item, subjects, 4, "fr")
        assert [ev.title for ev in gathered.evidence][-1:] == ["Brazil"]
    assert len(model.calls) == 1 and [t.step for t in transcript.traces] == ["english_title"]


@pytest.mark.parametrize(("question", "answer", "english", "urls"), [
    # No article in any language by the name the answer gives: the English one the model's title names.
    ("¿Qué es la Luna?", "La Luna es el único satélite natural de la Tierra.", {"Luna": "Moon"},
     ["https://en.wikipedia.org/wiki/Moon"]),
    # A title the English summaries do not hold, or none given: no article, said so.
    ("¿Qué es la Luna?", "La Luna es el único satélite natural de la Tierra.", {"Luna": "Luna"}, []),
    ("¿Qué es la Luna?", "La Luna es el único satélite natural de la Tierra.", {}, []),
])
def test_a_subject_no_article_names_reads_the_english_article_the_models_title_names(
        wiki: PackagedWiki, question: str, answer: str, english: dict[str, str], urls: list[str]) -> None:
    assert _urls(wiki, question, answer, english) == urls


def test_an_english_subject_without_an_article_asks_for_no_title(wiki: PackagedWiki) -> None:
    asked: list[str] = []
    answer = "The Seine flows through Paris."
    reading = wiki.read(answer, 4, subjects=Subjects.of("What is the Seine?", answer),
                        english_title=lambda title, lang: asked.append(title) or "Seine")
    assert asked == [] and reading.evidence == ()
    assert reading.note == "no article about Seine in the packaged Wikipedia summaries"
