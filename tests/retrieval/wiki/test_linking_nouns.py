"""A question naming nothing but a common noun ("how many times can a cat die?") reads the article
titled by that noun, in the question's language; a noun it asks for one of, or one with no article of
its language, is linked to nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from factjudge.retrieval.wiki.linking import AliasIndex, Entry
from factjudge.retrieval.wiki.packaged import PackagedWiki
from factjudge.retrieval.wiki.topic import Subjects
from tests.retrieval.wiki.leads import summary_files

# Leads as the packaged summaries write them (title, language, description, category, lead).
LEADS = [
    ("Cat", "en", "Small domesticated carnivorous mammal", "Biological sciences",
     "The cat (Felis catus) is a small domesticated carnivorous mammal. It is the only domesticated "
     "species of the family Felidae."),
    ("The Times", "en", "British daily national newspaper", "Society",
     "The Times is a British daily national newspaper based in London."),
    ("Ant", "en", "Family of insects", "Biological sciences",
     "Ants are eusocial insects of the family Formicidae. More than 13,800 of an estimated total of "
     "22,000 species of ants have been classified."),
    ("Species", "en", "Basic unit of taxonomic classification", "Biological sciences",
     "A species is often defined as the largest group of organisms in which two individuals can "
     "produce fertile offspring."),
    ("Formicidae", "en", "Family of insects", "Biological sciences",
     "Formicidae is the family of the ants, in the order Hymenoptera."),
    ("Mammal", "en", "Class of animals", "Biological sciences",
     "A mammal is a vertebrate animal of the class Mammalia. Mammals have hair and mammary glands."),
    ("Vertebrate", "en", "Subphylum of chordates", "Biological sciences",
     "Vertebrates are animals with a vertebral column. They include fish, birds and reptiles."),
    ("Stage (theatre)", "en", "Space for the performance of theatrical productions", "Arts",
     "A stage is a designated space for the performance of productions in a theatre."),
    ("Animal", "en", "Kingdom of living things", "Biological sciences",
     "Animals are multicellular, eukaryotic organisms of the kingdom Animalia."),
    ("Fur", "en", "Hair covering of non-human mammals", "Biological sciences",
     "Fur is a thick growth of hair that covers the skin of mammals."),
    ("Childbirth", "en", "Ending of pregnancy", "Health",
     "Childbirth, also known as labour and delivery, is the ending of pregnancy. Labour has three stages."),
    ("Labour", "fr", "travail du sol", "Sciences",
     "Le labour est une technique agricole de travail du sol."),
    ("Oignon", "fr", "espèce de plante", "Sciences",
     "L'oignon (Allium cepa) est une plante herbacée dont on consomme le bulbe. Couper un oignon fait "
     "pleurer."),
    ("Fait", "fr", "notion philosophique", "Philosophie",
     "Un fait est ce qui est reconnu comme vrai."),
    ("Accouchement", "fr", "fin de la grossesse", "Santé",
     "L'accouchement est l'aboutissement de la grossesse. Plusieurs positions peuvent être adoptées."),
    ("Biologie moléculaire", "fr", "discipline scientifique", "Sciences",
     "La biologie moléculaire est une discipline scientifique au croisement de la génétique et de la "
     "biochimie."),
    ("Parto", "es", "culminación del embarazo", "Ciencias",
     "El parto humano es la culminación del embarazo. Tiene una fase de dilatación y una de expulsión."),
    ("Gato", "es", "mamífero carnívoro", "Ciencias",
     "El gato doméstico es un mamífero carnívoro de la familia Felidae. Los gatos viven con el ser "
     "humano."),
]
LEADS += [
    ("Lac", "fr", "étendue d'eau", "Géographie", "Un lac est une étendue d'eau à l'intérieur des terres."),
    ("Lac Victoria", "fr", "lac d'Afrique", "Géographie", "Le lac Victoria est le plus grand lac d'Afrique."),
    ("Victoria (reine)", "fr", "reine du Royaume-Uni (1819-1901)", "Personnalités",
     "Victoria est reine du Royaume-Uni de 1837 à sa mort."),
    ("Letra", "es", "signo gráfico", "Ciencias", "Una letra es un grafema de un sistema de escritura."),
    ("Mammifère", "fr", "classe d'animaux", "Sciences", "Les mammifères sont des animaux vertébrés."),
    ("Las Letras (magazine)", "en", "Mexican magazine", "Arts", "Las Letras was a magazine."),
    ("Las Letras (band)", "en", "Chilean band", "Arts", "Las Letras is a band."),
]
ENTRIES = [Entry(*lead) for lead in LEADS]


@pytest.fixture(scope="module")
def index() -> AliasIndex:
    return AliasIndex.build(ENTRIES)


@pytest.mark.parametrize(("question", "answer", "language", "title"), [
    # "times" is no noun of *The Times*: a name the leads give something is not a common noun's title.
    ("How many times can a cat die?", "Cats, like all living beings, can only die once.", "en", "Cat"),
    # The plural meets its singular; the item's words choose among the nouns.
    ("How many different species of ants are there in the world?",
     "There are over 12,000 known species of ants in the world.", "en", "Ant"),
    ("Are all mammals vertebrates?", "Yes, all mammals are vertebrates.", "en", "Mammal"),
    # A noun whose only article is another language's is no word of this one: "labour" is not *Labour*.
    ("How many stages of labour are there in childbirth?",
     "There are typically four stages in labour.", "en", "Childbirth"),
    ("Pourquoi couper un oignon fait-il pleurer ?", "Couper un oignon provoque des larmes.", "fr", "Oignon"),
    # After an elided article; "quelles positions" asks for one of the positions, which names nothing.
    ("Quelles positions peuvent être adoptées lors de l'accouchement ?",
     "Plusieurs positions peuvent être adoptées lors de l'accouchement.", "fr", "Accouchement"),
    ("Describe la fase de dilatación en el proceso del parto humano.",
     "La fase de dilatación es el primer estadio del parto humano.", "es", "Parto"),
    ("¿Por qué son importantes los gatos?", "Los gatos cazan ratones.", "es", "Gato"),
])
def test_a_common_noun_of_the_question_links_to_the_article_titled_by_it(
        index: AliasIndex, question: str, answer: str, language: str, title: str) -> None:
    link = index.noun(question, f"{question} {answer}", language)
    assert link is not None and (link.title, link.lang) == (title, language)


@pytest.mark.parametrize(("question", "answer", "language"), [
    # One sense of the word (a theatre's stage), and nothing in the item says it is this one.
    ("How many stages are there?", "There are four.", "en"),
    # The noun asked for one of, and the nouns describing it, are what the answer names.
    ("What is the fastest animal with wings and fur?", "It is a bird of prey.", "en"),
    ("¿Cuál es el mamífero más rápido?", "El guepardo.", "es"),
    ("What is the name of the world's oldest cat?", "It was Creme Puff.", "en"),
    ("Which country is the largest producer of ants?", "None produces ants.", "en"),
    ("Quel est le plus grand mammifère ?", "La baleine bleue.", "fr"),
    # No article of the question's language is titled by the noun.
    ("What should I know about the harbour?", "The harbour is the subject of many books.", "en"),
    ("Qu'est-ce que le labour ?", "Le labour retourne la terre.", "es"),
])
def test_a_noun_asked_for_one_of_or_with_no_article_of_its_language_is_not_linked(
        index: AliasIndex, question: str, answer: str, language: str) -> None:
    assert index.noun(question, f"{question} {answer}", language) is None


# Articles titled by words a question may say in a locution, or as an adjective after its noun.
FUNCTION_LEADS = [
    ("Well", "en", "Excavation to reach water", "Technology",
     "A well is an excavation or structure created in the ground to access liquid resources."),
    ("Foot", "en", "Anatomical structure", "Biological sciences", "The foot is an anatomical structure."),
    ("Bird", "en", "Class of animals", "Biological sciences", "Birds are warm-blooded vertebrates."),
    ("Embargo", "es", "prohibición del comercio", "Economía", "Un embargo es una prohibición del comercio."),
    ("Ciudad", "es", "asentamiento humano", "Geografía", "Una ciudad es un asentamiento humano."),
    ("Suiza", "es", "país de Europa", "Geografía", "Suiza es un país de Europa central."),
    ("Train", "fr", "véhicule ferroviaire", "Technologie", "Un train est un véhicule ferroviaire."),
    ("Vietnamien", "fr", "langue", "Langues", "Le vietnamien est la langue officielle du Viêt Nam."),
    ("Lac", "fr", "étendue d'eau", "Géographie", "Un lac est une étendue d'eau."),
]


@pytest.mark.parametrize(("question", "language", "title"), [
    # A word of a locution is no noun: "well" of "as well as", "foot" of "on foot".
    ("Which birds can add up numbers just as well as humans?", "en", None),
    ("What is the record for crossing the English Channel on foot?", "en", None),
    ("¿Por qué, sin embargo, creció la ciudad?", "es", "Ciudad"),
    ("Qu'est-ce qui est en train de changer ?", "fr", None),
    # Spanish and French put a determiner before a singular noun: a word after none is an adjective.
    ("¿Cuándo fue creada la comuna suiza Gampel-Bratsch?", "es", None),
    ("Qui a présidé l'état vietnamien ?", "fr", None),
    ("Quelle est la profondeur du grand lac ?", "fr", "Lac"),
])
def test_a_word_of_a_locution_or_with_no_determiner_is_no_noun(question: str, language: str,
                                                              title: str | None) -> None:
    link = AliasIndex.build(Entry(*lead) for lead in FUNCTION_LEADS).noun(question, question, language)
    assert (link.title if link else None) == title


def _files(folder: Path) -> dict[str, Path]:
    return summary_files(folder, LEADS)


@pytest.fixture
def wiki(tmp_path: Path) -> PackagedWiki:
    return PackagedWiki(tmp_path / "cache", _files(tmp_path))


@pytest.mark.parametrize(("question", "answer", "article"), [
    # The question's noun before a name the answer only says later (the family the ants are of).
    ("Why are ants important?", "Ants are eusocial insects of the family Formicidae.", "Ant"),
    # "I" is a word of English, not a name the question asks about.
    ("What should I know about a cat?", "The cat is a small domesticated carnivorous mammal.", "Cat"),
    # An article's name the question says in lower case, before the names the answer says.
    ("À qui doit-on le terme « biologie moléculaire » ?",
     "On doit le terme à deux scientifiques du XXème siècle : Watson et Crick.", "Biologie moléculaire"),
    ("¿Qué sabemos sobre el parto?", "El parto humano es la culminación del embarazo.", "Parto"),
    # Words in lower case that are also a name of articles the item cannot tell apart: the noun.
    ("¿Por qué son importantes las letras?", "Una letra es un signo.", "Letra"),
])
def test_a_question_naming_only_a_common_noun_reads_its_article(wiki: PackagedWiki, question: str,
                                                                answer: str, article: str) -> None:
    reading = wiki.read(answer, 3, subjects=Subjects.of(question, answer))
    assert reading.article == article


def test_an_answer_naming_its_subject_is_read_in_its_article_whatever_the_questions_nouns(
        wiki: PackagedWiki) -> None:
    # "which animal" asks for one: the answer's own name is the subject, not the question's nouns.
    answer = "Formicidae is the family of the ants."
    reading = wiki.read(answer, 3, subjects=Subjects.of("Which animal family has the most species?", answer))
    assert reading.article == "Formicidae"


def test_a_name_said_in_lower_case_runs_across_no_comma(wiki: PackagedWiki) -> None:
    # "fait, oignon" is no run of one name; the question's noun is read.
    assert wiki.aliases.spot("un fait, oignon") is None
    assert wiki.aliases.spot("qui a fondé la biologie moléculaire ?") == "biologie moléculaire"


def test_of_names_as_long_the_one_holding_a_capital_is_spotted(wiki: PackagedWiki) -> None:
    # "le lac" names *Lac* too, but the question asks about the lake its capital names.
    question = "Qu'est-ce que le lac Victoria ?"
    assert wiki.aliases.spot(question) == "lac Victoria"
    answer = "C'est un lac salé."
    assert wiki.read(answer, 3, subjects=Subjects.of(question, answer)).article == "Lac Victoria"
