"""A word of the subject's own lead that says the opposite of the item's, read with no model asked.

Some facts a newcomer's chatbot gets wrong are never a value a blank can hold: "L'Autriche est bordée par la
mer du Nord" against a lead that calls Austria "sans accès à la mer", "It is a saltwater lake" against "the
largest freshwater lake in the world", "Il traverse le Mexique" against "un fleuve d'Amérique du Sud". The
model, asked to fill a blank, reads a sea or a lake back and the passage's word is left unread; the item was
unverified though the lead says it is false. Each pair here is closed (a country has a coast or none; a
lake's water is fresh or salt; a river runs on its continent, and a place lies on the continent of the
countries its lead's opening places it in), the item must say it of the subject of the first passage's
article (no other name before it), and negate nothing but a coast ("It has no coastline" against "bordered
by … the Indian Ocean"); the lead sentence that says the opposite is the reason shown.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from factjudge.grounds import ValueCheck
from factjudge.records import Evidence
from factjudge.text.contradiction import LOCATED
from factjudge.text.fold import words
from factjudge.text.places import (
    ACROSS,
    country,
    country_name,
    is_capital,
    is_continent,
    lies_in,
    renderings,
    same_place,
)
from factjudge.text.segmenter import split_sentences

# A sea, an ocean or a gulf, by its word or its name (en/es/fr).
_SEA = (r"(?:the\s+|la\s+|le\s+|l['’]|el\s+)?(?:[\w-]+\s+)?"
        r"(?:sea|ocean|gulf|mer|océan|golfe|mar|océano|golfo|"
        r"mediterr\w*|adriati\w*|balti\w*|báltico|atl[aá]nti\w*|pac[ií]fi\w*|caribbean|caribe|caraïbes|manche)\b"
        r"(?:\s+(?:du|del|de\s+la|de|des|of\s+the|of)\s+[\w-]+)?")
# What an item says to give its subject a sea coast: borders a sea, has a coast or an outlet to the sea.
_COAST = re.compile(
    rf"\b(?:(?:is\s+)?(?:bordered|washed)\s+by\s+{_SEA}|borders?\s+{_SEA}"
    rf"|coast(?:line)?\s+(?:on|along)\s+{_SEA}"
    r"|has\s+(?:a\s+)?(?:long\s+)?(?:coast(?:line)?|sea\s*coast|access\s+to\s+the\s+sea"
    r"|an?\s+outlet\s+to\s+the\s+sea)"
    r"|tiene\s+(?:una?\s+)?(?:salida|acceso|costas?|litoral)(?:\s+al\s+mar)?"
    rf"|(?:limita|bañad[oa]|baña)\s+(?:al\s+\w+\s+)?(?:con|por)\s+{_SEA}"
    rf"|costas?\s+(?:en|sobre|con|al)\s+{_SEA}|(?:bordée?|baignée?)\s+par\s+{_SEA}"
    r"|a\s+(?:un\s+)?(?:accès\s+à\s+la\s+mer|littoral|une\s+façade\s+maritime))",
    re.IGNORECASE)
# A lead calling its country landlocked (en/es/fr).
_LANDLOCKED = re.compile(r"\b(?:landlocked|sin\s+(?:litoral|salida\s+al\s+mar|acceso\s+al\s+mar|costas?)"
                         r"|enclavée?|sans\s+(?:accès\s+à\s+la\s+mer|littoral|façade\s+maritime))\b",
                         re.IGNORECASE)
# What an item says to take every sea coast from its subject (en/es/fr): it is landlocked, has no coast.
_NO_COAST = re.compile(
    r"\b(?:landlocked|(?:has|have)\s+no\s+(?:sea\s*)?(?:coast(?:line)?|access\s+to\s+the\s+sea|outlet\s+to\s+the\s+sea)"
    r"|(?:does|do)\s+not\s+have\s+(?:a\s+)?(?:sea\s*)?(?:coast(?:line)?|access\s+to\s+the\s+sea)"
    r"|no\s+tiene\s+(?:salida|acceso)\s+al\s+mar|no\s+tiene\s+(?:costas?|litoral)|sin\s+(?:salida|acceso)\s+al\s+mar"
    r"|sin\s+(?:litoral|costas?)|n['’]a\s+(?:pas|aucun)\s+(?:d['’]\s*)?(?:accès\s+à\s+la\s+mer|littoral|côtes?|façade)"
    r"|sans\s+(?:accès\s+à\s+la\s+mer|littoral|façade\s+maritime)|enclavée?)\b", re.IGNORECASE)
# A lead sentence giving its country a sea as a border or a coast: the word, then an ocean or a sea by its
# name ("bordered by … the Indian Ocean to the southeast", "limita al norte con el mar Caribe").
_SEA_BORDER = re.compile(
    r"\b(?:border(?:s|ed)?|bounded|washed|coast(?:line)?|limita|bañad[oa]|baña|costas?|litoral|bord[ée]e?|"
    r"baign[ée]e?|littoral|façade\s+maritime)\b[^.]*?"
    r"(?P<sea>(?:the\s+)?(?-i:[A-ZÀ-Ý])[\w'’-]+\s+(?:Ocean|Sea)\b"
    r"|\b(?:l['’]|la\s+|le\s+|el\s+)?(?:oc[ée]ano?|mer|mar)\s+(?:de\s+l['’]|du\s+|del\s+|de\s+)?"
    r"(?-i:[A-ZÀ-Ý])[\w'’-]+|\b(?:Mediterranean|Méditerranée|Mediterráneo|Manche|Caribbean)\b)",
    re.IGNORECASE)
# The verbs of a country's borders that may open a lead's sentence about it ("Limita al norte con Ecuador").
_BORDER_VERBS = frozenset("limita limite limitan borders bordered bordee bordeado bordeada".split())  # noqa: SIM905
# Seas a landlocked country may border: closed lakes called seas.
_INLAND_SEA = re.compile(r"\b(?:Caspian|Caspio|Caspienne|Aral|Dead|Muerto|Morte)\b", re.IGNORECASE)
# A continent an item places its subject in ("It is located in Africa", "un désert d'Asie").
_IN_A_CONTINENT = re.compile(r"\b(?:in|en|of|de|del|d['’])\s*(?:the\s+|l['’]\s*)?"
                             r"(?P<continent>[A-ZÀ-Ý][\w'’-]*"
                             r"(?:\s+(?:del|du|de)\s+[A-ZÀ-Ý][\w'’-]*|\s+[A-ZÀ-Ý][\w'’-]*)?)")
# A life's events, whose places are not where the subject is.
_LIFE = re.compile(r"\b(?:born|died|lived|naci[oó]|muri[oó]|vivi[oó]|née?|mort|morte|vécu)\b",
                   re.IGNORECASE)
_COUNTRY_RUN = re.compile(r"(?<![\w'’])[A-ZÀ-Ý][\w'’-]*(?:\s+(?:of\s+|de\s+|del\s+)?[A-ZÀ-Ý][\w'’-]*)*")
# A lake's water, fresh or salt, as an item or a lead says it (en/es/fr).
_FRESH = re.compile(r"\b(?:fresh[\s-]?water|agua\s+dulce|eau\s+douce|dulceacuícola)\b", re.IGNORECASE)
_SALT = re.compile(r"\b(?:salt(?:water|[\s-]water)?|saline|salinity|brackish|hypersaline|agua\s+salada|"
                   r"salad[oa]|salinidad|salobre|hipersalin[oa]|eau\s+salée|salée?|salinité|saumâtre|hypersalée?)\b",
                   re.IGNORECASE)
_LAKE = re.compile(r"\b(?:lake|lago|lac|laguna)\b", re.IGNORECASE)
# What a river or a road passes through, named after the verb (en/es/fr).
_THROUGH = re.compile(r"\b(?i:traverses?|crosses|(?:flows|passes|runs)\s+through|passe\s+par|atraviesa|"
                      r"recorre|pasa\s+por|cruza)\s+(?i:the\s+|le\s+|la\s+|les\s+|l['’]|el\s+|los\s+|las\s+)?"
                      r"(?P<place>[A-ZÀ-Ý][\w'’-]*(?:\s+(?:del|de|du|of)?\s*[A-ZÀ-Ý][\w'’-]*)*)")
# A continent a lead's opening sentence places its subject in ("un fleuve d'Amérique du Sud").
_IN_CONTINENT = re.compile(r"(?:\b(?:de|del|in|en|of)\s+|\bd['’]|\bl['’])(?:l['’])?"
                           r"(?P<continent>[A-ZÀ-Ý][\w'’-]*(?:\s+(?:del|du|de)\s+[A-ZÀ-Ý][\w'’-]*"
                           r"|\s+[A-ZÀ-Ý][\w'’-]*)?)")
# A capital that was ("Rio de Janeiro was the capital of Brazil", "l'ancienne capitale"): GeoNames gives
# today's.
_FORMER = re.compile(r"\b(?:was|were|former(?:ly)?|once|until|fue|era|fuera|antigu[oa]|hasta|fut|était|"
                     r"ancienne?|jusqu)\b", re.IGNORECASE)
# The country an item says its subject is the capital of ("C'est la capitale de la France", "It is the
# capital city of Turkey").
CAPITAL_OF = re.compile(r"\bcapital(?:e|es)?(?:\s+city)?\s+(?:of|de|du|des|d['’])\s*"
                        r"(?:the\s+|la\s+|l['’]\s*)?(?P<country>[A-ZÀ-Ý][\w'’-]*(?:\s+[A-ZÀ-Ý][\w'’-]*)*)",
                        re.IGNORECASE)
# The sentence ``retrieval.wiki.capital.geonames_capital`` gives.
_GEONAMES_CAPITAL = re.compile(r"The capital of (.+) is (.+)\.")
# A compass direction (en/es/fr) and the points it is made of: "southeastern" is south and east.
_POINTS = {
    "north": "N", "northern": "N", "norte": "N", "septentrional": "N", "nord": "N", "septentrionale": "N",
    "south": "S", "southern": "S", "sur": "S", "meridional": "S", "sud": "S", "méridionale": "S",
    "austral": "S", "australe": "S", "east": "E", "eastern": "E", "este": "E", "oriental": "E", "est": "E",
    "orientale": "E", "west": "W", "western": "W", "oeste": "W", "occidental": "W", "ouest": "W",
    "occidentale": "W", "northeast": "NE", "northeastern": "NE", "noreste": "NE", "nordeste": "NE",
    "nord-est": "NE", "northwest": "NW", "northwestern": "NW", "noroeste": "NW", "nord-ouest": "NW",
    "southeast": "SE", "southeastern": "SE", "sureste": "SE", "sudeste": "SE", "sud-est": "SE",
    "southwest": "SW", "southwestern": "SW", "suroeste": "SW", "sudoeste": "SW", "sud-ouest": "SW",
}
_DIRECTION = "|".join(sorted(map(re.escape, _POINTS), key=len, reverse=True))
_PLACE_NAME = r"(?-i:[A-ZÀ-Ý])[\w'’-]*(?:\s+(?:del\s+|du\s+|de\s+|of\s+)?(?-i:[A-ZÀ-Ý])[\w'’-]*)*"
# Where on a place something lies, by a direction: "off the west coast of Africa", "la costa este de África",
# "au sud-est de l'Afrique".
_DIRECTED = re.compile(
    rf"(?i:\b(?P<dir>{_DIRECTION})\s+(?:coast|part|side|shore|region|tip)\s+of\s+(?:the\s+)?)"
    rf"(?P<place>{_PLACE_NAME})"
    rf"|(?i:\b(?:costa|parte|zona|región|litoral|côte|partie|région|al|au|en\s+el)\s+"
    rf"(?P<dir2>{_DIRECTION})\s+"
    rf"(?:de\s+la\s+|de\s+l['’]|del\s+|du\s+|des\s+|de\s+|d['’]))(?P<place2>{_PLACE_NAME})")
# Words that negate what an item says, or say the lead's side itself ("without a coast").
_NOT = re.compile(r"\b(?:not|no|never|without|landlocked|sin|nunca|ni|ne|n['’]|pas|sans|jamais|enclavée?)\b",
                  re.IGNORECASE)
# A sentence of the lead about its subject: it opens with a pronoun or the subject's name.
_PRONOUN = frozenset("it its es est il elle c ce su sa son".split())  # noqa: SIM905


def said_otherwise(item: str, passages: Sequence[Evidence]) -> list[tuple[ValueCheck, int]]:
    """The contradictions of ``item`` by a word of its subject's own lead among ``passages`` that says the
    opposite (a coast of a landlocked country, the water of a lake), each with the passage's index."""
    if not passages or not passages[0].title:
        return []
    if _NOT.search(item):
        found = [_no_coast_of_a_coastal(item, passages)]
    else:
        found = [_coast_of_landlocked(item, passages), _water_of_a_lake(item, passages),
                 _course_off_its_continent(item, passages), _capital_of_another(item, passages),
                 _direction_otherwise(item, passages), _placed_off_its_continent(item, passages)]
    return [one for one in found if one is not None]


