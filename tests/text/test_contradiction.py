"""A different value read is a contradiction only when the passage excludes the stated one."""

from __future__ import annotations

import pytest

from factjudge.checking.checker import Checker
from factjudge.config import CheckConfig
from factjudge.records import Evidence
from factjudge.text.contradiction import (
    in_the_other_life_event,
    life_told,
    not_a_contradiction,
    tells_of_a_life,
)
from tests.judges.test_read_values import reader

CLUBS = "He has played for Sporting CP, Manchester United, Real Madrid and Juventus."
CANADA = "Its capital is Ottawa, and its largest city is Toronto."


DARWIN = ("Charles Robert Darwin est un naturaliste britannique, auteur de L'Origine des espèces, paru en "
          "1859.")


@pytest.mark.parametrize(("stated", "sentence", "named", "why"), [
    # The year read dates his other book: the sentence never names the one the item dates.
    ("1871", DARWIN, ["La Filiation"], "other_event"),
    ("1898", "In 1903 she won the Nobel Prize in Physics.", ["radium", "Polonium"], "other_event"),
    # The sentence names what the item dates: its year is that thing's, a contradiction.
    ("1871", DARWIN, ["L'Origine"], None),
    # Nothing named but the subject: the sentence may date the same thing, so it stands.
    ("1860", DARWIN, ["Charles Darwin"], None),
])
def test_a_date_read_from_a_sentence_about_another_event_contradicts_nothing(
        stated: str, sentence: str, named: list[str], why: str | None) -> None:
    read = "1859" if "1859" in sentence else "1903"
    assert not_a_contradiction(stated, read, "year", sentence, [sentence], "Charles Darwin", named) == why


FLEMING = {"alexander fleming", "sir alexander fleming"}


@pytest.mark.parametrize(("subject", "read", "sentence", "named", "about", "event", "why"), [
    # His own article's sentence speaks of him unnamed, and of the discovery the item dates: it stands.
    ("Penicillin", "1928", "His discovery in 1928 of benzylpenicillin changed medicine.",
     ["Alexander Fleming"], FLEMING, {"discov"}, None),
    # It says nothing of a discovery: the year of his prize is another event's.
    ("Penicillin", "1945", "He shared the 1945 Nobel Prize in Physiology or Medicine.",
     ["Alexander Fleming"], FLEMING, {"discov"}, "other_event"),
    (None, "1885", "He also co-founded the American Telephone and Telegraph Company (AT&T) in 1885.",
     ["Alexander Graham Bell"], {"alexander graham bell"}, {"invent"}, "other_event"),
    ("Eiffel Tower", "1900", "Paris hosted the 1900 Summer Olympics.", [], {"paris"}, {"comple"},
     "other_event"),
])
def test_a_date_in_another_subjects_article_stands_only_where_it_speaks_of_the_items_event(
        subject: str | None, read: str, sentence: str, named: list[str], about: set[str], event: set[str],
        why: str | None) -> None:
    assert not_a_contradiction("1938", read, "year", sentence, [sentence], subject, named, about,
                               event) == why


@pytest.mark.parametrize(("stated", "read", "kind", "sentence", "subject", "why"), [
    # The slot holds several values, and the passage names the stated one among them.
    ("Manchester United", "Real Madrid", "name", CLUBS, None, "listed_together"),
    ("Barça", "Real Madrid", "name", "Jugó en el Real Madrid, el Barça y el Milan.", None, "listed_together"),
    # The sentence's own subject read back into the blank.
    ("Portugal", "Lisbon", "place", "Lisbon is the capital of Portugal.", "Lisbon", "own_subject"),
    # A town and the region holding it.
    ("Corsica", "Ajaccio", "place", "He was born in Ajaccio, in Corsica.", "Napoleon", "place_within"),
    ("Catalogne", "Barcelone", "place", "Il est né à Barcelone (Catalogne).", None, "place_within"),
    # Through the places between: the town, its county, its country.
    ("France", "Ajaccio", "place", "Il est né à Ajaccio, en Corse, en France.", None, "place_within"),
    # After words saying what the inner place is ("ciudad del", "a city in").
    ("Perú", "Cusco", "place", "Está a 80 kilómetros al noroeste del Cusco, ciudad del Perú.", "Machu Picchu",
     "place_within"),
    ("France", "Lyon", "place", "It was founded near Lyon, a city in France.", None, "place_within"),
    # A sea and a land: an island lies in both.
    ("Atlantique Nord", "Europe", "name",
     "L'Islande est un pays insulaire d'Europe du Nord situé dans l'océan Atlantique.", None, "sea_and_land"),
    # A person asked about ("a student of Plato") and a value written as no one's name.
    ("Plato", "Peripatetic school", "person",
     "As the founder of the Peripatetic school of philosophy in the Lyceum in Athens, he began a tradition.",
     "Aristotle", "no_person"),
])
def test_readings_that_contradict_nothing(stated: str, read: str, kind: str, sentence: str,
                                          subject: str | None, why: str) -> None:
    assert not_a_contradiction(stated, read, kind, sentence, [sentence], subject) == why


