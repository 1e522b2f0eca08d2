"""The values of an item a chatbot gets wrong: names, places, people, dates, years, numbers, titles.

Each value is a span of the item with its offsets and a kind, so a judge can ask the evidence
for it ("The capital of Canada is ___ (a name)") and compare what it reads with what was said.
Rules, not a tagger: spaCy's Spanish pipeline on the registry predates the spaCy it would run on,
and no tagger marks numbers with their units. What the rules know (en, es, fr):

- a date with a month name ("27 May 1937", "May 27, 1937", "27 de mayo de 1937", "1er octobre
  1935", "mayo de 1937") or in ISO form, a year (1000-2099, or with BC/AD), a century, a decade
  ("the 1480s", "les années 1920");
- a number with what it counts: scale words (million, millones, milliards) and units (km, metres,
  kilómetros, %) belong to it, a thousands separator (1,280 / 1 280 / 1.280) too, and a minus word
  before it ("minus 40 °C"); a number in words in the item's language ("cien grados", "onze
  médailles", "un kilómetro y medio": ``text.number_words``), a lone "one", "un" or a half only
  before a unit ("un libro", "en medio de" are no values);
- a name: a run of capitalised words joined by "of", "de", "von" … ("Rio de Janeiro"); a number
  or Roman numeral after a name is part of it ("Apollo 11", "Boeing 747", "Louis XIV");
- a title in quotation marks.

The item's own subject is not a value to ask about: a name the question names (the topic) is
skipped, and without a question, the name a sentence opens with. A name after "in", "à", "en" …
is a place, after "by", "par", "por" a person.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from factjudge.text.described import described_at
from factjudge.text.fold import fold
from factjudge.text.language import guess_language
from factjudge.text.nationality import is_nationality
from factjudge.text.noun_slots import ELIDED
from factjudge.text.number_words import HALF_AFTER, minus_start, spelled_numbers
from factjudge.text.places import is_place
from factjudge.text.tokenize import stopwords_for

Kind = Literal["date", "year", "century", "decade", "number", "place", "person", "name", "title"]

# The words each kind is asked for with, in a cloze blank ("___ (a year)") and in a question.
BLANK: dict[str, str] = {"date": "a date", "year": "a year", "century": "a century", "decade": "a decade",
                         "number": "a number", "place": "a place", "person": "a person", "name": "a name",
                         "title": "a title"}
WH: dict[str, dict[str, str]] = {
    "en": {"date": "which date", "year": "which year", "century": "which century", "decade": "which decade",
           "number": "how many", "place": "which place", "person": "whom", "name": "what",
           "title": "which title", "temperature": "which temperature"},
    "es": {"date": "qué fecha", "year": "qué año", "century": "qué siglo", "decade": "qué década",
           "number": "cuántos", "place": "qué lugar", "person": "quién", "name": "qué",
           "title": "qué título", "temperature": "qué temperatura"},
    "fr": {"date": "quelle date", "year": "quelle année", "century": "quel siècle",
           "decade": "quelle décennie",
           "number": "combien de", "place": "quel lieu", "person": "qui", "name": "quoi",
           "title": "quel titre", "temperature": "quelle température"},
}

MONTHS: dict[str, int] = {}
for _number, _names in enumerate((
        "january enero janvier", "february febrero fevrier", "march marzo mars", "april abril avril",
        "may mayo mai", "june junio juin", "july julio juillet", "august agosto aout",
        "september septiembre setiembre septembre sept", "october octubre octobre",
        "november noviembre novembre", "december diciembre decembre"),
        start=1):
    MONTHS.update(dict.fromkeys(_names.split(), _number))

# Scale words multiply a number; they are part of the value ("3.5 million", "2 mil millones").
SCALES: dict[str, float] = {
    "thousand": 1e3, "mil": 1e3, "mille": 1e3, "milliers": 1e3,
    "million": 1e6, "millions": 1e6, "millón": 1e6, "millon": 1e6, "millones": 1e6,
    "billion": 1e9, "billions": 1e9, "milliard": 1e9, "milliards": 1e9, "mil millones": 1e9,
    "trillion": 1e12, "billón": 1e12, "billones": 1e12,
}
# Units, spelled as written, to a canonical unit and the factor into it.
UNITS: dict[str, tuple[str, float]] = {}
for _canon, _factor, _spellings in (
        ("m", 1.0, "m metre metres meter meters metro metros mètre mètres"),
        ("m", 1e3, "km kilometre kilometres kilometer kilometers kilómetro kilómetros kilomètre kilomètres"),
        ("m", 0.01, "cm centimetre centimetres centimeter centimeters centímetro centímetros centimètre "
                    "centimètres"),
        ("m", 0.001, "mm millimetre millimetres millimeter millimeters milímetro milímetros millimètre "
                     "millimètres"),
        ("m", 1609.344, "mi mile miles milla millas"),
        ("m", 0.3048, "ft foot feet pie pies pied pieds"),
        ("m2", 1.0, "m2 m²"),
        ("m2", 1e6, "km2 km²"),
        ("m2", 2589988.110336, "mi2 mi²"),
        ("m2", 1e4, "ha hectare hectares hectárea hectáreas"),
        ("m2", 4046.8564224, "acre acres"),
        ("kg", 1.0, "kg kilogram kilograms kilogramme kilogrammes kilogramo kilogramos"),
        ("kg", 1e3, "t tonne tonnes ton tons tonelada toneladas"),
        ("kg", 0.001, "g gram grams gramme grammes gramo gramos"),
        ("kg", 0.45359237, "lb lbs pound pounds libra libras livre livres"),
        ("s", 1.0, "s second seconds segundo segundos seconde secondes"),
        ("s", 60.0, "min minute minutes minuto minutos"),
        ("s", 3600.0, "h hour hours hora horas heure heures"),
        ("s", 86400.0, "day days día días jour jours"),
        ("s", 31557600.0, "year years año años an ans année années"),
        ("%", 1.0, "% percent pourcent"),
        # In Spanish and French a temperature in degrees is in Celsius unless said otherwise.
        ("°c", 1.0, "°c ºc ° celsius centigrade centígrado centígrados centigrades "
                    "grado grados degré degrés"),
        ("°f", 1.0, "°f ºf fahrenheit"),  # temperatures: value_match converts them (not by a factor)
        ("k", 1.0, "k kelvin kelvins"),
        ("l", 1.0, "l litre litres liter liters litro litros"),
        ("w", 1.0, "w watt watts vatio vatios"),
        # Speeds in metres a second, written with a slash or a negative power ("m⋅s−1"); value_match also
        # reads "kilometres per hour".
        ("m/s", 1.0, "m/s m⋅s−1 m·s−1 m⋅s-1 m·s-1 m⋅s⁻¹ m·s⁻¹"),
        ("m/s", 1000.0, "km/s km⋅s−1 km·s−1 km⋅s-1 km·s-1 km⋅s⁻¹ km·s⁻¹"),
        ("m/s", 1000 / 3600, "km/h kph"),
        ("m/s", 1609.344 / 3600, "mph"),
        ("usd", 1.0, "$ usd dollar dollars dólar dólares dollar dollars"),
        ("eur", 1.0, "€ eur euro euros"),
        ("people", 1.0, "people inhabitants habitantes habitants personas personnes"),
):
    UNITS.update({spelling: (_canon, _factor) for spelling in _spellings.split()})
# Units of two words: "per cent" (never "per" or "cent" alone: "3 per day", "cent mètres"), "degrees Celsius".
UNITS.update({f"{degrees} {scale}": UNITS[scale]
              for degrees in ("degree", "degrees", "grado", "grados", "degré", "degrés")
              for scale in ("celsius", "fahrenheit", "centigrade", "centígrados", "centigrades")})
UNITS.update(dict.fromkeys(("per cent", "por ciento", "pour cent"), UNITS["%"]))
# Areas of two words: "square kilometres", "sq mi", "kilómetros cuadrados", "kilomètres carrés".
UNITS.update(dict.fromkeys(("square kilometres", "square kilometers", "square kilometre", "square kilometer",
                            "sq km", "kilómetros cuadrados", "kilometros cuadrados", "kilomètres carrés",
                            "kilometres carres"), UNITS["km2"]))
UNITS.update(dict.fromkeys(("square miles", "square mile", "sq mi", "millas cuadradas", "milles carrés"),
                           UNITS["mi2"]))
# Words saying "each" between a unit and a length of time: a rate ("kilometres per second", "millas por
# hora", "km par heure").
RATE_WORDS = frozenset({"per", "a", "an", "each", "every", "por", "par", "à", "al"})
_RATE = re.compile(r"[ \u00a0]+(?:" + "|".join(RATE_WORDS) + r")[ \u00a0]+(?:"
                   + "|".join(sorted((re.escape(u) for u, (c, _) in UNITS.items() if c == "s"), key=len,
                                     reverse=True)) + r")\b", re.IGNORECASE)
_UNIT_WORD = re.compile(r"°[cf]|[%°º$€]|[^\W\d_]+(?:[/⋅·][^\W\d_]+(?:[−-]1|⁻¹)?|²|2)?(?![^\W_])")
_MULTI_WORD_UNITS = sorted((u for u in (*UNITS, *SCALES) if " " in u), key=len, reverse=True)

# Words that join the capitalised words of one name ("Rio de Janeiro", "Statue of Liberty").
JOINERS = frozenset("of the de del della di da du des la le las los van von der den".split())  # noqa: SIM905
# Before a name: a place ("in Paris", "à Paris", "en Madrid") or a person ("by Victor Hugo").
_PLACE_BEFORE = frozenset("in at near from en à au aux dans cerca desde".split())  # noqa: SIM905
_PERSON_BEFORE = frozenset({"by", "par", "por"})
# Nouns of a prize, which "in" or "en" after names the prize's field ("Prize in Physics").
_PRIZES = frozenset({"prize", "prizes", "award", "awards", "medal", "premio", "premios", "prix", "nobel"})
# A lower-case word for a kind of place that Spanish and French write just before its name ("la mer Rouge",
# "el océano Pacífico", "le lac Léman"): a part of the place's name, asked about with it.
_PLACE_HEADS = frozenset("""mer océan lac mont fleuve rivière golfe île détroit désert péninsule plaine baie
cordillère massif mar océano lago monte río golfo isla estrecho desierto cordillera sierra península llanura
bahía""".split())  # noqa: SIM905
# A word saying a figure is near, en/es/fr, just before it ("until", "hasta", "jusqu'à" go before years).
_ABOUT = re.compile(r"\b(?:nearly|almost|about|around|approximately|roughly|some|over|more than|fewer than|"
                    r"less than|casi|unos|unas|cerca de|alrededor de|aproximadamente|más de|menos de|"
                    r"près de|environ|presque|plus de|moins de|quelque)\s+$", re.IGNORECASE)
# A person's tie to another, before "of"/"de" ("a student of Plato", "fils de Philippe II").
_TIES = frozenset("""student pupil disciple son daughter wife husband brother sister father mother teacher
apprentice élève fils fille épouse mari frère sœur père mère maître alumno alumna discípulo
discípula hijo hija esposa esposo hermano hermana padre madre maestro""".split())  # noqa: SIM905
# Capitalised words that are never a value on their own (a weekday, a pronoun, a discourse word).
_NOT_NAMES = frozenset("""i monday tuesday wednesday thursday friday saturday sunday lunes martes miércoles
jueves viernes sábado domingo lundi mardi mercredi jeudi vendredi samedi dimanche however additionally
also yes no it its this these those today yesterday tomorrow overall furthermore moreover although
however therefore sin embargo además cependant ainsi aussi tell describe explain háblame dime cuéntame
parle-moi dis-moi raconte-moi décris explique""".split())  # noqa: SIM905
_OPENERS = frozenset((".", "!", "?", ":", "¿", "¡", "\"", "“", "«", "("))  # a sentence or quote starts after
_ROMAN = re.compile(r"^(?=[MDCLXVI]+$)M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})$")

# A French elision ("d'Émile Zola", "l'Amérique") is a word of its own: the name after it stays one.
# A slash between letters joins too: "AC/DC" is one name, never "AC" and "DC".
_WORD = re.compile(r"\b(?:[dDlLjJmMnNsStT]|[qQ]u)['’](?=[^\W\d_])"
                   r"|[^\W_]+(?:[-'’.][^\W_]+|/[^\W\d_]+)*|[^\w\s]")
# A fraction ("1/2", "1 1/2"; never a date's "1/2/2020"), then the figures with their separators.
_FRACTION = r"(?<!/)(?:\d{1,3} )?[1-9]/(?:1[0-6]|[2-9])(?!/|\d)"
_DIGITS = _FRACTION + \
    r"|\d{1,3}(?:[,\u00a0\u202f ]\d{3})+(?:[.]\d+)?|\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d+(?:[.,]\d+)?"
_DAY = r"(?:1er|1re|\d{1,2})(?:st|nd|rd|th|º|°)?"
_MONTH = r"(?P<month>[^\W\d_]{3,10}\.?)"
_YEAR = r"(?P<year>\d{3,4})"
DATE_PATTERNS = tuple(re.compile(p, re.IGNORECASE) for p in (
    r"\b(?P<iso>\d{4}-\d{2}-\d{2})\b",
    rf"\b(?P<day>{_DAY})(?:\s+de)?\s+{_MONTH}(?:,?\s+(?:de\s+|del\s+)?{_YEAR})?\b",
    rf"\b{_MONTH}\s+(?P<day>{_DAY}),?\s+{_YEAR}\b",
    rf"\b{_MONTH}(?:\s+de|\s+of)?\s+{_YEAR}\b",
))
# A day and its month with no year ("15 April", "April 15", "15 de abril"): a date a passage may give the
# year of elsewhere.
DAY_MONTH_PATTERNS = tuple(re.compile(p, re.IGNORECASE) for p in (
    rf"^\W*(?P<day>{_DAY})(?:\s+de)?\s+{_MONTH}\W*$",
    rf"^\W*{_MONTH}\s+(?P<day>{_DAY})\W*$",
))
# An era written after a year: "2600 BC", "1500 av. J.-C.", "44 a. C.", "14 d. de C.".
ERA = r"(?:BCE?|AD|CE|(?:av|apr)\. ?J\.-C\.|[ad]\. ?(?:de )?C\.)"
YEAR_PATTERN = re.compile(
    rf"(?<![\w,.])(?P<year>(?:1\d|20)\d{{2}}(?:\s?(?:BCE?|AD|CE)\b)?|\d{{1,4}}\s?{ERA})(?!\w|[.,]\d)")
CENTURY_PATTERN = re.compile(
    r"\b(?:(?P<ord>\d{1,2})(?:st|nd|rd|th)\s+century|(?:the\s+)?siglo\s+(?P<es>[IVXL]+|\d{1,2})"
    r"|(?P<fr>[IVXL]+|\d{1,2})(?:e|ème|eme)\s+siècle)\b", re.IGNORECASE)
# A decade ("the 1480s", "mid-1480s", "les années 1920", "la década de 1920"); "the 1800s" is the century
# English writes so, all its years.
DECADE_PATTERN = re.compile(
    r"(?<![\w-])(?:(?:mid|early|late)-?\s?)?(?P<en>(?:1\d|20)\d0)s\b|\bannées\s+(?P<fr>(?:1\d|20)\d0)\b"
    r"|\b(?:décadas?\s+de(?:\s+los)?|años)\s+(?P<es>(?:1\d|20)\d0)\b", re.IGNORECASE)
# A minus sign belongs to the number ("-40 °C"), never a hyphen after a word or a figure ("1990-2000"),
# and a unit's power is no number ("m⋅s−1").
NUMBER_PATTERN = re.compile(rf"(?<![\w.,])(?<![^\W\d_]\u2212)(?P<num>(?:[-\u2212](?=\d))?(?:{_DIGITS}))"
                            r"(?![\w]|[.,]\d)")
_BARE_DEGREES = frozenset("° º grado grados degré degrés".split())  # noqa: SIM905
_LEADING_MINUS = re.compile(r"^(?:minus|moins|menos)\s+", re.IGNORECASE)
# A Spanish past tense ("Escribió", "Pintó"): opening a sentence before a name, it is no name's first word.
PRETERITE = re.compile(r"[^\W\d_]{2,}ó")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")
_QUOTED = re.compile(r"“([^”\n]{2,80})”|«\s?([^»\n]{2,80}?)\s?»|\"([^\"\n]{2,80})\"")


@dataclass(frozen=True)
class ValueSpan:
    """One value of an item: its text, where it is (``item[start:end] == text``) and its kind."""

    text: str
    start: int
    end: int
    kind: Kind

    def blanked(self, item: str) -> str:
        """The item with this value replaced by a typed blank: ``___ (a year)``."""
        hint = BLANK[self.kind]
        counted = self.counted()
        if self.temperature():
            hint = "a temperature"
        elif self.kind == "name" and is_nationality(item, self.start, self.end):
            hint = "a nationality"
        elif counted:
            hint = f"{hint} of {counted}"
        return f"{item[: self.start]}___ ({hint}){item[self.end :]}"

    def temperature(self) -> bool:
        """Whether this number is a temperature: asked for as one, in whatever scale the passage gives
        it (the comparison converts; asked "a number of °F", the model finds none in a passage in °C)."""
        counted = self.counted().lower()
        unit = UNITS.get(counted)
        # Bare degrees ("90°", "cien grados") may be an angle: asked for as written.
        return unit is not None and unit[0] in ("°c", "°f", "k") and counted not in _BARE_DEGREES

    def counted(self) -> str:
        """What a number counts, as written after it ("km", "people"); empty for other kinds."""
        if self.kind != "number":
            return ""
        text = _LEADING_MINUS.sub("", self.text.lstrip("$€£"))
        figure = NUMBER_PATTERN.match(text)
        if figure is None:  # a number in words: what follows its words
            spelled = spelled_numbers(text)
            figure_end = spelled[0].end if spelled and spelled[0].start == 0 else 0
        else:
            figure_end = figure.end()
        rest = HALF_AFTER.sub("", text[figure_end:]).split()
        return " ".join(w for w in rest if w.lower() not in SCALES)

    def question(self, item: str, lang: str | None = None) -> str:
        """The item as a question about this value, asked where the value stood ("… by whom?")."""
        lang = guess_language(item) or lang  # the item's own language: a check's defaults to English
        words = WH.get((lang or "en").split("-")[0].lower(), WH["en"])
        wh = words[self.kind]
        if self.temperature():
            wh = words["temperature"]
        elif self.counted():  # "how many km", "combien de habitants": the unit stays asked for
            wh = f"{wh} {self.counted()}"
        starts = [0, *(m.end() for m in _SENTENCE_END.finditer(item, 0, self.start))]
        end = _SENTENCE_END.search(item, self.end)
        sentence_end = end.start() + 1 if end else len(item)
        asked = f"{item[starts[-1] : self.start]}{wh}{item[self.end : sentence_end]}".strip()
        asked = re.sub(r"[.!;:]+$", "", asked).rstrip()
        return asked[:1].upper() + asked[1:] + "?"


def value_spans(item: str, *, question: str = "", lang: str | None = None,
                limit: int | None = None) -> list[ValueSpan]:
    """The values of ``item`` worth asking about, most telling first, at most ``limit`` of them.

    The question's names are the item's topic and are skipped, and so is the name an item opens by
    describing ("La capitale du Japon est …"); with no question, so is the name a sentence opens
    with (its subject: with a question, the subject may be the answer); a lone capitalised word
    opening a sentence is asked about last ("Saturn is …", but also "While …"), and not at all when
    the item or question writes it in lower case too.
    Numbers, dates, places and people come before plain names, and a lone capitalised word
    before a lower-case noun ("French novel") last.
    """
    # Numbers in words are read in the language the item is written in, where its words say it: a
    # check's language defaults to English whatever the answer's.
    found = _all_values(item, guess_language(f"{question}\n{item}") or lang or "en")
    topic = {fold(name) for name in _names_in(question)} if question.strip() else set()
    described = described_at(item)  # "La capitale du Japon est …": Japon is what the item is about
    kept = []
    for span in found:
        if span.kind in ("place", "person", "name", "title"):
            if (topic and _is_topic(span.text, topic)) or span.start == described:
                continue
            # "C'est une cité inca", "Qu'il …": a word elided onto a lower-case one is capitalised as a
            # sentence opens, no name ("D'Artagnan" is one).
            elided = ELIDED.match(span.text)
            if span.text.endswith(("'", "’")) or (elided and not span.text[elided.end()].isupper()):
                continue
            if not question.strip() and _opens_sentence(item, span):
                continue
            if _lone_opener(item, span) and (_written_lower(span.text, f"{item} {question}")
                                             or _OPENING_VERB.match(item, span.start)):
                continue  # "Fortune cookies … fortune cookies": a word, capitalised as a sentence opens
        kept.append(span)
    kept.sort(key=lambda s: (_rank(item, s), s.start))
    return kept if limit is None else kept[:limit]


def _rank(item: str, span: ValueSpan) -> int:
    if span.kind == "name" and (_modifies_noun(item, span) or _lone_opener(item, span)):
        return 2
    return 1 if span.kind == "name" else 0


def _written_lower(word: str, text: str) -> bool:
    """Whether ``text`` also writes ``word`` in lower case, or it is a stop word: a word, not a name."""
    return fold(word) in stopwords_for(None) or re.search(rf"\b{re.escape(word.lower())}\b", text) is not None


# A Spanish verb opening a sentence that leaves its subject out, before the words it governs: a past tense
# ("Nació en Génova", "Ganó el premio"; a name ending so, "Miró pintó …", is followed by a verb), or a
# present one before a preposition, which a name opening a sentence is seldom followed by ("Desemboca en
# el océano", "Limita con Francia"); an irregular past tense ("Estuvo casada con …", "Hizo …").
_OPENING_VERB = re.compile(r"(?i:estuv|tuv|hiz|dij|pud|pus|quis|vin|sup|traj|produj|conduj|anduv|hub)o\b|"
                           r"[^\W\d_]{3,}[ae]\s+(?:en|al|con|hacia|desde|entre)\b|(?i:forma\s+parte)\b|"
                           # "Tiene unos 100.000 habitantes", "Mide 8.848 metros": a verb before a figure
                           r"[^\W\d_]{3,}[ae]\s+(?:(?:unos|unas|casi|aproximadamente|más\s+de|menos\s+de|"
                           r"cerca\s+de|alrededor\s+de)\s+)?\d|"
                           # "Comparte la isla", "Ocupa el centro": a verb, its object's article and noun
                           r"[^\W\d_]{3,}[ae]\s+(?:la|el|los|las|un|una|su|sus)\s+[a-záéíóúñ]|"
                           r"[^\W\d_]{2,}ó\s+(?:en|el|la|los|las|lo|un|una|a|al|de|del|su|sus|con|por|"
                           r"para|que|como|tras|durante|hasta)\b")


def _lone_opener(item: str, span: ValueSpan) -> bool:
    """Whether ``span`` is a lone capitalised word opening a sentence: any word may be ("While …"), so
    it is asked about last."""
    return " " not in span.text and not re.split(r"[.!?]\s+", item[: span.start])[-1].strip()


def _all_values(item: str, lang: str = "en") -> list[ValueSpan]:
    """Every value of ``item``, left to right, none overlapping another; numbers in words in ``lang``."""
    taken: list[ValueSpan] = []

    def free(start: int, end: int) -> bool:
        return all(end <= s.start or start >= s.end for s in taken)

    for match in _QUOTED.finditer(item):
        group = next(g for g in (1, 2, 3) if match.group(g))
        title = match.group(group).rstrip(",.;: ")  # '"snowplow," which …': the comma is the sentence's
        if title:
            taken.append(ValueSpan(title, match.start(group), match.start(group) + len(title), "title"))
    for pattern in DATE_PATTERNS:
        for match in pattern.finditer(item):
            named = pattern is DATE_PATTERNS[0] or fold(match.group("month").rstrip(".")) in MONTHS
            if named and free(match.start(), match.end()):
                taken.append(_span(item, match.start(), match.end(), "date"))
    for match in CENTURY_PATTERN.finditer(item):
        if free(match.start(), match.end()):
            taken.append(_span(item, match.start(), match.end(), "century"))
    for match in DECADE_PATTERN.finditer(item):
        if free(match.start(), match.end()):
            taken.append(_span(item, match.start(), match.end(), "decade"))
    for match in YEAR_PATTERN.finditer(item):
        if free(match.start(), match.end()) and not _counts_something(item, match.end()) \
                and not _about_a_count(item, match.start(), match.end(), lang):
            taken.append(_span(item, match.start(), match.end(), "year"))
    for span in _spelled_values(item, lang):
        if free(span.start, span.end):
            taken.append(span)
    numbers = [(minus_start(item, _currency_start(item, m.start())), m.end(), unit_end(item, m.end()))
               for m in NUMBER_PATTERN.finditer(item)]
    # A unit written with a capital is no name ("100 degrees Celsius"): its number is taken first.
    for start, figure_end, end in numbers:
        if any(c.isupper() for c in item[figure_end:end]) and free(start, end):
            taken.append(_span(item, start, end, "number"))
    for span in _name_runs(item):
        if free(span.start, span.end):
            taken.append(span)
    for start, _, end in numbers:
        if free(start, end):
            taken.append(_span(item, start, end, "number"))
    return sorted(taken, key=lambda s: s.start)


def _spelled_values(item: str, lang: str) -> Iterator[ValueSpan]:
    """The numbers ``item`` writes in words in ``lang``, with what they count: lower case or opening a
    sentence (capitalised inside one, a number word is a name: "Once Caldas"), never the scale word of
    a figure ("67 millones"), and a lone article or half only before a unit."""
    for spelled in spelled_numbers(item, lang):
        end = unit_end(item, spelled.end)
        written = item[spelled.start:spelled.end]
        opens = not re.split(r"[.!?:]\s+", item[: spelled.start])[-1].strip()
        scale = re.search(r"\d[\s\u00a0\u202f]?$", item[max(0, spelled.start - 2):spelled.start])
        counts = end > spelled.end or not spelled.needs_unit
        if not scale and counts and (written == written.lower() or opens):
            yield _span(item, spelled.start, end, "number")


def _span(item: str, start: int, end: int, kind: Kind) -> ValueSpan:
    return ValueSpan(item[start:end], start, end, kind)


def _counts_something(item: str, end: int) -> bool:
    """A four-digit number followed by a unit or scale word is a quantity, not a year ("2000 km")."""
    return unit_end(item, end) > end


def _about_a_count(item: str, start: int, end: int, lang: str) -> bool:
    """A four-digit number said to be near ("nearly", "unos", "environ") with a word that is no function
    word after it counts that word: "nearly 1000 nuclear warheads" is no year, "around 1500 the city
    grew" is one."""
    after = re.match(r"\s+([^\W\d_]+)", item[end:])
    return bool(_ABOUT.search(item[max(0, start - 30):start]) and after and after.group(1).islower()
                and after.group(1).casefold() not in stopwords_for(lang))