def _coast_of_landlocked(item: str, passages: Sequence[Evidence]) -> tuple[ValueCheck, int] | None:
    """An item giving a country a sea coast ("Paraguay tiene salida al mar") where a lead of that country
    calls it landlocked."""
    code = country(passages[0].title or "")
    said = _COAST.search(item)
    if code is None or said is None or not _about_the_subject(item, said.start(), passages[0]):
        return None
    for where, ev in enumerate(passages):
        landlocked = _LANDLOCKED.search(ev.text)
        if landlocked and ev.title and country(ev.title) == code:
            sentence = next((s for s in split_sentences(ev.text) if _LANDLOCKED.search(s)), ev.text)
            return _contradicted(said, landlocked.group(), sentence), where
    return None


def coast_sentences(item: str, lead: str) -> list[str]:
    """The sentences of a country's ``lead`` that give it a sea or call it landlocked, for an item that takes
    its coast away or gives it one: they may lie past the sentences the item's words choose ("Going
    clockwise, Kenya is bordered by … the Indian Ocean", fifth in its lead)."""
    if not (_NO_COAST.search(item) or _COAST.search(item)):
        return []
    return [s for s in split_sentences(lead) if _SEA_BORDER.search(s) or _LANDLOCKED.search(s)]


def _no_coast_of_a_coastal(item: str, passages: Sequence[Evidence]) -> tuple[ValueCheck, int] | None:
    """An item taking every coast from a country ("It has no coastline" of Kenya) whose own lead gives it an
    ocean or a sea as a border ("bordered by … the Indian Ocean to the southeast") and never calls it
    landlocked."""
    code = country(passages[0].title or "")
    said = _NO_COAST.search(item)
    if code is None or said is None or not _about_the_subject(item, said.start(), passages[0]):
        return None
    own = [(where, ev, split_sentences(ev.text)) for where, ev in enumerate(passages)
           if ev.title and country(ev.title) == code]
    # Said of the subject: another country said landlocked in its lead ("la Gambie, qui est presque
    # entièrement enclavée") takes nothing from it.
    if any(_LANDLOCKED.search(sentence) and _its_own(sentence, ev.title or "", 0)
           for _, ev, sentences in own for sentence in sentences):
        return None
    for where, ev, sentences in own:
        for sentence in sentences:
            coast = _SEA_BORDER.search(sentence)
            if coast and not _INLAND_SEA.search(sentence) \
                    and _its_own(sentence, ev.title or "", coast.start()):
                return _contradicted(said, coast.group("sea").strip(), sentence), where
    return None