@pytest.mark.parametrize(("stated", "read", "sentence", "passages"), [
    # Another clause of the same sentence: the capital is Ottawa, whatever else is said of Toronto.
    ("Toronto", "Ottawa", CANADA, [CANADA]),
    # Two sentences side by side are no place inside another.
    ("Toronto", "Ottawa", "Ottawa is the capital.", ["The largest city is Toronto. Ottawa is the capital."]),
    ("Zola", "Hugo", "Les Misérables is a novel by Hugo.", ["Les Misérables is a novel by Hugo."]),
    # Two seas are two places; a town named after a sea is a land.
    ("Pacific Ocean", "Atlantic Ocean", "It lies in the Atlantic Ocean.", ["It lies in the Atlantic Ocean."]),
    # A clause between them is no chain of places.
    ("Lyon", "Paris", "He lived in Paris, where he met Hugo, in Lyon.",
     ["He lived in Paris, where he met Hugo, in Lyon."]),
])
def test_readings_that_do_contradict(stated: str, read: str, sentence: str, passages: list[str]) -> None:
    assert not_a_contradiction(stated, read, "place", sentence, passages, None) is None


@pytest.mark.parametrize("read", ["Michelangelo", "Leonardo da Vinci", "Ludwig van Beethoven",
                                  "Ibn al-Haytham"])
def test_a_persons_name_read_for_another_person_contradicts(read: str) -> None:
    sentence = f"The ceiling was painted by {read}."
    assert not_a_contradiction("Raphael", read, "person", sentence, [sentence], "Sistine Chapel") is None


def test_a_club_listed_beside_the_stated_one_leaves_the_item_true_and_says_why() -> None:
    context = Evidence("context", f"Cristiano Ronaldo is a Portuguese footballer. {CLUBS}")
    config = CheckConfig(strategy="supported")
    result = Checker(config, reader("Real Madrid")).check(
        "Which clubs has Ronaldo played for?", "Ronaldo has played for Manchester United.", context=[context])
    [verdict] = result.segment_verdicts
    assert verdict.label == "true"
    [value] = verdict.grounds.values
    assert (value.outcome, value.excused) == ("not_stated", "listed_together")
    from factjudge import explain

    assert explain.checks(verdict) == [
        "Manchester United: read Real Madrid, no contradiction: the passage lists Manchester United beside "
        "it (asked: “Ronaldo has played for ___ (a name).”)"]


def test_a_birth_or_death_date_is_another_events_unless_the_item_speaks_of_one() -> None:
    lead = ("Johannes Gutenberg, souvent appelé simplement Gutenberg, né vers 1400 à Mayence, ville dans "
            "laquelle il est mort le 3 février 1468, est un imprimeur.")
    invented = "Johannes Gutenberg a inventé l'imprimerie à caractères mobiles vers 1450 à Mayence."
    assert not_a_contradiction("1450", "1400", "year", lead, [lead], "Johannes Gutenberg", ["Mayence"],
                               clause=invented) == "other_event"
    born = "Johannes Gutenberg est né vers 1410 à Mayence."
    assert not_a_contradiction("1410", "1400", "year", lead, [lead], "Johannes Gutenberg", ["Mayence"],
                               clause=born) is None
    # Inside a lifespan's brackets, in English.
    english = "Johannes Gutenberg (c. 1393–1406 – 3 February 1468) was a German inventor."
    assert not_a_contradiction("1450", "1406", "year", english, [english], "Johannes Gutenberg",
                               clause="Gutenberg invented the printing press in 1450.") == "other_event"
    # French "ne" of a negation is no birth.
    crowned = "Il ne fut couronné qu'en 1804."
    assert not_a_contradiction("1805", "1804", "year", crowned, [crowned], "Napoléon",
                               clause="Napoléon fut couronné en 1805.") is None


