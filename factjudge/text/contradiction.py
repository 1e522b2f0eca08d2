"""Is a value read that differs from the stated one really a contradiction? Checked before it is called.

A different value read from the passage contradicts the item only when the passage states the
same relation of the same subject and that excludes the stated value. These readings are none:

- **the sentence's own subject read back** ("Lisbon is the largest city in ___" read as "Lisbon"):
  the blank was filled with what the sentence is about, not with its slot (a place named after it is
  another thing: "Ciudad de México" read for "La capital de México es ___"), and so is the stated value where
  it is the sentence's subject, read in its own article ("The Danube flows through it");
- **a slot that holds several values**: the passage lists the stated value beside the read one
  ("He played for Sporting CP, Manchester United and Real Madrid"; "the answer says Manchester
  United" is one of them);
- **one place inside the other**: the passage writes them as a place and the place holding it
  ("born in Barcelona, Catalonia", "Ajaccio, in Corsica", "Barcelona (Catalonia)", through places
  between: "Dartmouth, Devon, England"), so "born in Catalonia" is not contradicted by Barcelona; a
  continent and a place that is none, a country and a place said where a thing is that is none, may be one
  inside the other too ("Il est mort en France", "mort … à Mougins"), and where the stated one is the
  narrower ("travelled to China", "through Asia") the item is left open, not borne out;
- **the date of another event**: a date read from a sentence that does not name what the item dates
  ("published The Descent of Man in 1871" read in "his book On the Origin of Species, published in
  1859"; a prize's year read for a discovery's): that sentence dates something else of the subject;
  so does a sentence of another subject's article that says none of the item's words for what it
  dates ("The telephone was invented … in 1876" read in Bell's "He co-founded AT&T in 1885"); a
  birth's or a death's date or place read for an item that speaks of neither ("né vers 1400" for the
  printing press "vers 1450", "né … à Paris" for "Il a vécu à Tahiti"), a death's date read for a birth
  or the other way round, and a birth or a death asked about read in a sentence that tells of neither;
- **where a thing was made**: a place read just after a word for its making ("pintado en París") for an
  item that says where it is now ("Se encuentra en el Museo del Prado"), in a sentence that says nothing
  of where it is;
- **one of many places**: where a person lived, worked, studied or explored ("Il a vécu à
  Montmartre", read "Saint-André-du-Bois"), what a river passes through ("Il traverse l'Espagne"): there
  are many;
- **a name cut short**: the head of a longer name the sentence goes on with as the stated one does ("the
  Nobel Prize in Physiology or Medicine", read "Nobel Prize" for "Premio Nobel de Medicina");
- **no name**: a word the passage writes in lower case ("la plaine indo-gangétique"), read where the item
  states a name ("un fleuve d'Asie"), modifies another slot;
- **one of many things made**: what a person made, wrote or found, said just after the verb ("He wrote
  Moby-Dick"), read otherwise in his lead ("the American Renaissance period"): he made many (a work another
  made is caught by the work's own lead, ``agents.settled``);
- **no person's name**: a person asked about ("a student of Plato", "painted by Raphael") is not
  contradicted by a value written as no one's name ("the Peripatetic school" of which he was the founder);
- **a year Old Style**: a birth's or a death's year one apart from the stated one, both before 1752, when
  a year was reckoned either way (Newton, born 25 December 1642 Old Style, 4 January 1643 New Style);
- **another subject's sentence**: any value read in another article than the item's subject's, from a
  sentence that says none of the item's words besides its values and the articles' names ("France has
  68 million inhabitants" read in *Paris*'s "Paris has 2.1 million residents"), is that subject's; so is
  a length of time read so in the item's own article (the 26 years a pyramid took to build, read for
  "the tallest … for more than 3,800 years").

Each is a rule on the passage's own words, so what is left as a contradiction has a reason a reader
can check in the sentence shown.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Sequence
from typing import Literal, cast

from factjudge.text.nationality import is_nationality, nation_word, one_nation_within
from factjudge.text.places import country, is_continent, is_country, is_place, is_sea, lies_in
from factjudge.text.tokenize import stems, stopwords_for
from factjudge.text.value_match import place_named_after, place_names
from factjudge.text.values import fold

Excuse = Literal["own_subject", "listed_together", "place_within", "other_event", "other_subject",
                 "other_language", "old_style", "no_person", "longer_form", "named_too", "narrower",
                 "inside_a_name", "no_nation", "made_several", "many_places", "no_name", "region",
                 "sea_and_land"]
# Words that may stand between two values of one list ("A, B and C", "A y B", "A et B", "A or B").
_LIST_GLUE = frozenset("and or y o e et ou nor as well the el la los las le les l del de".split())  # noqa: SIM905
# Lower-case words of a person's name ("Leonardo da Vinci", "Ludwig van Beethoven", "Ibn al-Haytham").
_PARTICLES = frozenset(
    "da de del della di do dos du des la le van von der den ten ter y e bin ibn al el d l".split())  # noqa: SIM905
# The lower-case words inside a name of several words ("Theater an der Wien", "Bank of England").
_NAME_GLUE = _PARTICLES | {"an", "am", "im", "of", "the"}
# A land's name is often an older or shorter form with "-ia", "-a" or "-y" added ("Macedon" and "Macedonia",
# "Lombard" and "Lombardy"); two names sharing fewer letters are often two places ("Niger", "Nigeria").
_LAND_ENDINGS = ("ia", "a", "y")
_LAND_STEM = 6
# How many words before a value the word naming its slot may stand ("la capital oficial es Sucre").
_NAMED_REACH = 3
# Words beside a slot's word that make it another slot ("sa capitale économique, est Casablanca" is no
# capital's "Casablanca"; "the former capital", "la antigua capital").
_ANOTHER_SLOT = frozenset("""economic financial commercial cultural industrial religious spiritual historic
historical former old ancient summer winter economique financiere commerciale culturelle industrielle
religieuse spirituelle historique ancienne vieille economica financiera comercial cultural industrial
religiosa espiritual historica antigua""".split())  # noqa: SIM905
# How far apart (in characters) two values of one list may stand in a sentence.
_LIST_REACH = 120
# How a place is written beside the place holding it: "Barcelona, Catalonia", "Ajaccio in Corsica", or
# after a few lower-case words saying what it is ("Cusco, ciudad del Perú", "Lyon, a city in France").
_WITHIN = (r"(?:\s*,\s*(?-i:[a-z][\w'’-]*\s+){1,3}(?:in|of|en|de|del|du|dans)\s+(?:(?:the|la|l['’])\s*)?"
           r"|\s*,\s*(?:(?:in|en|dans)\s+)?|\s+(?:in|en|dans|a)\s+|\s*\(\s*)")
# A place between the two, itself inside the outer one: "Dartmouth, Devon, Inglaterra" (capitalised
# words, whatever the pattern's case: a common word between them ends the chain).
_BETWEEN = r"(?:(?-i:[A-ZÀ-Ý])[\w'’-]*(?:\s+(?-i:[A-ZÀ-Ý])[\w'’-]*){0,3}" + _WITHIN + r"){0,2}"
# A place written where something is ("à Lichtental", "in Mainz"), the place marked by a NUL character.
_AT_PLACE = re.compile(r"(?:\bà|\b(?:in|en|at|au|dans|near))\s+\0")
# A place's country written after it, in brackets or after a comma ("La Higuera (Bolivie)").
_COUNTRY_AFTER = r"\s*(?:\(\s*|,\s*)((?-i:[A-Z])[\w'’-]*(?:\s+(?:de |del |du |of )?(?-i:[A-Z])[\w'’-]*){0,3})"
# The first letters a longer word of a place is known by in another language ("Corse", "Corsica").
_LOOSE = 4
# Kinds of value that date an event.
DATES = frozenset({"date", "year", "century", "decade"})
# Kinds of value that are names: a name may be read in another language than the passage writes it.
NAMED = frozenset({"name", "place", "person", "title"})
# Words saying what an item dates are compared by their first letters ("discovered", "discovery").
EVENT_STEM = 6
# A birth or a death in en/es/fr, read without accents ("né" is "ne", told from the negation by what
# follows it), and how far before a date such a word still dates it ("né vers 1400", "born on 27 January").
_BIRTH = r"born|birth|nee?s?\s+(?:le|en|a|vers|au|dans)|naissance|nacio|nacid[oa]|nacimiento"
# A death dealt by others is a death too ("She was executed in Rouen", "Fue fusilado en 1850", "assassiné à
# Paris"); "executed" only after a word that makes it done to someone: a painting is "executed in the 1480s".
_DEATH = (r"died|death|mort|morte|meurt|mourut|decedee?|deces|murio|muere|muert[ea]|fallecio|fallecid[oa]|"
          r"fallecimiento|(?:was|were|been|be)\s+executed|execution|assassinated|assassination|murdered|"
          r"guillotined|(?:was|were) killed|(?:fue|fueron|ser|siendo)\s+ejecutad[oa]|fusilad[oa]|"
          r"asesinad[oa]|guillotinad[oa]|(?:a\s+ete|fut|etre|est)\s+executee?|assassinee?|guillotinee?")
_LIFE = re.compile(rf"\b(?:(?P<birth>{_BIRTH})|{_DEATH})\b", re.IGNORECASE)
# A clause saying where a person lived, worked, studied or explored, or what a river or a road passes through
# (en/es/fr, read without accents): there are many such places, and a lead that names another does not say
# the stated one is none of them. Verbs
# only ("ses habitants", "los estudiantes" say no such place); a journey's ends are read as before ("He
# travelled to China", ``_levels``).
_MANY_PLACES = re.compile(r"\b(?:lived|lives|resided|worked|studied|taught|explored|traverses|crosses|"
                          r"(?:flows|passes|runs)\s+through|traverse|passe\s+par|atraviesa|recorre|"
                          r"pasa\s+por|cruza|vecu|vivait|"
                          r"habit(?:e|ait|a)|resid(?:e|ait|a|io|ia)|(?:travaill|etudi|enseign|explor)(?:e|ait|a)|vivio|vivia|"
                          r"(?:trabaj|estudi|ensen|explor)(?:o|aba))\b", re.IGNORECASE)
# The first letters a region's name and the word for its people share ("Cataluña", "Catalan").
_REGION_STEM = 5
# A body of water's word (en/es/fr): a sea or a river is where no country lies.
_WATER = re.compile(r"\b(?:mer|océan|golfe|lac|fleuve|rivière|baie|détroit|mar|océano|golfo|lago|río|bahía|"
                    r"estrecho|sea|ocean|gulf|lake|river|bay|strait|canal)\b", re.IGNORECASE)
# Where a subject came from, said as its birthplace often is ("He was from Lyon", "originaire de Lyon").
_ORIGIN = re.compile(r"\b(?:from|native|hails|originaire|natif|originari[oa]|oriund[oa]|natural de|"
                     r"procedente)\b", re.IGNORECASE)
_LIFE_REACH = 25
# Words that say a subject began or ended (en/es/fr): a span of years dates both ("(1939–1945)").
BEGAN = re.compile(r"\b(?:beg[au]n|start\w*|found\w*|establish\w*|buil[td]|construct\w*|open\w*|creat\w*|"
                   r"comenz\w*|empez\w*|inici\w*|fund\w*|constru\w*|inaugur\w*|commen[cç]\w*|début\w*|"
                   r"fond\w*|cré\w*)\b", re.IGNORECASE)
ENDED = re.compile(r"\b(?:fell|fall|end(?:ed|s)?|collaps\w*|dissol\w*|abolish\w*|demolish\w*|clos(?:ed|ure)|"
                   r"cay[óo]|ca[íi]da|termin\w*|finaliz\w*|acab\w*|disol\w*|tomb[ée]e?|chute|fin|achev\w*|"
                   r"dissou\w*)\b", re.IGNORECASE)
# A clause saying where a thing is (en/es/fr): "is located in", "se trouve en", "se encuentra en", "se exhibe
# en".
LOCATED = re.compile(r"\b(?:located|lies|situated|stands|held|housed|kept|displayed|exhibited|hangs|is in|"
                     r"se trouve|se situe|situ[ée]e?s?|expos[ée]e?s?|conserv[ée]e?s?|abrit[ée]e?s?|"
                     r"se encuentra|est[aá] situad[oa]|est[aá] ubicad[oa]|ubicad[oa]|localizad[oa]|"
                     r"est[aá] en|se exhibe|exhibid[oa]|expuest[oa]|conservad[oa]|albergad[oa])\b",
                     re.IGNORECASE)
# A making, read without accents: a place read just after it ("pintado en París") is where the thing was made,
# not where it is now.
_DONE_AT = re.compile(r"\b(?:painted|written|wrote|built|made|created|signed|composed|recorded|"
                      r"pintad[oa]|pinto|escrit[oa]|escribio|construid[oa]|cread[oa]|firmad[oa]|compuest[oa]|"
                      r"peinte?|ecrite?|construite?|creee?|signee?|composee?)\b", re.IGNORECASE)
_DONE_REACH = 30
# A lifespan's brackets ("(c. 1400 – 1468)"), and the kinds of value a birth or a death gives.
_LIFESPAN = re.compile(r"\([^()]*\d\s*[–-]\s*(?:c\.\s*)?\d[^()]*\)")
_LIFE_KINDS = DATES | {"place"}
# Until Britain took the Gregorian calendar (1752) a year began on 25 March there, and a date is written in
# either reckoning: Newton was born on 25 December 1642 (Old Style), 4 January 1643 (New Style).
_OLD_STYLE_UNTIL = 1752


def not_a_contradiction(stated: str, read: str, kind: str, sentence: str | None,
                        passages: Sequence[str], subject: str | None,
                        named: Sequence[str] = (), about: Collection[str] = (),
                        event: Collection[str] = (), clause: str = "",
                        translated: bool = False, aligned: bool = False) -> Excuse | None:
    """Why reading ``read`` where the item states ``stated`` contradicts nothing, or None when it does.

    ``sentence`` is the passage sentence ``read`` came from; ``subject`` the name the item's sentence
    opens with (what it is about); ``named`` the item's other names (what it says the value is of);
    ``about`` the names (folded) of what the article ``sentence`` is from is about, which each of its
    sentences speaks of, named or not ("His discovery in 1928" in *Alexander Fleming*); ``event`` the
    stems (``EVENT_STEM`` letters) of the item's words besides its values and the articles' names (what
    it says of them: "invented"), given where the sentence is from another article than the item's
    subject's; ``clause`` the item's clause that states the value (a date of a birth or a death is
    another event's unless it speaks of one); ``translated``: ``sentence`` is in another language than
    the item; ``aligned``: ``read`` stands in it between the item's own words around the stated value.
    """
    # Whether the item's clause tells of a birth, a death, both or neither; and the sentence without accents.
    told = life_told(clause) if clause else None
    plain = _plain(sentence) if sentence else ""
    if subject and _same_words(read, subject) and not place_named_after(read, subject):
        return "own_subject"
    # The stated value is what the sentence is about, read in its own article ("The Danube flows through it"
    # in *Danube*): no slot of that article is the sentence's subject.
    if subject and _same_words(stated, subject) and _is_about(subject, about):
        return "own_subject"
    # A word the passage writes only in lower case, read where the item states a name ("un fleuve de la plaine
    # indo-gangétique" for "un fleuve d'Asie"): a modifier of another slot, no name.
    if kind in ("place", "name") and stated[:1].isupper() and sentence and _only_lower_case(read, plain):
        return "no_name"
    if kind == "person" and not _names_a_person(read):
        return "no_person"
    # A nationality stated, and a word read that is none, nor a place: another slot's ("an Austrian
    # composer" read as "a Classical composer").
    if kind == "name" and _a_nationality(stated, clause) and not nation_word(read) and not is_place(read):
        return "no_nation"
    # The sentence names the stated value so too ("La capital oficial es Sucre, … la sede de Gobierno es la
    # ciudad de La Paz, que ejerce como capital de facto"): both hold the slot.
    names = kind in NAMED
    if names and sentence and _named_so(stated, read, sentence, clause, _NAMED_REACH):
        return "named_too"
    # A word of another thing's name read where the sentence writes the stated value too ("créée … au Theater
    # an der Wien de Vienne", read "Wien" for "Vienne").
    if names and sentence and _inside_a_name(read, stated, plain):
        return "inside_a_name"
    # The head of a longer name the sentence goes on with, as the stated one does ("the Nobel Prize in
    # Physiology or Medicine", read "Nobel Prize" for "Premio Nobel de Medicina").
    if names and sentence and _cut_short(read, stated, plain):
        return "longer_form"
    named_so = names and bool(sentence) and _named_so(read, stated, sentence or "", clause)
    if sentence and not named_so and _listed_together(stated, read, sentence):
        return "listed_together"
    if kind in ("place", "name") and _a_longer_form(stated, read):
        return "longer_form"
    levels = _levels(stated, read, kind, clause, passages, translated, aligned) \
        if kind in ("place", "name") else None
    if levels is not None:
        return levels
    if kind in ("place", "name") and (one_nation_within(stated, read) or (not named_so and any(
            _within(stated, read, p) or _within(read, stated, p) for p in passages))):
        return "place_within"
    if kind in DATES and sentence and _dates_another(sentence, named, subject, about):
        return "other_event"
    if kind in DATES and sentence and clause and told is None and _dates_a_life(read, plain):
        return "other_event"
    # A birth asked about and the death's date read, or the other way round ("né le 21 novembre 1694 à
    # Paris où il meurt le 30 mai 1778" for "Il est né à Paris en 1694").
    if kind in DATES and sentence and told in ("birth", "death") \
            and _life_dated(read, plain) not in (None, told):
        return "other_event"
    if kind == "year" and sentence and _a_year_apart_old_style(stated, read) and _dates_a_life(read, plain):
        return "old_style"
    # The other way round: a birth or a death asked about ("Nació en Caracas en 1783"), read in a sentence
    # that tells of neither ("… líder de la independencia de lo que son hoy Venezuela").
    if kind in _LIFE_KINDS and sentence and told is not None and not _LIFE.search(plain) \
            and not _LIFESPAN.search(sentence):
        return "other_event" if kind in DATES else "other_subject"
    plain_clause = _plain(clause)
    # A place the sentence gives a birth or a death ("né … à Paris"), read for an item that tells of neither
    # nor of where the subject came from ("Il a vécu à Tahiti"): where he was born or died, not where he
    # lived, worked or went.
    if kind in ("place", "name") and sentence and clause and told is None \
            and not _ORIGIN.search(plain_clause) and _life_dated(read, plain) is not None:
        return "other_event"
    if kind in ("place", "name") and clause and _MANY_PLACES.search(plain_clause):
        return "many_places"
    if kind in ("place", "name") and sentence and clause and LOCATED.search(clause) \
            and not _DONE_AT.search(plain_clause) and not LOCATED.search(sentence) \
            and _done_at(read, plain):
        return "other_event"
    if event and sentence and not set(event) & stems(sentence, EVENT_STEM):
        return "other_event" if kind in DATES else "other_subject"
    if kind == "place" and not aligned and _a_region_holding(stated, read, passages):
        return "region"
    return None


def _a_region_holding(stated: str, read: str, passages: Sequence[str]) -> bool:
    """Whether ``stated`` is a region GeoNames knows as no place ("la péninsule Ibérique", "Cataluña") that
    may hold the place ``read``: a country, which may lie in it or hold it; or a town, where a passage names
    the region or its people in words of the same stem besides the town ("a Catalan cellist" for "Nació en
    Cataluña", read "El Vendrell"). A sea is no region."""
    if is_place(stated) or is_continent(stated) or _WATER.search(stated) or not is_place(read) \
            or is_continent(read):
        return False
    if is_country(read):
        return True
    stem = next((w[:_REGION_STEM] for w in reversed(_words(stated)) if len(w) >= _REGION_STEM), None)
    said = " ".join(w for p in passages for w in _words(p.replace(read, " ")))
    return stem is not None and re.search(rf"\b{re.escape(stem)}", said) is not None


def _only_lower_case(read: str, text: str) -> bool:
    """Whether ``text`` writes ``read`` and only in lower case (no word of it capitalised), as a word, not a
    name ("mer Méditerranée" is one)."""
    found = _find(read, text)
    return bool(found) and not any(re.search(r"(?<![\w'’])[A-Z]", text[start:end]) for start, end in found)


def _a_nationality(stated: str, clause: str) -> bool:
    """Whether ``clause`` states ``stated`` as a nationality ("an Austrian composer"), which no country or
    town is ("south of the Kigali in", "l'empire du Pakistan")."""
    at = clause.find(stated)
    return at >= 0 and is_nationality(clause, at, at + len(stated)) and not is_place(stated)


def _names_a_person(value: str) -> bool:
    """Whether ``value`` is written as a person's name: no word of it in lower case but the particles
    names hold ("Leonardo da Vinci", "Charles de Gaulle"); "Peripatetic school" is no one's."""
    return all(w[:1].isupper() or w.lower() in _PARTICLES for w in re.findall(r"[^\W\d_]+", value))


def _a_year_apart_old_style(stated: str, read: str) -> bool:
    """Whether ``stated`` and ``read`` are years one apart, both before the Gregorian calendar reached
    Britain: a birth or a death written Old Style or New Style."""
    if not (stated.strip().isdigit() and read.strip().isdigit()):
        return False
    a, b = int(stated), int(read)
    return abs(a - b) == 1 and max(a, b) <= _OLD_STYLE_UNTIL


def tells_of_a_start_or_end(text: str) -> bool:
    """Whether ``text`` says its subject began or ended (began, founded, fell, ended …), in en/es/fr."""
    return BEGAN.search(text) is not None or ENDED.search(text) is not None


def tells_of_a_life(text: str) -> bool:
    """Whether ``text`` speaks of a birth or a death (born, né, nació, died, mort, murió …), in en/es/fr."""
    return _LIFE.search(_plain(text)) is not None


def life_told(text: str) -> str | None:
    """Whether ``text`` tells of a birth, a death, both or neither (None)."""
    told = {"birth" if m.group("birth") else "death" for m in _LIFE.finditer(_plain(text))}
    return None if not told else "both" if len(told) == 2 else told.pop()


def dates_the_life(clause: str, read: str, sentence: str) -> bool:
    """Whether ``sentence`` gives ``read`` to the birth or the death ``clause`` tells of, in any of en/es/fr:
    just after a word for it ("née le 7 mai 1919 à Junín" for "Nació en Chile"), or as the year a lifespan's
    brackets open with, for a birth, or close with, for a death ("Galileo Galilei (1564–1642)" dates "He was
    born in …")."""
    told = life_told(clause)
    if told not in ("birth", "death"):
        return False
    if _life_dated(read, _plain(sentence)) == told:
        return True
    for bracket in _LIFESPAN.finditer(sentence):
        years = re.findall(r"\d{3,4}", bracket.group())
        if len(years) >= 2 and read == (years[0] if told == "birth" else years[-1]):
            return True
    return False


def in_the_other_life_event(clause: str, stated: str, read: str, sentence: str) -> bool:
    """Whether ``sentence`` gives ``read`` to the birth or the death ``clause`` tells of, and ``stated`` to
    the other one ("né à Leyde … et mort à Amsterdam" for "He was born in Amsterdam"): the stated value is
    written there, but not for what the item says."""
    told, plain = life_told(clause), _plain(sentence)
    return told in ("birth", "death") and _life_dated(read, plain) == told \
        and _life_dated(stated, plain) not in (None, told)


def _life_dated(read: str, text: str) -> str | None:
    """Whether ``text`` gives ``read`` as a birth's date or a death's (the nearest such word before it, a few
    words between, no bracket closing between: "atraviesa Perú (nacimiento), Colombia" gives Colombia no
    birth), or None."""
    for start, _ in _find(read, text):
        before = text[max(0, start - _LIFE_REACH):start]
        near = list(_LIFE.finditer(before))
        if near and ")" not in before[near[-1].end():]:
            return "birth" if near[-1].group("birth") else "death"
    return None


def _done_at(read: str, text: str) -> bool:
    """Whether ``text`` gives the place ``read`` just after a word for a making ("pintado en París",
    "written in Paris"): where the thing was made, not where it is."""
    return any(_DONE_AT.search(text[max(0, start - _DONE_REACH):start]) for start, _ in _find(read, text))


def _dates_a_life(read: str, text: str) -> bool:
    """Whether ``text`` gives ``read`` as a birth's or a death's date: just after "born", "né", "nació",
    "died", "mort", "murió" (a few words between), or inside a lifespan's brackets ("(c. 1400 – 1468)")."""
    spans = list(_LIFESPAN.finditer(text))
    return _life_dated(read, text) is not None or any(
        m.start() < start and end < m.end() for start, end in _find(read, text) for m in spans)


def _dates_another(sentence: str, named: Sequence[str], subject: str | None, about: Collection[str]) -> bool:
    """Whether ``sentence`` leaves out a name the item dates something of (its work, prize, place),
    besides its subject and its article's: a date read there is another event's."""
    own = set(_words(subject or ""))
    text = _plain(sentence)
    return any(_words(name) and not set(_words(name)) <= own and not _find(name, text)
               and not _is_about(name, about) for name in named)


def _is_about(name: str, about: Collection[str]) -> bool:
    """Whether ``name`` is one of ``about``'s names or a part of one ("Fleming" of "alexander fleming")."""
    words = set(_words(name))
    return bool(words) and any(words <= set(other.split()) for other in about)


def _a_longer_form(stated: str, read: str) -> bool:
    """Whether the two names differ in one word only, which is the other's with a land's ending added
    ("king of Macedonia", "Macedon")."""
    said, got = set(_words(stated)), set(_words(read))
    (a, b) = (said - got, got - said)
    if len(a) != 1 or len(b) != 1:
        return False
    short, long = sorted((a.pop(), b.pop()), key=len)
    return len(short) >= _LAND_STEM and long.startswith(short) and long[len(short):] in _LAND_ENDINGS


def _placed(stated: str, kind: str, clause: str) -> bool:
    """Whether the item says ``stated`` as a place: asked as one, or written after "in", "en", "à"…"""
    return kind == "place" or re.search(
        r"\b(?:in|en|a|au|aux|dans|at)\s+(?:(?:the|la|le|les|el|los|las)\s+|l['’])?" + _name_pattern(stated),
        _plain(clause), re.IGNORECASE) is not None


def _levels(stated: str, read: str, kind: str, clause: str, passages: Sequence[str], translated: bool,
            aligned: bool) -> Excuse | None:
    """How the stated and the read place may be one inside the other: the stated one holding the read one
    (``place_within``: "Il est mort en France", "mort … à Mougins") or lying inside it (``narrower``: "He
    travelled to China", "through Asia", which does not say it; nor does "in Oceania" say "Fiji is located
    in Suva"): a continent and a place that is none, or a country and a place said as where a thing is that
    is none. Only where the value was read in another language's passage, or a passage names the stated
    place too ("l'essentiel de sa vie en France") and the value read does not stand between the item's own
    words; and no passage writes the town read in another country than the one stated. A place put in
    another's slot of the passage's own words ("la iglesia más visitada de Barcelona" for "de Europa",
    "mort le 9 septembre 1976 à Afrique du Sud" for "à Pékin") is a swap: None. Where GeoNames knows both
    places (``places.lies_in``: countries in a continent named whole, a town of 15,000 people or more in a
    country), it decides alone, in any passage ("born in Spain" on "born in Málaga"); a town it knows, read
    where the item states a place it knows as neither, may lie in that place."""
    # A sea and a land, where a passage names the sea stated too: an island lies in both ("pays insulaire de
    # l'Atlantique Nord" read "Europe" in "… d'Europe du Nord situé dans l'océan Atlantique"; "del mar Caribe"
    # read "Antillas" in "las Antillas o islas del mar Caribe").
    if is_sea(stated) and not is_sea(read) and not is_place(stated) \
            and any(is_sea(stated, p) for p in passages):
        return "sea_and_land"
    within, narrower = lies_in(read, stated), lies_in(stated, read)
    if within or narrower:
        return "place_within" if within else "narrower"
    if within is False or narrower is False:
        return None
    # A place no record knows, read in a passage that names the stated town too, perhaps in its own language
    # ("né … à Lichtental et mort … à Vienne" for "born in Vienna"): a quarter or a village of it, maybe.
    unknown = not is_place(read) and not is_continent(read)
    if unknown and is_place(stated) and not is_country(stated) and any(
            _AT_PLACE.search(p.replace(read, "\0")) and place_names(stated, [p])
            for p in passages if read in p):
        return "place_within"
    # A town GeoNames knows, read where the item states a place it knows as neither a town nor a country (a
    # region, an island), which a passage writes it in, perhaps in its own language ("born in Corsica", "né …
    # à Ajaccio en Corse").
    if not is_place(stated) and is_place(read) and not is_country(read) and any(
            _within(read, stated, p, loose=True) for p in passages):
        return "place_within"
    if not (translated or (not aligned and any(_find(stated, p) for p in passages))):
        return None
    placed = _placed(stated, kind, clause)
    for outer, inner, excuse in ((stated, read, "place_within"), (read, stated, "narrower")):
        if is_continent(outer) and not is_continent(inner):
            return cast(Excuse, excuse)
        if placed and is_country(outer) and not is_country(inner) and not is_continent(inner) \
                and not (outer == stated and _in_another_country(read, stated, passages)):
            return cast(Excuse, excuse)
    return None


def _in_another_country(town: str, stated: str, passages: Sequence[str]) -> bool:
    """Whether a passage writes ``town`` in another country than the one ``stated`` ("à La Higuera
    (Bolivie)" for "Murió en Cuba"), which it then names as no place inside the stated one."""
    after, own = _name_pattern(town) + _COUNTRY_AFTER, country(stated)
    written = (country(m.group(1)) for p in passages for m in re.finditer(after, _plain(p), re.IGNORECASE))
    return any(code is not None and code != own for code in written)


def _same_words(a: str, b: str) -> bool:
    wa, wb = set(_words(a)), set(_words(b))
    return bool(wa) and bool(wb) and (wa <= wb or wb <= wa)


def _words(text: str) -> list[str]:
    return re.findall(r"[^\W_]+", fold(text))


def _plain(text: str) -> str:
    """``text`` without accents, its case kept (a name's capitals tell it from a word)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _name_pattern(value: str) -> str:
    return r"\b" + r"\W+".join(map(re.escape, _words(value))) + r"\b"


def _loose_pattern(value: str) -> str:
    """``value``'s words as another language may write them: a longer word by its first letters."""
    return r"\b" + r"\W+".join(re.escape(w[:_LOOSE]) + r"\w*" if len(w) > _LOOSE else re.escape(w)
                               for w in _words(value)) + r"\b"


def _find(value: str, text: str) -> list[tuple[int, int]]:
    """Where ``value``'s words stand together in ``text`` (case and accents aside)."""
    if not _words(value):
        return []
    return [m.span() for m in re.finditer(_name_pattern(value), text, re.IGNORECASE)]


def _named_so(value: str, other: str, sentence: str, clause: str, reach: int = 1) -> bool:
    """Whether ``sentence`` writes ``value`` at most ``reach`` words after a word the item's ``clause`` says
    its value with, neither a stop word nor a word of the two values, with no name between ("la capitale
    Berlin, Hambourg, Munich et Cologne" for "La capitale de l'Allemagne est Munich"): so written, it is
    that value, whatever list or chain of places it heads. A preposition between ("born at Auxerre")
    leaves a place a town of the region stated."""
    # Compared by their stems: "connecting the Mediterranean Sea" for "connects the Mediterranean Sea".
    said = {w[:EVENT_STEM] for w in set(_words(clause)) - set(_words(value)) - set(_words(other))
            - stopwords_for(None)}
    text = _plain(sentence)
    qualified = set(_words(clause)) & _ANOTHER_SLOT
    for start, _ in _find(value, text):
        before = re.findall(r"[^\W_]+", text[:start])
        for at in range(len(before) - 1, max(len(before) - reach, 0) - 1, -1):
            word = before[at]
            if fold(word)[:EVENT_STEM] in said:
                beside = {fold(w) for w in before[max(at - 1, 0):at + 2]} & _ANOTHER_SLOT
                if beside <= qualified:
                    return True
                break
            if word[:1].isupper():
                break
    return False


def _inside_a_name(value: str, other: str, text: str) -> bool:
    """Whether ``text`` writes ``value`` only as the end of a longer name, ``other`` just after it: a
    capitalised word, not the sentence's first, then name particles before it ("Theater an der Wien"), and
    only a preposition between it and ``other`` ("… an der Wien de Vienne")."""
    found = _find(value, text)
    for start, end in found:
        before = re.findall(r"[^\W_]+", text[:start])
        glue = 0
        while before and before[-1].lower() in _NAME_GLUE:
            before.pop()
            glue += 1
        if not glue or len(before) < 2 or not before[-1][:1].isupper():
            return False
        if not any(re.fullmatch(r"[\s,]*(?:(?:de|of|in|en|a|à|d['’]|du|del)\s*)?", text[end:o_start],
                                re.IGNORECASE) for o_start, _ in _find(other, text)):
            return False
    return bool(found)


def _cut_short(read: str, stated: str, text: str) -> bool:
    """Whether ``text`` goes on after ``read`` with "in", "of" or "de" and, a few words on, a word of the
    stated name that ``read`` lacks, perhaps in another language (its first letters: "Medicine",
    "Medicina"): the name read is the head of the longer one stated."""
    own = set(_words(read))
    wanted = [w for w in _words(stated) if w not in own and len(w) > _LOOSE]
    if not wanted or not own:
        return False
    for _, end in _find(read, text):
        after = re.match(r"\s+(?:in|of|de|del|du|des|for|pour|para)\s+((?:[\w'’-]+\s*){1,4})", text[end:],
                         re.IGNORECASE)
        if after and any(w[:_LOOSE] == got[:_LOOSE] for w in wanted for got in _words(after.group(1))):
            return True
    return False


def _listed_together(stated: str, read: str, sentence: str) -> bool:
    """Whether ``sentence`` lists ``stated`` and ``read`` as items of one list: between them only
    names, figures, commas and list words ("Sporting CP, Manchester United and Real Madrid")."""
    text = _plain(sentence)
    for s_start, s_end in _find(stated, text):
        for r_start, r_end in _find(read, text):
            between = text[s_end:r_start] if s_end <= r_start else text[r_end:s_start]
            if not between.strip() or len(between) > _LIST_REACH \
                    or not re.search(r"[,;/]|\b(?:and|or|y|o|e|et|ou)\b", between):
                continue
            if all(_glue(w) for w in re.findall(r"[^\W_]+", between)):
                return True
    return False


def _glue(word: str) -> bool:
    """A word that may stand inside a list of values: a list word, a name's word, a figure."""
    return word.lower() in _LIST_GLUE or word[:1].isupper() or word[:1].isdigit()


def _within(inner: str, outer: str, passage: str, loose: bool = False) -> bool:
    """Whether ``passage`` writes ``inner`` as a place inside ``outer`` ("Barcelona, Catalonia"); ``loose``:
    ``outer`` perhaps in another language, each of its longer words by its first letters ("Corse" for
    "Corsica")."""
    if not _words(inner) or not _words(outer):
        return False
    outer_pattern = _loose_pattern(outer) if loose else _name_pattern(outer)
    joined = _name_pattern(inner) + _WITHIN + _BETWEEN + outer_pattern
    return re.search(joined, _plain(passage), re.IGNORECASE) is not None
