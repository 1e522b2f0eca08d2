"""Nationalities written as English adjectives: "an American astronaut", "a Soviet pilot".

English capitalises a nationality; Spanish and French write it in lower case ("un poeta chileno"), so
there it is no value at all. Asked as "a name", a small model fills "He was an ___ astronaut" with the
noun after the blank ("astronaut"); asked as "a nationality", it reads the lead's "Soviet".
"""

from __future__ import annotations

import re

from factjudge.text.fold import fold
from factjudge.text.segmenter import split_sentences

# How English nationality adjectives end ("Mexican", "Japanese", "Polish", "Israeli"), and the ones that
# end otherwise.
_ENDINGS = ("an", "ese", "ish", "i")
_OTHERS = frozenset(
    "French Dutch Swiss Greek Thai Soviet Czech Welsh Basque Kazakh Uzbek Tajik Kyrgyz Turkmen".split())  # noqa: SIM905
# Words ending so that name no nation: a faith, an era, a party, a continent or a sea, a school of thought.
_NO_NATION = frozenset(
    "Christian Anglican Lutheran Presbyterian Episcopalian Jewish Nazi Republican Victorian Elizabethan "  # noqa: SIM905
    "Edwardian Jacobean Georgian Shakespearean Freudian Darwinian Marxian African Asian European Oceanian "
    "Arabian Eurasian Mediterranean Caribbean Scandinavian Olympian Hawaiian Parisian Texan Californian "
    "Italianate Puritan Spartan Trojan Titan Urban Roman".split())
# A nation and the union it was part of: saying either is no swap ("a Russian cosmonaut" of a Soviet one).
_UNIONS = {
    "soviet": frozenset("russian ukrainian belarusian armenian azerbaijani kazakh uzbek tajik kyrgyz turkmen "  # noqa: SIM905
                        "latvian lithuanian estonian moldovan".split()),
    "british": frozenset("english scottish welsh".split()),  # noqa: SIM905
    "yugoslav": frozenset("serbian croatian slovenian bosnian macedonian montenegrin".split()),  # noqa: SIM905
    "czechoslovak": frozenset("czech slovak".split()),  # noqa: SIM905
    "german": frozenset("prussian bavarian saxon".split()),  # noqa: SIM905
}
_NOUN_AFTER = re.compile(r"\s+[a-z][a-z-]+\b")


def is_nationality(item: str, start: int, end: int) -> bool:
    """Whether ``item[start:end]`` is one English nationality adjective before a lower-case noun ("an
    American astronaut"), not a faith, an era or a continent ("a Christian church", "an African country")."""
    return nation_word(item[start:end]) and _NOUN_AFTER.match(item, end) is not None


def nation_word(word: str) -> bool:
    """Whether ``word`` is written as an English nationality adjective ("Austrian", "Dutch"), not as a faith,
    an era or a school ("Christian", "Victorian", "Classical")."""
    if not re.fullmatch(r"[A-Z][a-z]+", word) or word in _NO_NATION:
        return False
    return word in _OTHERS or word.endswith(_ENDINGS)


def one_nation_within(stated: str, read: str) -> bool:
    """Whether one of two nationalities is a nation of the union the other names ("Russian", "Soviet")."""
    a, b = fold(stated).strip(), fold(read).strip()
    return b in _UNIONS.get(a, ()) or a in _UNIONS.get(b, ())


def written_nationality(country: str, text: str) -> str | None:
    """The sentence of ``text`` that describes its subject by the English nationality of ``country`` (an
    English country name) before a noun ("was a German inventor" for "Germany": the first letters alike),
    where a model read the country for it; None where none does."""
    stem = _IRREGULAR.get(fold(country), fold(country))[:_NATION_STEM]
    for sentence in split_sentences(text):
        for found in _DESCRIBED.finditer(sentence):
            nation = found.group("nation")
            if fold(nation)[:_NATION_STEM] == stem and is_nationality(sentence, *found.span("nation")):
                return sentence
    return None


# A subject described by a nationality: "was a German inventor", "is an Italian poet".
_DESCRIBED = re.compile(r"\b(?:was|is|were|are)\s+(?:an?|the)\s+(?:[a-z]+\s+){0,2}(?P<nation>[A-Z][a-z]+)\b")


# The first letters a country's English name and its nationality share ("Germ", "Ital", "Pola"), and the
# nationalities that share fewer.
_NATION_STEM = 4
_IRREGULAR = {"spain": "spanish", "france": "french", "netherlands": "dutch", "united kingdom": "british",
              "switzerland": "swiss", "denmark": "danish", "finland": "finnish", "ireland": "irish",
              "philippines": "filipino"}