def test_a_region_no_place_record_knows_read_as_a_country_may_hold_it() -> None:
    tagus = ("Le Tage est un fleuve qui prend sa source en Espagne, traverse le Portugal où il se jette dans "
             "l'océan Atlantique à Lisbonne.")
    assert not_a_contradiction("péninsule Ibérique", "Portugal", "place", tagus, [tagus], "Le Tage",
                               clause="Le Tage est un fleuve de la péninsule Ibérique.") == "region"
    # A continent, or a country, is known: the country read lies off it.
    assert not_a_contradiction("Amérique du Sud", "Portugal", "place", tagus, [tagus], "Le Tage",
                               clause="Le Tage est un fleuve d'Amérique du Sud.") is None
    assert not_a_contradiction("Italie", "Portugal", "place", tagus, [tagus], "Le Tage",
                               clause="Le Tage est un fleuve d'Italie.") is None
    # A town read may lie in the region where a passage names it or its people ("a Catalan cellist").
    french = "Pau Casals, né le 29 décembre 1876 à El Vendrell et mort en 1973 à San Juan, violoncelliste."
    english = "Pablo Casals was a Catalan cellist, composer, and conductor, born in Spain."
    assert not_a_contradiction("Cataluña", "El Vendrell", "place", french, [english, french], None,
                               clause="Nació en Cataluña.") == "region"
    assert not_a_contradiction("Andalucía", "El Vendrell", "place", french, [english, french], None,
                               clause="Nació en Andalucía.") is None


def test_a_work_executed_in_a_decade_is_no_death_an_execution_is() -> None:
    painting = ("The Birth of Venus is a painting by the Italian artist Sandro Botticelli, probably executed "
                "in the mid-1480s.")
    assert not_a_contradiction("1800s", "1480s", "decade", painting, [painting], None,
                               clause="It was painted in the 1800s.") is None
    for killed in ("She was executed in Rouen.", "Il fut exécuté en 1793.", "Fue ejecutado en 1811.",
                   "Il a été exécuté à Paris."):
        assert tells_of_a_life(killed), killed
    assert not tells_of_a_life("Un tableau exécuté en 1863.")


def test_a_birth_or_death_place_is_another_events_unless_the_item_speaks_of_one_or_of_origin() -> None:
    lead = ("Paul Gauguin, né le 7 juin 1848 à Paris et mort le 8 mai 1903 à Atuona aux îles Marquises, est "
            "un peintre postimpressionniste français.")
    for clause, why in (("Il a vécu à Tahiti.", "other_event"), ("He worked in Tahiti.", "other_event"),
                        ("Il est né à Tahiti.", None), ("He was from Tahiti.", None),
                        ("Il est originaire de Tahiti.", None)):
        assert not_a_contradiction("Tahiti", "Paris", "place", lead, [lead], "Paul Gauguin",
                                   clause=clause) == why, clause
    # A river's source in brackets is no birth of the place after it.
    amazon = "El río Amazonas es un río que atraviesa Perú (nacimiento), Colombia y Brasil."
    assert not_a_contradiction("océano Pacífico", "Colombia", "place", amazon, [amazon], "Amazonas",
                               clause="Desemboca en el océano Pacífico.") is None
    # A place the sentence gives no birth or death is still read against the item.
    painted = "Gauguin peint à Pont-Aven en 1888."
    assert not_a_contradiction("Tahiti", "Pont-Aven", "place", painted, [painted], "Paul Gauguin",
                               clause="Il a peint à Tahiti.") is None


