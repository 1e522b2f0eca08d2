"""A country said to be the largest, the smallest or the most populous of the world or of a continent,
against the areas and populations GeoNames gives.

A lead seldom ranks its country ("C'est le plus petit pays d'Afrique" of Algeria, "the largest country in the
world" of Vatican City: neither lead says where they stand), so such items were left unverified. GeoNames
files every country and territory under a continent with its area and population. An item is wrong where
the country stands far from the rank it is given: said to be the first by area or people, it has at most
half the first's (``_FAR``); said to be the last, it has more than half of the countries and territories of
its scope (territories such as Mayotte are filed beside countries, so the smallest filed may be none).
Nothing is confirmed: the first by a small margin, or a country on two continents, is left to the lead.
"""

from __future__ import annotations

import re
from statistics import median

from babel.numbers import format_decimal

from factjudge.records import Evidence
from factjudge.text.places import ACROSS, continent_code, countries_of, country_name

# "the largest country", "el país más poblado", "le plus petit pays" (en/es/fr), the extreme said.
RANKED = re.compile(
    r"\b(?:(?P<en>largest|biggest|smallest|most\s+populous|most\s+populated|least\s+populous)\s+"
    r"(?:country|nation|state)"
    r"|país\s+más\s+(?P<es>grande|extenso|pequeño|poblado|populoso)|(?P<es2>mayor|menor)\s+país"
    r"|plus\s+(?P<fr>grand|vaste|petit|peuplé)\s+pays|pays\s+le\s+plus\s+(?P<fr2>grand|vaste|petit|peuplé|étendu))\b",
    re.IGNORECASE)
# Where the rank holds, said after it: the world, or a continent by its name.
_SCOPE = re.compile(r"\s*(?:in|of|on|del?|en|du|d['’]|de\s+l['’]|de\s+la)\s*(?:the\s+|el\s+|la\s+|l['’]\s*)?"
                    r"(?P<scope>[^\W\d_][\w'’ -]*?)\s*(?=[.,;:!?)]|$)", re.IGNORECASE)
_WORLD = frozenset("world mundo monde planet planeta planète earth tierra terre".split())  # noqa: SIM905
# Words saying the rank is not the first, or is one of several ("the second-largest", "one of the largest").
_NOT_ALONE = re.compile(r"\b(?:second|third|fourth|fifth|segund[oa]|tercer[oa]?|cuart[oa]|deuxi[èe]me|"
                        r"troisi[èe]me|quatri[èe]me|one\s+of|uno\s+de|una\s+de|l['’]un\s+des|l['’]une\s+des|"
                        r"among|entre|parmi|not|no|ne|n['’]|pas)\b", re.IGNORECASE)
_SMALL = frozenset({"smallest", "pequeño", "menor", "petit", "least populous"})
_PEOPLE = frozenset({"most populous", "most populated", "poblado", "populoso", "peuplé", "least populous"})
# How far from the first a country said to be it must be: at most this share of the first's area or people.
_FAR = 0.5
_SENTENCE = {
    "en": "{name} (GeoNames): {value}; the {first} in {scope}: {top} ({top_value}).",
    "es": "{name} (GeoNames): {value}; el primero en {scope}: {top} ({top_value}).",
    "fr": "{name} (GeoNames) : {value} ; le premier en {scope} : {top} ({top_value}).",
}
_LAST = {
    "en": "{name} (GeoNames): {value}, more than {share} of the {count} countries and territories in "
          "{scope}.",
    "es": "{name} (GeoNames): {value}, más que {share} de los {count} países y territorios de {scope}.",
    "fr": "{name} (GeoNames) : {value}, plus que {share} des {count} pays et territoires {of}{scope}.",
}
_UNIT = {"area": "km²", "population": ""}
_WORLD_NAME = {"en": "the world", "es": "el mundo", "fr": "le monde"}
URL = "https://www.geonames.org/countries/{}/#ranked"


def ranked(item: str) -> tuple[re.Match[str], str, bool, str | None, str] | None:
    """The rank ``item`` gives a country (the words, by area or population, the last or the first) and its
    scope (a continent's GeoNames code, None for the world, and the scope's words); None where it gives
    none, several, or a scope that is neither."""
    said = RANKED.search(item)
    if said is None or _NOT_ALONE.search(item):
        return None
    extreme = " ".join(next(g for g in said.groups() if g).lower().split())
    where = _SCOPE.match(item, said.end())
    if where is None:
        return None
    scope = where.group("scope")
    world = bool(set(scope.lower().split()) & _WORLD)
    code = None if world else continent_code(scope)
    if not world and code is None:
        return None
    return said, "population" if extreme in _PEOPLE else "area", extreme in _SMALL, code, scope


def rank_record(item: str, code: str, lang: str) -> list[Evidence]:
    """Where ``item`` gives the country ``code`` a rank its GeoNames figures are far from, the sentence that
    shows it, in ``lang``; else none."""
    found = ranked(item)
    if found is None or code in ACROSS:
        return []
    _, measure, last, continent, scope = found
    figures = countries_of(continent)
    if code not in figures or not figures[code][measure]:
        return []
    own = figures[code][measure]
    name = country_name(code, lang)
    value = _shown(own, measure, lang)
    where = _WORLD_NAME[lang] if continent is None else scope
    if last:
        values = [f[measure] for f in figures.values() if f[measure]]
        if own <= median(values):
            return []
        share = sum(v < own for v in values)
        of = "d'" if where[:1].lower() in "aeiouyéh" else "de "
        text = _LAST[lang].format(name=name, value=value, share=share, count=len(values), scope=where, of=of)
    else:
        top = max(figures, key=lambda c: figures[c][measure])
        if top == code or own > _FAR * figures[top][measure]:
            return []
        first = "largest" if measure == "area" else "most populous"
        text = _SENTENCE[lang].format(name=name, value=value, first=first, scope=where,
                                      top=country_name(top, lang),
                                      top_value=_shown(figures[top][measure], measure, lang))
    return [Evidence("geonames", text, url=URL.format(code), title=f"{name} (GeoNames)")]


def rank_check(item: str, evidence: Evidence) -> tuple[str, int, int, str] | None:
    """The rank ``item`` states that ``evidence`` (``rank_record``'s) shows wrong: the words, their offsets
    and what the record gives."""
    found = ranked(item)
    if found is None or not (evidence.url or "").endswith("#ranked"):
        return None
    said = found[0]
    shown = evidence.text.split(": ", 1)[-1].rstrip(".")
    return said.group(), said.start(), said.end(), shown


def _shown(value: float, measure: str, lang: str) -> str:
    """A figure as ``lang`` writes it, with its unit (French's narrow spaces as spaces, as passages are
    read)."""
    return " ".join(f"{format_decimal(value, format='#,##0.##', locale=lang)} {_UNIT[measure]}".split())
