"""Entity linking: a subject named the way people speak finds its article, in the answer's language."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from factjudge.retrieval.wiki.linking import AliasIndex, Entry, aliases
from factjudge.retrieval.wiki.packaged import PackagedWiki
from factjudge.retrieval.wiki.topic import Subjects
from factjudge.text.language import guess_language
from tests.retrieval.wiki.leads import summary_files

# Leads as the packaged summaries write them (title, language, description, category, lead).
LEADS = [
    ("Great Wall of China", "en", "Series of fortifications in northern China", "Arts",
     "The Great Wall of China is a series of fortifications in China. They were built across the "
     "historical northern borders of ancient Chinese states."),
    ("Miguel de Cervantes", "en", "Spanish writer (1547–1616)", "People",
     "Miguel de Cervantes Saavedra was a Spanish writer widely regarded as the greatest writer in the "
     "Spanish language. He is best known for his novel Don Quixote."),
    ("Louvre", "en", "Art museum in Paris, France", "Arts",
     "The Louvre is a national art museum in Paris, France. It is home to the Mona Lisa."),
    ("Musée du Louvre", "fr", "musée d'art à Paris, France", "Arts et culture",
     "Le musée du Louvre est un musée parisien situé au sein du palais du Louvre. Il a ouvert en 1793."),
    ("Mercury (planet)", "en", "First planet from the Sun", "Uncategorized",
     "Mercury is the first planet from the Sun and the smallest planet in the Solar System."),
    ("Mercury (element)", "en", "Chemical element with symbol Hg", "Physical sciences",
     "Mercury is a chemical element; it is a heavy, silvery metal, the only metal liquid at room "
     "temperature."),
    ("France", "en", "Country primarily in Western Europe", "Uncategorized",
     "France, officially the French Republic, is a country primarily located in Western Europe. Its "
     "capital is Paris."),
    ("Francia", "en", "Western European kingdom (c. 481–843)", "History",
     "The Kingdom of the Franks, also known as the Frankish Kingdom or Francia, was the largest "
     "post-Roman kingdom in Western Europe."),
    ("Francia", "es", "país de Europa Occidental", "Geografía",
     "Francia, oficialmente República Francesa, es un país soberano de Europa Occidental. Su capital es "
     "París."),
    ("Eiffel Tower", "en", "Tower in Paris, France", "Arts",
     "The Eiffel Tower is a wrought-iron lattice tower in Paris, France. The tower was completed in 1889."),
    ("Golden Gate Bridge", "en", "Suspension bridge in San Francisco", "Technology",
     "The Golden Gate Bridge is a suspension bridge. The bridge opened in 1937."),
    ("Bogota", "en", "Capital of Colombia", "Geography", "Bogotá is the capital of Colombia."),
    ("Bogotá", "es", "capital de Colombia", "Geografía", "Bogotá es la capital de Colombia."),
    ("Martin Luther King Jr.", "en", "American civil rights activist (1929–1968)", "People",
     "Martin Luther King Jr. was an American civil rights activist and Baptist minister."),
    # A title opening with its article, which the lead does not give its subject.
    ("Las cuatro estaciones", "es", "conciertos para violín de Antonio Vivaldi", "Artes",
     "Le quattro stagioni es un conjunto de cuatro conciertos para violín de Antonio Vivaldi."),
]
ENTRIES = [Entry(*lead) for lead in LEADS]


@pytest.fixture(scope="module")
def index() -> AliasIndex:
    return AliasIndex.build(ENTRIES)


def test_an_article_is_known_by_its_title_its_leads_names_and_their_short_forms() -> None:
    common = frozenset({"tower", "bridge"})
    assert set(aliases(ENTRIES[0], common)) >= {("Great Wall of China", "title"), ("Great Wall", "short")}
    assert ("Cervantes", "short") in set(aliases(ENTRIES[1]))
    assert ("Miguel de Cervantes Saavedra", "lead") in set(aliases(ENTRIES[1]))
    assert ("Louvre", "short") in set(aliases(ENTRIES[3]))  # what follows "du" in "musée du Louvre"
    assert ("Mercury", "base") in set(aliases(ENTRIES[4]))  # the title without its disambiguation
    assert ("French Republic", "also") in set(aliases(ENTRIES[6]))
    assert {("Frankish Kingdom", "also"), ("Francia", "also"), ("Kingdom of the Franks", "lead")} \
        <= set(aliases(ENTRIES[7]))
    # A short form the leads write in lower case is no name: "Tower" of "Eiffel Tower".
    assert ("Tower", "short") not in set(aliases(ENTRIES[9], common))


def test_a_second_name_the_leads_subject_is_given_after_or_is_an_alias() -> None:
    capital = Entry("Antananarivo", "fr", "capitale de Madagascar", "Géographie",
                    "Antananarivo ou Tananarive dans sa version francisée, ou encore la cité des mille, "
                    "est la capitale économique et politique de Madagascar.")
    assert ("Tananarive", "also") in set(aliases(capital))
    metal = Entry("Mercury (element)", "en", "", "", "Mercury or quicksilver is a chemical element.")
    # A common noun after "or" names no article: only capitalised words are a name.
    assert not any(name.startswith("quicksilver") for name, _ in aliases(metal))
    # Nor does an adjective before one: "European" is no name of the common quail.
    bird = Entry("Common quail", "en", "", "", "The common quail or European quail is a small bird.")
    assert set(aliases(bird)) == {("Common quail", "title")}


def test_an_epithet_the_lead_gives_later_is_an_alias_when_it_opens_with_the_titles_first_word() -> None:
    queen = Entry("Isabel I de Castilla", "es", "reina de Castilla", "Historia",
                  "Isabel I de Castilla fue reina de Castilla desde 1474 hasta 1504. Se la conoce también "
                  "como Isabel la Católica, título que le otorgó el papa. Con su marido se la conoce como "
                  "Reyes Católicos.")
    found = set(aliases(queen))
    assert ("Isabel la Católica", "also") in found
    # Another name the lead gives to others than its subject ("Reyes Católicos"), and an epithet's words
    # alone ("Católica"), name no article.
    assert not {name for name, _ in found} & {"Reyes Católicos", "Católica", "la Católica"}


def test_a_things_last_word_names_it_only_where_the_item_shares_a_word_with_it() -> None:
    magazine = Entry("Scientific American", "en", "", "Society", "Scientific American is a popular science "
                     "magazine.")
    university = Entry("Université Jagellonne", "fr", "", "Société", "L'université Jagellonne est la plus "
                       "ancienne université de Pologne, à Cracovie.")
    fleming = Entry("Alexander Fleming", "en", "", "People", "Sir Alexander Fleming was a physician.")
    assert ("American", "tail") in set(aliases(magazine)) and ("Fleming", "short") in set(aliases(fleming))
    index = AliasIndex.build([magazine, university, fleming])
    # "American trains" are not the magazine's; the university's name after its common noun is its own.
    assert index.link(["American"], "Why do American trains have noses?", "en") is None
    link = index.link(["Jagellonne"], "Casimir III a fondé l'université Jagellonne de Cracovie.", "fr")
    assert link is not None and link.title == "Université Jagellonne"
    # A surname names its person alone.
    assert index.link(["Fleming"], "Who was Fleming?", "en") is not None


def test_a_rulers_name_without_its_ordinal_is_a_short_form() -> None:
    emperor = Entry("Napoléon Ier", "fr", "", "", "Napoléon Bonaparte est un militaire français.")
    assert ("Napoléon", "short") in set(aliases(emperor))
    king = Entry("Napoleón I de Francia", "es", "", "", "Napoleón Bonaparte fue un militar francés.")
    assert ("Napoleón", "short") in set(aliases(king))


# One emperor in three languages, as the packaged summaries give him: only the French lead names him
# "Pedro II" ("Pierre II ou Pedro II"); the others by their titles, "Pedro II de Brasil", "… of Brazil".
PEDRO = [
    ("Pedro II de Brasil", "es", "emperador de Brasil", "Personas",
     "Pedro II de Brasil fue el segundo y último monarca del Imperio brasileño."),
    ("Pedro II of Brazil", "en", "Emperor of Brazil from 1831 to 1889", "People",
     "Dom Pedro II was the second and final emperor of the Empire of Brazil."),
    ("Pierre II (empereur du Brésil)", "fr", "empereur du Brésil", "Personnalités",
     "Pierre II ou Pedro II, né le 2 décembre 1825 à Rio de Janeiro, est empereur du Brésil de 1831 à 1889."),
]


def test_a_rulers_name_with_its_ordinal_before_the_land_is_a_short_form() -> None:
    assert ("Pedro II", "short") in set(aliases(Entry(*PEDRO[0])))
    assert ("Pedro II", "short") in set(aliases(Entry(*PEDRO[1])))


@pytest.mark.parametrize(("question", "answer", "lang"), [
    ("¿Quién fue Pedro II?", "Pedro II fue emperador de Brasil.", "es"),
    ("Who was Pedro II?", "Pedro II was emperor of Brazil.", "en"),
    ("Qui était Pedro II ?", "Pedro II fut empereur du Brésil.", "fr"),
])
def test_a_ruler_asked_about_in_one_language_is_read_in_that_languages_article(
        tmp_path: Path, question: str, answer: str, lang: str) -> None:
    # Before, "Pedro II" named the French article only, so a Spanish answer was read in French.
    wiki = PackagedWiki(tmp_path / "cache", summary_files(tmp_path, PEDRO))
    reading = wiki.read(answer, 3, subjects=Subjects.of(question, answer))
    assert reading.article == next(title for title, lg, *_ in PEDRO if lg == lang)
    assert reading.evidence and (reading.evidence[0].url or "").startswith(f"https://{lang}.wikipedia.org/")


@pytest.mark.parametrize(("name", "context", "language", "title", "lang"), [
    ("Great Wall", "The Great Wall is visible from space.", "en", "Great Wall of China", "en"),
    ("Cervantes", "Cervantes wrote Don Quixote.", "en", "Miguel de Cervantes", "en"),
    # The answer's language first: a French answer reads the French article, a Spanish one the Spanish.
    ("Louvre", "Le Louvre est un musée à Paris.", "fr", "Musée du Louvre", "fr"),
    ("Louvre", "The Louvre is a museum in Paris.", "en", "Louvre", "en"),
    ("Francia", "La capital de Francia es París.", "es", "Francia", "es"),
    # Homonyms: the item's words choose.
    ("Mercury", "Mercury is the closest planet to the Sun.", "en", "Mercury (planet)", "en"),
    ("Mercury", "Mercury is a metal that is liquid at room temperature.", "en", "Mercury (element)", "en"),
    ("French Republic", "The French Republic is in Europe.", "en", "France", "en"),
    # A question's end took the abbreviation's full stop ("Who was Martin Luther King Jr.?").
    ("Martin Luther King Jr", "Martin Luther King Jr was a minister.", "en", "Martin Luther King Jr.", "en"),
    # A title opening with its article, asked about with it or without it.
    ("Las cuatro estaciones", "Las cuatro estaciones son de Vivaldi.", "es", "Las cuatro estaciones", "es"),
    ("cuatro estaciones", "Vivaldi compuso las cuatro estaciones.", "es", "Las cuatro estaciones", "es"),
])
def test_a_name_links_to_the_article_its_words_choose(index: AliasIndex, name: str, context: str,
                                                     language: str, title: str, lang: str) -> None:
    link = index.link_one(name, context, language)
    assert link is not None and (link.title, link.lang) == (title, lang)


def test_a_name_the_items_words_cannot_place_is_not_linked(index: AliasIndex) -> None:
    # Two homonyms, nothing about planets or metals: no confident link.
    assert index.link_one("Mercury", "Mercury was named in antiquity.", "en") is None
    assert index.link_one("Lanny Flaherty", "Lanny Flaherty is an actor.", "en") is None


def test_the_answers_language_is_guessed_from_its_function_words() -> None:
    assert guess_language("Le Canada est un pays d'Amérique du Nord.") == "fr"
    assert guess_language("¿Cuál es la capital de Francia? La capital es París.") == "es"
    assert guess_language("The capital of Canada is Ottawa.") == "en"
    assert guess_language("Ottawa") is None
    # Spanish and French share "de", "la", "en", "se": a letter only one of them writes tells.
    assert guess_language("Háblame de la Gran Muralla. La Gran Muralla se encuentra en China.") == "es"


def _files(folder: Path) -> dict[str, Path]:
    return summary_files(folder, LEADS)


@pytest.fixture
def wiki(tmp_path: Path) -> PackagedWiki:
    return PackagedWiki(tmp_path / "cache", _files(tmp_path))


@pytest.mark.parametrize(("question", "answer", "article", "lang"), [
    ("Describe the Great Wall.", "The Great Wall was built to protect Chinese states.",
     "Great Wall of China", "en"),
    ("Who was Cervantes?", "Cervantes was a Spanish writer.", "Miguel de Cervantes", "en"),
    ("Parle-moi du Louvre.", "Le Louvre a ouvert en 1793.", "Musée du Louvre", "fr"),
    ("¿Cuál es la capital de Francia?", "La capital de Francia es París.", "Francia", "es"),
    ("Which planet is closest to the Sun?", "Mercury is the closest planet to the Sun.",
     "Mercury (planet)", "en"),
    # Said in lower case: no capitals to find the subject by, but its article's name is there.
    ("when did the golden gate bridge open?", "it opened in 1937.", "Golden Gate Bridge", "en"),
    # Two spellings of one title: the answer's language's first.
    ("¿Qué es Bogotá?", "Bogotá es la capital de Colombia.", "Bogotá", "es"),
    ("Who was Martin Luther King Jr.?", "Martin Luther King Jr. was a Baptist minister.",
     "Martin Luther King Jr.", "en"),
    ("¿Quién compuso Las cuatro estaciones?", "Las cuatro estaciones son conciertos para violín.",
     "Las cuatro estaciones", "es"),
])
def test_a_check_reads_the_article_its_subject_is_named_by(wiki: PackagedWiki, question: str, answer: str,
                                                          article: str, lang: str) -> None:
    # The answer's language is guessed, and its articles come first, whatever the check's default.
    reading = wiki.read(answer, 3, subjects=Subjects.of(question, answer), language="en")
    assert reading.article == article
    assert reading.evidence and reading.evidence[0].url is not None
    assert reading.evidence[0].url.startswith(f"https://{lang}.wikipedia.org/")


def test_a_subject_the_words_cannot_place_is_unverified_and_says_which_articles_it_may_be(
        wiki: PackagedWiki) -> None:
    answer = "Mercury was named in antiquity."
    reading = wiki.read(answer, 3, subjects=Subjects.of("Tell me about Mercury.", answer))
    assert reading.evidence == () and reading.article is None
    assert reading.note == ("no article surely about Mercury in the packaged Wikipedia summaries (it may be "
                            "Mercury (element) or Mercury (planet): nothing in the item tells)")


def test_a_topic_the_items_words_cannot_place_is_placed_by_the_whole_answers(wiki: PackagedWiki) -> None:
    # "It was named in antiquity" says nothing of planets; the answer's first sentence does.
    answer = "Mercury is the closest planet to the Sun. It was named in antiquity."
    subjects = Subjects.of("Tell me about Mercury.", answer)
    reading = wiki.read("It was named in antiquity.", 3, subjects=subjects)
    assert reading.article == "Mercury (planet)"


def test_another_sentences_weak_link_does_not_place_the_topic(tmp_path: Path) -> None:
    # "American" is only the last word of *Scientific American*: one sentence sharing a single word with
    # its lead ("early") links it there weakly, which the other sentences do not take up.
    leads = [("Scientific American", "en", "Popular science magazine", "Arts",
              "Scientific American is a popular science magazine, founded early in 1845.")]
    wiki = PackagedWiki(tmp_path / "cache", summary_files(tmp_path, leads))
    answer = "American trains have cowcatchers. In the early days, animals were on the tracks."
    subjects = Subjects.of("Why do American trains have noses?", answer)
    assert wiki.read("American trains have cowcatchers.", 3, subjects=subjects).article is None


def test_each_item_naming_its_own_subject_reads_that_subjects_article(wiki: PackagedWiki) -> None:
    answer = "The Eiffel Tower was completed in 1889. Cervantes wrote Don Quixote."
    subjects = Subjects.of("Name a tower and a writer.", answer)
    readings = [wiki.read(item, 3, subjects=subjects) for item in
                ("The Eiffel Tower was completed in 1889.", "Cervantes wrote Don Quixote.")]
    assert [r.article for r in readings] == ["Eiffel Tower", "Miguel de Cervantes"]


def test_the_alias_index_is_built_once_and_kept_beside_the_knowledge_base(tmp_path: Path) -> None:
    files = _files(tmp_path)
    first = PackagedWiki(tmp_path / "cache", files)
    assert first.link(["Great Wall"], "", "en") is not None
    [kept] = (tmp_path / "cache").glob("aliases-*.json")
    kept.write_text("{not json", encoding="utf-8")  # damaged: built again
    again = PackagedWiki(tmp_path / "cache", files)
    link = again.link(["Cervantes"], "a writer", "en")
    assert link is not None and link.title == "Miguel de Cervantes"
    assert json.loads(kept.read_text(encoding="utf-8"))["aliases"]


def test_an_article_the_item_names_otherwise_than_the_passages_adds_the_sentence_naming_it(
        tmp_path: Path) -> None:
    leads = {"Madagascar": "Madagascar est un État insulaire. Sa capitale est Antananarivo.",
             "Antananarivo": "Antananarivo ou Tananarive dans sa version francisée, ou encore la cité des "
                             "mille, est la capitale de Madagascar. Sa population dépasse 1,6 million."}
    path = tmp_path / "summaries_fr.json"
    path.write_text(json.dumps({t: {"title": t, "extract": lead, "description": "", "topic": ""}
                                for t, lead in leads.items()}), encoding="utf-8")
    wiki = PackagedWiki(tmp_path / "cache", {"fr": path})
    question, answer = "Quelle est la capitale de Madagascar ?", "La capitale de Madagascar est Tananarive."
    reading = wiki.read(answer, 3, subjects=Subjects.of(question, answer), language="fr")
    assert reading.article == "Madagascar"
    # The passages say Antananarivo, the answer Tananarive: the sentence saying both are one city comes too.
    assert reading.evidence[-1].title == "Antananarivo"
    assert reading.evidence[-1].text.startswith("Antananarivo ou Tananarive") and "million" not in \
        reading.evidence[-1].text
    # An item that names it as the passages do reads nothing more.
    same = wiki.read("La capitale de Madagascar est Antananarivo.", 3,
                     subjects=Subjects.of(question, answer), language="fr")
    assert [ev.title for ev in same.evidence] == ["Madagascar"]


def test_the_sentence_of_a_named_things_article_ranking_it_lower_than_the_item_says_is_read(
        tmp_path: Path) -> None:
    leads = {"Africa": "Africa is the world's second-largest continent.",
             "Congo River": "The Congo River is the second-longest river in Africa, shorter only than the "
                            "Nile. It is the world's deepest recorded river.",
             "Nile": "The Nile is a major north-flowing river in northeastern Africa."}
    path = tmp_path / "summaries_en.json"
    path.write_text(json.dumps({t: {"title": t, "extract": lead, "description": "", "topic": ""}
                                for t, lead in leads.items()}), encoding="utf-8")
    wiki = PackagedWiki(tmp_path / "cache", {"en": path})
    question = "What is the longest river in Africa?"
    answer = "The longest river in Africa is the Congo River."
    reading = wiki.read(answer, 3, subjects=Subjects.of(question, answer), language="en")
    assert reading.article == "Africa"
    assert [(ev.title, ev.text) for ev in reading.evidence[1:]] == [
        ("Congo River", "The Congo River is the second-longest river in Africa, shorter only than the Nile.")]
    # The thing named the longest that its lead does not rank lower: its lead is not read.
    answer = "The longest river in Africa is the Nile."
    reading = wiki.read(answer, 3, subjects=Subjects.of(question, answer), language="en")
    assert [ev.title for ev in reading.evidence] == ["Africa"]


def test_a_given_name_and_a_surname_find_the_person_whose_lead_opens_with_that_given_name() -> None:
    trotsky = Entry("León Trotski", "es", "político ruso", "Personas",
                    "Lev Davídovich Bronstein, más conocido como León Trotski, fue un político y escritor.")
    adam = Entry("Adam Smith", "en", "Scottish economist (1723–1790)", "People",
                 "Adam Smith was a Scottish economist and philosopher.")
    index = AliasIndex.build([trotsky, adam])
    found = index.link_one("Lev Trotski", "Háblame de Lev Trotski.", "es")
    assert found is not None and found.title == "León Trotski"
    # A given name no name of the article opens with is another person: no link.
    assert index.link_one("Ana Trotski", "Háblame de Ana Trotski.", "es") is None
    assert index.link_one("John Smith", "Who was John Smith?", "en") is None