@pytest.mark.parametrize(("clause", "why"), [
    # A life has many places lived, worked, studied or explored in: another read is not the stated one.
    ("Il a vécu à Montmartre.", "many_places"),
    ("He worked in Montmartre.", "many_places"),
    ("Estudió en Montmartre.", "many_places"),
    ("Il a exploré Montmartre.", "many_places"),
    # What a river passes through holds many places too.
    ("Il traverse Montmartre.", "many_places"),
    ("The river flows through Montmartre.", "many_places"),
    ("Atraviesa Montmartre.", "many_places"),
    # Not a noun ("the most visited", "ses habitants").
    ("Montmartre is the most visited place.", None),
    ("Ses habitants vivent à Montmartre.", None),
])
def test_a_place_lived_or_worked_in_is_one_of_many(clause: str, why: str | None) -> None:
    sentence = "Il s'installe à Saint-André-du-Bois en 1897."
    assert not_a_contradiction("Montmartre", "Saint-André-du-Bois", "place", sentence, [sentence], None,
                               clause=clause) == why


def test_the_sentences_own_subject_read_in_its_own_article_and_a_lower_case_word_are_no_contradiction(
        ) -> None:
    danube = "Originating in Germany, the Danube flows southeast, passing through Austria and Hungary."
    assert not_a_contradiction("Danube", "Austria", "name", danube, [danube], "Danube", about=["danube"],
                               clause="The Danube flows through it.") == "own_subject"
    # Read in another article, the subject is a value like any other ("Paris is the capital of Germany").
    germany = "Germany's capital and largest city is Berlin."
    assert not_a_contradiction("Paris", "Berlin", "name", germany, [germany], "Paris", about=["germany"],
                               clause="Paris is the capital of Germany.") is None
    ganges = "Le Gange est un fleuve de la plaine indo-gangétique, au nord de l'Inde."
    assert not_a_contradiction("Asie", "Indo-gangétique", "name", ganges, [ganges], "Gange",
                               clause="Le Gange est un fleuve d'Asie.") == "no_name"
    # A name of a lower-case word and a capitalised one is a name ("la mer Méditerranée").
    sea = "Il se jette dans la mer Méditerranée."
    assert not_a_contradiction("Atlantique", "mer Méditerranée", "place", sea, [sea], "Rhône",
                               clause="Il se jette dans l'Atlantique.") is None


def test_the_head_of_a_longer_name_the_sentence_goes_on_with_as_stated_is_no_contradiction() -> None:
    nobel = "He and Camillo Golgi received the Nobel Prize in Physiology or Medicine in 1906."
    assert not_a_contradiction("Premio Nobel de Medicina", "Nobel Prize", "name", nobel, [nobel], None,
                               clause="Recibió el Premio Nobel de Medicina en 1906.",
                               translated=True) == "longer_form"
    # Another prize's name goes on otherwise: still read against the item.
    physics = "She received the Nobel Prize in Physics in 1903."
    assert not_a_contradiction("Nobel Prize in Chemistry", "Nobel Prize", "name", physics, [physics], None,
                               clause="She received the Nobel Prize in Chemistry in 1903.") is None


def test_a_birth_asked_about_is_not_read_from_a_sentence_that_tells_of_none() -> None:
    lead = ("Simón Bolívar fue un militar venezolano, líder de la independencia de lo que son hoy Venezuela, "
            "Colombia y Ecuador.")
    assert not_a_contradiction("Perú", "Colombia", "place", lead, [lead], None,
                               clause="Nació en Perú en 1783.") == "other_subject"
    born = "Simón Bolívar nació en Caracas en 1783."
    assert not_a_contradiction("Lima", "Caracas", "place", born, [born], None,
                               clause="Nació en Lima.") is None


@pytest.mark.parametrize(("stated", "read", "why"), [
    # Born 25 December 1642 Old Style, 4 January 1643 New Style: either year is his.
    ("1643", "1642", "old_style"),
    ("1726", "1727", "old_style"),
    # Two years apart, or after the calendar changed, a year is a year.
    ("1644", "1642", None),
    ("1956", "1955", None),
])
def test_a_birth_or_death_year_one_apart_before_1752_may_be_old_style(stated: str, read: str,
                                                                       why: str | None) -> None:
    lifespan = "Isaac Newton (1642–1727), English polymath." if read in ("1642", "1727") else \
        f"Albert Einstein ({read}–1990), German-born theoretical physicist."
    assert not_a_contradiction(stated, read, "year", lifespan, [lifespan], "Isaac Newton",
                               clause=f"He was born in {stated}.") == why


