"""A superlative the passage ranks lower: "El océano más grande es el Atlántico" against the Atlantic's own
lead, "El océano Atlántico es la segunda más grande de las cinco divisiones oceánicas"; or the same
superlative the thing's own lead gives it ("Vänern is the largest lake in Sweden", ``ranked_first``).

An answer that names the wrong thing as the largest, longest or highest most often names the second: a
lead that says so contradicts it in words a reader can check, though it never names the first. Read
from the words alone (en/es/fr), and only where nothing leaves it open: the sentence is about the thing
named (its own article's, or naming it before the rank), gives it no plain superlative of the same sort
as well ("the largest lake in Sweden … and the third largest in Europe"), does not name it after the
rank ("Vättern is the second largest, after Vänern" ranks Vättern), and holds every other name of the
item's clause (the scope: "the highest mountain in Pakistan" is not contradicted by "the second-highest
mountain on Earth").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from factjudge.text.fold import words
from factjudge.text.places import renderings
from factjudge.text.tokenize import stopwords_for
from factjudge.text.values import fold

# The plain superlative of each sort, en/es/fr: what the answer says (the passage may say "largest" where
# the answer says "biggest").
_FIRST = {
    "size": r"largest|biggest|m[aá]s grande|m[aá]s extens[oa]s?|plus grande?s?|plus vastes?|"
            r"plus [ée]tendue?s?",
    "length": r"longest|m[aá]s larg[oa]s?|plus longu?e?s?",
    "height": r"highest|tallest|m[aá]s alt[oa]s?|plus haute?s?|plus [ée]lev[ée]e?s?",
    "people": r"most populous|most populated|m[aá]s poblad[oa]s?|plus peupl[ée]e?s?",
    "depth": r"deepest|m[aá]s profund[oa]s?|plus profonde?s?",
    "smallness": r"smallest|m[aá]s peque[ñn][oa]s?|plus petite?s?",
}
# The adjective alone, as a rank's "más" or "plus" comes before it ("la segunda más grande").
_BARE = {"size": r"gr[ae]nde?s?|extens[oa]s?|vastes?|[ée]tendue?s?",
         "length": r"larg[oa]s?|longu?e?s?", "height": r"alt[oa]s?|haute?s?",
         "people": r"poblad[oa]s?|peupl[ée]e?s?", "depth": r"profund[oa]s?|profonde?s?",
         "smallness": r"peque[ñn][oa]s?|petite?s?"}
# Ordinals in words by number, en/es/fr ("first", "primera", "premier", "tercer", "troisième").
_COUNTED = {
    1: "first|primer[oa]?|premi[eè]re?",
    2: "second|segund[oa]|deuxi[eè]me|seconde?",
    3: "third|tercer[oa]?|troisi[eè]me",
    4: "fourth|cuart[oa]|quatri[eè]me",
    5: "fifth|quint[oa]|cinqui[eè]me",
    6: "sixth|sext[oa]|sixi[eè]me",
    7: "seventh|s[ée]ptim[oa]|septi[eè]me",
    8: "eighth|octav[oa]|huiti[eè]me",
    9: "ninth|noven[oa]|neuvi[eè]me",
    10: "tenth|d[ée]cim[oa]|dixi[eè]me",
}
# A rank below the first: an ordinal from the second on, in words or figures ("2nd", "2.º", "2e").
_ORDINAL = "|".join(_COUNTED[n] for n in range(2, 11)) + r"|\d+\.?(?:nd|rd|th|e|º|ª|°)"
# A rank and a superlative of a sort: "second largest", "second-largest", "la segunda más grande", "le
# deuxième plus grand", "segundo río más largo" (a noun between them).
_RANK = rf"\b(?:{_ORDINAL})(?:[\s-]+[^\W\d_]+)?[\s-]+(?:most\s+|m[aá]s\s+|plus\s+)?"
_RANKED = {sort: re.compile(rf"{_RANK}(?:{_FIRST[sort]}|{_BARE[sort]})\b", re.IGNORECASE) for sort in _FIRST}
# A rank by size said without a superlative: "le deuxième par la taille", "second in size".
_BY_SIZE = re.compile(rf"\b(?:{_ORDINAL})\s+(?:par|en|in|by)\s+(?:la\s+|sa\s+)?"
                      r"(?:taille|superficie|tama[ñn]o|size|area|extensi[óo]n)\b", re.IGNORECASE)
_PLAIN = {sort: re.compile(rf"\b(?:{words})\b", re.IGNORECASE) for sort, words in _FIRST.items()}
# A capitalised name of the item's clause (its scope: "Sweden", "América").
_NAME = re.compile(r"\b[A-ZÁÉÍÓÚÑÀÂÇÈÊÎÔÛ][\w'’-]+(?:\s+(?:de|del|of|du)?\s*[A-ZÁÉÍÓÚÑÀÂÇÈÊÎÔÛ][\w'’-]+)*")


@dataclass(frozen=True)
class Rank:
    """The answer's superlative (``said``, at ``start:end`` of the item) and the passage's rank of the same
    sort for the thing named (``ranked``, in ``sentence``)."""

    said: str
    start: int
    end: int
    ranked: str
    sentence: str


def ranked_lower(clause: str, offset: int, name: str, sentence: str, *, own_article: bool) -> Rank | None:
    """Where ``clause`` (at ``offset`` of its item) calls ``name`` the largest (longest, highest …) and
    ``sentence`` ranks it lower by the same sort, that rank; None when the sentence leaves it open.
    ``own_article``: ``sentence`` is from ``name``'s own article (about it, named or not)."""
    for sort, plain in _PLAIN.items():
        said = plain.search(clause)
        if said is None or _RANKED[sort].search(clause):
            continue
        by_size = _BY_SIZE.finditer(sentence) if sort == "size" else ()
        ranks = sorted([*_RANKED[sort].finditer(sentence), *by_size], key=lambda m: m.start())
        inside = [(m.start(), m.end()) for m in ranks]
        # A plain superlative of the same sort besides the ranks leaves the scope open.
        if not ranks or any(not any(a <= m.start() < b for a, b in inside) for m in plain.finditer(sentence)):
            continue
        scope = _scope(clause, name)
        for i, ranked in enumerate(ranks):
            before = fold(sentence[:ranked.start()])
            if not (own_article or _holds(before, name)) or _holds(fold(sentence[ranked.end():]), name):
                break
            # The scope is said of this rank: between it and the next (or before the first).
            reach = fold(sentence[ranked.start():ranks[i + 1].start() if i + 1 < len(ranks) else None])
            if all(_said(reach, n) or (i == 0 and _said(before, n)) for n in scope):
                at = offset + said.start()
                return Rank(said.group(), at, at + len(said.group()), ranked.group(), sentence)
    return None


