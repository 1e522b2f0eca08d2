"""Reading Wikipedia FActScore's way: the subject's whole article, or nothing.

Every backend reads an item the same way (``TopicReader.read``): the item's subject is decided
(``topic.Subjects``), its article is looked up by title (redirects and accents followed, as the
backend can), and the article's passages of about 256 tokens are ranked by BM25 against the
subject and the item together (FActScore's "topic + fact" query); the ``k`` best are the
evidence. A subject the source has no article about gives no evidence and says so
(``Reading.note``): an item is never judged on an article that only shares a word with it. A
question that names nothing but a common noun ("how many times can a cat die?") is about the
article titled by that noun in its language; only an answer whose question names nothing known
either is searched for as today (titles of its nouns, full text).
"""

from __future__ import annotations

import itertools
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from factjudge.records import Evidence
from factjudge.retrieval.wiki.base import Article, WikiSpec, rank_articles
from factjudge.retrieval.wiki.capital import CAPITAL, capital_sentence, geonames_capital
from factjudge.retrieval.wiki.linking import LIFESPAN, STRENGTH, Link, same_life, subject_names
from factjudge.retrieval.wiki.names import Names, fold
from factjudge.retrieval.wiki.topic import Subjects
from factjudge.text.contradiction import tells_of_a_life, tells_of_a_start_or_end
from factjudge.text.country_facts import record
from factjudge.text.described import described_at
from factjudge.text.fold import says
from factjudge.text.makers import made_by, made_verb
from factjudge.text.opposites import CAPITAL_OF, coast_sentences
from factjudge.text.places import country, is_capital, is_place
from factjudge.text.rank import other_rank, ranked_first
from factjudge.text.segmenter import split_sentences

# Where one run of capitalised words joins two names ("Plato and Laurence Olivier").
_COORDINATED = re.compile(r"\s+(?:and|et|y|&)\s+")
# Articles a source keeps looked up (by title and language): every item of an answer asks for
# its topic's article again, and a MediaWiki look-up is a request.
_KEPT_ARTICLES = 64
# A pronoun opening an item that may stand for a person ("He won the Nobel Prize in 1945"), or the verb
# of a Spanish sentence that leaves its pronoun out: "fue", "era", "es" or a past tense in -ó ("Ganó el
# Premio Nobel en 1945").
_EITHER = r"il|elle|él|ella|fue|era|es|[^\W\d_]+ó"  # a person's or a thing's
_PRONOUN = re.compile(rf"\s*(?:he|she|his|her|{_EITHER})\b", re.IGNORECASE)
_EITHER_OPENS = re.compile(rf"\s*(?:{_EITHER})\b", re.IGNORECASE)
# A sentence opening so is about a thing ("C'est un opéra.", "It is an opera."): a pronoun after it that may
# be a thing's stands for that thing, not for a person named earlier.
_A_THING = re.compile(r"\s*(?:c['’]est|ce|it|this|esto|se trata)\b", re.IGNORECASE)
# A pronoun that a making is done to ("Il a été peint en 1863", "Fue escrita en 1605"): a work, not a person.
_MADE_THING = re.compile(r"\s*(?:(?:il|elle)\s+(?:a\s+été|avait\s+été|fut|est)\s+(?:peint|écrit|compos|"
                         r"constru|sculpt|publi|achev|bâti|réalis|dessin|grav)|fue\s+(?:pintad|escrit|"
                         r"compuest|construid|esculpid|publicad|terminad|realizad|dibujad))", re.IGNORECASE)
# What opens an item that stands for the thing the sentence before it is about: a pronoun, singular or
# plural, or a Spanish verb ("Mount Kilimanjaro is the highest mountain in Africa. It is in Tanzania."). A
# person meant by one is found by ``_person_meant``.
_REFERS_BACK = re.compile(rf"\s*(?:it|its|they|their|ello|ellos|ellas|est[aá]n?|se|ils|elles|{_EITHER})\b",
                          re.IGNORECASE)
# A sentence that names what its subject, a description, is ("The capital of Australia is Canberra."): a
# pronoun after it stands for that name.
_IS_NAMED = re.compile(r"\s*(?:the|el|la|los|las|le|les)\s[^.;]*?\s(?:is|was|es|era|fue|est|était|fut)\s+"
                       r"(?:the\s|el\s|la\s|le\s|l['’])?((?-i:[A-ZÀ-Ý])[\w'’-]*(?:\s+(?-i:[A-ZÀ-Ý])[\w'’-]*)*)"
                       r"\s*[.!]?\s*$", re.IGNORECASE)
# A name said partly in lower case that opens an item ("Le mont Blanc", "la tour Eiffel"): the determiner
# before it, and how many of the item's first words are looked up for it.
_OPENING_WORDS = 5
_DETERMINER = re.compile(r"\s*(?:(?:the|el|la|los|las|le|les)\s+|l['’]\s*)?", re.IGNORECASE)
# What an article's opening says of a person and seldom of anything else, in en/es/fr: a pronoun, a
# birth or a death, a lifespan ("(1881–1955)"). Only so much of the article is read for it.
_PERSON = re.compile(r"\b(?:he|she|his|her|born|died|née?|morte?|décédée?|naci[óo]|nacid[oa]|muri[óo]|"
                     r"falleci[óo]|fallecid[oa])\b|\([^()]{0,40}\d{3,4}\s?[–-][^()]{0,40}\d{3,4}\)",
                     re.IGNORECASE)