VOLTAIRE = ("Voltaire, de son vrai nom François-Marie Arouet, né le 21 novembre 1694 à Paris où il meurt "
            "le 30 mai 1778, est un écrivain et philosophe français.")


@pytest.mark.parametrize(("stated", "read", "clause", "why"), [
    # A birth asked about, the death's date read (the small model took the year after "Paris").
    ("1694", "1778", "Il est né à Paris en 1694", "other_event"),
    ("1778", "1694", "Il est mort en 1778", "other_event"),
    # The death's own date stands.
    ("1780", "1778", "Il est mort en 1780", None),
])
def test_a_births_date_is_no_deaths(stated: str, read: str, clause: str, why: str | None) -> None:
    assert not_a_contradiction(stated, read, "year", VOLTAIRE, [VOLTAIRE], None, clause=clause) == why


GUERNICA = ("Guernica es un cuadro de Pablo Picasso, pintado en París entre los meses de mayo y junio de "
            "1937, cuyo título alude al bombardeo de Guernica.")


@pytest.mark.parametrize(("stated", "read", "kind", "clause", "sentence", "why"), [
    # Where a thing is, read where it was made: no contradiction.
    ("Museo del Prado", "París", "name", "Se encuentra en el Museo del Prado.", GUERNICA, "other_event"),
    ("Madrid", "París", "place", "El Guernica está en Madrid.", GUERNICA, "other_event"),
    ("Louvre", "Saint-Rémy", "name", "It is held at the Louvre.",
     "Van Gogh painted it in Saint-Rémy in June 1889.", "other_event"),
    # Where it was made, read where it was made: a contradiction.
    ("Madrid", "París", "place", "El Guernica fue pintado en Madrid.", GUERNICA, None),
    # Where it is, read where the passage says it is.
    ("Madrid", "París", "place", "El Guernica está en Madrid.", "Se encuentra en París desde 1937.", None),
])
def test_where_a_thing_was_made_is_not_where_it_is(stated: str, read: str, kind: str, clause: str,
                                                   sentence: str, why: str | None) -> None:
    assert not_a_contradiction(stated, read, kind, sentence, [sentence], None, clause=clause) == why


GERMANY = ("Décentralisée et fédérale, l'Allemagne compte quatre villes de plus d'un million d'habitants, "
           "par ordre décroissant la capitale Berlin, Hambourg, Munich et Cologne.")


@pytest.mark.parametrize(("stated", "clause", "why"), [
    # Read just after the word the item says its value with, it is that value, whatever list it heads.
    ("Munich", "La capitale de l'Allemagne est Munich.", None),
    ("Hambourg", "Une grande ville d'Allemagne est Hambourg.", "listed_together"),
])
def test_a_value_the_passage_names_by_the_items_word_is_no_item_of_a_list(stated: str, clause: str,
                                                                          why: str | None) -> None:
    assert not_a_contradiction(stated, "Berlin", "name", GERMANY, [GERMANY], None, clause=clause) == why


BOLIVIA = ("La capital oficial es Sucre, que alberga al órgano judicial, mientras que la sede de Gobierno es "
           "la ciudad de La Paz, que ejerce como capital de facto.")


def test_a_slot_the_passage_gives_the_stated_value_too_holds_both() -> None:
    # "capital oficial es Sucre" names Sucre a capital as "capital de facto" names La Paz one.
    why = not_a_contradiction("Sucre", "La Paz", "name", BOLIVIA, [BOLIVIA], None,
                              clause="Su capital constitucional es Sucre.")
    assert why == "named_too"
    # "Capitale économique" is another slot than the capital the item states.
    morocco = ("Sa capitale administrative et politique est Rabat et sa plus grande ville, ainsi que sa "
               "capitale économique, est Casablanca.")
    assert not_a_contradiction("Casablanca", "Rabat", "name", morocco, [morocco], None,
                               clause="Sa capitale est Casablanca.") is None
    assert not_a_contradiction("Casablanca", "Rabat", "name", morocco, [morocco], None,
                               clause="Sa capitale économique est Casablanca.") == "named_too"
    canada = "Its capital is Ottawa, and its largest metropolitan areas are Toronto, Montreal, and Vancouver."
    assert not_a_contradiction("Toronto", "Ottawa", "name", canada, [canada], None,
                               clause="The capital of Canada is Toronto.") is None