def unit_end(item: str, end: int) -> int:
    """Where the number ending at ``end`` ends with its scale word and unit: "3.5 million km²" is one
    value, and so is a half said after its unit ("un kilómetro y medio")."""
    start = end
    for _ in range(2):  # a scale word, then a unit
        gap = re.match(r"[ \u00a0\u202f]?", item[end:])
        at = end + (gap.end() if gap else 0)
        head = item[at:].lower()
        step = next((len(p) for p in _MULTI_WORD_UNITS
                     if head.startswith(p) and not head[len(p):len(p) + 1].isalpha()), 0)
        if not step:
            word = _UNIT_WORD.match(head)
            if word and (word.group() in UNITS or word.group() in SCALES):
                step = word.end()
        if not step:
            break
        end = at + step
    half = HALF_AFTER.match(item, end) if end > start else None  # "un kilómetro y medio"
    end = half.end() if half else end
    unit = UNITS.get(item[start:end].strip().lower().split()[-1], ("",)) if end > start else ("",)
    rate = _RATE.match(item, end) if unit[0] not in ("", "s") else None  # "kilometres per second"
    return rate.end() if rate else end


def _currency_start(item: str, start: int) -> int:
    """A currency sign before a number belongs to it ("$4 billion")."""
    return start - 1 if start > 0 and item[start - 1] in "$€£" else start


