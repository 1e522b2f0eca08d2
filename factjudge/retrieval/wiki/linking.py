"""Which article a name stands for: entity linking over the names a source gives its articles.

A person names a subject the way they speak ("the Great Wall", "Cervantes", "le Louvre"), not by
an article's title. So every article is known by several names (its **aliases**): its title, the
title without Wikipedia's disambiguation ("Mercury" of "Mercury (planet)"), the name its lead's
first sentence gives its subject ("Miguel de Cervantes Saavedra", "Kingdom of the Franks") and the
other names that sentence gives ("officially the French Republic", "also known as …"), and short
forms: a person's surname, the first words of a long title ("Great Wall" of "Great Wall of
China", "Arquitectura mudéjar" of "… de Aragón"), the name after "of"/"du" ("Louvre" of "Musée du
Louvre"). A name can stand for several articles (the planet and the element); the item's and the
question's words choose among them, in the answer's language first. Below a confidence (a short
form nothing in the item bears out, two homonyms the words cannot tell apart) the name is not
linked and the item stays unverified. A name typed one letter off ("Laurence Oliver") or with a
bare initial ("Booker T Washington") still finds its article; a common noun of a question ("a
cat", "l'accouchement") finds the article of its language titled by it (``AliasIndex.noun``).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from factjudge.retrieval.wiki.base import Article
from factjudge.retrieval.wiki.names import fold
from factjudge.text.fold import words as folded_words
from factjudge.text.noun_slots import ELIDED, not_nouns
from factjudge.text.rank import ordinal
from factjudge.text.segmenter import split_sentences
from factjudge.text.tokenize import stems, stopwords_for, tokenize
from factjudge.text.values import ERA

# How strongly each kind of alias names its article, before the item's words are weighed.
STRENGTH = {"title": 1.0, "lead": 0.9, "also": 0.85, "base": 0.7, "short": 0.5, "tail": 0.5, "near": 0.5}
# An alias at least this strong names its article alone; a weaker one (a short form) needs a word of the
# item that the article's lead shares, or to name one article only.
CONFIDENT = 0.6
# Each word of the item an article's lead shares multiplies its alias's strength by 1 + WORD_WEIGHT
# (up to MAX_WORDS words): "Washington was the first president" is George Washington, not the city.
WORD_WEIGHT = 0.5
# Kinds of alias that only shorten a title, and the words more one must share to win over the article
# titled by the name itself.
_SHORTENED = frozenset({"short", "tail", "near"})
_OVER_TITLE = 3
MAX_WORDS = 4
# Where the lead's first sentence names its subject: before its first verb "to be".
_COPULA = re.compile(r"\s(?:is|was|are|were|es|fue|son|fueron|era|est|fut|était|sont|furent)\s")
# Other names that sentence gives ("officially the French Republic", "also known as Francia").
_ALSO = re.compile(r"(?:also (?:known|called|spelled|spelt) as|officially|formerly|known as|,\s*(?:or|o|ou)|"
                   r"oficialmente|también (?:conocid[oa]|llamad[oa]) (?:como)?|conocid[oa] como|"
                   r"officiellement|en forme longue|couramment appelée?|surnommée?|dite?|"
                   r"parfois francisée? en|aussi appelée?|également appelée?)\s+([^,;()]+)", re.IGNORECASE)
# Another name the lead gives its subject past its first sentence ("Se la conoce también como Isabel la
# Católica"): kept where it opens with the title's first word, as an epithet does; read so far into the lead.
_KNOWN_AS = re.compile(r"(?i:known as|se l[ae] conoce (?:también )?como|conocid[oa] (?:también )?como|"
                       r"connue? sous le nom d['e]\s*)\s*([A-ZÀ-Ý][^,;.()]+)")
_KNOWN_AS_CHARS = 600
# Where a lead's subject gives a second name: "Antananarivo ou Tananarive", "Bombay or Mumbai".
_OR = re.compile(r"\s+(?:or|o|ou)\s+")
_ARTICLE = re.compile(r"^(?:(?:the|a|an|el|la|los|las|le|les|un|une)\s+|l['’]\s*)", re.IGNORECASE)
_PAREN = re.compile(r"\s*\([^()]*\)")
_JOINERS = frozenset("of de del du des la le the da di von van y".split())  # noqa: SIM905
_SUFFIXES = frozenset({"Jr.", "Sr.", "Jr", "Sr", "II", "III", "Sir"})
# A person known by one name and where from ("Marie-Antoinette d'Autriche", "Joan of Arc", "Leonardo da
# Vinci"), who is called by the name alone; "de" joins a surname too ("Charles de Gaulle"), so it is left out.
_NAME_AND_WHERE_FROM = re.compile(r"([^\W\d_][\w-]+)\s+(?:d['’]|of\s|da\s)[^\W\d_]\w*")
# A title said before a person's name ("Queen Elizabeth II", "el rey Felipe II", "le pape François").
_HONORIFIC = re.compile(r"(?:(?:el|la|le|the)\s+)?(?:queen|king|emperor|empress|pope|saint|st\.|sir|lord|"
                        r"lady|president|prince|princess|tsar|czar|reina|rey|emperador|emperatriz|papa|san|santa|"
                        r"presidente|zar|reine|roi|empereur|impératrice|pape|sainte?|président|tsarine)\s+"
                        r"(?=(?-i:[A-ZÀ-Ý]))", re.IGNORECASE)
# A ruler's ordinal: "Napoléon Ier", "Elizabeth II", "Napoleón I de Francia".
_REGNAL = re.compile(r"[IVX]+|Ier|Ire|1er|1re")
# Only so much of a lead is searched for the verb naming its subject; longer names are shortened no more.
_HEAD_CHARS = 300
_MAX_SHORTENED = 5
_GIST_CHARS = 400
# Categories of people (the packaged summaries' "topic"), and a lifespan in a description: "(1547–1616)".
PEOPLE = frozenset({"people", "personas", "personnalites"})
# Categories that say nothing (a person is then told by the lead), and how a lead goes on about a person.
UNSORTED = frozenset({"", "uncategorized"})
# What a description names that no person is, before its first "of" ("Global conflict (1939–1945)",
# "Imperial dynasty of China (618–907)"): its span of years is no life.
_NO_PERSON = re.compile(r"\b(?:dynasty|band|civili[sz]ation|revolution|depression|empire|conflict|war|period|"
                        r"age|kingdom|continuation|movement|era|republic|union|battle|crisis|pandemic|"
                        r"epidemic|culture|alliance|league|company|party|barrier|wall)\b", re.IGNORECASE)
_GOES_ON_AS_PERSON = re.compile(r"(?:He|She|His|Her)\b")
_PERSON_CHARS = 800
# A year of a life, perhaps about ("c. 1412") or between two ("c. 1393–1406", Gutenberg's birth).
_YEAR_OF_LIFE = rf"(?:c\. ?\d{{1,4}}[–-]\d{{1,4}}|(?:c\. ?)?\d{{1,4}})(?: ?{ERA})?"
LIFESPAN = re.compile(rf"\({_YEAR_OF_LIFE} ?[–-] ?{_YEAR_OF_LIFE}\)|\([Bb]orn:? \d{{4}}\)")
# The first letters of a name word two editions' titles of one person share ("Leonardo", "Léonard").
_NAME_PREFIX = 4
# Words a subject said in lower case is looked for among, in the first characters of a text.
_SPOT_WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*")
_SPOT_CHARS = 600
_SENTENCE_END = re.compile(r"[.!?]\s+[A-Z]")
_WORD = re.compile(r"[^\W\d_]+")
# What a capitalised word follows when it opens a sentence (the text's start: nothing).
_OPENS_SENTENCE = frozenset(("", ".", "!", "?", ":", "\"", "«", "(", "“"))
# A lead name longer than this is a clause, not a name.
_MAX_ALIAS_WORDS = 8
# What joins a work to its maker ("Symphonie no 5 de Beethoven").
_OF = frozenset({"of", "by", "de", "del", "du"})
# A last word counting in words, as a Roman numeral titles it ("World War Two").
_CARDINAL_ROMAN = {"one": "i", "two": "ii", "three": "iii", "uno": "i", "dos": "ii", "un": "i", "deux": "ii"}
# An initial written without its full stop ("Booker T Washington"), as titles never write it.
_BARE_INITIAL = re.compile(r"(?<![\w.])([A-Z])(?=\s)")
# A name misspelt by one letter is read as the name ("Laurence Oliver") when the word is this long.
_NEAR_LETTERS = 5
# What a plural ends with in en/es/fr and what its singular ends with instead: "ants" → "ant",
# "stories" → "story", "animaux" → "animal", "naciones" → "nacion" (names are compared folded).
_PLURALS = (("ies", "y"), ("aux", "al"), ("es", ""), ("s", ""), ("x", ""))
# Words are compared by their first letters when a noun is chosen: "mammals" and "mammal" meet.
_STEM = 5
# Words before a noun that ask for one thing of its kind, which the answer names ("which planet", "the
# fastest animal", "la ciudad más grande", "le plus grand lac"): such a noun is not what is asked about.
_ASKING = frozenset("""which what whose quel quelle quels quelles qué cuál cuáles cuánto cuántos cuántas
""".split())  # noqa: SIM905
_MOST = frozenset("""most least first last más menos primer primera plus moins premier première dernier
dernière""".split())  # noqa: SIM905
_SUPERLATIVE = re.compile(r"\w{3,}est$")
# Words opening a clause that says which one is meant ("a country where …", "un pays où …").
_RELATIVE = frozenset("where that which who whom whose où qui que dont donde quien quienes cuyo".split())  # noqa: SIM905


@dataclass(frozen=True)
class Entry:
    """An article as the linker knows it: title, language, short description, category and lead."""

    title: str
    lang: str
    description: str = ""
    category: str = ""
    lead: str = ""


@dataclass(frozen=True)
class Candidate:
    """An article a name may stand for, and the kind of alias that says so."""

    title: str
    lang: str
    kind: str

    @property
    def strength(self) -> float:
        """How strongly the alias alone names the article."""
        return STRENGTH[self.kind]


@dataclass(frozen=True)
class Link:
    """The article a name was linked to, how sure the link is, and the articles it was chosen over."""

    name: str
    title: str
    lang: str
    kind: str
    confidence: float
    rivals: tuple[str, ...] = ()
    # The article itself, where finding the link already fetched it (a title look-up).
    article: Article | None = field(default=None, compare=False, repr=False)


def gist(title: str, description: str, lead: str) -> str:
    """What an article is about in a few words, which an item's words are compared with."""
    return " ".join([title, description, lead[:_GIST_CHARS]])