FIFTH = ("La Symphonie no 5 a été écrite par Ludwig van Beethoven en 1805-1807 et créée le 22 décembre 1808 "
         "au Theater an der Wien de Vienne.")


@pytest.mark.parametrize(("read", "stated", "sentence", "why"), [
    # The end of a theatre's name, the stated city just after it.
    ("Wien", "Vienne", FIFTH, "inside_a_name"),
    # A name of its own, or another thing's name with the stated place in another clause: still read.
    ("York", "Londres", "Elle a été jouée à New York, puis à Londres.", None),
    ("Naples", "Londres", "Elle a été jouée au Royaume de Naples, puis à Londres.", None),
    ("Wien", "Paris", FIFTH, None),
])
def test_a_word_of_another_things_name_is_not_the_place_read(read: str, stated: str, sentence: str,
                                                              why: str | None) -> None:
    clause = f"Elle a été créée à {stated}."
    assert not_a_contradiction(stated, read, "place", sentence, [sentence], None, clause=clause) == why


@pytest.mark.parametrize(("stated", "read", "why"), [
    ("Macedonia", "Macedon", "longer_form"),
    ("Lombardy", "Lombard", "longer_form"),
    # Fewer letters shared, or another ending: two places.
    ("Nigeria", "Niger", None),
    ("Australia", "Austria", None),
    ("Parish", "Paris", None),
])
def test_a_lands_name_with_its_ending_added_is_no_swap(stated: str, read: str, why: str | None) -> None:
    sentence = f"Alexander was a king of the ancient Greek kingdom of {read}."
    assert not_a_contradiction(stated, read, "place", sentence, [sentence], None) == why


MARCO_POLO = ("Marco Polo was a Venetian merchant, explorer, and writer who travelled through Asia along "
              "the Silk Road between 1271 and 1295.")


@pytest.mark.parametrize(("stated", "read", "why"), [
    # A country may lie inside the continent read, or the other way round.
    ("l'Asie du Sud-Est", "Chine", "place_within"),
    # The stated place the narrower: left open, not borne out.
    ("China", "Asia", "narrower"),
    ("Perú", "América del Sur", "narrower"),
    # Two continents, or a country named after one, are two places.
    ("Europe", "Asia", None),
    ("South Africa", "Kenya", None),
])
def test_a_continent_and_a_place_that_is_none_may_hold_each_other(stated: str, read: str,
                                                                 why: str | None) -> None:
    assert not_a_contradiction(stated, read, "place", MARCO_POLO, [MARCO_POLO], "Marco Polo",
                               clause=f"He travelled to {stated}.", translated=True) == why


def test_a_place_read_where_the_item_states_a_continent_may_lie_inside_it() -> None:
    sentence = "He spent most of his life in China, at the court of Kublai Khan, who ruled most of Asia."
    assert not_a_contradiction("Asia", "China", "place", sentence, [sentence], "Marco Polo",
                               clause="He lived in Asia.") == "place_within"


@pytest.mark.parametrize(("stated", "read", "clause", "why"), [
    # A country and a town said where a thing is: the words cannot tell whether one holds the other.
    ("France", "Mougins", "Il est mort en France.", "place_within"),
    ("United States", "New York", "He died in the United States.", "place_within"),
    ("Málaga", "España", "Nació en Málaga.", "narrower"),
    # Two countries, or two towns, are two places.
    ("Belgique", "France", "Il est né en Belgique.", None),
    ("Paris", "Longwood", "Il est mort à Paris.", None),
    # A country the item names otherwise than as a place ("formerly known as Burma").
    ("Burma", "Siam", "Thailand was formerly known as Burma.", None),
])
def test_a_country_and_a_town_may_hold_each_other(stated: str, read: str, clause: str,
                                                   why: str | None) -> None:
    # A death's place is no former name: the item that gives one is read against a sentence naming one.
    sentence = f"Le pays s'appelait {read}." if "known as" in clause else f"Il est mort à {read}."
    kind = "name" if "known as" in clause or "United" in stated else "place"
    assert not_a_contradiction(stated, read, kind, sentence, [sentence], None, clause=clause,
                               translated=True) == why