def _name_runs(item: str) -> Iterator[ValueSpan]:
    """Runs of capitalised words (with joiners, and a number or Roman numeral after a name)."""
    words = [(m.group(), m.start(), m.end()) for m in _WORD.finditer(item)]
    starts = _sentence_starts(item, words)
    i = 0
    while i < len(words):
        text, start, _ = words[i]
        if not _capitalised(text) or (i in starts and _not_a_name_start(text, words, i)) \
                or fold(text) in _NOT_NAMES or fold(text.rstrip(".")) in MONTHS:
            i += 1
            continue
        j = i + 1
        while j < len(words):
            word = words[j][0]
            if _capitalised(word) and fold(word) not in _NOT_NAMES and words[j][1] - words[j - 1][2] <= 1:
                j += 1
            elif (word.lower() in JOINERS and j + 1 < len(words) and _capitalised(words[j + 1][0])
                  and fold(words[j + 1][0]) not in _NOT_NAMES):
                j += 2
            elif (word.isdigit() or _ROMAN.match(word)) and words[j][1] - words[j - 1][2] == 1 \
                    and not YEAR_PATTERN.fullmatch(word) and not _a_quantity(item, words[j][2]):
                j += 1  # "Apollo 11", "Louis XIV" (but "Paris 1920" keeps its year, "Mide 1,5 km" its length)
            else:
                break
        end = words[j - 1][2]
        kind = _name_kind(words, i, j)
        if i and words[i - 1][0] in _PLACE_HEADS and start - words[i - 1][2] == 1:
            start, kind = words[i - 1][1], "place"
        name = re.sub(r"['’]s$", "", item[start:end])
        if len(name) > 1:
            yield ValueSpan(name, start, start + len(name), kind)
        i = j