# A sentence of a thing's own article that opens with a pronoun for it ("It is the highest mountain in
# Africa"), in en/es/fr.
_IT = re.compile(r"\s*(?:it|its|it['’]s|es|est|il|elle|c['’]est)\b", re.IGNORECASE)


def ranked_first(clause: str, offset: int, name: str, sentence: str, *, own_article: bool) -> Rank | None:
    """Where ``clause`` calls ``name`` the largest (longest, highest …) and ``sentence``, about it, says the
    same plain superlative of it with every other name of the clause in its reach ("Vänern is the largest
    lake in Sweden" for "Sweden's biggest lake is Vänern"), that superlative; None when the sentence
    ranks it lower, speaks of another thing, or gives the superlative another scope ("the most populous
    city of Victoria, and the second-most populous city in Australia")."""
    for sort, plain in _PLAIN.items():
        said = plain.search(clause)
        if said is None or _RANKED[sort].search(clause):
            continue
        ranks = list(_RANKED[sort].finditer(sentence))
        firsts = [m for m in plain.finditer(sentence)
                  if not any(r.start() <= m.start() < r.end() for r in ranks)]
        marks = sorted([*ranks, *firsts], key=lambda m: m.start())
        for first in firsts:
            before = sentence[:first.start()]
            # The pronoun may open the clause after a phrase ("With a summit elevation of 6,967 metres, it is
            # the highest mountain in the Americas").
            if not (_holds(fold(before), name) or (own_article and _IT.match(before.rsplit(",", 1)[-1]))) \
                    or _holds(fold(sentence[first.end():]), name):
                continue
            after = [m.start() for m in marks if m.start() > first.start()]
            reach = fold(sentence[first.start():after[0] if after else None])
            if all(_said(reach, n) for n in _scope(clause, name)):
                at = offset + said.start()
                return Rank(said.group(), at, at + len(said.group()), first.group(), sentence)
    return None