_PERSON_CHARS = 600
# The English article read after one in another language: its best passages, and the links that are sure
# to name the same subject (a title, a name its lead gives it; a short form may name another).
_ENGLISH = "en"
_EDITION_PASSAGES = 2
# The French leads open with a person's birth and death, dated and placed ("né le 25 juin 1852 à Reus … et
# mort le 10 juin 1926 à Barcelone"), which the English and Spanish ones often leave out.
_FRENCH = "fr"
# Leads searched by full text for the French one of a person whose two editions' titles differ
# ("Leonardo da Vinci", "Léonard de Vinci").
_LIFE_LEADS = 10
# What ends a person's title without being a surname: a suffix or a ruler's ordinal.
_NO_SURNAME = re.compile(r"(?:Jr|Sr)\.?|[IVX]+|Ier|1er")
_SAME_THING = frozenset({"title", "base", "lead", "also"})
# Sentences read from another name's article that names a subject with no article of its own.
_TOLD_BY_OTHERS = 2
# Leads searched by full text for the one that names a country's capital (its other cities come first).
_CAPITAL_LEADS = 30


@dataclass(frozen=True)
class Reading:
    """What one item was read against: the source, the subject it was taken to be about, the
    subject's article there (None: it has none) and the passages chosen, best first.

    ``subject`` None: the answer names nothing, and the source was searched instead.
    """

    evidence: tuple[Evidence, ...]
    source: str
    subject: str | None = None
    article: str | None = None
    # Articles the subject's name may stand for, none of which the item's words chose ("Mercury").
    unsure: tuple[str, ...] = ()

    @property
    def has_article(self) -> bool:
        """Whether the item was read in its subject's own article."""
        return self.article is not None

    @property
    def note(self) -> str | None:
        """Why the item has no evidence, for people: "no article about ⟨subject⟩ in ⟨source⟩"."""
        if self.subject is None or self.article is not None:
            return None
        if self.unsure:
            return (f"no article surely about {self.subject} in {self.source} (it may be "
                    f"{' or '.join(self.unsure)}: nothing in the item tells)")
        missing = f"no article about {self.subject} in {self.source}"
        told = " and ".join(dict.fromkeys(ev.title for ev in self.evidence if ev.title))
        # Read in the sentences of other articles that name it (``_told_by_others``).
        return f"{missing}; read where {told} names it" if told else missing


# Kinds of alias that are another name of an article's subject (``linking.aliases``), not a short form.
OTHER_NAMES = frozenset({"lead", "also"})


def _writes(passages: Sequence[Evidence], name: str) -> bool:
    """Whether one of ``passages`` writes ``name`` (case and accents aside)."""
    return any(says(ev.text, name) for ev in passages)


def _names_surely(link: Link | None, lang: str = _ENGLISH) -> bool:
    """Whether ``link`` names an article in ``lang`` (English unless said) as surely as a title does (never by
    a short form)."""
    return link is not None and link.lang == lang and link.kind in _SAME_THING


def _names_whole(text: str, name: str) -> bool:
    """Whether ``text`` writes ``name`` as a name of its own, not inside a longer one ("Haute-Garonne")."""
    return re.search(rf"(?<![\w-]){re.escape(fold(name))}(?![\w-])", fold(text)) is not None


def _described(query: str, subjects: Subjects) -> tuple[str, ...]:
    """The name an item opening with what it says of it is about ("La capitale du Japon est Tokyo")."""
    at = described_at(query)
    lead = Names.of(query[at:]).leading() if at is not None else None
    return subjects.spelt_out(lead) if lead is not None else ()


def _capital_of_a_country(query: str, town: Article) -> list[Evidence]:
    """The capital GeoNames gives the country ``query`` says its subject, the town ``town`` is about, is the
    capital of ("C'est la capitale de la France" of Marseille: "The capital of France is Paris."): a town's
    lead says what it is the capital of only where it is one."""
    said = CAPITAL_OF.search(query)
    # A country's capital said to be another's is read in its own lead, which names its country.
    if said is None or country(town.title) is not None or not is_place(town.title) or is_capital(town.title):
        return []
    told = geonames_capital(said.group("country"))
    return [told] if told is not None else []


def _coast_of_a_country(query: str, article: Article) -> list[Evidence]:
    """The sentences of the country ``article``'s lead that give it a sea or none (``coast_sentences``), for
    an item saying it has a coast or none: the passages read are cut to the sentences the item's words
    choose, which may leave them out."""
    if country(article.title) is None:
        return []
    return [Evidence("wikipedia", sentence, url=article.url, title=article.title)
            for sentence in coast_sentences(query, article.text)]


def _speaks_of(article: Article, topic: Article, name: str) -> bool:
    """Whether ``article`` says the ``topic`` article's title or the ``name`` the answer gives it."""
    text = fold(article.text)
    return any(fold(n) in text for n in (topic.title, name))