@pytest.mark.parametrize(("stated", "read", "clause", "sentence", "why"), [
    # Read in the item's own language, where a passage names the stated place too ("sa vie en France").
    ("France", "Mougins", "Il est mort en France.",
     "Il est mort à Mougins et a passé l'essentiel de sa vie en France.", "place_within"),
    # A country put in a town's slot of the passage's own words, which names it nowhere: a swap.
    ("Afrique du Sud", "Pékin", "Il est mort le 9 septembre 1976 à Afrique du Sud.",
     "Mao Zedong est mort le 9 septembre 1976 à Pékin.", None),
    ("Slovaquie", "Afrique", "Ils se rencontrent en Asie et en Slovaquie.",
     "Ils se rencontrent en Asie et en Afrique.", None),
])
def test_a_place_may_hold_another_only_where_the_passage_names_the_stated_one(
        stated: str, read: str, clause: str, sentence: str, why: str | None) -> None:
    assert not_a_contradiction(stated, read, "place", sentence, [sentence], None, clause=clause) == why


def test_a_death_told_as_a_noun_in_spanish_dates_the_death() -> None:
    juarez = ("Benito Juárez fue un abogado y político mexicano que se desempeñó como presidente de México "
              "desde el 21 de enero de 1858 hasta su fallecimiento el 18 de julio de 1872.")
    assert not_a_contradiction("1900", "1872", "year", juarez, [juarez], "Benito Juárez",
                               clause="Murió en 1900.") is None


def test_a_town_the_passage_writes_in_another_country_than_the_one_stated_contradicts() -> None:
    che = ("Ernesto Guevara, né le 14 juin 1928 à Rosario (Argentine) et mort exécuté le 9 octobre 1967 à "
           "La Higuera (Bolivie), est un révolutionnaire marxiste.")
    assert not_a_contradiction("Cuba", "La Higuera", "place", che, [che], None,
                               clause="Murió en Cuba.", translated=True) is None
    assert not_a_contradiction("Bolivia", "La Higuera", "place", che, [che], None,
                               clause="Murió en Bolivia.", translated=True) == "place_within"


def test_a_place_read_between_the_items_own_words_is_at_the_same_level() -> None:
    # "la iglesia más visitada de Europa" in the passage's own words where the item says "de Barcelona".
    sentence = ("Es el monumento más visitado de España, y es la iglesia más visitada de Europa tras la "
                "basílica de San Pedro del Vaticano. Está en Barcelona.")
    clause = "es la iglesia más visitada de Barcelona tras la basílica de San Pedro del Vaticano."
    assert not_a_contradiction("Barcelona", "Europa", "place", sentence, [sentence], None,
                               clause=clause, aligned=True) is None
    assert not_a_contradiction("Barcelona", "Europa", "place", sentence, [sentence], None,
                               clause=clause) == "narrower"


@pytest.mark.parametrize(("stated", "read", "why"), [
    # GeoNames knows both: a town of the country, countries of the continent, in the passage's own words.
    ("Spain", "Málaga", "place_within"),
    ("América del Sur", "Argentina, Chile, Bolivia, Perú, Ecuador, Colombia y Venezuela", "place_within"),
    ("China", "Asia", "narrower"),
    # Known to lie elsewhere: a swap, whatever a passage names.
    ("Italy", "Málaga", None),
    ("Africa", "Brazil", None),
    # Two towns it knows are two places; a town it knows and a region it does not, that no passage places
    # one in the other, too.
    ("Vienna", "Leipzig", None),
    ("Corsica", "Ajaccio", None),
])
def test_places_geonames_knows_hold_one_another_or_not(stated: str, read: str, why: str | None) -> None:
    sentence = f"It is said to be in {read}; some say {stated}."
    clause = f"It is in {stated}."
    assert not_a_contradiction(stated, read, "place", sentence, [sentence], None, clause=clause,
                               aligned=True) == why