def _clean(name: str) -> str:
    name = _ARTICLE.sub("", _PAREN.sub("", name).strip(" ,;:\"'«»“”"))
    return " ".join(name.split())


def _keys(name: str) -> Iterator[str]:
    """The folded forms ``name`` is looked up by, in turn: without its article ("the Eiffel Tower"); as
    written ("La Rochelle"); an initial given its full stop ("Booker T Washington"); a last abbreviation
    given the full stop a question's end took ("Martin Luther King Jr" of "… King Jr.?")."""
    cleaned = fold(_clean(name))
    yield cleaned or fold(name)
    yield fold(_PAREN.sub("", name).strip(" ,;:\"'«»“”"))
    yield fold(_clean(_BARE_INITIAL.sub(r"\1.", name)))
    if cleaned[-1:].isalpha():
        yield f"{cleaned}."
    yield from _numbered(cleaned)


def _numbered(name: str) -> Iterator[str]:
    """The folded titles a thing counted in words is known by: a work by its number, in the three editions'
    styles ("Beethoven's Fifth Symphony", "la Cinquième Symphonie de Beethoven", "la Quinta Sinfonía de
    Beethoven" → "symphony no. 5 (beethoven)", "symphonie no 5 de beethoven", "sinfonia n.o 5 (beethoven)",
    and without the maker); a war or a ruler counted by a last word in its Roman numeral ("World War Two"
    → "world war ii")."""
    words = name.split()
    at = next((i for i, word in enumerate(words) if i < len(words) - 1 and ordinal(word)), None)
    if at is not None:
        number, noun, rest = ordinal(words[at]), words[at + 1], words[at + 2:]
        # The maker: the last word of a possessive before the count, or of the name after "de"/"of".
        before = re.sub(r"['’]s$", "", words[at - 1]) if at else ""
        after = rest[-1] if len(rest) > 1 and rest[0] in _OF else ""
        maker = after or before
        styles = (f"{noun} no. {number}", f"{noun} no {number}", f"{noun} n.o {number}")
        if maker:
            yield from (f"{styled} ({maker})" for styled in styles)
            yield f"{noun} no {number} de {maker}"
        yield from styles
    if len(words) > 1 and words[-1] in _CARDINAL_ROMAN:
        yield " ".join([*words[:-1], _CARDINAL_ROMAN[words[-1]]])


