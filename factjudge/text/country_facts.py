"""A country's currency, official languages, land neighbours, largest town and rank (``country_ranks``), and a
country's or a town's population, as CLDR and GeoNames record them, for items that state them.

A country's lead summary seldom names its currency, never lists every neighbour, and a town's lead says it
is the largest only where it is, so "Su moneda es el peso" (of Venezuela), "Limita con Brasil" (of Chile)
and "Canberra is its largest city" were left unverified. The record says it, in one sentence a reader can
check (``record``): "La moneda de Venezuela: bolívar venezolano (VES)." Each fact is closed: a country has
its legal tenders today (CLDR's territory data: Panama's balboa and US dollar), GeoNames lists all
its land neighbours (an island, with none, has no record), and its towns' populations tell the largest where
they are far apart (nothing is read where they are close). The item's value is compared with the record by
words, no model asked (``checks``): a currency named that is not the country's is contradicted, and so are a
language said to be official that has no official standing there (not even in a region: CLDR's territory
data), a country named as a neighbour that is none, a town far smaller than the largest, and a number of
people many times off GeoNames' ("Tiene unos 500.000 habitantes" of Bogotá: 7,674,366).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from babel import Locale
from babel.core import get_global
from babel.languages import get_official_languages
from babel.numbers import format_decimal, get_currency_name, get_territory_currencies

from factjudge.records import Evidence
from factjudge.text.country_ranks import rank_check, rank_record
from factjudge.text.fold import says, words
from factjudge.text.places import (
    country,
    country_name,
    country_population,
    most_populous,
    neighbours,
    population,
    town_population,
)
from factjudge.text.value_match import amounts

_LANGUAGES = ("en", "es", "fr")
# An item that speaks of a currency, or of a country's borders, en/es/fr.
CURRENCY = re.compile(r"\b(?:currenc(?:y|ies)|monedas?|monnaies?|devises?)\b", re.IGNORECASE)
# An island shared is a land border ("Comparte la isla con Haití").
BORDERS = re.compile(r"\b(?:borders?|bordered|bordering|neighbou?r(?:s|ing)?|bounded|limita[n]?|limítrofe|"
                     r"fronteras?|fronteriz[oa]s?|vecin[oa]s?|fronti[èe]res?|frontali[eè]re?s?|limitrophes?|"
                     r"voisin(?:e|s|es)?|bord[ée]e?s?|(?:shares?|sharing)\s+(?:the\s+|an\s+)?island|"
                     r"comparte\s+(?:la\s+)?isla|partage\s+l['’]île)\b", re.IGNORECASE)
# An item that says which languages are official in a country, and where what it says of them ends (a list
# goes on past commas; "but", "pero", "mais" begin something else).
OFFICIAL_LANGUAGE = re.compile(r"\b(?:official\s+languages?|(?:lenguas?|idiomas?)\s+oficial(?:es)?|"
                               r"langues?\s+officielles?)\b", re.IGNORECASE)
_LANGUAGE_CLAUSE = re.compile(r"[^;.]+?(?=;|\.|\bbut\b|\bwhile\b|\bpero\b|\bmientras\b|\bmais\b|"
                              r"\btandis\b|$)", re.IGNORECASE)
# Names of a language CLDR does not give in en/es/fr.
_LANGUAGE_ALIASES = {"castellano": "es", "mandarin": "zh", "mandarín": "zh", "mandarin chinese": "zh"}
# An item that says which town of a country has the most people (not the second: "the second-largest city").
LARGEST_TOWN = re.compile(r"\b(?:(?:largest|biggest|most\s+populous|most\s+populated)\s+(?:city|town)|"
                          r"ciudad\s+(?:m[áa]s\s+(?:grande|poblada|populosa)|mayor)|mayor\s+ciudad|"
                          r"plus\s+grande\s+ville|ville\s+la\s+plus\s+(?:grande|peupl[ée]e))\b",
                          re.IGNORECASE)
_NOT_FIRST = re.compile(r"\b(?:second|third|fourth|segund[oa]|tercer[oa]?|cuart[oa]|deuxi[èe]me|troisi[èe]me|"
                        r"quatri[èe]me|\d(?:nd|rd|th|e|º|ª))\b", re.IGNORECASE)
# Where GeoNames' populations tell the largest town surely: a town with less than this share of the largest
# one's people is not the largest, and the largest is surely so where the next has less than the other share
# (populations of a town proper and of its area differ: Sydney and Melbourne, Karachi and Lahore).
_SMALLER = 0.5
_SURELY_LARGEST = 0.6
# The currency an item says is the country's: the words after "is"/"es"/"est" (the present only: "was the
# peseta" is history), up to the end of its clause.
_IS_CURRENCY = re.compile(r"\b(?:is|es|est)\s+(?:the\s+|el\s+|la\s+|le\s+|l['’]\s*)?([^,;.()]+)",
                          re.IGNORECASE)
_NOT = re.compile(r"\b(?:not|no|ni|ne|n['’]|pas|never|nunca|jamais)\b", re.IGNORECASE)
_CLAUSES = re.compile(r"[^,;]+")
# What lists several countries ("Perú, Bolivia y Argentina").
# What parts a list of neighbours, and the island a neighbour shares ("the island of Hispaniola with Haiti").
_LIST = re.compile(r"\s*(?:[,;]|\band\b|\by\b|\be\b|\bet\b|\bor\b|\bo\b|\bou\b|\bwith\b|\bcon\b|\bavec\b)\s*",
                   re.IGNORECASE)
_CAPITALISED = re.compile(r"(?:(?:the|la|las|el|los|le|les|l['’])\s*)?[A-ZÀ-Ý][\w'’-]*"
                          r"(?:\s+(?:(?:de|del|des|du|of|and)\s+)?[A-ZÀ-Ý][\w'’-]*)*")
# What a record sentence gives: the currency after its colon, the neighbours after "with".
_TOLD = re.compile(r"(?::|\b(?:with|con|avec))\s+(.+?)\.$")
# An item that says how many people live in a place, not in a wider area around it or in another year.
PEOPLE = re.compile(r"\b(?:inhabitants|residents|population|people\s+live|habitantes|población|poblacion|"
                    r"habitants)\b", re.IGNORECASE)
_WIDER = re.compile(r"\b(?:metro(?:politan)?|urban\s+area|conurbation|metropolitana?|área|area|aglomeración|"
                    r"agglomération|aire|unité\s+urbaine|region|región|région|province|provincia|department|"
                    r"departamento|département)\b|\b1\d{3}\b|\b20\d{2}\b", re.IGNORECASE)
# How many times GeoNames' figure a stated population must be off to be wrong: a town's people are counted
# within its limits or its urban area, a country's are not.
_TOWN_OFF = 10
_COUNTRY_OFF = 2.5
_PEOPLE_SENTENCE = {"en": "The population of {} (GeoNames): {} inhabitants.",
                    "es": "La población de {} (GeoNames): {} habitantes.",
                    "fr": "La population de {} (GeoNames) : {} habitants."}
_PEOPLE_RECORD = re.compile(r"(?:The population of|La población de|La population de) .+ \(GeoNames\)\s?: "
                            r"(\d[\d,.\s]*) (?:inhabitants|habitantes|habitants)\.")
_URL_TOWN = "https://www.geonames.org/{}/"
_URL = "https://www.geonames.org/countries/{}/"
_URL_CODE = re.compile(r"^https://www\.geonames\.org/countries/([A-Z]{2})/$")
_CURRENCY_SENTENCE = {"en": "The currency of {}: {}.", "es": "La moneda de {}: {}.",
                      "fr": "La monnaie de {} : {}."}
_CURRENCIES_SENTENCE = {"en": "The currencies of {}: {}.", "es": "Las monedas de {}: {}.",
                        "fr": "Les monnaies de {} : {}."}
_BORDERS_SENTENCE = {"en": "{} shares land borders with {}.", "es": "{} tiene fronteras terrestres con {}.",
                     "fr": "{} a des frontières terrestres avec {}."}
_LANGUAGES_SENTENCE = {"en": "The official languages of {}: {}.", "es": "Las lenguas oficiales de {}: {}.",
                       "fr": "Les langues officielles de {} : {}."}
_LANGUAGE_SENTENCE = {"en": "The official language of {}: {}.", "es": "La lengua oficial de {}: {}.",
                      "fr": "La langue officielle de {} : {}."}
_TOWNS_SENTENCE = {"en": "The most populous towns of {} (GeoNames): {}.",
                   "es": "Las ciudades más pobladas de {} (GeoNames): {}.",
                   "fr": "Les villes les plus peuplées de {} (GeoNames) : {}."}
_AND = {"en": "and", "es": "y", "fr": "et"}
# Countries whose lands overseas border others, or are bordered by such lands, that GeoNames lists as
# countries of their own ("la France" and "le Brésil", through French Guiana; the Netherlands and France on
# Saint Martin; Spain and Gibraltar; Cyprus and the British bases; Canada and Greenland on Hans Island).
_OVERSEAS = frozenset({"FR", "NL", "GB", "DK", "BR", "SR", "ES", "CY", "CA"})


@dataclass(frozen=True)
class FactCheck:
    """A value of an item compared with a country's record: as stated, its offsets in the item, what the
    record gives, and whether it bears the value out."""

    stated: str
    start: int
    end: int
    read: str
    confirmed: bool


def currencies_of(code: str) -> tuple[str, ...]:
    """The currencies the country ``code`` uses today by CLDR ("VE": ("VES",), "PA": ("PAB", "USD"))."""
    return tuple(get_territory_currencies(code))


def record(query: str, names: Sequence[str], lang: str | None) -> list[Evidence]:
    """The record sentences of the first country one of ``names`` names that ``query`` speaks of (its
    currency, its land neighbours, its most populous towns), in the item's language ``lang`` (else
    English); none where they name no country or the record has nothing closed to say."""
    lang = lang if lang in _LANGUAGES else "en"
    people = _people(query, names, lang) if PEOPLE.search(query) and not _WIDER.search(query) else []
    code = next((found for found in map(country, names) if found), None)
    if code is None:
        return people
    name = country_name(code, lang)
    found = []
    money = currencies_of(code) if CURRENCY.search(query) else ()
    if money:
        told = _listed([f"{get_currency_name(c, locale=lang)} ({c})" for c in money], lang)
        sentence = _CURRENCY_SENTENCE if len(money) == 1 else _CURRENCIES_SENTENCE
        found.append(sentence[lang].format(name, told))
    spoken = get_official_languages(code, de_facto=True) if OFFICIAL_LANGUAGE.search(query) else ()
    if spoken:
        listed = _listed([Locale(lang).languages.get(c.split("_")[0], c) for c in spoken], lang)
        sentence = _LANGUAGE_SENTENCE if len(spoken) == 1 else _LANGUAGES_SENTENCE
        found.append(sentence[lang].format(name, listed))
    near = neighbours(code) if BORDERS.search(query) and code not in _OVERSEAS else ()
    if near:
        listed = _listed([country_name(n, lang) for n in near], lang)
        found.append(_BORDERS_SENTENCE[lang].format(name, listed))
    # Only where the populations settle the item's town: a list of towns too close to tell apart is taken for
    # support by the judge ("Sa plus grande ville est Milan", on Rome's 2.3 million and Milan's 1.4).
    if _largest_town(query, code, names[0] if names else None):
        listed = ", ".join(f"{town} ({people:,})" for town, people in most_populous(code))
        found.append(_TOWNS_SENTENCE[lang].format(name, listed))
    return people + rank_record(query, code, lang) + [
        Evidence("geonames", text, url=_URL.format(code), title=f"{name} (GeoNames)") for text in found]


def _people(query: str, names: Sequence[str], lang: str) -> list[Evidence]:
    """The population GeoNames gives the place the item writes (where it writes one), else the first of
    ``names`` that is a country or a town it tells apart; none where the item writes two."""
    written = [name for name in dict.fromkeys(names)
               if says(query, name) and (country(name) or town_population(name))]
    if len(written) > 1:
        return []
    for name in written or names:
        own = country(name)
        town = None if own else town_population(name)
        if own:
            people, called, url = country_population(own), country_name(own, lang), _URL.format(own)
        elif town:
            people, called, url = town[1], town[0], _URL_TOWN.format(town[2])
        else:
            continue
        if people is None:
            continue
        text = " ".join(_PEOPLE_SENTENCE[lang].format(called, format_decimal(people, locale=lang)).split())
        return [Evidence("geonames", text, url=url, title=f"{called} (GeoNames)")]
    return []


def checks(item: str, evidence: Evidence, subject: str | None = None) -> list[FactCheck]:
    """The values of ``item`` that the record sentence ``evidence`` (one of ``record``'s) settles: its
    currency, each language it says is official, its largest town (else the ``subject``'s rank among them),
    each country it names as a neighbour, its rank or its population; none for a negated item."""
    found = _URL_CODE.match(evidence.url or "")
    told = _TOLD.search(evidence.text)
    rank = rank_check(item, evidence) if evidence.source == "geonames" else None
    if rank is not None:
        return [FactCheck(*rank, False)]
    people = _PEOPLE_RECORD.fullmatch(evidence.text)
    if evidence.source == "geonames" and people and not _NOT.search(item):
        return _population(item, int(re.sub(r"\D", "", people.group(1))), found is not None)
    if evidence.source != "geonames" or found is None or told is None or _NOT.search(item):
        return []
    code = found.group(1)
    currency = CURRENCY.search(item)
    if CURRENCY.search(evidence.text):
        return _currency(item, currency.end(), code, told.group(1)) if currency else []
    if OFFICIAL_LANGUAGE.search(evidence.text):
        return _languages(item, code, told.group(1))
    if "(GeoNames)" in evidence.text:
        return _largest_town(item, code, subject)
    return _neighbours(item, code, told.group(1))


def _population(item: str, people: int, of_a_country: bool) -> list[FactCheck]:
    """The number of people ``item`` says live in its place, against GeoNames' ``people``: wrong where it is
    many times off (``_TOWN_OFF``, ``_COUNTRY_OFF``); nothing is confirmed by a count of another year."""
    said = PEOPLE.search(item)
    if said is None or _WIDER.search(item):
        return []
    for figure in re.finditer(r"\d[\d\s,.\u00a0\u202f]*(?:\s*(?:million|millones|millions|billion|"
                              r"mil\s+millones|milliards?)\b)?", item):
        found = [value for value, _ in amounts(figure.group()) if value >= 1]
        if not found:
            continue
        off = max(found[0], people) / min(found[0], people)
        if off >= (_COUNTRY_OFF if of_a_country else _TOWN_OFF):
            stated = figure.group().strip()
            told = format_decimal(people, locale="en")
            return [FactCheck(stated, figure.start(), figure.start() + len(stated), told, False)]
        return []
    return []


def _currency(item: str, after: int, code: str, told: str) -> list[FactCheck]:
    """The currency ``item`` states after its word for a currency (at ``after``), against those the
    country ``code`` uses (``told`` so)."""
    said = _IS_CURRENCY.search(item, after)
    money = currencies_of(code)
    if said is None or not money:
        return []
    stated = said.group(1).strip()
    named = words(stated)
    if not named:
        return []
    if stated.upper() in money or any(_within(named, _names(c)) for c in money):
        return [FactCheck(stated, said.start(1), said.start(1) + len(stated), told, True)]
    # A currency no country has ("el peso paraguayo") is named by a word heading several currencies' names.
    if not any(_within(named, names) for names in _all_names()) and not set(named) & _shared_words():
        return []  # no currency's name: "Its currency is strong"
    return [FactCheck(stated, said.start(1), said.start(1) + len(stated), told, False)]


def _languages(item: str, code: str, told: str) -> list[FactCheck]:
    """Each language ``item`` says is official, in the clause that says so, against the country ``code``'s:
    borne out where CLDR gives it official standing in the whole country (``told`` so), contradicted where it
    has none there, not even in a region."""
    said = OFFICIAL_LANGUAGE.search(item)
    if said is None:
        return []
    clause = next((c for c in _LANGUAGE_CLAUSE.finditer(item) if c.start() <= said.start() < c.end()), None)
    if clause is None:
        return []
    official = {c.split("_")[0] for c in get_official_languages(code, de_facto=True)}
    standing = {c.split("_")[0] for c, info in get_global("territory_languages").get(code, {}).items()
                if info.get("official_status")}
    found = []
    for start, end, language in _language_names(item, clause.start(), clause.end()):
        if language in official or language not in standing:
            found.append(FactCheck(item[start:end], start, end, told, language in official))
    return found


def _language_names(item: str, start: int, end: int) -> list[tuple[int, int, str]]:
    """The languages ``item`` names between ``start`` and ``end``, with their offsets, longest names first
    ("Swiss German" is not "German")."""
    found: list[tuple[int, int, str]] = []
    for name, code in _language_index():
        for match in re.finditer(rf"(?<!\w){re.escape(name)}(?!\w)", item[start:end], re.IGNORECASE):
            at, to = start + match.start(), start + match.end()
            if all(to <= a or at >= b for a, b, _ in found):
                found.append((at, to, code))
    return sorted(found)


@cache
def _language_index() -> tuple[tuple[str, str], ...]:
    """The names in en/es/fr of every language official somewhere, with their codes, longest first."""
    codes = {c.split("_")[0] for languages in get_global("territory_languages").values()
             for c, info in languages.items() if info.get("official_status")}
    names = {name: code for lang in _LANGUAGES for code in codes
             if (name := Locale(lang).languages.get(code))} | _LANGUAGE_ALIASES
    return tuple(sorted(names.items(), key=lambda pair: -len(pair[0])))


def _largest_town(item: str, code: str, subject: str | None = None) -> list[FactCheck]:
    """The town ``item`` says is the country ``code``'s most populous (one it names, else the ``subject`` of
    the article it is read in: "Es la ciudad más grande de España" of Valencia), against GeoNames'
    populations: the largest where the next has far fewer people, not it where it has far fewer than the
    largest; else nothing is settled."""
    said = LARGEST_TOWN.search(item)
    towns = most_populous(code, 2)
    if said is None or _NOT_FIRST.search(item) or len(towns) < 2:
        return []
    (largest, most), (_, next_most) = towns
    # Only the clause that says it ("Canberra is the capital, and Sydney its largest city"), else the one the
    # clause is set beside ("Biskek, la mayor ciudad de Kirguistán, es …").
    clauses = list(_CLAUSES.finditer(item))
    at = next(n for n, c in enumerate(clauses) if c.start() <= said.start() < c.end())
    for clause in clauses[at::-1][:2]:
        for name in _CAPITALISED.finditer(item, clause.start(), clause.end()):
            people = population(name.group(), code)
            if people is None:
                continue
            if people == most and next_most < _SURELY_LARGEST * most:
                return [FactCheck(name.group(), name.start(), name.end(), largest, True)]
            if people < _SMALLER * most:
                return [FactCheck(name.group(), name.start(), name.end(), largest, False)]
            return []
    people = population(subject, code) if subject else None
    if people is not None and people < _SMALLER * most:
        return [FactCheck(said.group(), said.start(), said.end(), largest, False)]
    return []


def _neighbours(item: str, code: str, told: str) -> list[FactCheck]:
    """Each country ``item`` names after its word for borders, against the country ``code``'s neighbours
    (``told`` so)."""
    near = set(neighbours(code))
    said = BORDERS.search(item)
    if not near or said is None:
        return []
    found = []
    at = said.end()
    for part in _LIST.split(item[at:]):
        name = _CAPITALISED.search(part)
        start = item.find(part, at)
        at = start + len(part) if start >= 0 else at
        named = country(name.group()) if name else None
        if name is None or named is None or named == code or start < 0:
            continue
        begin = start + name.start()
        found.append(FactCheck(name.group(), begin, begin + len(name.group()), told, named in near))
    return found


def _within(named: list[str], names: list[list[str]]) -> bool:
    """Whether the words ``named`` are all words of one of ``names``."""
    return any(set(named) <= set(name) for name in names)


# The forms a currency's name is read in: each language's singular and plural.
_NAME_FORMS = tuple((lang, count) for lang in _LANGUAGES for count in (1, 2))


@cache
def _names(code: str) -> list[list[str]]:
    """The words of the currency ``code``'s names in en/es/fr, singular and plural (``_NAME_FORMS``)."""
    return [words(get_currency_name(code, count=count, locale=lang)) for lang, count in _NAME_FORMS]


@cache
def _all_names() -> tuple[list[list[str]], ...]:
    """The words of every currency's names in en/es/fr."""
    codes = {str(code) for lang in _LANGUAGES for code in Locale(lang).currencies}
    return tuple(_names(code) for code in sorted(codes))


@cache
def _shared_words() -> frozenset[str]:
    """The words several currencies are called by, their names' heads (the last word in English, the first in
    Spanish and French: "peso", "dollar", "franc"), which name a currency whatever nationality follows."""
    seen: dict[str, set[int]] = {}
    for currency, names in enumerate(_all_names()):
        for (lang, _), named in zip(_NAME_FORMS, names, strict=True):
            if named:
                seen.setdefault(named[-1] if lang == "en" else named[0], set()).add(currency)
    return frozenset(w for w, found in seen.items() if len(found) >= 2 and len(w) > 2)


def _listed(names: list[str], lang: str) -> str:
    """``names`` as a list in ``lang`` ("Perú, Bolivia y Argentina")."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {_AND[lang]} {names[-1]}"