def _a_quantity(item: str, end: int) -> bool:
    """Whether the figure ending at ``end`` goes on as a quantity: decimals or a unit after it."""
    return re.match(r"[.,]\d", item[end:end + 2]) is not None or _counts_something(item, end)


def _capitalised(word: str) -> bool:
    return word[:1].isupper() and any(c.isalpha() for c in word)


def _sentence_starts(item: str, words: list[tuple[str, int, int]]) -> set[int]:
    starts = {0} if words else set()
    for i in range(1, len(words)):
        if words[i - 1][0] in _OPENERS:
            starts.add(i)
    return starts


def _not_a_name_start(word: str, words: list[tuple[str, int, int]], i: int) -> bool:
    """A sentence's first word is a name unless it is a stop word, a lone word before a comma or a Spanish
    past tense before a name ("Escribió Don Quijote de la Mancha"), or one in "-ió", which no name ends
    with ("Murió asesinado en 1923")."""
    if fold(word) in stopwords_for(None) or word.lower() in JOINERS:
        return True
    if PRETERITE.fullmatch(word) and (word.endswith("ió") or (i + 1 < len(words)
                                                             and _capitalised(words[i + 1][0]))):
        return True
    lone = i + 1 < len(words) and words[i + 1][0] == "," and not _capitalised(words[i + 1][0])
    return lone or word.lower().endswith("ly")