def _its_own(sentence: str, title: str, at: int) -> bool:
    """Whether a lead's ``sentence`` speaks of its subject: opening with it, a pronoun or a verb of its
    borders ("Limita al norte"), or naming it before ``at`` ("Going clockwise, Kenya is bordered by")."""
    opening = words(" ".join(sentence.split()[:1]))
    return _of_the_subject(sentence, title) or bool(set(opening) & _BORDER_VERBS) \
        or set(words(title)) <= set(words(sentence[:at]))


def _placed_off_its_continent(item: str, passages: Sequence[Evidence]) -> tuple[ValueCheck, int] | None:
    """An item placing its subject in a continent ("It is located in Africa" of the Gobi) where its own
    lead's opening sentence places it in countries that all lie off it ("in southern Mongolia and North
    China"); never a life's place ("He died in Africa")."""
    if _LIFE.search(item):
        return None
    said = next((m for m in _IN_A_CONTINENT.finditer(item) if is_continent(m.group("continent"))), None)
    if said is None or not (LOCATED.search(item) or re.search(r"\b(?:is|es|est)\b", item, re.IGNORECASE)) \
            or not _about_the_subject(item, said.start(), passages[0]):
        return None
    continent = said.group("continent")
    for where, ev in enumerate(passages):
        opening = split_sentences(ev.text)[:1]
        if ev.title != passages[0].title or not opening:
            continue
        codes = {country(run) for run in _COUNTRY_RUN.findall(opening[0]) if run != ev.title}
        codes.discard(None)
        if not codes or codes & ACROSS or any(is_continent(run) for run in _COUNTRY_RUN.findall(opening[0])):
            return None
        named = _names_of(codes)
        if all(lies_in(country_of, continent) is False for country_of in named):
            return _contradicted(said, ", ".join(sorted(named)), opening[0], "continent"), where
        return None
    return None