def _capitalised(name: str) -> str:
    """The capitalised words ``name`` opens with, joined as names join them ("Tananarive" of
    "Tananarive dans sa version francisée", "Kingdom of the Franks" whole)."""
    words = name.split()
    end = 0
    for i, word in enumerate(words):
        if word[:1].isupper():
            end = i + 1
        elif word.lower() not in _JOINERS:
            break
    return " ".join(words[:end])


def _head(lead: str) -> str:
    """What the lead's first sentence says before its first verb "to be" (where it names its subject),
    or "" when no such verb comes before the sentence ends."""
    verb = _COPULA.search(lead[:_HEAD_CHARS])
    if verb is None:
        return ""
    head = lead[: verb.start()]
    return "" if _SENTENCE_END.search(_PAREN.sub("", head)) else head


def aliases(entry: Entry, common: frozenset[str] = frozenset()) -> Iterator[tuple[str, str]]:
    """The names ``entry`` is known by, each with its kind (``STRENGTH``'s keys); a short form that is
    a word of ``common`` (written in lower case in the leads: "Tower", "Bridge") is no alias."""
    yield entry.title, "title"
    base = _PAREN.sub("", entry.title).strip()
    if base != entry.title:
        yield base, "base"
    if _clean(base) not in ("", base):
        # A title opening with its article ("Le Mont-Saint-Michel") is also said without it, as a name
        # looked up is; a short form, so that a word also naming another article needs the item's support.
        yield _clean(base), "short"
    names = [base]
    head = _head(entry.lead)
    subject = _clean(head.split(",")[0])
    if subject and len(subject.split()) <= _MAX_ALIAS_WORDS and subject[:1].isupper():
        yield subject, "lead"
        names.append(subject)
    # "Antananarivo ou Tananarive dans sa version francisée": the name after "or" is another name of the
    # subject, as far as its capitalised words go (what follows says in which language).
    either = _OR.split(head.split(",")[0], maxsplit=1)
    if len(either) == 2:
        second = _clean(either[1])
        named = _capitalised(second)
        rest = second[len(named):].split()
        # Capitalised words before a common noun are no name ("The common quail or European quail").
        if rest and rest[0].lower() not in stopwords_for(None):
            named = ""
        for name in (_clean(either[0]), named):
            if name[:1].isupper() and len(name.split()) <= _MAX_ALIAS_WORDS:
                yield name, "also"
                names.append(name)
    for other in _ALSO.finditer(head):
        for name in re.split(r"\s+(?:or|o|ou|and|y|et)\s+", other.group(1)):
            name = _clean(name)
            if name and len(name.split()) <= _MAX_ALIAS_WORDS and name[:1].isupper():
                yield name, "also"
                names.append(name)
    # An epithet gives no short form: "Catholic" of "Isabella the Catholic" names no article.
    first = fold(base).split()[:1]
    for known in _KNOWN_AS.finditer(entry.lead[len(head):_KNOWN_AS_CHARS]):
        epithet = _capitalised(known.group(1))
        if fold(epithet).split()[:1] == first and len(epithet.split()) <= _MAX_ALIAS_WORDS:
            yield epithet, "also"
    # A person's surname is a name however common the word ("Swift", "Peel"); another short form is
    # none when the leads write it in lower case ("Tower" of "Eiffel Tower").
    # A thing's last word is a tail: "Jagellonne" of "Université Jagellonne", but also "American" of
    # "Scientific American", so it names the article only where the item shares a word with it.
    person = is_person(entry)
    tails = {name.split()[-1] for name in names
             if not person and " " in name and name.split()[-2].lower() not in _JOINERS}
    shorts = [short for name in dict.fromkeys(names) for short in _short_forms(name)]
    called = _NAME_AND_WHERE_FROM.fullmatch(base) if person else None
    if called is not None:
        shorts.append(called.group(1))
    yield from ((short, "tail" if short in tails else "short") for short in dict.fromkeys(shorts)
                if fold(short) not in common or (person and " " not in short))


