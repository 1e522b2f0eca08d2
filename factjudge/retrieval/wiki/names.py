"""Names in a text, as an encyclopedia titles its articles: whole names, their parts, nouns.

One pass over a text finds its runs of capitalised words ("Statue of Liberty", "Walt Disney");
everything else is read from those runs. Work and memory are linear in the text: a name is at
most ``MAX_NAME_WORDS`` words (a longer run of capitals is a heading or shouting, not a name) and
a part at most ``MAX_PART_WORDS``, so an answer of 3,000 capitalised words costs what its words
cost, where every sub-run of every run once cost cubic memory (1,200 words took 1.5 GB).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from factjudge.text.fold import fold
from factjudge.text.noun_slots import ELIDED
from factjudge.text.tokenize import stopwords_for
from factjudge.text.values import ERA, PRETERITE

# Lower-case words that may join the capitalised words of one name ("Statue of Liberty").
NAME_JOINERS = frozenset({"of", "the", "de", "del", "la", "le", "les", "du", "des", "von", "van",
                          "da", "di", "y", "and", "et", "&"})
# Two lower-case words that join a name's parts as one ("Juana Inés de la Cruz", "Bartolomé de las Casas",
# "Ludwig van der Rohe"): a particle, then an article.
_JOINED_PAIRS = frozenset({("de", "la"), ("de", "las"), ("de", "los"), ("van", "der"), ("van", "den"),
                           ("von", "der"), ("von", "dem")})
# The longest run of capitalised words taken as one name, and the longest part of one read.
MAX_NAME_WORDS = 8
MAX_PART_WORDS = 4
# Words, and single punctuation marks, which end a name ("However, Paris" is two).
_WORD = re.compile(r"[\w'’.-]+|[^\w\s]", re.UNICODE)
# A lower-case article or preposition elided onto a capitalised word ("l’Odyssée", "d'Homère", "qu'Einstein").
_ELISION = re.compile(r"^([a-z]{1,6}['’])(?=[^\W\d_])(?=[^a-z])")
_ENGLISH = stopwords_for("en")
# Articles a title may begin with ("The Sopranos"), when they open a sentence.
_ARTICLES = frozenset({"the", "a", "an", "el", "la", "le", "les", "los", "las", "il", "lo", "der", "die",
                       "das"})
# An adverb opening a sentence, en/es/fr ("Approximately 1 million people live …", "Actualmente …"): no
# name, though capitalised there. English "-ly" words only by an adjective's ending and length, so that
# "Italy", "Emily" and "Sally" stay names.
_ADVERB = re.compile(r"[^\W\d_]{3,}(?:ate|al|ent|ant|ous|ive|ed|ab|ib|ful)ly|[^\W\d_]{4,}mente|"
                     r"environ|presque|approximativement|actuellement|finalement|seulement",
                     re.IGNORECASE)
# Question words the stop lists leave out, folded: "Quand Cholokhov a-t-il …" asks about Cholokhov.
_ASKING = frozenset("""quand comment pourquoi quel quelle quels quelles combien lequel laquelle cuales cuanto
cuanta cuantos cuantas""".split())  # noqa: SIM905
# An era beside a year is no name ("44 a. C.", "753 av. J.-C.", "44 BC", "AD 80"), and its full stops
# end no sentence.
_ERA = re.compile(rf"(?<=[\dIVXLC])\s*{ERA}(?![\w-])|\bAD(?=\s*\d)")
# Where a sentence, or a clause that starts like one ("Question: Tell me…"), ends.
# An initial ("James B. Donovan") or a title's abbreviation ("Dr. Who") ends no sentence.
_SENTENCE_END = re.compile(r"(?<=[.!?:。！？：])(?<!\b[A-Z]\.)(?<!\b(?:Dr|Mr|Ms|St|Jr|Sr)\.)(?<!\bMrs\.)\s+"
                           r"|\n+")


@dataclass(frozen=True)
class Run:
    """Capitalised words that follow each other in a sentence, and where the run stood.

    ``initial``: it began the sentence, where every word is capitalised, so a lone word there
    ("Tell me…", "Sure!") may be no name; ``lead`` is a sentence-initial stop word left out of
    it ("The" of "The Sopranos"), which a title may still carry.
    """

    words: tuple[str, ...]
    initial: bool = False
    lead: str = ""

    @property
    def name(self) -> str:
        """The run as one name."""
        return " ".join(self.words)

    @property
    def is_name(self) -> bool:
        """Whether the run is short enough to be one name (thousands of capitals are not)."""
        return len(self.words) <= MAX_NAME_WORDS

    @property
    def sure(self) -> bool:
        """Whether the run is a name whatever the sentence: not a lone sentence-initial word."""
        return not self.initial or len(self.words) > 1 or bool(self.lead)

    def spellings(self) -> tuple[str, ...]:
        """The titles the run may stand for: its name, then with its leading "The"."""
        return (self.name, f"{self.lead} {self.name}") if self.lead else (self.name,)


def runs(texts: Iterable[str]) -> Iterator[Run]:
    """Runs of capitalised words (joined by "of", "de" …), without a leading stop word or a final 's.

    "The capital of Australia is Sydney." gives "Australia", "Sydney"; "Where is the Statue
    of Liberty?" gives "Statue of Liberty"; "Walt Disney's body" gives "Walt Disney". Every
    sentence starts with a capital, so a run that opens it is marked ``initial``, and a stop word
    opening it ("The…", "It…", "In…") is left out (an article is kept as the run's ``lead``).
    """
    stop = stopwords_for(None)
    for text in texts:
        for sentence in _SENTENCE_END.split(_ERA.sub(" ", text)):
            # A name after an elided article or preposition is a word of its own ("l’Odyssée").
            words = [part for w in _WORD.findall(sentence) for part in _ELISION.split(w) if part]
            # The sentence's first word, after any opening mark ("¿Cuál…", "«Le…", "(The…").
            opening = next((i for i, w in enumerate(words) if w[:1].isalnum()), 0)
            run: list[str] = []
            start, joined = opening, False
            for i, word in enumerate([*words, ""]):
                # An initial keeps its full stop, as titles write it ("James B. Donovan").
                if not re.fullmatch(r"[A-Z]\.", word):
                    word = re.sub(r"['’]s$", "", word.strip(".'’-"))
                # A sentence's elided article is no name ("L'invitation de …"); "L'Odyssée" is one.
                elided = ELIDED.match(word) if i == opening else None
                if elided and word[elided.end()].islower():
                    word = word[:1].lower() + word[1:]
                if word[:1].isupper() or (word[:1].isdigit() and run):
                    if not run:
                        start = i
                    run.append(word)
                    continue
                if joined or (run and i + 2 < len(words) and words[i + 2][:1].isupper()
                              and (word.lower(), words[i + 1]) in _JOINED_PAIRS):
                    run.append(word)
                    joined = not joined  # the pair's second word is taken at the next step
                    continue
                if run and word.lower() in NAME_JOINERS and i + 1 < len(words) \
                        and words[i + 1][:1].isupper():
                    run.append(word)
                    continue
                lead = ""
                # A Spanish past tense opening a sentence that leaves its subject out is no name's first
                # word ("Escribió Don Quijote de la Mancha", "Pintó La Gioconda"), nor an adverb; alone, it
                # is none where a function word follows it ("Reinó en el siglo XIII"; "Miró nació en …" is a
                # name).
                if run and start == opening and (_ADVERB.fullmatch(run[0])
                                                 or (len(run) > 1 and PRETERITE.fullmatch(run[0]))
                                                 or (len(run) == 1 and PRETERITE.fullmatch(run[0])
                                                     and word.lower() in stop)):
                    run, start = run[1:], opening + 1
                if run and start == opening and (run[0].lower() in stop or fold(run[0]) in stop
                                                 or fold(run[0]) in _ASKING):
                    first, run = run[0], run[1:]  # "The Eiffel Tower" → "Eiffel Tower"; a lone "It" → nothing
                    if first.lower() in _ARTICLES:
                        lead = first  # the name still opens the sentence: its subject, maybe a title's word
                    else:
                        start = opening + 1  # "In Paris, …": the name follows the sentence's first word
                while run and run[-1].lower() in NAME_JOINERS:
                    run.pop()
                # "In 1911" names nothing, nor English's pronoun "I", which it writes in capitals
                # ("What should I know…"); "C" (the language) is a name.
                if run and not run[0][:1].isdigit() and not (len(run) == 1 and len(run[0]) == 1
                                                             and run[0].lower() in _ENGLISH):
                    yield Run(tuple(run), initial=start == opening, lead=lead)
                run = []


def parts(run: Run) -> Iterator[str]:
    """The parts of a longer name, longest first: "Gabriel García", "García Márquez", "Gabriel" …"""
    for size in range(min(len(run.words) - 1, MAX_PART_WORDS), 0, -1):
        for start in range(len(run.words) - size + 1):
            part = run.words[start : start + size]
            if part[0].lower() not in NAME_JOINERS and part[-1].lower() not in NAME_JOINERS:
                yield " ".join(part)


@dataclass(frozen=True)
class Names:
    """The names of one text, found in one pass: whole names, their parts, and its leading run."""

    runs: tuple[Run, ...]

    @classmethod
    def of(cls, *texts: str) -> Names:
        """The names of ``texts``."""
        return cls(tuple(runs(texts)))

    def whole(self, limit: int = 24) -> list[str]:
        """Whole names, in order, once each (a run too long to be one name is left out)."""
        found: dict[str, None] = {}
        for run in self.runs:
            if run.is_name:
                found.setdefault(run.name, None)
                if len(found) >= limit:
                    break
        return list(found)

    def parts(self, limit: int = 24) -> list[str]:
        """The parts of the longer names that are no whole name themselves: "Nile" of "Nile River"."""
        whole = set(self.whole(limit=len(self.runs) + 1))
        found: dict[str, None] = {}
        for run in self.runs:
            for part in parts(run):
                if part not in whole:
                    found.setdefault(part, None)
                    if len(found) >= limit:
                        return list(found)
        return list(found)

    def leading(self) -> Run | None:
        """The name that opens the text (its grammatical subject, mostly), None when a word comes first."""
        return self.runs[0] if self.runs and self.runs[0].initial and self.runs[0].is_name else None


def title_candidates(texts: Iterable[str], limit: int = 24) -> list[str]:
    """Names an article might be titled by: whole runs of capitalised words in ``texts``."""
    return Names.of(*texts).whole(limit)


def name_parts(texts: Iterable[str], limit: int = 24) -> list[str]:
    """The parts of the longer names in ``texts``: "Nile" of "Nile River", "Disney" of "Walt Disney"."""
    return Names.of(*texts).parts(limit)


def noun_titles(texts: Iterable[str], limit: int = 24) -> list[str]:
    """The lower-case words of ``texts`` as an encyclopedia titles them: "mammals" → "Mammal"."""
    found: dict[str, None] = {}
    stop = stopwords_for(None)
    for text in texts:
        for word in (w.strip(".'’-") for w in _WORD.findall(text)):
            if word.islower() and len(word) > 3 and word not in stop:
                singular = re.sub(r"(?<=[^s])s$", "", word)
                found.setdefault(singular[:1].upper() + singular[1:], None)
                if len(found) >= limit:
                    return list(found)
    return list(found)