def _names_of(codes: set[str | None]) -> list[str]:
    """An English name of each country code GeoNames knows."""
    return [country_name(code, "en") for code in codes if code]


def _water_of_a_lake(item: str, passages: Sequence[Evidence]) -> tuple[ValueCheck, int] | None:
    """An item saying a lake's water is salt where its own lead says fresh, or the other way round ("It is a
    saltwater lake" of Lake Superior, "the largest freshwater lake in the world")."""
    salt, fresh = _SALT.search(item), _FRESH.search(item)
    said = fresh or salt
    # A capital makes it a name's word ("Salt Lake City").
    if said is None or (salt and fresh) or not said.group()[0].islower() or not _LAKE.search(item) \
            or not _about_the_subject(item, said.start(), passages[0]):
        return None
    opposite, same = (_SALT, _FRESH) if fresh else (_FRESH, _SALT)
    subject = passages[0].title or ""
    for where, ev in enumerate(passages):
        if ev.title != subject:
            continue
        for sentence in split_sentences(ev.text):
            read = opposite.search(sentence)
            if read and not same.search(sentence) and _of_the_subject(sentence, subject):
                return _contradicted(said, read.group(), sentence), where
    return None


def _course_off_its_continent(item: str, passages: Sequence[Evidence]) -> tuple[ValueCheck, int] | None:
    """An item saying a river or a road passes through a country that lies off the continent its own lead's
    opening sentence places it in ("Il traverse le Mexique" of "L'Amazone est un fleuve d'Amérique du
    Sud")."""
    said = _THROUGH.search(item)
    code = country(said.group("place")) if said else None
    if said is None or code is None or code in ACROSS \
            or not _about_the_subject(item, said.start(), passages[0]):
        return None
    for where, ev in enumerate(passages):
        opening = split_sentences(ev.text)[:1]
        if ev.title != passages[0].title or not opening:
            continue
        for found in _IN_CONTINENT.finditer(opening[0]):
            continent = found.group("continent")
            if renderings(continent) and lies_in(said.group("place"), continent) is False:
                return _contradicted(said, continent, opening[0], "place"), where
    return None