def is_person(entry: Entry) -> bool:
    """Whether ``entry`` is about a person: its category says so, or, uncategorised (a thousand English
    articles, George Washington's among them), its description gives a lifespan (not of what it names as
    no person's: "Global conflict (1939–1945)") or its lead goes on about its subject as he or she, or says
    where it was born. Another category's span of years is no life ("Cold War barrier around West Berlin
    (1961–1989)")."""
    if fold(entry.category) in PEOPLE:
        return True
    if fold(entry.category) not in UNSORTED:
        return False
    if LIFESPAN.search(entry.description):
        return not _NO_PERSON.search(re.split(r"\s(?:of|in|from)\s|\(", entry.description)[0])
    sentences = split_sentences(entry.lead[:_PERSON_CHARS])
    return bool(sentences) and (any(_GOES_ON_AS_PERSON.match(s) for s in sentences[1:3])
                                or re.search(r"\bborn\b", sentences[0]) is not None)


def same_life(title: str, lifespan: str, other_title: str, other_lead: str) -> bool:
    """Whether the person ``title`` whose lifespan ``lifespan`` gives ("Leonardo da Vinci (1452–1519)") is
    the one ``other_lead`` is about in another edition ("Léonard de Vinci, né le 14 avril 1452 … et mort le
    2 mai 1519 …"): the first two years its opening sentence gives are those (a relative's come after its
    own subject's: "né le 8 mars 1714 … fils de Jean-Sébastien Bach (1685-1750)"), and the two titles share
    a name word's first letters, as no two people share a name and the years of a life."""
    span = LIFESPAN.search(lifespan)
    years = set(re.findall(r"\d{3,4}", span.group())) if span else set()
    opening = next(iter(split_sentences(other_lead)), "")
    if len(years) != 2 or set(list(dict.fromkeys(re.findall(r"\d{3,4}", opening)))[:2]) != years:
        return False
    names = {w[:_NAME_PREFIX] for w in folded_words(title) if len(w) > 2}
    return bool(names & {w[:_NAME_PREFIX] for w in folded_words(other_title)})


