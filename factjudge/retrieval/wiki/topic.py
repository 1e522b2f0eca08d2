"""What an answer is about, decided once per check, and what each of its items is about.

FActScore reads only its topic's article: a biography of someone is checked against that
person's page, never against pages that happen to share a word with a sentence of it. So the
answer's **topic** is found first: the question's subject ("Tell me a bio of Lanny Flaherty"),
else the answer's first named subject. An item is about the topic when it names it or a part
of it ("Flaherty …") or names nobody first ("He was born in 1949"); an item that opens with
another name ("The Sopranos is a television series") is about that name, spelt out as the
answer spelt it in full ("Márquez" → "Gabriel García Márquez").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from factjudge.retrieval.wiki.names import Names, Run, fold
from factjudge.text.language import guess_language
from factjudge.text.noun_slots import ELIDED
from factjudge.text.segmenter import split_sentences
from factjudge.text.tokenize import stopwords_for

# Names kept per word for spelling a part out: bounds the work per item whatever the answer.
_PER_WORD = 32
# Words after the question's topic tried as the rest of its title ("Amino acid").
_MAX_CONTINUED = 3
# How a request addressed to the reader ends in the languages that write its pronoun on the verb,
# and the words that join it to what it asks about.
_REQUEST = re.compile(r"\w{3,}(?:-moi|-nous|-me|me|mi)$")
_REQUEST_JOINERS = frozenset({"de", "di", "du", "des", "del", "the", "la", "le", "les", "el", "los", "las"})
# Requests that open a question without a pronoun on the verb ("Describe the Great Wall.").
_REQUEST_WORDS = frozenset("""describe explain define summarize summarise introduce present name list
describa explica explique define resume presenta décris décrivez expliquez définis présente
présentez""".split())  # noqa: SIM905

# A work asked about by who made it, its title written as a sentence is, only its first word capitalised
# ("¿Quién pintó El jardín de las delicias?"): the title runs to the question's end, lower-case words and all.
_MADE_WORK = re.compile(
    r"^\W*(?:who\s+(?:painted|wrote|composed|sculpted|designed|built|directed)|qui\s+a\s+(?:peint|écrit|composé|"
    r"sculpté|conçu|construit|réalisé)|qui[eé]n\s+(?:pint[oó]|escribi[oó]|compuso|esculpi[oó]|diseñ[oó]|"
    r"construy[oó]|dirigi[oó]))\s+(?P<title>(?-i:[A-ZÀ-Ý])[^?!.]*?)\s*[?!.]*\s*$", re.IGNORECASE)


def _made_work(question: str) -> str | None:
    """The title of the work ``question`` asks the maker of, where it is written in sentence case and so
    runs past its capitalised words ("El jardín de las delicias"); None otherwise."""
    found = _MADE_WORK.match(question)
    if found is None:
        return None
    title = found.group("title")
    stop = stopwords_for(None)
    lower = [w for w in title.split()[1:] if w[:1].islower() and w.casefold() not in stop]
    return title if lower else None


def _words(name: str) -> tuple[str, ...]:
    return tuple(fold(name).split())


def _within(part: tuple[str, ...], whole: tuple[str, ...]) -> bool:
    """Whether the words ``part`` stand together inside ``whole``."""
    n = len(part)
    return 0 < n <= len(whole) and any(whole[i : i + n] == part for i in range(len(whole) - n + 1))


def _continued(name: str, question: str) -> list[str]:
    """``name`` with the next words the question writes after it (up to ``_MAX_CONTINUED``), longest
    first, then ``name``: "Amino acid" from "Tell me about Amino acid.", "Monstruo del lago Ness"."""
    found = re.search(re.escape(name) + rf"((?:\s+[\w'’-]+){{1,{_MAX_CONTINUED}}})", question)
    after = found.group(1).split() if found else []
    stop = stopwords_for(None)
    longer = [" ".join([name, *after[:n]]) for n in range(len(after), 0, -1)
              if after[n - 1].casefold() not in stop]
    # A name closing the sentence keeps the full stop of a final initial ("World War I."): titles do not.
    return list(dict.fromkeys([*longer, name, name.rstrip(".")]))


def _without_request(name: str, question: str) -> str:
    """``name`` without a request it opens with ("Háblame de Monstruo" → "Monstruo", "Describe the
    Great Wall" → "Great Wall", "Describe Lake Baikal" → "Lake Baikal"): a request opening the question
    ("Describe …", "Háblame de …", "Parle-moi de …", "Parlami di …") is capitalised as a sentence's first
    word, joined to the name by "the", "de" or "du" or written just before it."""
    words = name.split()
    if len(words) < 2 or not question.lstrip("¿¡«\"'( ").startswith(words[0]):
        return name
    request = fold(words[0])
    if len(words) > 2 and words[1].casefold() in _REQUEST_JOINERS and (
            _REQUEST.search(request) or request in _REQUEST_WORDS):
        return " ".join(words[2:])
    # With nothing between, only a word that is a request whatever it ends with ("Jerome of Prague").
    return " ".join(words[1:]) if request in _REQUEST_WORDS else name


@dataclass(frozen=True)
class Subjects:
    """What one answer is about: its topic, and the names it spells out (found once per check).

    ``topic`` is sure (the question named it, or the answer did mid-sentence or in several
    words); ``maybe`` are lone words that open a sentence ("Canberra was founded…"), names only
    where the source has an article by that title, tried in order when there is no ``topic``.
    """

    topic: str | None = None
    names: tuple[str, ...] = ()
    maybe: tuple[str, ...] = ()
    # The topic as the question wrote it with a disambiguation, as Wikipedia titles such articles:
    # "Ronaldo (Brazilian footballer)"; looked up before the bare name.
    topic_title: str | None = None
    # The titles the topic may have, in the order tried: with the words the question writes after it
    # ("Tell me about Amino acid." names "Amino acid"), then as found.
    topic_candidates: tuple[str, ...] = ()
    # The question (its words help choose among articles a name may stand for) and the language the
    # question and answer are written in (guessed when the caller gave none): its articles come first.
    question: str = ""
    language: str | None = None
    # The topic is a name of the answer's, the question naming none: it yields to an article the
    # question names in lower case, and is kept only when the source has an article about it.
    from_answer: bool = False
    # The answer itself: what an item's pronoun may stand for was named before the item in it.
    answer: str = ""

    @classmethod
    def of(cls, question: str, answer: str) -> Subjects:
        """The subjects of an answer to ``question``: the question's first sure name, else the answer's."""
        asked = [r for r in Names.of(question).runs if r.is_name]
        said = [r for r in Names.of(answer).runs if r.is_name]
        sure = [r.name for r in (*asked, *said) if r.sure]
        # A lone word opening a sentence of the answer is a name when the answer also uses it
        # inside a name elsewhere ("Flaherty has …" after "Lanny Flaherty"); in the question,
        # when the answer says it too ("Canberra?" → "Canberra is …").
        answer_words = {w for r in said for w in _words(r.name)}
        maybe = [r.name for r in asked if not r.sure and _words(r.name)[0] in answer_words]
        maybe += [r.name for r in said if not r.sure]
        asked_topic = _made_work(question) or next((r.name for r in asked if r.sure), None)
        topic = _without_request(asked_topic, question) if asked_topic else None
        topic = topic or next((r.name for r in said if r.sure), None)
        qualified = re.search(re.escape(topic) + r"\s*\(([^()\n]{1,60})\)", f"{question}\n{answer}") \
            if topic else None
        return cls(topic, tuple(dict.fromkeys(sure)), tuple(dict.fromkeys(m for m in maybe if m not in sure)),
                   f"{topic} ({qualified.group(1).strip()})" if qualified else None,
                   tuple(_continued(topic, question)) if asked_topic and topic else (),
                   question, guess_language(f"{question}\n{answer}"), bool(topic) and not asked_topic, answer)

    def going_on(self) -> str | None:
        """The topic with the "de" or "of" and the lower-case word the question goes on with it ("Arc de
        triomphe" of "Qu'est-ce que l'Arc de triomphe ?"), or None."""
        if not self.topic or self.from_answer:
            return None
        found = re.search(re.escape(self.topic) + r"\s+(de|del|du|des|of)\s+((?-i:[a-zà-ÿ])[\w'’-]+)",
                          self.question)
        if found is None or found.group(2).casefold() in stopwords_for(None):
            return None
        return f"{self.topic} {found.group(1)} {found.group(2)}"

    def topic_titles(self, topic: str) -> tuple[str, ...]:
        """The titles the topic's article may have: with the question's disambiguation first, then as
        the question continues it, then as found."""
        if topic != self.topic:
            return (topic,)
        return tuple(dict.fromkeys((*(t for t in (self.topic_title,) if t), *self.topic_candidates, topic)))

    @classmethod
    def named(cls, names: Sequence[str]) -> Subjects:
        """Subjects given as names, the topic first (a caller that knows what the answer is about)."""
        return cls(names[0] if names else None, tuple(names))

    def is_topic(self, name: str, topic: str | None = None) -> bool:
        """Whether ``name`` is the topic or a part of it ("Flaherty" of "Lanny Flaherty"; "L'Arc" of "Arc de
        triomphe", its elided article aside)."""
        topic = topic if topic is not None else self.topic
        return bool(topic) and _within(_words(ELIDED.sub("", name)), _words(topic or ""))

    def mentions_topic(self, item: Names, topic: str | None = None) -> bool:
        """Whether an item names the topic, wholly or by a part of its name."""
        topic = topic if topic is not None else self.topic
        if not topic:
            return False
        wanted = _words(topic)
        return any(_within(_words(r.name), wanted) or _within(wanted, _words(r.name)) for r in item.runs)

    def sentences_before(self, item: str) -> list[str]:
        """The answer's sentences before ``item`` (where it holds the item's words), in order."""
        at = self.answer.find(item.strip())
        return split_sentences(self.answer[:at]) if at > 0 else []

    def named_before(self, item: str, topic: str | None = None) -> list[str]:
        """The sure names the answer says before ``item`` (where it holds the item's words), the nearest
        first, the topic and its parts left out: what a pronoun opening the item may stand for."""
        at = self.answer.find(item.strip())
        if at < 0:
            return []
        runs = Names.of(self.answer[:at]).runs
        return list(dict.fromkeys(r.name for r in reversed(runs)
                                  if r.sure and r.is_name and not self.is_topic(r.name, topic)))

    def spelt_out(self, run: Run) -> tuple[str, ...]:
        """The titles ``run`` may stand for: itself, then the longest name of the answer it is part of
        ("Márquez" → "Gabriel García Márquez" when the source has no "Márquez")."""
        own = _words(run.name)
        # Only the names holding the run's first word are compared: one look-up, not a scan.
        longer = [n for n in self._by_word.get(own[0], ()) if _within(own, _words(n)) and _words(n) != own]
        longest = sorted(longer, key=lambda n: -len(_words(n)))[:1]
        return tuple(dict.fromkeys([*run.spellings(), *longest]))

    @cached_property
    def _by_word(self) -> dict[str, list[str]]:
        """The answer's names by each of their words."""
        index: dict[str, list[str]] = {}
        for name in self.names:
            for word in set(_words(name)):
                holding = index.setdefault(word, [])
                if len(holding) < _PER_WORD:
                    holding.append(name)
        return index