def _capital_of_another(item: str, passages: Sequence[Evidence]) -> tuple[ValueCheck, int] | None:
    """An item saying its subject, a town, is the capital of a country whose capital GeoNames gives as
    another town ("C'est la capitale de la France" of Marseille, against "The capital of France is
    Paris.")."""
    said = CAPITAL_OF.search(item)
    town = passages[0].title or ""
    # A country's capital said to be another's ("Vienna is the capital of Australia") is a swap of the
    # country, which its own lead names: read as a value.
    if said is None or _FORMER.search(item) or is_capital(town) \
            or not _about_the_subject(item, said.start(), passages[0]):
        return None
    named = country(said.group("country"))
    for where, ev in enumerate(passages):
        found = _GEONAMES_CAPITAL.fullmatch(ev.text) if ev.source == "geonames" else None
        if found and named and country(found.group(1)) == named and not _one_town(found.group(2), town):
            return _contradicted(said, found.group(2), ev.text), where
    return None


def _direction_otherwise(item: str, passages: Sequence[Evidence]) -> tuple[ValueCheck, int] | None:
    """An item placing its subject on one side of a place ("It lies off the west coast of Africa") where its
    own lead places it on a side that shares no point of the compass ("off the southeastern coast of
    Africa")."""
    said = _DIRECTED.search(item)
    if said is None or not _about_the_subject(item, said.start(), passages[0]):
        return None
    points, place = _POINTS[(said.group("dir") or said.group("dir2")).lower()], said.group("place") or \
        said.group("place2")
    for where, ev in enumerate(passages):
        if ev.title != passages[0].title:
            continue
        for sentence in split_sentences(ev.text):
            for found in _DIRECTED.finditer(sentence):
                other = found.group("place") or found.group("place2")
                direction = found.group("dir") or found.group("dir2")
                if words(other) == words(place) or same_place(other, place):
                    if not set(_POINTS[direction.lower()]) & set(points):
                        return _contradicted(said, found.group().strip(), sentence), where
                    return None
    return None