def subject_names(title: str, lead: str) -> frozenset[str]:
    """The names (folded) an article gives its own subject: its title and the names its lead's first
    sentence gives it ("Antananarivo", "Tananarive"), not the short forms, which may name others."""
    return frozenset(fold(name) for name, kind in aliases(Entry(title, "", lead=lead))
                     if kind not in ("short", "tail"))


def _short_forms(name: str) -> Iterator[str]:
    """Shorter ways to say a name of capitalised words: its last word (a surname: "Cervantes"), its
    first two ("Great Wall", "Gran Muralla"), what follows its first "of"/"du" ("Louvre"), what comes
    before a joiner when that is two words or more, however written ("Arquitectura mudéjar" of
    "Arquitectura mudéjar de Aragón", "Crise des missiles" of "… de Cuba"), and a ruler's name before
    the ordinal ("Napoléon" of "Napoléon Ier") and with it before the land ("Pedro II" of "Pedro II de
    Brasil")."""
    ordinal = next((i for i, w in enumerate(name.split()) if i and _REGNAL.fullmatch(w)), None)
    if ordinal is not None:
        yield " ".join(name.split()[:ordinal])
        # The ruler's name with the ordinal, without the land it is "of" ("Pedro II" of "Pedro II de
        # Brasil"): the ordinal is no word of the name below, so no other short form says it.
        if ordinal + 1 < len(name.split()) and name.split()[ordinal + 1].lower() in _JOINERS:
            yield " ".join(name.split()[: ordinal + 1])
    words = [w for w in name.split() if w not in _SUFFIXES]
    if words and words[0][:1].isupper():
        yield from (" ".join(words[:i]) for i in range(2, min(len(words), _MAX_ALIAS_WORDS + 1))
                    if words[i].lower() in _JOINERS and words[i - 1].lower() not in _JOINERS)
    if len(words) < 2 or len(words) > _MAX_SHORTENED:
        return
    if all(w[:1].isupper() or w.lower() in _JOINERS for w in words) and words[-2].lower() not in _JOINERS:
        yield words[-1]
    if len(words) > 2 and words[0][:1].isupper() and words[1][:1].isupper():
        yield " ".join(words[:2])
    cut = next((i for i, w in enumerate(words) if w.lower() in _JOINERS), None)
    if cut is not None:
        # After every joiner: "the World" of "Wonders of the World" is no name, "World" may be.
        while cut < len(words) and words[cut].lower() in _JOINERS:
            cut += 1
        if cut < len(words):
            yield " ".join(words[cut:])


def common_words(leads: Iterable[str]) -> frozenset[str]:
    """The words the leads write in lower case (at least twice, and more often than capitalised inside
    a sentence): a word so written is no short name ("Tower", "Bridge"), one the leads write as a name
    more often is ("Amazonas" of "río Amazonas", beside "las amazonas" of the myth)."""
    lower: dict[str, int] = {}
    named: dict[str, int] = {}
    for lead in leads:
        for match in _WORD.finditer(lead):
            word = match.group()
            if word[0].islower():
                lower[fold(word)] = lower.get(fold(word), 0) + 1
            elif lead[max(0, match.start() - 8):match.start()].rstrip()[-1:] not in _OPENS_SENTENCE:
                named[fold(word)] = named.get(fold(word), 0) + 1
    return frozenset(w for w, n in lower.items() if n >= 2 and n > named.get(w, 0))


def _asks_for_one(before: Sequence[str], after: str, stop: frozenset[str]) -> bool:
    """Whether the words ``before`` a noun (and the word ``after`` it) ask for one thing of its kind:
    "which …", "the fastest …", "the world's oldest living …", "the most common …", "what is the name
    of …", "what's a country where …", "quelle est la capitale de …" (the noun is then what the answer
    names one of)."""
    near = [w.casefold() for w in before[-4:]]
    if (near and near[-1] in _ASKING | _MOST) or (len(near) >= 2 and near[-2] in _MOST):
        return True
    # A superlative after "the" or a possessive: "the largest …", "the world's oldest living …".
    if any(_SUPERLATIVE.match(w) and (near[i - 1] == "the" or near[i - 1].endswith(("'s", "’s")))
           for i, w in enumerate(near) if i):
        return True
    # "What is the name of …", "What's a country where …": an asking word, then function words only,
    # and the noun's "of" or a relative pronoun.
    if after.casefold() not in _JOINERS | _RELATIVE:
        return False
    for word in reversed(before):
        if re.split(r"['’]", word.casefold())[0] in _ASKING:
            return True
        if word.casefold() not in stop:
            return False
    return False
    for word in reversed(before):
        if word.casefold() in _ASKING:
            return True
        if word.casefold() not in stop:
            return False
    return False