# An ordinal in figures, first included ("1st", "3rd", "16.º", "2e", "1er").
_NUMBERED = re.compile(r"(\d+)(?:st|nd|rd|th|\.?º|\.?ª|e|er|re)$", re.IGNORECASE)
_ANY_COUNT = "|".join(f"(?:{words})" for words in _COUNTED.values()) \
    + r"|\d+(?:st|nd|rd|th|\.?º|\.?ª|e|er|re)"
# An ordinal before the noun it counts: "the first president", "el 16.º presidente", "le troisième président".
_COUNT_NOUN = re.compile(rf"\b({_ANY_COUNT})[\s-]+([^\W\d_]{{3,}})", re.IGNORECASE)


def ordinal(word: str) -> int | None:
    """The number an ordinal says ("third" → 3, "16.º" → 16), or None."""
    numbered = _NUMBERED.fullmatch(word)
    if numbered:
        return int(numbered.group(1))
    return next((n for n, words in _COUNTED.items() if re.fullmatch(words, word, re.IGNORECASE)), None)


def counted_otherwise(clause: str, offset: int, name: str, sentence: str, *,
                      own_article: bool) -> Rank | None:
    """Where ``clause`` counts ``name`` ("The first president of the United States was Thomas Jefferson")
    and ``sentence``, about it, counts it otherwise before the same noun ("the third president of the
    United States"), that count; None where the sentence also gives the stated count ("the 22nd and 24th
    president"), is not about it, or leaves out a name of the clause (its scope)."""
    said = _COUNT_NOUN.search(clause)
    if said is None or any(p.search(said.group(2)) for p in _PLAIN.values()):
        return None
    stated, noun = ordinal(said.group(1)), fold(said.group(2))
    given = list(_COUNT_NOUN.finditer(sentence))
    counts = [m for m in given if fold(m.group(2)) == noun]
    if stated is None or not counts or any(ordinal(m.group(1)) == stated for m in given):
        return None
    other = counts[0]
    if not (own_article or _holds(fold(sentence[:other.start()]), name)):
        return None
    if not all(_said(fold(sentence), n) for n in _scope(clause, name)):
        return None
    at = offset + said.start()
    return Rank(said.group(), at, at + len(said.group()), other.group(), sentence)


def other_rank(clause: str, offset: int, name: str, sentence: str, *, own_article: bool) -> Rank | None:
    """A superlative ``sentence`` ranks lower (``ranked_lower``) or a count it gives otherwise
    (``counted_otherwise``) for ``name``, as ``clause`` states it."""
    return ranked_lower(clause, offset, name, sentence, own_article=own_article) \
        or counted_otherwise(clause, offset, name, sentence, own_article=own_article)


def _scope(clause: str, name: str) -> list[str]:
    """The other names of ``clause`` than ``name`` (where the rank or count is said: "in Sweden", "of the
    United States"), which a sentence saying otherwise must hold too; not a capitalised word of no name
    opening it ("It", "Es", "C'est")."""
    stop = stopwords_for(None)
    return [n for n in map(_bare, _NAME.findall(clause))
            if n and not _holds(fold(name), n) and not _holds(fold(n), name)
            and not set(words(n)) <= stop]


def _bare(name: str) -> str:
    """``name`` without a possessive ("Sweden's") and an article opening the clause ("The", "El", "La"; an
    article alone is no name)."""
    name = re.sub(r"['’]s$", "", name)
    return re.sub(r"^(?:(?:The|El|La|Los|Las|Le|Les)(?:\s+|$)|L['’])", "", name)


def _said(folded: str, name: str) -> bool:
    """Whether ``folded`` text writes ``name``, or a continent's name in another language ("South America" for
    "Sudamérica")."""
    return any(_holds(folded, n) for n in (name, *renderings(name)))


def _holds(folded: str, name: str) -> bool:
    """Whether ``folded`` text writes each word of ``name``."""
    found = words(name)
    return bool(found) and all(re.search(rf"\b{re.escape(w)}\b", folded) for w in found)