def _name_kind(words: list[tuple[str, int, int]], i: int, j: int) -> Kind:
    """Place after "in", person after "by"; a lone word before a lower-case noun is a modifier, a name."""
    after = words[j][0] if j < len(words) else ""
    if j == i + 1 and after.isalpha() and after.islower() and fold(after) not in stopwords_for(None):
        return "name"  # "by Colombian author …": the author is the value, not "Colombian"
    before = words[i - 1][0].lower() if i else ""
    # A prize's field is no place ("the Nobel Prize in Literature", "el Premio Nobel en Física").
    prized = i > 1 and fold(words[i - 2][0]) in _PRIZES
    if before in _PLACE_BEFORE and not prized:
        return "place"
    tied = before in ("of", "de", "d'") and i > 1 and words[i - 2][0].lower() in _TIES
    if before in _PERSON_BEFORE or tied:
        return "person"
    return "name"


def _modifies_noun(item: str, span: ValueSpan) -> bool:
    """A lone capitalised word before a lower-case noun is a modifier ("a French novel")."""
    return " " not in span.text and _noun_after(item, span.end)


def modifies_a_noun(text: str, word: str) -> bool:
    """Whether ``text`` writes the lone ``word`` before a lower-case noun, as a modifier ("a Catholic
    church"): a description, not a name filling a slot."""
    return " " not in word.strip() and any(
        _noun_after(text, m.end()) for m in re.finditer(rf"(?<!\w){re.escape(word.strip())}(?!\w)", text))


