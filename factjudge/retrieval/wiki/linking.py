"""Which article a name stands for: entity linking over the names a source gives its articles.

A person names a subject the way they speak ("the Great Wall", "Cervantes", "le Louvre"), not by
an article's title. So every article is known by several names (its **aliases**): its title, the
title without Wikipedia's disambiguation ("Mercury" of "Mercury (planet)"), the name its lead's
first sentence gives its subject ("Miguel de Cervantes Saavedra", "Kingdom of the Franks") and the
other names that sentence gives ("officially the French Republic", "also known as …"), and short
forms: a person's surname, the first words of a long title ("Great Wall" of "Great Wall of
China"), the name after "of"/"du" ("Louvre" of "Musée du Louvre"). A name can stand for several
articles (the planet and the element); the item's and the question's words choose among them, in
the answer's language first. Below a confidence (a short form nothing in the item bears out, two
homonyms the words cannot tell apart) the name is not linked and the item stays unverified.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from factjudge.retrieval.wiki.base import Article
from factjudge.retrieval.wiki.names import fold
from factjudge.text.tokenize import tokenize

# How strongly each kind of alias names its article, before the item's words are weighed.
STRENGTH = {"title": 1.0, "lead": 0.9, "also": 0.85, "base": 0.7, "short": 0.5}
# An alias at least this strong names its article alone; a weaker one (a short form) needs a word of the
# item that the article's lead shares, or to name one article only.
CONFIDENT = 0.6
# Each word of the item an article's lead shares multiplies its alias's strength by 1 + WORD_WEIGHT
# (up to MAX_WORDS words): "Washington was the first president" is George Washington, not the city.
WORD_WEIGHT = 0.5
MAX_WORDS = 4
# Where the lead's first sentence names its subject: before its first verb "to be".
_COPULA = re.compile(r"\s(?:is|was|are|were|es|fue|son|fueron|era|est|fut|était|sont|furent)\s")
# Other names that sentence gives ("officially the French Republic", "also known as Francia").
_ALSO = re.compile(r"(?:also (?:known|called|spelled|spelt) as|officially|formerly|known as|"
                   r"oficialmente|también (?:conocid[oa]|llamad[oa]) (?:como)?|conocid[oa] como|"
                   r"officiellement|en forme longue|couramment appelée?|surnommée?|dite?|"
                   r"parfois francisée? en|aussi appelée?|également appelée?)\s+([^,;()]+)", re.IGNORECASE)
# Where a lead's subject gives a second name: "Antananarivo ou Tananarive", "Bombay or Mumbai".
_OR = re.compile(r"\s+(?:or|o|ou)\s+")
_ARTICLE = re.compile(r"^(?:(?:the|a|an|el|la|los|las|le|les|un|une)\s+|l['’]\s*)", re.IGNORECASE)
_PAREN = re.compile(r"\s*\([^()]*\)")
_JOINERS = frozenset("of de del du des la le the da di von van y".split())  # noqa: SIM905
_SUFFIXES = frozenset({"Jr.", "Sr.", "Jr", "Sr", "II", "III", "Sir"})
# A ruler's ordinal: "Napoléon Ier", "Elizabeth II", "Napoleón I de Francia".
_REGNAL = re.compile(r"[IVX]+|Ier|Ire|1er|1re")
# Only so much of a lead is searched for the verb naming its subject; longer names are shortened no more.
_HEAD_CHARS = 300
_MAX_SHORTENED = 5
_GIST_CHARS = 400
# Categories of people (the packaged summaries' "topic"), and a lifespan in a description: "(1547–1616)".
PEOPLE = frozenset({"people", "personas", "personnalites"})
_LIFESPAN = re.compile(r"\((?:c\. ?)?\d{3,4} ?[–-] ?(?:c\. ?)?\d{2,4}\)|\(born \d{4}\)")
# Words a subject said in lower case is looked for among, in the first characters of a text.
_SPOT_WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*")
_SPOT_CHARS = 600
_SENTENCE_END = re.compile(r"[.!?]\s+[A-Z]")
_WORD = re.compile(r"[^\W\d_]+")
# A lead name longer than this is a clause, not a name.
_MAX_ALIAS_WORDS = 8


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
        for name in (_clean(either[0]), _capitalised(_clean(either[1]))):
            if name[:1].isupper() and len(name.split()) <= _MAX_ALIAS_WORDS:
                yield name, "also"
                names.append(name)
    for other in _ALSO.finditer(head):
        for name in re.split(r"\s+(?:or|o|ou|and|y|et)\s+", other.group(1)):
            name = _clean(name)
            if name and len(name.split()) <= _MAX_ALIAS_WORDS and name[:1].isupper():
                yield name, "also"
                names.append(name)
    # A person's surname is a name however common the word ("Swift", "Peel"); another short form is
    # none when the leads write it in lower case ("Tower" of "Eiffel Tower").
    person = fold(entry.category) in PEOPLE or bool(_LIFESPAN.search(entry.description))
    shorts = (short for name in dict.fromkeys(names) for short in _short_forms(name))
    yield from ((short, "short") for short in dict.fromkeys(shorts)
                if fold(short) not in common or (person and " " not in short))


def subject_names(title: str, lead: str) -> frozenset[str]:
    """The names (folded) an article gives its own subject: its title and the names its lead's first
    sentence gives it ("Antananarivo", "Tananarive"), not the short forms, which may name others."""
    return frozenset(fold(name) for name, kind in aliases(Entry(title, "", lead=lead)) if kind != "short")


def _short_forms(name: str) -> Iterator[str]:
    """Shorter ways to say a name of capitalised words: its last word (a surname: "Cervantes"), its
    first two ("Great Wall", "Gran Muralla"), what follows its first "of"/"du" ("Louvre"), a ruler's
    name before the ordinal ("Napoléon" of "Napoléon Ier")."""
    ordinal = next((i for i, w in enumerate(name.split()) if i and _REGNAL.fullmatch(w)), None)
    if ordinal is not None:
        yield " ".join(name.split()[:ordinal])
    words = [w for w in name.split() if w not in _SUFFIXES]
    if len(words) < 2 or len(words) > _MAX_SHORTENED:
        return
    if all(w[:1].isupper() or w.lower() in _JOINERS for w in words) and words[-2].lower() not in _JOINERS:
        yield words[-1]
    if len(words) > 2 and words[0][:1].isupper() and words[1][:1].isupper():
        yield " ".join(words[:2])
    cut = next((i for i, w in enumerate(words) if w.lower() in _JOINERS), None)
    if cut is not None and cut + 1 < len(words):
        yield " ".join(words[cut + 1 :])


def common_words(leads: Iterable[str]) -> frozenset[str]:
    """The words the leads write in lower case (at least twice): a word so written is no short name."""
    seen: dict[str, int] = {}
    for lead in leads:
        for word in {w for w in _WORD.findall(lead) if w[0].islower()}:
            seen[word] = seen.get(word, 0) + 1
    return frozenset(fold(w) for w, n in seen.items() if n >= 2)


class AliasIndex:
    """Every alias of every article, folded, to the articles it may name, and what each article is about.

    Built once from a source's articles (``build``) and kept as JSON beside the source's index
    (``to_json``/``from_json``): a check opens it in a fraction of a second.
    """

    def __init__(self, by_alias: dict[str, dict[str, str]], about: dict[str, str],
                 common: frozenset[str] = frozenset(), lead: Callable[[str, str], str] | None = None) -> None:
        # alias → {"title\tlang": kind}; "title\tlang" → the article's short description
        self._by_alias = by_alias
        self._about = about
        self.common = common  # words the leads write in lower case: "Violence", not "Canberra"
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
        for entry in entries:
            key = f"{entry.title}\t{entry.lang}"
            about[key], leads[key] = entry.description, entry.lead[:_GIST_CHARS]
            for alias, kind in aliases(entry, common):
                held = by_alias.setdefault(fold(alias), {})
                # An article named twice by one alias keeps its strongest kind.
                if key not in held or STRENGTH[kind] > STRENGTH[held[key]]:
                    held[key] = kind
        return cls(by_alias, about, common, lambda title, lang: leads.get(f"{title}\t{lang}", ""))

    def to_json(self) -> dict[str, object]:
        """The index as JSON data (without the leads: the source holds them)."""
        return {"aliases": self._by_alias, "about": self._about, "common": sorted(self.common)}

    @classmethod
    def from_json(cls, data: dict[str, Any], lead: Callable[[str, str], str] | None = None) -> AliasIndex:
        """An index from ``to_json``'s data, reading leads through ``lead``."""
        return cls(data["aliases"], data["about"], frozenset(data["common"]), lead)

    def __len__(self) -> int:
        return len(self._by_alias)

    def candidates(self, name: str) -> list[Candidate]:
        """The articles ``name`` may stand for (compared folded), strongest alias first."""
        held = self._by_alias.get(fold(_clean(name)) or fold(name), {})
        found = [Candidate(title, lang, kind) for (title, _, lang), kind in
                 ((key.partition("\t"), kind) for key, kind in held.items())]
        return sorted(found, key=lambda c: (-c.strength, c.title, c.lang))

    def spot(self, text: str) -> str | None:
        """The longest run of two or more words of ``text`` that names an article, as ``text`` writes it:
        a subject said in lower case ("what is the golden ratio?") has no capitals to be found by."""
        words = [m for m in _SPOT_WORD.finditer(text[:_SPOT_CHARS])]
        for size in range(min(_MAX_ALIAS_WORDS, len(words)), 1, -1):
            for start in range(len(words) - size + 1):
                run = words[start : start + size]
                if fold(" ".join(m.group() for m in run)) in self._by_alias:
                    return text[run[0].start() : run[-1].end()]
        return None

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
        candidates = self.candidates(name)
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
        scored.sort(key=lambda s: (-s[0], -s[2].strength, s[2].title, s[2].lang))
        score, shared, best = scored[0]
        rivals = tuple(dict.fromkeys(c.title for _, _, c in scored[1:] if c.title != best.title))
        if best.strength < CONFIDENT and not shared and rivals:
            return None  # a short form of several articles nothing in the item bears out
        # Homonyms the item's words cannot tell apart ("Mercury" with nothing about planets or metals).
        if any(c.title != best.title and s >= score for s, _, c in scored[1:]):
            return None
        return Link(name, best.title, best.lang, best.kind, round(score, 3), rivals[:3])