def _one_town(one: str, other: str) -> bool:
    """Whether two names of towns may be one town: GeoNames says so, or they share a word that is no
    function word ("Mexico City", "Ciudad de México")."""
    shared = {w for w in words(one) if len(w) > 3} & set(words(other))
    return bool(shared) or same_place(one, other)


def _about_the_subject(item: str, at: int, article: Evidence) -> bool:
    """Whether ``item`` names no other thing than ``article``'s subject before ``at``: a lone opening word
    aside (a pronoun, a verb or the subject's name), each run of capitalised words is the subject's."""
    own = set(words(article.title or ""))
    runs = re.findall(r"(?<![\w'’])[A-ZÀ-Ý][\w'’-]*(?:\s+[A-ZÀ-Ý][\w'’-]*)*", item[:at])
    if runs and len(runs[0].split()) == 1 and item.lstrip().startswith(runs[0]):
        runs = runs[1:]
    return all(set(words(name)) <= own for name in runs)


def _of_the_subject(sentence: str, title: str) -> bool:
    """Whether ``sentence`` opens with a pronoun or a word of its article's ``title``: it speaks of the
    subject ("It is the largest freshwater lake"), not of a lake beside it ("Locks … lift ships up to Gatun
    Lake, an artificial fresh water lake")."""
    opening = words(" ".join(sentence.split()[:2]))
    return bool(opening) and (opening[0] in _PRONOUN or bool(set(opening) & set(words(title))))


def _contradicted(said: re.Match[str], read: str, sentence: str, group: int | str = 0) -> ValueCheck:
    """The check of the item's words ``said`` (its ``group``) against the opposite word ``read`` in
    ``sentence``."""
    stated = said.group(group).strip()
    start = said.start(group)
    return ValueCheck(stated, "record", "", read, "contradicted", start, start + len(stated), sentence)
