"""A word of the subject's own lead that says the opposite of the item's: a coast, a lake's water."""

from __future__ import annotations

from factjudge.records import Evidence
from factjudge.text.opposites import said_otherwise

AUSTRIA = Evidence("wikipedia", "L'Autriche, en forme longue la république d'Autriche, est un État fédéral "
                   "d'Europe centrale, sans accès à la mer. Pays montagneux, il est entouré de huit pays.",
                   title="Autriche")
PARAGUAY = (Evidence("wikipedia", "Paraguay, oficialmente República del Paraguay, es un país soberano "
                     "situado en el centro de Sudamérica.", title="Paraguay"),
            Evidence("wikipedia", "Paraguay, officially the Republic of Paraguay, is a landlocked country in "
                     "South America.", title="Paraguay"))


def test_a_sea_coast_given_to_a_country_its_lead_calls_landlocked_is_contradicted() -> None:
    [(check, where)] = said_otherwise("L'Autriche est bordée par la mer du Nord.", [AUSTRIA])
    assert (check.stated, check.read, check.outcome, where) == \
        ("bordée par la mer du Nord", "sans accès à la mer", "contradicted", 0)
    assert check.passage.startswith("L'Autriche, en forme longue")
    [(check, where)] = said_otherwise("Paraguay tiene salida al mar.", list(PARAGUAY))
    assert (check.stated, check.read, where) == ("tiene salida al mar", "landlocked", 1)
    [(check, _)] = said_otherwise("It borders the Adriatic Sea.", [AUSTRIA])
    assert check.stated == "borders the Adriatic Sea"


def test_no_coast_is_read_where_the_item_denies_it_names_another_thing_or_the_lead_says_nothing() -> None:
    assert said_otherwise("L'Autriche n'a pas d'accès à la mer.", [AUSTRIA]) == []
    assert said_otherwise("Paraguay es un país sin salida al mar.", list(PARAGUAY)) == []
    # Its capital's river is not the country.
    assert said_otherwise("Its capital Asunción is bordered by the Paraguay River, which flows to the sea.",
                   list(PARAGUAY)) == []
    assert said_otherwise("Le Danube borde la mer Noire.", [AUSTRIA]) == []
    chile = Evidence("wikipedia", "Chile is a country in South America along the Pacific Ocean.",
                     title="Chile")
    assert said_otherwise("Chile borders the Pacific Ocean.", [chile]) == []


SUPERIOR = Evidence("wikipedia", "Lake Superior is a lake in central North America. It is the largest "
                    "freshwater lake in the world by surface area.", title="Lake Superior")
DEAD_SEA = Evidence("wikipedia", "The Dead Sea is a landlocked salt lake bordered by Jordan to the east. Its "
                    "surface is 430 metres below sea level.", title="Dead Sea")


def test_a_lakes_water_said_otherwise_by_its_own_lead_is_contradicted() -> None:
    [(check, where)] = said_otherwise("It is a saltwater lake.", [SUPERIOR])
    assert (check.stated, check.read, check.outcome, where) == ("saltwater", "freshwater", "contradicted", 0)
    assert check.passage == "It is the largest freshwater lake in the world by surface area."
    [(check, _)] = said_otherwise("Es un lago de agua dulce.", [DEAD_SEA])
    assert (check.stated, check.read) == ("agua dulce", "salt")


def test_a_lakes_water_is_read_only_where_the_lead_says_it_of_its_own_subject() -> None:
    assert said_otherwise("It is a freshwater lake.", [SUPERIOR]) == []
    assert said_otherwise("It is not a saltwater lake.", [SUPERIOR]) == []
    canal = Evidence("wikipedia", "The Panama Canal is a waterway in Panama. Locks lift ships up to Gatun "
                     "Lake, an artificial fresh water lake.", title="Panama Canal")
    assert said_otherwise("It crosses a saltwater lake.", [canal]) == []
    assert said_otherwise("Salt Lake City lies near a lake.", [SUPERIOR]) == []
    assert said_otherwise("Gatun Lake is a salt lake.", [SUPERIOR]) == []


AMAZON = Evidence("wikipedia", "L'Amazone est un fleuve d'Amérique du Sud. C'est le plus puissant fleuve du "
                  "monde.", title="Amazone (fleuve)")


def test_a_country_off_the_continent_its_river_runs_on_is_contradicted() -> None:
    [(check, where)] = said_otherwise("Il traverse le Mexique.", [AMAZON])
    assert (check.stated, check.read, where) == ("Mexique", "Amérique du Sud", 0)
    assert check.passage == "L'Amazone est un fleuve d'Amérique du Sud."
    assert said_otherwise("Il traverse le Brésil.", [AMAZON]) == []
    # A country on two continents says too little; so does a lead that places it nowhere.
    amur = Evidence("wikipedia", "The Amur is a river in Asia.", title="Amur")
    assert said_otherwise("It flows through Russia.", [amur]) == []
    assert said_otherwise("Il traverse le Mexique.", [SUPERIOR]) == []


MARSEILLE = Evidence("wikipedia", "Marseille est une commune du Midi de la France située en Provence.",
                     title="Marseille")