def _named_after(name: str, title: str) -> bool:
    """Whether ``title`` says ``name`` after a joiner, as a thing named after it ("Espace de Hilbert",
    "Problems of Hilbert"), not as the name of its subject ("David Hilbert")."""
    words, said = fold(_PAREN.sub("", title)).split(), fold(name).split()
    return any(words[i : i + len(said)] == said and words[i - 1] in _JOINERS for i in range(1, len(words)))


def _one_letter_apart(a: str, b: str) -> bool:
    """Whether ``b`` is ``a`` with one letter changed, added or left out."""
    if len(a) > len(b):
        a, b = b, a
    if len(b) - len(a) > 1:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) == 1
    return any(b[:i] + b[i + 1 :] == a for i in range(len(b)))


class AliasIndex:
    """Every alias of every article, folded, to the articles it may name, and what each article is about.

    Built once from a source's articles (``build``) and kept as JSON beside the source's index
    (``to_json``/``from_json``): a check opens it in a fraction of a second.
    """

    def __init__(self, by_alias: dict[str, dict[str, str]], about: dict[str, str],
                 common: frozenset[str] = frozenset(), lead: Callable[[str, str], str] | None = None,
                 people: frozenset[str] = frozenset()) -> None:
        # alias → {"title\tlang": kind}; "title\tlang" → the article's short description
        self._by_alias = by_alias
        self._about = about
        self.common = common  # words the leads write in lower case: "Violence", not "Canberra"
        self._people = people  # "title\tlang" of the articles about a person
        # An article's lead by title and language: read from the source when a name is linked (the
        # index keeps no text, so it opens fast).
        self.lead = lead or (lambda title, lang: "")

    @classmethod
    def build(cls, entries: Iterable[Entry]) -> AliasIndex:
        """The index of ``entries`` (every article of a source); their leads are kept in memory."""
        entries = list(entries)
        common = common_words(e.lead for e in entries)
        by_alias: dict[str, dict[str, str]] = {}
        about: dict[str, str] = {}
        leads: dict[str, str] = {}
        people: set[str] = set()
        for entry in entries:
            key = f"{entry.title}\t{entry.lang}"
            about[key], leads[key] = entry.description, entry.lead[:_GIST_CHARS]
            if is_person(entry):
                people.add(key)
            for alias, kind in aliases(entry, common):
                held = by_alias.setdefault(fold(alias), {})
                # An article named twice by one alias keeps its strongest kind.
                if key not in held or STRENGTH[kind] > STRENGTH[held[key]]:
                    held[key] = kind
        return cls(by_alias, about, common, lambda title, lang: leads.get(f"{title}\t{lang}", ""),
                   frozenset(people))

    def to_json(self) -> dict[str, object]:
        """The index as JSON data (without the leads: the source holds them)."""
        return {"aliases": self._by_alias, "about": self._about, "common": sorted(self.common),
                "people": sorted(self._people)}

    @classmethod
    def from_json(cls, data: dict[str, Any], lead: Callable[[str, str], str] | None = None) -> AliasIndex:
        """An index from ``to_json``'s data, reading leads through ``lead``."""
        return cls(data["aliases"], data["about"], frozenset(data["common"]), lead, frozenset(data["people"]))

    def description(self, title: str, lang: str) -> str:
        """The short description of the article ``title`` in ``lang`` ("English polymath (1642–1727)")."""
        return self._about.get(f"{title}\t{lang}", "")

    def is_person(self, title: str, lang: str) -> bool:
        """Whether the article ``title`` in ``lang`` is about a person (by its category or lifespan)."""
        return f"{title}\t{lang}" in self._people

    def __len__(self) -> int:
        return len(self._by_alias)

    def candidates(self, name: str) -> list[Candidate]:
        """The articles ``name`` may stand for (compared folded), strongest alias first."""
        held = next(filter(None, (self._by_alias.get(key, {}) for key in _keys(name))), {})
        found = [Candidate(title, lang, kind) for (title, _, lang), kind in
                 ((key.partition("\t"), kind) for key, kind in held.items())]
        return sorted(found, key=lambda c: (-c.strength, c.title, c.lang))

    def near(self, name: str) -> list[Candidate]:
        """The articles a name of several words misspelt by one letter in one of its words may stand for
        ("Laurence Oliver" → *Laurence Olivier*): names, not short forms, whose other words are the same."""
        words = fold(_clean(name)).split()
        if len(words) < 2:
            return []
        found: dict[str, Candidate] = {}
        for alias in self._by_first.get(words[0], ()):
            other = alias.split()
            differ = [(a, b) for a, b in zip(words, other, strict=False) if a != b]
            if len(other) == len(words) and len(differ) == 1 and min(map(len, differ[0])) >= _NEAR_LETTERS \
                    and _one_letter_apart(*differ[0]):
                for key, kind in self._by_alias[alias].items():
                    if kind in ("title", "base", "lead", "also"):
                        title, _, lang = key.partition("\t")
                        found.setdefault(key, Candidate(title, lang, "near"))
        return sorted(found.values(), key=lambda c: (c.title, c.lang))

    def given_and_surname(self, name: str) -> list[Candidate]:
        """The people a given name and a surname may stand for where no alias writes the two together ("Lev
        Trotski" for *León Trotski*, whose lead opens "Lev Davídovich Bronstein, más conocido como León
        Trotski"): the surname is the person's, and a name the article gives its subject opens with the given
        name."""
        words = _clean(name).split()
        if len(words) != 2:
            return []
        given = fold(words[0])
        return [Candidate(c.title, c.lang, "near") for c in self.candidates(words[1])
                if c.kind == "short" and self.is_person(c.title, c.lang)
                and any(n.split()[:1] == [given] for n in subject_names(c.title, self.lead(c.title, c.lang)))]

    @cached_property
    def _by_first(self) -> dict[str, list[str]]:
        """The aliases of several words by their first word (built when a name is first misspelt)."""
        index: dict[str, list[str]] = {}
        for alias in self._by_alias:
            first, _, rest = alias.partition(" ")
            if rest:
                index.setdefault(first, []).append(alias)
        return index

    def spot(self, text: str) -> str | None:
        """The longest run of two or more words of ``text`` that names an article, as ``text`` writes it:
        a subject said in lower case ("what is the golden ratio?") has no capitals to be found by."""
        text = text[:_SPOT_CHARS]
        words = [m for m in _SPOT_WORD.finditer(text)]
        # Where the words stand apart by spaces (or an apostrophe: "de' Medici") only: a name runs across
        # no comma ("phase, transition").
        joined = [not text[a.end() : b.start()].strip(" \t'’") for a, b in itertools.pairwise(words)]
        for size in range(min(_MAX_ALIAS_WORDS, len(words)), 1, -1):
            runs = [words[start : start + size] for start in range(len(words) - size + 1)
                    if all(joined[start : start + size - 1])]
            found = [run for run in runs if fold(" ".join(m.group() for m in run)) in self._by_alias]
            # Of runs as long, one holding a name ("le lac Victoria": "lac Victoria", not "le lac").
            named = [run for run in found if any(m.group()[:1].isupper() for m in run)]
            if found:
                run = (named or found)[0]
                return text[run[0].start() : run[-1].end()]
        return None

    def noun(self, question: str, context: str, language: str | None) -> Link | None:
        """The article a common noun of ``question`` is titled by ("a cat" → *Cat*, "des ants" →
        *Ant*, "l'accouchement" → *Accouchement*), or None.

        Only a title (or a title without its disambiguation) in the question's own language is such
        an article: a lower-case word is a word of that language, and a name the leads give something
        ("times" of *The Times*) is no common noun's. Among several nouns the item's and the question's
        words choose (their first letters, so a plural meets its singular), then the first said; a
        title with a disambiguation ("stage" of *Stage (theatre)*) needs a word of the item that bears
        out its sense. A noun the question asks for one of ("which planet", "the fastest animal") is
        what the answer names, not what it is about; so are the words describing it, each after a
        function word ("with wings and fur"), until a word follows another ("quelles positions peuvent
        … lors de l'accouchement"). A word of a locution ("as well as", "sin embargo") is no noun, nor a
        Spanish or French singular word no determiner comes before ("la comuna suiza": ``noun_slots``).
        """
        if not language:
            return None
        stop = stopwords_for(None)
        scored: list[tuple[float, int, Candidate, str]] = []
        found_words = list(_SPOT_WORD.finditer(question))
        said = [ELIDED.sub("", m.group()) for m in found_words]
        # A word of a locution ("well" of "as well as", "embargo" of "sin embargo") is no noun, nor a
        # Spanish or French word no determiner comes before ("la comuna suiza").
        fixed = not_nouns(question, language)
        describing = False  # within the noun asked for one of, and the nouns describing it
        for position, word in enumerate(said):
            if not word.islower() or len(word) < 3 or word in stop:
                continue
            forms = [word, *(word[: -len(end)] + rest for end, rest in _PLURALS
                             if word.endswith(end) and len(word) - len(end) >= 3)]
            found = {Candidate(title, lang, kind) for form in forms
                     for (title, _, lang), kind in ((key.partition("\t"), kind) for key, kind in
                                                    self._by_alias.get(fold(form), {}).items())
                     if lang == language and kind in ("title", "base")}
            after = said[position + 1] if position + 1 < len(said) else ""
            # A noun describing the one asked for follows it after a function word ("with wings and
            # fur"); a word right after it (a verb: "positions peuvent") ends the description.
            # Right after "which"/"qué" only a noun is asked for one of ("¿qué sabemos …" asks nothing).
            asked = _asks_for_one(said[:position], after, stop) and (
                bool(found) or said[position - 1].casefold() not in _ASKING)
            describing = asked or (describing and said[position - 1].casefold() in stop)
            # Still a word of the description: only whether it names an article changes.
            if describing or any(start <= found_words[position].start() < end for start, end in fixed):
                continue
            wanted = stems(context, _STEM) - stems(word, _STEM)
            for candidate in found:
                about = self._about.get(f"{candidate.title}\t{candidate.lang}", "")
                shared = len(wanted & stems(gist(candidate.title, about,
                                                 self.lead(candidate.title, candidate.lang)), _STEM))
                if candidate.kind == "base" and not shared:
                    continue  # one sense of the word, and nothing says it is this one
                score = candidate.strength * (1 + WORD_WEIGHT * min(shared, MAX_WORDS))
                scored.append((score, position, candidate, word))
        if not scored:
            return None
        scored.sort(key=lambda s: (-s[0], s[1], s[2].title))
        score, _, best, word = scored[0]
        if any(w == word and c.title != best.title and s >= score for s, _, c, w in scored[1:]):
            return None  # two senses of the word the item's words cannot tell apart
        return Link(word, best.title, best.lang, best.kind, round(score, 3))

    def link(self, names: Sequence[str], context: str, language: str | None) -> Link | None:
        """The article the first linkable of ``names`` stands for, chosen by ``context`` (the item's and
        the question's words) and ``language``; None when none is linked confidently."""
        for name in names:
            found = self.link_one(name, context, language)
            if found is not None:
                return found
        return None

    def link_one(self, name: str, context: str, language: str | None) -> Link | None:
        """The article ``name`` stands for here, or None: no alias, or not confident enough.

        The answer's language is tried first: a French answer about the Louvre reads *Musée du
        Louvre*, not the English *Louvre*, when the French article is named confidently.
        """
        candidates = self.candidates(name) or self.near(name) or self.given_and_surname(name)
        honoured = _HONORIFIC.match(name)
        if not candidates and honoured:
            # "Queen Elizabeth II" for *Elizabeth II*: the title before a name is no part of it.
            candidates = self.candidates(name[honoured.end():])
        if language:
            own = [c for c in candidates if c.lang == language]
            found = self._choose(name, own, context) if own else None
            if found is not None:
                return found
        return self._choose(name, candidates, context)

    def _choose(self, name: str, candidates: Sequence[Candidate], context: str) -> Link | None:
        if not candidates:
            return None
        wanted = set(tokenize(context, stopwords=True)) - set(tokenize(name, stopwords=True))
        scored: list[tuple[float, int, Candidate]] = []
        for candidate in candidates:
            about = self._about.get(f"{candidate.title}\t{candidate.lang}", "")
            said = gist(candidate.title, about, self.lead(candidate.title, candidate.lang))
            shared = len(wanted & set(tokenize(said, stopwords=True)))
            score = candidate.strength * (1 + WORD_WEIGHT * min(shared, MAX_WORDS))
            scored.append((score, shared, candidate))
        # Where the scores tie, more words shared, then an article the name is not only the namesake
        # of ("Hilbert": David Hilbert before *Espace de Hilbert*), tell them apart.
        scored.sort(key=lambda s: (-s[0], -s[1], _named_after(name, s[2].title), -s[2].strength,
                                   s[2].title, s[2].lang))
        # The article titled by the name itself yields to one it only shortens ("United States" of
        # *Constitution of the United States*) when that one shares clearly more words with the item.
        titled = next((s for s in scored if s[2].kind == "title" and fold(s[2].title) == fold(name)), None)
        if titled is not None and scored[0][2].kind in _SHORTENED and scored[0][1] < titled[1] + _OVER_TITLE:
            scored.remove(titled)
            scored.insert(0, titled)
        score, shared, best = scored[0]
        eponym = _named_after(name, best.title)
        rivals = tuple(dict.fromkeys(c.title for _, _, c in scored[1:] if c.title != best.title))
        # A short form of several articles, or a thing's last word, that nothing in the item bears out.
        if best.strength < CONFIDENT and not shared and (rivals or best.kind == "tail"):
            return None
        # Homonyms the item's words cannot tell apart ("Mercury" with nothing about planets or metals).
        if any(c.title != best.title and s >= score and n >= shared and _named_after(name, c.title) <= eponym
               for s, n, c in scored[1:]):
            return None
        return Link(name, best.title, best.lang, best.kind, round(score, 3), rivals[:3])