REMBRANDT = ("Rembrandt est un peintre néerlandais, né à Leyde le 15 juillet 1606 et mort à Amsterdam le 4 "
             "octobre 1669.")


@pytest.mark.parametrize(("clause", "stated", "read", "other"), [
    ("He was born in Amsterdam.", "Amsterdam", "Leyde", True),
    ("Il est mort à Leyde.", "Leyde", "Amsterdam", True),
    # No birth or death told, or both read for the same one.
    ("He lived in Amsterdam.", "Amsterdam", "Leyde", False),
    ("He was born in Leyde.", "Leyde", "Leyde", False),
])
def test_a_value_the_sentence_gives_the_other_life_event(clause: str, stated: str, read: str,
                                                          other: bool) -> None:
    assert in_the_other_life_event(clause, stated, read, REMBRANDT) is other


def test_a_town_a_passage_places_in_a_region_written_in_its_own_language_is_within_it() -> None:
    sentence = "Napoléon Bonaparte, né le 15 août 1769 à Ajaccio en Corse et mort le 5 mai 1821 à Longwood."
    assert not_a_contradiction("Corsica", "Ajaccio", "place", sentence, [sentence], None,
                               clause="He was born in Corsica in 1769.", translated=True) == "place_within"
    # A region of other first letters is another place.
    assert not_a_contradiction("Sardinia", "Ajaccio", "place", sentence, [sentence], None,
                               clause="He was born in Sardinia in 1769.", translated=True) is None


@pytest.mark.parametrize(("text", "told"), [
    ("She was executed in Paris in 1431.", "death"), ("He was killed in Athens.", "death"),
    ("Fue fusilado en 1811.", "death"), ("Il a été assassiné en 1914.", "death"),
    ("He killed the dragon.", None),
])
def test_a_death_dealt_by_others_is_a_death(text: str, told: str | None) -> None:
    assert life_told(text) == told


@pytest.mark.parametrize(("stated", "clause", "read", "why"), [
    # An era read where a nationality is stated: another slot's word.
    ("Austrian", "He was an Austrian composer.", "Classical", "no_nation"),
    # Nationalities, or a land, read for one: compared.
    ("Austrian", "He was an Austrian composer.", "Soviet", None),
    ("French", "He was a French composer.", "Italy", None),
    # A town or a country shaped like a nationality ("Kigali", "Pakistan"), or a name no noun follows.
    ("Kigali", "Rwanda lies south of the Kigali in the Great Rift Valley.", "Equator", None),
    ("Pakistan", "à Samyé alors dans l'empire du Pakistan.", "Tibet", None),
    ("Ferrari", "The car was designed by Ferrari.", "Porsche", None),
])
def test_a_word_read_for_a_nationality_that_is_none_is_another_slots(stated: str, clause: str, read: str,
                                                                     why: str | None) -> None:
    sentence = f"It was a {read} thing."
    assert not_a_contradiction(stated, read, "name", sentence, [sentence], None, clause=clause) == why


def test_a_sea_stated_is_named_by_its_own_name_not_by_another_seas() -> None:
    rhine = "Finally, the Rhine turns to flow west to enter the Netherlands, emptying into the North Sea."
    assert not_a_contradiction("Black Sea", "Netherlands", "place", rhine, [rhine], "Rhine") is None


def test_a_place_no_record_knows_beside_the_stated_town_may_lie_in_it() -> None:
    schubert = ("Franz Schubert, né le 31 janvier 1797 à Lichtental et mort le 19 novembre 1828 à Vienne, "
                "est un compositeur autrichien.")
    assert not_a_contradiction("Vienna", "Lichtental", "place", schubert, [schubert], "Franz Schubert") == \
        "place_within"
    mozart = "He was born in Salzburg and died in Vienna."
    assert not_a_contradiction("Vienna", "Salzburg", "place", mozart, [mozart], "Mozart") is None
    jamaica = "Jamaica es uno de los países que forman la América insular, Antillas o islas del mar Caribe."
    assert not_a_contradiction("mar Caribe", "Antillas", "place", jamaica, [jamaica], "Jamaica") == \
        "sea_and_land"