def test_a_town_said_to_be_a_countrys_capital_is_read_against_the_capital_geonames_gives() -> None:
    paris = Evidence("geonames", "The capital of France is Paris.", title="France (GeoNames)")
    [(check, where)] = said_otherwise("C'est la capitale de la France.", [MARSEILLE, paris])
    assert (check.stated, check.read, where) == ("capitale de la France", "Paris", 1)
    assert check.passage == paris.text
    # The capital itself, under another name; a capital that was; no capital given.
    mexico = Evidence("wikipedia", "La Ciudad de México es la capital de los Estados Unidos Mexicanos.",
                      title="Ciudad de México")
    capital = Evidence("geonames", "The capital of Mexico is Mexico City.", title="Mexico (GeoNames)")
    assert said_otherwise("Es la capital de México.", [mexico, capital]) == []
    assert said_otherwise("C'était la capitale de la France.", [MARSEILLE, paris]) == []
    assert said_otherwise("C'est la capitale de la France.", [MARSEILLE]) == []
    # A country's capital said to be another's is a swap of the country, read in its own lead.
    vienna = Evidence("wikipedia", "Vienna is the capital of Austria.", title="Vienna")
    canberra = Evidence("geonames", "The capital of Australia is Canberra.", title="Australia (GeoNames)")
    assert said_otherwise("Vienna is the capital of Australia.", [vienna, canberra]) == []


MADAGASCAR = Evidence("wikipedia", "Madagascar is an island country in the Indian Ocean. Lying off the "
                      "southeastern coast of Africa, it is the world's fourth-largest island.",
                      title="Madagascar")


def test_a_side_of_a_place_sharing_no_point_of_the_compass_with_the_leads_is_contradicted() -> None:
    [(check, where)] = said_otherwise("It lies off the west coast of Africa.", [MADAGASCAR])
    assert (check.stated, check.read, where) == ("west coast of Africa", "southeastern coast of Africa", 0)
    [(check, _)] = said_otherwise("Se encuentra frente a la costa oeste de África.", [MADAGASCAR])
    assert check.stated == "costa oeste de África"
    # A side sharing a point ("east" of "southeastern"), or another place's side, says nothing against it.
    assert said_otherwise("It lies off the east coast of Africa.", [MADAGASCAR]) == []
    assert said_otherwise("It lies off the west coast of India.", [MADAGASCAR]) == []


KENYA = Evidence("wikipedia", "Kenya, officially the Republic of Kenya, is a country located in East Africa. "
                 "Going clockwise, Kenya is bordered by South Sudan to the northwest, Ethiopia to the north, "
                 "the Indian Ocean to the southeast and Tanzania to the southwest.", title="Kenya")
PERU = Evidence("wikipedia", "El Perú es un Estado soberano, ubicado en el oeste de América del Sur. "
                "Limita al norte, con Ecuador y Colombia; al sur, con Chile; y al oeste, con el océano "
                "Pacífico.",
                title="Perú")
SENEGAL = Evidence("wikipedia", "Le Sénégal est un État d'Afrique de l'Ouest bordé à l'ouest par l'océan "
                   "Atlantique. Les pays qui lui sont frontaliers sont la Mauritanie et la Gambie, qui est "
                   "presque entièrement enclavée au sein du territoire sénégalais.", title="Sénégal")


def test_a_coast_taken_from_a_country_its_lead_gives_an_ocean_is_contradicted() -> None:
    [(check, where)] = said_otherwise("It has no coastline.", [KENYA])
    assert (check.stated, check.read, check.outcome, where) == \
        ("has no coastline", "the Indian Ocean", "contradicted", 0)
    assert check.passage.startswith("Going clockwise")
    [(check, _)] = said_otherwise("Perú no tiene salida al mar.", [PERU])
    assert check.read == "el océano Pacífico"
    # Another country of the lead said landlocked takes nothing from the subject.
    [(check, _)] = said_otherwise("Il n'a pas d'accès à la mer.", [SENEGAL])
    assert check.read == "l'océan Atlantique"


def test_no_coast_is_left_alone_where_the_subject_is_landlocked_or_its_sea_is_a_lake() -> None:
    assert said_otherwise("L'Autriche n'a pas d'accès à la mer.", [AUSTRIA]) == []
    caspian = Evidence("wikipedia", "Azerbaijan is a country in the South Caucasus. It is bounded by the "
                       "Caspian Sea to the east.", title="Azerbaijan")
    assert said_otherwise("Azerbaijan is landlocked.", [caspian]) == []
    assert said_otherwise("Its capital has no coastline.", [Evidence("wikipedia", "Lyon is a city.",
                                                                      title="Lyon")]) == []


GOBI = Evidence("wikipedia", "The Gobi Desert is a large, cold desert and grassland region in southern "
                "Mongolia and North China. It is the sixth-largest desert in the world.", title="Gobi Desert")


def test_a_continent_off_every_country_the_leads_opening_places_its_subject_in_is_contradicted() -> None:
    [(check, where)] = said_otherwise("It is located in Africa.", [GOBI])
    assert (check.stated, check.read, check.outcome, where) == ("Africa", "Mongolia", "contradicted", 0)
    assert said_otherwise("The Gobi is a large desert in Asia.", [GOBI]) == []
    # A life's places are not where its subject is; an opening naming a continent is read as a value.
    assert said_otherwise("He died in Africa.", [GOBI]) == []
    assert said_otherwise("It is in Asia.", [KENYA]) == []