def _noun_after(text: str, end: int) -> bool:
    """Whether a lower-case word that is no stop word follows ``text[:end]``."""
    after = re.match(r"\s+([^\W\d_]+)", text[end:])
    return after is not None and after.group(1).islower() and fold(after.group(1)) not in stopwords_for(None)


def _opens_sentence(item: str, span: ValueSpan) -> bool:
    """Whether ``span`` is the first name of a sentence of ``item``: its subject, most often."""
    words = re.split(r"[.!?]\s+", item[: span.start])[-1].split()
    return len(words) <= 2 and all(fold(w) in stopwords_for(None) for w in words) \
        and not any(w.lower() in _PLACE_BEFORE | _PERSON_BEFORE for w in words)


def topic_names(question: str) -> list[str]:
    """The names a question asks about (its topic): never asked about, never an answer to a blank."""
    return _names_in(question)


def _names_in(text: str) -> list[str]:
    return [s.text for s in _name_runs(text)] + [m.group(g) for m in _QUOTED.finditer(text)
                                                  for g in (1, 2, 3) if m.group(g)]


def _is_topic(name: str, topic: set[str]) -> bool:
    """A name the question names, or a part or a longer form of one ("Curie" of "Marie Curie"), but no
    place of its own named after one ("Santiago de Cuba" of "Cuba")."""
    folded = fold(name)
    tokens = set(folded.split()) - JOINERS
    for named in topic:
        words = set(named.split()) - JOINERS
        if folded == named or (tokens and words and tokens <= words):
            return True
        if tokens and words and words < tokens and not is_place(name):
            return True
    return False