# The English Wikipedia's title for a subject named in a language, asked of the model (None: no answer read).
EnglishTitle = Callable[[str, str], "str | None"]


class WikiSource(Protocol):
    """A Wikipedia backend: an item's passages, read in its subject's article."""

    spec: WikiSpec
    name: str  # how a person names it: "the packaged Wikipedia summaries", a file's name, a host

    def read(self, query: str, k: int, *, subjects: Subjects | None = None,
             language: str | None = None, english_title: EnglishTitle | None = None) -> Reading:
        """Up to ``k`` passages for ``query`` from its subject's article, and what decided them."""
        ...

    def search(self, query: str, k: int, *, topics: Sequence[str] = (),
               language: str | None = None) -> list[Evidence]:
        """Up to ``k`` passages for ``query`` found without a subject; ``topics`` titles first."""
        ...


class TopicReader:
    """The reading every Wikipedia backend shares; a backend supplies the three look-ups below."""

    spec: WikiSpec
    # How a person names the source in a note ("the packaged Wikipedia summaries").
    name: str = "Wikipedia"
    # Whether it holds several languages' articles, the English one read after another's (``_in_english``).
    other_editions: bool = False

    def __init__(self) -> None:
        self._kept: OrderedDict[tuple[str, str | None], Article | None] = OrderedDict()
        self._kept_lock = threading.Lock()

    def find_article(self, title: str, language: str | None) -> Article | None:
        """The article titled ``title`` (redirects and accents followed), in ``language`` if it has one."""
        raise NotImplementedError

    def search(self, query: str, k: int, *, topics: Sequence[str] = (),
               language: str | None = None) -> list[Evidence]:
        """Up to ``k`` passages for ``query`` found without a subject (full text, titles of its words)."""
        raise NotImplementedError

    def full_text(self, query: str, k: int, language: str | None) -> list[Evidence]:
        """Up to ``k`` leads of any article by ``query``'s words (full text, none preferred for a name it
        says); none where the source cannot search its text."""
        return []

    def article_passages(self, article: Article, query: str, k: int,
                         language: str | None) -> list[Evidence]:
        """The ``k`` passages of ``article`` that bear most on ``query``."""
        return rank_articles(query, [article], k, topics=[article.title], language=language,
                             source="wikipedia")

    def article(self, names: Sequence[str], language: str | None) -> Article | None:
        """The first of ``names`` the source has an article about (looked up once per process)."""
        for name in names:
            key = (fold(name), language)
            with self._kept_lock:
                if key in self._kept:
                    self._kept.move_to_end(key)
                    found = self._kept[key]
                    if found is not None:
                        return found
                    continue
            found = self.find_article(name, language) if name.strip() else None
            with self._kept_lock:
                self._kept[key] = found
                while len(self._kept) > _KEPT_ARTICLES:
                    self._kept.popitem(last=False)
            if found is not None:
                return found
        return None

    def link(self, names: Sequence[str], context: str, language: str | None) -> Link | None:
        """The article the first of ``names`` the source knows stands for (``context``: the item's and the
        question's words, which choose among homonyms where the source can tell them apart). Here: the
        first name the source has an article titled by; a source with an alias index links by it."""
        for name in names:
            found = self.article([name], language)
            if found is not None:
                return Link(name, found.title, found.lang, "title", 1.0, article=found)
        return None

    def spot(self, text: str) -> str | None:
        """A name of an article ``text`` says without capitals ("the golden ratio"); none known here."""
        return None

    def homonyms(self, name: str) -> tuple[str, ...]:
        """The articles ``name`` may stand for when it was not linked (none known here)."""
        return ()

    def is_person(self, article: Article) -> bool:
        """Whether ``article`` is about a person, as its opening tells (a source that knows its articles'
        categories says so instead)."""
        return bool(_PERSON.search(article.text[:_PERSON_CHARS]))

    def description(self, article: Article) -> str:
        """The short description of ``article`` ("English polymath (1642–1727)"); "" where none is known."""
        return ""

    def is_common(self, word: str) -> bool:
        """Whether ``word`` is also a common word ("Violence"), so opening a sentence it may be no name;
        without word counts every word may be."""
        return True

    def noun(self, question: str, context: str, language: str | None) -> Link | None:
        """The article a common noun of ``question`` is titled by ("a cat" → *Cat*); none known here."""
        return None

    def topic_of(self, subjects: Subjects, language: str | None, context: str = "") -> str | None:
        """The answer's topic: the one the question (or the caller) names; else an article's name the
        question says in lower case, or the article a common noun of the question is titled by ("how many
        times can a cat die?" → *Cat*); else the answer's first sure name when it has an article, the
        first word opening a sentence that has one, an article's name the item says in lower case; else
        the answer's name, which has no article (said so)."""
        if subjects.topic and not subjects.from_answer:
            # "L'Arc de triomphe": where "Arc" alone names only things told apart by brackets (*Arc (arme)*,
            # *Arc (architecture)*), the whole name is the topic, whether or not an article has it.
            going_on = subjects.going_on()
            bare = self.link([subjects.topic], context, language) if going_on else None
            if going_on and (bare is None or (bare.kind == "base" and bare.rivals)) \
                    and self.link([going_on], context, language) is None:
                return going_on
            spotted = self.spot(subjects.question)
            around = [spotted] if spotted and subjects.is_topic(subjects.topic, spotted) else []
            # The name the topic is part of, said partly in lower case ("le mont Blanc" of "Blanc"), is what
            # the question asks about, though the part has an article of its own (*Blanc*, the colour).
            if around and around[0] != subjects.topic and self.link(around, context, language) is not None:
                return around[0]
            if self.link(subjects.topic_titles(subjects.topic), context, language) is not None:
                return subjects.topic
            # No article surely about it: the names it joins ("Plato and Laurence Olivier"), else another
            # name the question says ("the Spanish region of Galicia"), when one has an article.
            # A part of it is none: "Geertz" of "Du Geertz", whom the source does not know.
            asked = [r.name for r in Names.of(subjects.question).runs if r.sure and r.is_name]
            others = [*around, *_COORDINATED.split(subjects.topic),
                      *(n for n in asked if not subjects.is_topic(n))]
            return next((n for n in others if n != subjects.topic and self.link([n], context, language)),
                        subjects.topic)
        spotted = self.spot(subjects.question)
        # A run naming articles none of which the words choose ("las letras") yields to the noun.
        if spotted and self.link([spotted], context, language) is not None:
            return spotted
        noun = self.noun(subjects.question, context, language) if subjects.question else None
        if noun is not None:
            return noun.title
        if subjects.topic and self.link([subjects.topic], context, language) is not None:
            return subjects.topic
        return next((m for m in subjects.maybe if self.link([m], context, language) is not None), None) \
            or self.spot(context) or subjects.topic

    def read(self, query: str, k: int, *, subjects: Subjects | None = None,
             language: str | None = None, english_title: EnglishTitle | None = None) -> Reading:
        """The passages ``query`` (one item) is judged on, and what decided them.

        The item is about the topic when it names it (or a part of it) or opens with no other
        name, nor with a pronoun standing for another thing the answer spoke of (``_opening``); about
        another name when it opens with one (several words, or "The …"; a lone word
        when the source has an article by it that, where the answer has a topic, is no common word).
        An item opening with another name that also names the topic ("Mercury is the closest planet
        to the Sun", asked about the Sun) reads both articles, its own first. Each name is linked
        to the article it stands for (``link``), in the answer's language first; a subject with no
        article, or whose words cannot tell which, gives no passage and a note; an answer naming
        nothing is searched for.
        """
        subjects = subjects or Subjects()
        # The language the question and answer are written in, where their words tell (a French answer
        # reads French articles first whatever the check's default language); else the one given.
        language = subjects.language or language
        item = Names.of(query)
        context = f"{subjects.question} {query}"
        topic = self.topic_of(subjects, language, context)
        subject: Sequence[str] = subjects.topic_titles(topic) if topic else ()
        also: Sequence[str] = ()
        lead = item.leading()
        if lead is not None and not (topic and subjects.is_topic(lead.name, topic)):
            spellings = subjects.spelt_out(lead)
            if lead.sure or ((not subjects.topic or not self.is_common(lead.name))
                             and self.link(spellings, context, language) is not None):
                also = subject if topic and subjects.mentions_topic(item, topic) else ()
                subject = spellings
        elif lead is None and topic:
            opening = self._opening(query, subjects, topic, context, language)
            if opening:
                also = subject if subjects.mentions_topic(item, topic) else ()
                subject = opening
        if not subject:
            found = self.search(query, k, topics=item.whole(), language=language)
            return Reading(tuple(found), self.name)
        named = topic if topic and subject[-1] == topic else subject[0]
        article = self._linked(subject, context, language)
        if article is None and topic and named == topic:
            article = self._placed_by_answer(subject, subjects, language)
        other = self._linked(also, context, language) if also else None
        if article is None and other is None and topic and named == topic:
            # A topic with no article ("Fifth Symphony"): a pronoun still stands for the person named before.
            article = self._pronoun_for(query, subjects, topic, context, language)
        if article is None and other is None and not self.homonyms(named):
            # No article in any language by this name ("la Luna" in the Spanish summaries): the English
            # one, by the title the model gives the subject, when that names one surely ("Moon").
            article = self._english_only(named, context, language, english_title)
        if article is None and other is None:
            unsure = self.homonyms(named)
            told = () if unsure else self._told_by_others(named, query, context, language)
            return Reading(tuple(told[:k]), self.name, named, unsure=unsure)
        read = list({a.title: a for a in (other, article) if a is not None}.values())[::-1]
        if topic and named == topic and other is None and article is not None and not self.is_person(article):
            person = self._person_meant(query, item, subjects, topic, article, context, language)
            if person is not None and person.title != article.title:
                # A pronoun stands for the person first; a person the item names besides its topic
                # ("Penicillin was discovered by Alexander Fleming") is read after the topic.
                read = [person, article] if _PRONOUN.match(query) else [article, person]
        # The item names the topic in full ("Johann Sebastian Bach", asked about "Bach") where only the
        # topic has an article in the answer's language: that one is the same subject, read first.
        if len(read) == 2 and language and read[1].lang == language != read[0].lang and lead is not None \
                and topic and topic == subjects.topic and subjects.is_topic(topic, lead.name):
            read.reverse()
        ranked = [self.article_passages(a, f"{named} {query}", k, language) for a in read]
        # Both articles' best passages, in turn: one long article does not crowd the other out.
        passages = [ev for tier in itertools.zip_longest(*ranked) for ev in tier if ev is not None][:k]
        own = subject if read[0] is article else ()
        passages += [ev for a in read for ev in self._lifespan(a, query)]
        passages += self._in_english(read[0], own, f"{named} {query}", context, english_title)
        passages += self._life_in_french(read[0], own, query, context)
        passages += self._named_otherwise(query, passages, language)
        passages += self._ranked(query, named, passages, context, language)
        passages += self._made_by(query, read[0], passages, context, language)
        passages += self._capital_named(query, read[0], passages)
        passages += _capital_of_a_country(query, read[0])
        passages += _coast_of_a_country(query, read[0])
        passages += self._country_record(query, read, topic, language)
        return Reading(tuple(passages), self.name, named, read[0].title)

    def _told_by_others(self, named: str, query: str, context: str, language: str | None) -> list[Evidence]:
        """The sentences naming ``named``, a subject no article is about, in the articles of the other names
        ``query`` says ("Il traverse Lyon" of the Rhône: "Lyon est une commune … au confluent du Rhône et de
        la Saône"), as a reader who finds no article looks up the next name. Only a sentence naming the
        subject is read: an article about another thing speaks of that thing, not of the subject."""
        subject = _DETERMINER.sub("", named, count=1)
        if any(c.isdigit() for c in subject):
            return []  # a date taken for a name ("Until 1759 he was …"), which any sentence of it writes
        found: dict[str, list[Evidence]] = {}
        for name in (part for whole in Names.of(query).whole() for part in _COORDINATED.split(whole)):
            if says(name, subject) or says(subject, name):
                continue
            article = self._linked([name], context, language)
            if article is None or article.title in found:
                continue
            found[article.title] = [Evidence("wikipedia", sentence, url=article.url, title=article.title)
                                    for sentence in split_sentences(article.text)
                                    if _names_whole(sentence, subject)][:_TOLD_BY_OTHERS]
        return [ev for sentences in found.values() for ev in sentences]

    def _placed_by_answer(self, names: Sequence[str], subjects: Subjects,
                          language: str | None) -> Article | None:
        """The article the answer's topic (``names``) stands for where the item's words cannot tell its
        homonyms apart ("Desemboca en el océano Pacífico") and another sentence of the answer places it as
        surely as a title would ("El Amazonas es un río …"): one sentence at a time, as a long answer's words
        together share some with nearly any article, and no weaker link ("American trains" taken for
        *Scientific American* by one shared word)."""
        for sentence in split_sentences(subjects.answer):
            link = self.link(names, f"{subjects.question} {sentence}", language)
            if link is not None and link.confidence >= STRENGTH["title"]:
                return self._article_of(link, language)
        return None

    def _made_by(self, query: str, person: Article, passages: Sequence[Evidence], context: str,
                 language: str | None) -> list[Evidence]:
        """The sentence of a work's article that names ``person``, for an item saying the person made it
        ("He painted the Mona Lisa") where ``passages`` never write the work: a person's short lead often
        leaves out works its articles credit him with ("The Mona Lisa is a half-length portrait painting by
        the Italian artist Leonardo da Vinci"); else its opening sentence where that names another person as
        its maker (``text.makers``: "Moby-Dick … is an 1851 epic novel by American writer Herman Melville",
        for "He wrote Moby-Dick" of Dickens). No other sentence of a work another made is read: a value's
        own lead read whole would be taken for support."""
        verb = made_verb(query)
        if verb is None or not self.is_person(person):
            return []
        # The name a sentence about his work calls him by: the title's last word that is no suffix or ordinal
        # ("Vinci", "Márquez"; not "Jr." or "II").
        words = [w for w in re.sub(r"\s*\(.*\)$", "", person.title).split() if not _NO_SURNAME.fullmatch(w)]
        if not words:
            return []
        surname = words[-1]
        # A title in sentence case ("Cien años de soledad") is no run of capitalised words: spotted whole.
        spotted = self.spot(query)
        works = [n for n in dict.fromkeys([*([spotted] if spotted else []), *Names.of(query).whole()])
                 if not says(n, surname)]
        return self._sentences_of_named(works, passages, context, language,
                                        lambda name, work, sentence: self._made_by_another(
                                            work, sentence, verb, person, surname) or (
                                            not self.is_person(work) and says(sentence, surname)))

    def _made_by_another(self, work: Article, sentence: str, verb: str, person: Article,
                         surname: str) -> bool:
        """Whether ``sentence`` opens ``work``'s article, calls it a work and names as its maker (for
        ``verb``) persons (with a person's article, or a name of two words or more with none) other than
        ``person``: none of their surnames does his opening sentence write, nor does the work's article write
        his ``surname``. A work's lead that says "her pen name" is no person's, as ``is_person`` would take
        it."""
        opening = split_sentences(work.text)[:1]
        makers = made_by(sentence, verb) if opening and opening[0] == sentence else ()
        # A maker his opening sentence names is himself under another name ("Doménikos Theotokópoulos, el
        # Greco"); a peer named further on is another ("aux côtés de Victor Hugo", in *Gustave Flaubert*).
        names = " ".join(split_sentences(person.text)[:1])
        if not makers or says(work.text, surname) or any(says(names, m.split()[-1]) for m in makers):
            return False
        linked = [self._linked([maker], sentence, work.lang) for maker in makers]
        return all((a is None and len(maker.split()) > 1) or (a is not None and self.is_person(a)
                                                               and a.title != person.title)
                   for maker, a in zip(makers, linked, strict=True))

    def _country_record(self, query: str, read: Sequence[Article], topic: str | None,
                        language: str | None) -> list[Evidence]:
        """The record of the first country the articles ``read``, else the item's names, else the answer's
        ``topic`` are about, where the item speaks of its currency, its land neighbours or its largest town
        (``text.country_facts``): a lead seldom names the first, never lists all the second, and a town's lead
        says it is the largest only where it is ("Canberra is its largest city", asked about Australia, reads
        *Canberra* alone)."""
        titles = [article.title for article in read if not self.is_person(article)]
        return record(query, [*titles, *Names.of(query).whole(), *([topic] if topic else [])],
                      language or read[0].lang)

    def _capital_named(self, query: str, country: Article, passages: Sequence[Evidence]) -> list[Evidence]:
        """The sentence of another lead that names ``country``'s capital (``capital_sentence``), for an item
        about its capital where the country's lead never says "capital" ("La capitale de l'Australie est
        Sydney": *Australie* is silent, *Canberra* says it); where none does, nor any of ``passages`` (the
        English lead read after the French one), the one GeoNames gives."""
        said = CAPITAL.search(query)
        if said is None or CAPITAL.search(country.text) or self.is_person(country):
            return []
        # In the country's language first; else in any (the English summaries have no *Canberra*, the
        # Spanish one says "Canberra es la capital de Australia").
        for language in dict.fromkeys((country.lang, None)):
            leads = self.full_text(f"{said.group()} {country.title}", _CAPITAL_LEADS, language)
            found = capital_sentence([country.title], (ev for ev in leads if ev.title != country.title))
            if found is not None:
                return [found]
        if any(CAPITAL.search(ev.text) for ev in passages):
            return []
        told = geonames_capital(country.title)
        return [told] if told is not None else []

    def _ranked(self, query: str, named: str, passages: Sequence[Evidence], context: str,
                language: str | None) -> list[Evidence]:
        """The sentence of the article another name ``query`` states stands for that ranks it lower than the
        item's superlative (``other_rank``: "The Congo is the second-longest river in Africa" for "The
        longest river in Africa is the Congo River") or gives it the same one (``ranked_first``: "Vänern is
        the largest lake in Sweden" for "Sweden's biggest lake is Vänern"), where ``passages`` never write
        that name: the lead of the place ranked often says it, where the lead of the place it is in does
        not. Only such a sentence is read: a value's own lead otherwise speaks of the value, and the judge
        took "Sydney is the capital city of the state of New South Wales" for "La capitale de l'Australie
        est Sydney"."""
        others = [n for n in Names.of(query).whole() if fold(n) != fold(named)]
        return self._sentences_of_named(others, passages, context, language,
                                        lambda name, article, sentence: (other_rank(
                                            query, 0, name, sentence, own_article=True) or ranked_first(
                                            query, 0, name, sentence, own_article=True)) is not None)

    def _sentences_of_named(self, names: Sequence[str], passages: Sequence[Evidence], context: str,
                            language: str | None,
                            wanted: Callable[[str, Article, str], bool]) -> list[Evidence]:
        """For each of ``names`` that ``passages`` never write and that stands for an article not read yet,
        the first sentence of that article ``wanted`` (the name, the article, the sentence) picks; else of
        the English article about the same subject, as surely linked (the Spanish *Canadá* says nothing of
        its size, the English *Canada* "the second-largest country by total area")."""
        read = {ev.title for ev in passages}
        found: dict[str, Evidence] = {}
        for name in names:
            if _writes(passages, name):
                continue
            article = self._linked([name], context, language)
            if article is None or article.title in read or article.title in found:
                continue
            for edition in self._and_in_english(article, name, context):
                if edition.title in read:
                    continue
                sentence = next((s for s in split_sentences(edition.text) if wanted(name, edition, s)), None)
                if sentence is not None:
                    found[article.title] = Evidence("wikipedia", sentence, url=edition.url,
                                                    title=edition.title)
                    break
        return list(found.values())

    def _and_in_english(self, article: Article, name: str, context: str) -> Iterator[Article]:
        """``article``, then the English article about the same subject as surely linked, looked up only
        when asked for."""
        yield article
        if self.other_editions and article.lang != _ENGLISH:
            english = self._edition_article(self.link([article.title, name], context, _ENGLISH))
            if english is not None:
                yield english

    def _opening(self, query: str, subjects: Subjects, topic: str, context: str,
                  language: str | None) -> tuple[str, ...]:
        """The names of what an item opening with no capitalised name is about, when it is not the topic:
        a name said partly in lower case that opens it ("Le mont Blanc est …", asked about the Alps), else
        the thing the sentence before it is about, which a pronoun stands for ("It is in Tanzania" after
        "Mount Kilimanjaro is …"; a person is ``_person_meant``)."""
        found = self._lower_case_opening(query) or _described(query, subjects)
        # "Il est né à Dijon" after "La tour Eiffel doit son nom à Gustave Eiffel": a pronoun that may stand
        # for a person stands for the one the answer named before it (``_person_meant``).
        if not found and _REFERS_BACK.match(query) \
                and self._pronoun_for(query, subjects, topic, context, language) is None:
            for sentence in reversed(subjects.sentences_before(query)):
                lead = Names.of(sentence).leading()
                found = subjects.spelt_out(lead) if lead is not None else self._lower_case_opening(sentence)
                named = _IS_NAMED.match(sentence)
                if not found and named:
                    found = (named.group(1),)
                if found or not _REFERS_BACK.match(sentence):
                    break
        if not found or subjects.is_topic(found[0], topic):
            return ()
        article = self._linked(found, context, language)
        return found if article is not None and not self.is_person(article) else ()

    def _lower_case_opening(self, sentence: str) -> tuple[str, ...]:
        """An article's name said partly in lower case that opens ``sentence`` ("Le mont Blanc", "la tour
        Eiffel"), after a determiner: no capitals mark where such a name begins."""
        spotted = self.spot(" ".join(sentence.split()[:_OPENING_WORDS]))
        opening = _DETERMINER.match(sentence)
        if spotted and any(w[:1].isupper() for w in spotted.split()) and opening is not None \
                and sentence[opening.end():].startswith(spotted):
            return (spotted,)
        return ()

    def _person_meant(self, query: str, item: Names, subjects: Subjects, topic: str, article: Article,
                      context: str, language: str | None) -> Article | None:
        """The person an item about a ``topic`` (its ``article``) that is no person also speaks of: one it
        names besides the topic whose article speaks of the topic too ("Penicillin was discovered by
        Alexander Fleming in 1928": his lead says penicillin; Louis Pasteur's does not, and read for
        "discovered by Louis Pasteur" it would only show the judge a man known for discoveries), else,
        when it opens with a pronoun ("He won the Nobel Prize in 1945"), the person the answer named
        last before it. A thing it names is not read: the small judge reads a city's own lead ("Sydney
        is the capital of New South Wales … the most populous city in Australia") as saying what is
        asked of the topic."""
        own = [r.name for r in item.runs if r.sure and r.is_name and not subjects.is_topic(r.name, topic)]
        for name in own:
            found = self._linked([name], context, language)
            if found is not None and self.is_person(found) and _speaks_of(found, article, topic):
                return found
        # A pronoun a making is done to is the topic, a work whose article is read ("Il a été peint en 1863").
        if _MADE_THING.match(query):
            return None
        return self._pronoun_for(query, subjects, topic, context, language)

    def _pronoun_for(self, query: str, subjects: Subjects, topic: str, context: str,
                     language: str | None) -> Article | None:
        """The person the answer named last before ``query`` when it opens with a pronoun (or a Spanish
        verb that leaves it out): "He was born in Bonn in 1770" after "Ludwig van Beethoven composed …"."""
        if not _PRONOUN.match(query):
            return None
        before = subjects.sentences_before(query)[-1:]
        if before and _A_THING.match(before[0]) and _EITHER_OPENS.match(query) \
                and not any(r.sure and r.is_name and not subjects.is_topic(r.name, topic)
                            for r in Names.of(before[0]).runs):
            return None
        for name in subjects.named_before(query, topic):
            found = self._linked([name], context, language)
            if found is not None and self.is_person(found):
                return found
        return None

    def _in_english(self, article: Article, names: Sequence[str], query: str, context: str,
                    english_title: EnglishTitle | None = None) -> list[Evidence]:
        """The best passages of the English article about ``article``'s subject, read after it when it is
        in another language: the Spanish and French leads are often shorter and say less ("Le Canada est
        un pays d'Amérique septentrionale …" never names its capital; the English lead does). Only a
        title or a name its lead gives it links the two, never a short form; where the leads share none,
        the title ``english_title`` (the model) gives the subject in English, linked as surely."""
        if not self.other_editions or article.lang == _ENGLISH:
            return []
        link = self.link([article.title, *names], context, _ENGLISH)
        if not _names_surely(link):
            # The title may be another language's too ("Francisco de Goya", the French one's), where a name
            # the lead gives its subject links the English article ("Francisco José de Goya y Lucientes").
            given = sorted(subject_names(article.title, article.text))
            link = next((found for found in (self.link([name], context, _ENGLISH) for name in given)
                         if _names_surely(found)), None)
        if link is None and english_title is not None:
            # No name the two leads share: the English title the model gives the subject, when it names an
            # English article as surely (*Brésil* → "Brazil", *Primera Guerra Mundial* → "First World War").
            translated = english_title(article.title, article.lang)
            link = self.link([translated], context, _ENGLISH) if translated else None
            # A title another article of the same edition bears is another thing's ("Bretagne" given as
            # "France").
            own = self.link([translated], context, article.lang) if translated else None
            if own is not None and own.lang == article.lang and own.title != article.title \
                    and own.kind in _SAME_THING:
                link = None
        found = self._edition_article(link)
        if found is None:
            return []
        passages = self.article_passages(found, query, _EDITION_PASSAGES, _ENGLISH)
        return [*passages, *self._lifespan(found, query)]

    def _life_in_french(self, article: Article, names: Sequence[str], query: str,
                        context: str) -> list[Evidence]:
        """The sentence of the French lead about ``article``'s person that tells of a birth or a death, for an
        item in another language that speaks of one ("Murió en Madrid" of Gaudí, "mort … à Barcelone"): only
        a title or a name its lead gives it links the two, as for the English edition."""
        if not self.other_editions or article.lang == _FRENCH or not tells_of_a_life(query) \
                or not self.is_person(article):
            return []
        found = self._edition_article(self.link([article.title, *names], context, _FRENCH), _FRENCH) \
            or self._french_by_life(article)
        if found is None:
            return []
        sentence = next((s for s in split_sentences(found.text) if tells_of_a_life(s)), None)
        return [Evidence("wikipedia", sentence, url=found.url, title=found.title)] if sentence else []

    def _french_by_life(self, article: Article) -> Article | None:
        """The French article about ``article``'s person where the titles differ ("Leonardo da Vinci",
        "Léonard de Vinci"): the one lead of the same life (``same_life``) by the lifespan ``article``'s
        description gives."""
        description = self.description(article)
        if not LIFESPAN.search(description):
            return None
        found = {ev.title for ev in self.full_text(f"{article.title} {description}", _LIFE_LEADS, _FRENCH)
                 if ev.title and same_life(article.title, description, ev.title, ev.text)}
        french = self.article(list(found), _FRENCH) if len(found) == 1 else None
        return french if french is not None and french.lang == _FRENCH and self.is_person(french) else None

    def _english_only(self, name: str, context: str, language: str | None,
                      english_title: EnglishTitle | None) -> Article | None:
        """The English article about ``name``, a subject no article of any language is known by, through
        the title the model gives it in English; None where the answer is English or that names none."""
        if not self.other_editions or english_title is None or not language or language == _ENGLISH:
            return None
        translated = english_title(name, language)
        return self._edition_article(self.link([translated], context, _ENGLISH) if translated else None)

    def _edition_article(self, link: Link | None, lang: str = _ENGLISH) -> Article | None:
        """The article in ``lang`` (English unless said) ``link`` names as surely as a title does, or None."""
        if link is None or not _names_surely(link, lang):
            return None
        found = link.article or self.article([link.title], lang)
        return found if found is not None and found.lang == lang else None

    def _lifespan(self, article: Article, query: str) -> list[Evidence]:
        """The lifespan ``article``'s short description gives its person ("Isaac Newton (1642–1727), English
        polymath."), as a passage, for an item that speaks of a birth or a death: the summaries' leads drop
        the brackets Wikipedia's opening sentence gives them in, so a lead often says neither year. So is
        a thing's span, in words, for an item that speaks of its start or end ("World War II, Global
        conflict, from 1939 to 1945." for "World War II began in 1939"): brackets would make it a life."""
        description = self.description(article)
        span = LIFESPAN.search(description)
        person = self.is_person(article)
        if span is None or not (tells_of_a_life(query) if person else tells_of_a_start_or_end(query)):
            return []
        rest = (description[:span.start()] + description[span.end():]).strip(" ,;")
        if person:
            text = f"{article.title} {span.group()}" + (f", {rest}." if rest else ".")
        else:
            years = re.sub(r"\s*[–-]\s*", " to ", span.group().strip("()"))
            text = f"{article.title}" + (f", {rest}," if rest else "") + f" from {years}."
        return [Evidence("wikipedia", text, url=article.url, title=article.title)]

    def _named_otherwise(self, query: str, passages: Sequence[Evidence],
                         language: str | None) -> list[Evidence]:
        """The opening sentence of each article ``query`` names by another of its names ("Tananarive")
        where ``passages`` name it by its title ("Sa capitale est Antananarivo"): the sentence a reader
        sees the two names are one thing in ("Antananarivo ou Tananarive …")."""
        said = fold(" ".join(ev.text for ev in passages))
        found: dict[str, Evidence] = {}
        for name in Names.of(query).whole():
            link = self.link([name], query, language)
            if link is None or link.kind not in OTHER_NAMES or fold(link.title) == fold(name) \
                    or link.title in found or any(ev.title == link.title for ev in passages) \
                    or not says(said, link.title):
                continue
            article = link.article or self.article([link.title], link.lang or language)
            opening = split_sentences(article.text)[:1] if article is not None else []
            if article is not None and opening:
                found[link.title] = Evidence("wikipedia", opening[0], url=article.url, title=article.title)
        return list(found.values())

    def _linked(self, names: Sequence[str], context: str, language: str | None) -> Article | None:
        """The article the first linkable of ``names`` stands for, or None."""
        linked = self.link(names, context, language)
        return self._article_of(linked, language) if linked is not None else None

    def _article_of(self, link: Link, language: str | None) -> Article | None:
        """The article ``link`` names (kept on it, else looked up by its title)."""
        return link.article or self.article([link.title], link.lang or language)
