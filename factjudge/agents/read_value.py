"""Read a value from the passages, then compare it with the value the item states (TRUE's Q² idea).

Asked "is every fact supported?", a small model follows word overlap; asked to *answer* from the
same passages it reads them ("Ottawa"). So each value of an item (``text.values``) becomes a cloze
blank ("The capital of Canada is ___ (a name).") or a question asked where the value stood ("The
capital of Canada is what?"); the model answers from the passages in a few words or says they do
not say, and ``text.value_match`` compares its answer with the item's value. The passages come
before the item in the prompt, so a local model's cached prefix serves every value of one item.
A value the model reads but the passages do not contain came from its own belief, and one the
item itself states elsewhere was read into the wrong slot: neither contradicts anything, and such a
reading is asked once more in the other form. A value a passage states in the item's own words (the
same words around it) is confirmed without asking, and the value a passage sentence holds between the
item's own words around it is read there without asking (a small model is drawn to a value the same
lead states elsewhere). A name read in English from a Spanish or French passage is compared as the
passage writes it.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from factjudge.agents.calling import ask
from factjudge.agents.settled import settled
from factjudge.grounds import ValueCheck
from factjudge.llm.base import ChatModel, GenerationParams
from factjudge.prompts import fence, load_prompt, render_passages
from factjudge.prompts.contracts import ValueContract, ValueReply
from factjudge.records import Evidence
from factjudge.retrieval.wiki.linking import LIFESPAN, same_life, subject_names
from factjudge.retrieval.wiki.names import Names, fold
from factjudge.text.contradiction import (
    BEGAN,
    DATES,
    ENDED,
    EVENT_STEM,
    LOCATED,
    NAMED,
    dates_the_life,
    life_told,
    not_a_contradiction,
)
from factjudge.text.fold import says, words
from factjudge.text.language import guess_language
from factjudge.text.makers import what_was_made
from factjudge.text.nationality import written_nationality
from factjudge.text.places import country
from factjudge.text.rank import other_rank
from factjudge.text.segmenter import split_sentences
from factjudge.text.tokenize import stems
from factjudge.text.value_match import (
    Outcome,
    aligned_value,
    compare_values,
    echoes_other,
    held_name,
    passage_form,
    passage_with,
    place_form,
    place_in_a_name,
    stated_alike,
    with_its_year,
)
from factjudge.text.values import ERA, MONTHS, UNITS, Kind, ValueSpan, topic_names, value_spans

Form = Literal["cloze", "question"]
# Lower-case words after a name that may be the rest of its title ("Paradis reconquis").
_TITLE_WORDS = 3
PROMPTS: dict[Form, str] = {"cloze": "read_value_cloze", "question": "read_value_question"}
# A value is a few words: the reply is cut here (greedy, so a longer budget only adds rambling).
MAX_TOKENS = 20
# A year as a sentence writes it.
_YEAR = re.compile(r"\b\d{3,4}\b")
# A span of years a sentence gives ("from 1961 to 1989", "(1961–1989)", "de 1961 à 1989", "desde el 13 de
# agosto de 1961 hasta el 9 de noviembre de 1989"): its ends are the years its subject began and ended
# (``BEGAN``, ``ENDED``).
_SPAN_OF_YEARS = re.compile(r"\b(\d{3,4})\s*(?:[–-]|to|until|à|au|a|hasta|y|and|et)\s*"
                            r"(?:(?:el|le|the)\s+)?(?:\d{1,2}(?:er|º)?\s+(?:de\s+)?[^\W\d_]+\s+(?:de\s+)?|"
                            r"[^\W\d_]+\s+\d{1,2},?\s+)?(\d{3,4})\b")
# A year of a lifespan's brackets and its era, if it gives one ("c. 551", "479 BCE", "44 av. J.-C.").
_LIFE_YEARS = re.compile(rf"(\d{{1,4}})\s?({ERA})?")
# How many words before a value the name it is given as another thing's may stand ("Premio Pulitzer en").
_NEAR_WORDS = 4
# Words before a name that make it the maker of a work a sentence dates: after the work's noun ("un tableau
# d'Édouard Manet achevé en 1863"); or, with "by", "in", "at" …, the doer or the place of what it dates.
_MAKER = (r"\b(?:tableau|toile|œuvre|roman|opéra|painting|novel|opera|cuadro|obra|novela|pintura)\s+"
          r"(?:de\s+|d['’]|del\s+|of\s+)")
_AGENT_OR_PLACE = rf"(?:\b(?:by|in|at|par|por|en|à|a|au|dans)\s+(?:the\s+|la\s+|le\s+|l['’]|el\s+)?|{_MAKER})"
# A death, by its cause: "killed in battle … in 1521" dates "He died in 1600" (where the sentence tells of no
# birth too: "née … à Junín … et morte … à Buenos Aires" has two places).
_DEATH = frozenset({"died", "death", "killed", "murder", "assass", "murió", "muerte", "muerto", "fallec",
                    "asesin", "mort", "morte", "meurt", "tué", "décédé", "décès"})
_BIRTH = frozenset({"born", "né", "née", "nació", "birth", "naissa", "nacimi", "nacido", "nacida"})
# Stems (``EVENT_STEM`` letters) that say one relation in other words: a summit is the highest point
# ("le plus haut sommet des Alpes" of "le point culminant de la chaîne des Alpes") and what a mountain
# measures its height ("Il mesure 6 000 mètres" of "Its height was … measured … as 8,848.86 m"), and a
# river's mouth is where it flows into ("se jette dans" of "flows … into the Black Sea"), and a death is told
# by its cause.
_ONE_RELATION = (
    frozenset({"highes", "talles", "haut", "hauteu", "sommet", "culmin", "alto", "altura", "altitu", "elevad",
               "elevat", "cumbre", "cima", "summit", "peak", "height", "measur", "mesure", "mide"}),
    frozenset({"jette", "embouc", "desemb", "desagu", "vierte", "flows", "emptie", "mouth", "discha"}),
    # A work's first performance: "créé en 1875", "se estrenó en 1875", "first performed … in 1875".
    frozenset({"créé", "créée", "estren", "premie", "perfor", "représ"}),
    _DEATH,
)
# Nouns that name what an item is about, not what it says of it ("Le roman a été publié en 1857": "roman" is
# no relation "un roman de Gustave Flaubert paru en 1857" says), as ``EVENT_STEM`` stems.
_SUBJECT_NOUNS = stems("""novel roman novela book livre libro painting tableau cuadro pintura work œuvre obra
opera opéra ópera film película poem poème poema play pièce symphony symphonie sinfonía statue estatua
city ville ciudad country pays país river fleuve rivière río lake lac lago mountain montagne montaña island
île isla bridge pont puente tower tour torre church église iglesia""", EVENT_STEM)
# Where one clause of an item ends and the next begins (en/es/fr).
_CLAUSE_BREAK = re.compile(r"[,;:]|\s(?:and|but|while|y|pero|mientras|et|mais|tandis que)\s", re.IGNORECASE)


@dataclass(frozen=True)
class ValueReading:
    """One value of an item read from the passages: the check a verdict's grounds keep (``check``: the
    value stated, what was asked, what was read, the outcome and why a contradiction was excused, its
    offsets in the item and the passage sentence it was read from), and how it was read.

    ``passage`` indexes the passage holding the read value (None when none does); ``reply`` is the
    model's own; ``trace`` indexes the call in the check's transcript (None outside a check, or when
    the passage says it in the item's words and nothing was asked); ``calls`` counts the model calls
    the reading made; ``echo`` says the value read is another value the item states (a wrong slot).
    """

    check: ValueCheck
    form: Form
    passage: int | None
    reply: str
    trace: int | None
    calls: int = 1
    echo: bool = False


def asked_text(item: str, span: ValueSpan, form: Form, lang: str | None = None) -> str:
    """What the model is asked about ``span``: the item with a typed blank, or the question."""
    return span.blanked(item) if form == "cloze" else span.question(item, lang)


def read_value(model: ChatModel, passages: Sequence[Evidence], item: str, span: ValueSpan, *,
               form: Form = "cloze", lang: str | None = None, question: str = "",
               max_tokens: int = MAX_TOKENS, max_attempts: int = 2, retry: bool = False) -> ValueReading:
    """Ask ``model`` for the value ``span`` of ``item`` from ``passages`` and compare what it read.

    ``question`` (the user's) names the item's topic: a value read that names it, or another value
    the item states, was read into the wrong slot and contradicts nothing. With ``retry``, a reading
    that missed the passage's own value (a value the passages do not hold, or one read from the
    wrong slot) is asked once more in the other form: a cloze a small model fills from the wrong
    slot it often answers right as a question, and the other way round.
    """
    reading = read_without_a_call(passages, item, span, form=form, lang=lang, question=question) \
        or _read_by_model(model, passages, item, span, form, lang, question, retry=retry,
                          max_tokens=max_tokens, max_attempts=max_attempts)
    return _not_its_articles_subject(reading, passages)


def _own_edition(passages: Sequence[Evidence]) -> list[Evidence]:
    """The passages before the first in another language than the first's (the item's own article's, before
    the English lead read after it), or none when all are in one language."""
    first = guess_language(passages[0].text) if passages else None
    own = list(itertools.takewhile(lambda ev: guess_language(ev.text) in (first, None), passages))
    return own if len(own) < len(passages) else []


def _not_its_articles_subject(reading: ValueReading, passages: Sequence[Evidence]) -> ValueReading:
    """``reading``, not confirmed where the name read is the subject of another article than the first
    one (the item's subject's): every sentence of *Louis Pasteur* speaks of Pasteur, so "Penicillin was
    discovered by ___" read there gives his name whoever discovered it."""
    check, where = reading.check, reading.passage
    if check.outcome != "confirmed" or check.kind not in NAMED or not check.read or not where:
        return reading
    article = passages[where]
    if not article.title or _of_first_subject(article, passages) \
            or fold(check.read) not in subject_names(article.title, article.text):
        return reading
    return dataclasses.replace(reading, check=dataclasses.replace(check, outcome="not_stated",
                                                                  excused="own_subject"))


def _read_by_model(model: ChatModel, passages: Sequence[Evidence], item: str, span: ValueSpan, form: Form,
                   lang: str | None, question: str, *, retry: bool, max_tokens: int = MAX_TOKENS,
                   max_attempts: int = 2) -> ValueReading:
    """The model's reading of ``span`` (one the passages' own words do not settle), asked again in the
    other form when it missed and ``retry`` says so. Where the English lead was read after the item's own
    passages and the reading settles nothing, it is asked again in the item's own alone, which write names
    as it does: kept when it confirms the value ("Atenas", where "Athenas" was read among both), or
    contradicts it where the name read in English was excused as another language's ("Bruxelles" for
    "Anvers", where the English lead's "Brussels" was read) or nothing was read among both ("Ciudad de
    México", read in *México* alone for "La capital de México es Guadalajara")."""
    reading = _read_in(model, passages, item, span, form, lang, question, retry, max_tokens, max_attempts)
    own = _own_edition(passages)
    if not own or reading.check.outcome != "not_stated":
        return reading
    again = _read_in(model, own, item, span, form, lang, question, False, max_tokens, max_attempts)
    # A value read in the English lead and excused as another subject's was read in an article the item's
    # own does not share a name with ("Mount Kilimanjaro" for *Kilimandjaro*): the own lead's unexcused
    # contradiction stands ("5 891,8 mètres" for "Il culmine à 8 848 mètres").
    elsewhere = reading.check.excused == "other_subject" and (reading.passage or 0) >= len(own)
    kept = again.check.outcome == "confirmed" or (
        again.check.outcome == "contradicted" and not again.check.excused
        and (reading.check.excused == "other_language" or reading.check.read is None or elsewhere))
    return dataclasses.replace(again if kept else reading, calls=reading.calls + again.calls)


def _read_in(model: ChatModel, passages: Sequence[Evidence], item: str, span: ValueSpan, form: Form,
             lang: str | None, question: str, retry: bool, max_tokens: int,
             max_attempts: int) -> ValueReading:
    """The model's reading of ``span`` in ``passages``, asked again in the other form when it missed and
    ``retry`` says so."""
    first = _ask(model, passages, item, span, form, lang, question, max_tokens, max_attempts)
    if not retry or not _missed(first):
        return first
    other: Form = "question" if form == "cloze" else "cloze"
    second = _ask(model, passages, item, span, other, lang, question, max_tokens, max_attempts)
    kept = second if second.check.outcome != "not_stated" else first
    return dataclasses.replace(kept, calls=first.calls + second.calls)


def _aligned(passages: Sequence[Evidence], item: str, span: ValueSpan, asked: str,
             question: str) -> ValueReading | None:
    """The value a passage sentence holds between the item's own words around ``span``
    (``aligned_value``), compared with the stated one, when that settles it: confirmed, or a
    contradiction nothing excuses. No model call: the passage's words say it."""
    texts = [ev.text for ev in passages]
    found = aligned_value(item, span.start, span.end, texts)
    if found is None:
        return None
    where, sentence, read = found
    # Read by its place, not by the model: one of the item's other values standing there is no wrong
    # slot ("Bulgaria, Skopje o Escopia" where the lead writes "Skopie, Skopje o Escopia").
    topic = topic_names(question) if question.strip() else []
    outcome = value_outcome(span.text, read, span.kind, held=True, others=topic, before=item[:span.start],
                            passage=texts[where])
    outcome = "confirmed" if outcome == "contradicted" and one_thing(span.text, read, span.kind, passages) \
        else outcome
    if outcome == "not_stated" or (outcome == "contradicted" and _excuse(item, span, read, sentence, passages,
                                                                          where, aligned=True)):
        return None
    check = ValueCheck(span.text, span.kind, asked, read, outcome, span.start, span.end, sentence)
    return ValueReading(check, "cloze", where, "", None, calls=0)


def one_thing(stated: str, read: str, kind: Kind, passages: Sequence[Evidence]) -> bool:
    """Whether ``stated`` and ``read`` are two names a passage's article gives its own subject (its title
    and the names its lead opens with: "Tananarive" for *Antananarivo*): the same thing, not a swap."""
    if kind not in NAMED:
        return False
    both = {fold(stated), fold(read)}
    return len(both) == 2 and any(both <= subject_names(ev.title, ev.text) for ev in passages if ev.title)


def _others(item: str, span: ValueSpan, question: str) -> list[str]:
    """The item's other values and its topic's names: a value read that echoes one filled the wrong slot."""
    others = [s.text for s in value_spans(item) if (s.start, s.end) != (span.start, span.end)]
    return others + (topic_names(question) if question.strip() else [])


def _excuse(item: str, span: ValueSpan, read: str, sentence: str | None, passages: Sequence[Evidence],
            where: int | None, *, aligned: bool = False) -> str | None:
    """Why ``read`` (from ``passages[where]``) where the item states ``span`` contradicts nothing
    (``not_a_contradiction``; ``aligned``: read between the item's own words around it)."""
    if span.kind in NAMED and what_was_made(item, span.start):
        return "made_several"
    lead = Names.of(item).leading()
    spans = value_spans(item)
    # The item's other names say what a date of it is of ("paraître La Filiation en 1871"), unless the
    # sentence dates the subject's own start or end the clause tells of: "began in 1799 with the storming
    # of the Bastille" is dated by "began with the Estates General of 1789", the Bastille a detail of it.
    clause = _clause(item, span.start)
    named = [] if span.kind in DATES and sentence and _dates_its_bound(clause, read, sentence) else \
        [s.text for s in spans if s.kind in NAMED and (s.start, s.end) != (span.start, span.end)]
    article = passages[where] if where is not None else None
    about = subject_names(article.title, article.text) if article is not None and article.title else ()
    # Where a thing is, said at another level: its own article gives the stated place as where it is too
    # ("Pise, en Toscane (Italie)"), so "la piazza dei Miracoli" read there is a place within it. Only where
    # the clause says where it is ("Barcelona is the capital of Spain" is a swap its lead's "Spain" does not
    # excuse), and the article writes the place as a location, not as its capital ("ubicado en Suva").
    if span.kind == "place" and article is not None and _of_first_subject(article, passages) \
            and LOCATED.search(clause) \
            and any(_locates(ev.text, span.text) for ev in passages if _of_first_subject(ev, passages)):
        return "place_within"
    # Read in another article than the first, its subject's: the item's words that are neither a value of
    # it nor the title of an article read, what it says of them ("invented" of "The telephone was invented
    # by Alexander Graham Bell in 1876"), which that article's sentence must say too.
    # So is a length of time read in the subject's own article: its lead gives several (a reign, a build,
    # a life), and "more than 3,800 years" as the tallest is not the 26 years it took to build.
    duration = span.kind == "number" and UNITS.get(span.counted().lower(), ("",))[0] == "s"
    event: set[str] = set()
    if article is not None and article.title and (duration or not _of_first_subject(article, passages)):
        # A figure's unit is what it counts ("inhabitants"); its number words are the read value's too.
        # A length of time's unit ("years") is said of every length of time: it is no event word.
        titles = [*(ev.title or "" for ev in passages), span.counted() if duration else ""]
        event = _event_words(clause, spans, read, titles)
    # With no name of its own ("Es una obra de teatro del Siglo de Oro"), an item read in the article taken
    # for its subject's (a work's author's, the work having none) is not about that article's subject, whose
    # name read is of no slot but a maker's ("the passage says Pedro Calderón de la Barca").
    if lead is None and span.kind != "person" and article is not None and fold(read) in about \
            and _of_first_subject(article, passages):
        return "own_subject"
    stated = _as_the_sentence_goes_on(item, span, sentence) if span.kind in NAMED else span.text
    translated = article is not None and guess_language(article.text) not in (None, guess_language(item))
    why = not_a_contradiction(stated, read, span.kind, sentence, [ev.text for ev in passages],
                              lead.name if lead else None, named, about, event, clause, translated, aligned)
    # A name of another language's edition may be the stated one written otherwise: put in English later
    # (``in_english``), unless a reading that holds whatever the name means excuses it already (a birth
    # asked about, read in a sentence that tells of none: "an Argentine short-story writer").
    if why is None and article is not None and span.kind in NAMED and not says(article.text, span.text) \
            and _another_edition(item, article, passages):
        return "other_language"
    return why


def relation_said(item: str, start: int, end: int, read: str, sentence: str, titles: Sequence[str]) -> bool:
    """Whether ``sentence`` (where ``read`` was read for the value at ``start:end`` of ``item``) says the
    relation the item states: one of the clause's words for it besides its values and the articles' titles
    ("written" of "Hamlet was written by …", the stem "discov" of "discovered" and "discovery"), and each
    year the clause dates it by, or two years around it ("between 1599 and 1601" for "around 1600"). A
    sentence that says neither may hold the value of another event of the subject ("since its topping out
    in 2009" for "It opened in 2010"): what the judge is asked about before a contradiction is called. A
    word of a name the sentence gives is not the relation ("Telephone" of a company's name)."""
    clause = _clause(item, start)
    if _bounds_a_span(clause, read, sentence):
        return True
    spans = value_spans(item)
    said = _event_words(clause, spans, read, titles) - _SUBJECT_NOUNS
    heard = stems(_without_names(sentence), EVENT_STEM)
    one = [words for words in _ONE_RELATION if not (words is _DEATH and heard & _BIRTH)]
    if not said & heard and not any(said & words and heard & words for words in one):
        return False
    years = [int(y) for y in _YEAR.findall(sentence)]
    for span in spans:
        if span.kind in DATES and (span.start, span.end) != (start, end) and span.text in clause:
            stated = [int(y) for y in _YEAR.findall(span.text)]
            if stated and not any(y in years or any(a < y < b for a in years for b in years) for y in stated):
                return False
    return True


def _without_names(sentence: str) -> str:
    """``sentence`` without the names it gives past its opening word: "Telephone" of "the American Telephone
    and Telegraph Company" names a company, it does not tell of inventing the telephone."""
    for run in Names.of(sentence).runs:
        if not run.initial:
            sentence = sentence.replace(" ".join(run.words), " ")
    return sentence


def gives_it_too(item: str, stated: str, sentence: str, kind: str = "year") -> bool:
    """Whether ``sentence`` gives the ``stated`` value too: a name, written there; any other value, not as
    another named thing's: the name nearest before it (a few words back) is one ``item`` says, or there is
    none ("Flaubert paru en 1857", not "Premio Pulitzer en 1988" for "Premio Nobel … en 1988")."""
    if kind in NAMED:
        return says(sentence, stated)
    near = _names_before(sentence, stated, _MAKER)
    return near is not None and (not near or fold(near[-1]) in fold(item))


def given_to_another(item: str, read: str, sentence: str, titles: Sequence[str]) -> bool:
    """Whether ``sentence`` gives ``read`` as another named thing's: the names a few words before it share no
    word with ``item`` nor with an article's title ("co-founded the American Telephone and Telegraph Company
    (AT&T) in 1885" read for "credited with inventing the telephone in 1876"; not "the Nobel Prize in
    Literature in 1993" for "received the Nobel Prize in 1990"). A name after "by", "in" or "at" is who did
    it or where, not what was dated ("first performed by the Opéra-Comique in Paris on 3 March 1875"); so is
    a name after a work's noun ("un tableau d'Édouard Manet achevé en 1863")."""
    near = {w for name in _names_before(sentence, read, _AGENT_OR_PLACE) or () for w in words(name)}
    said = {w for w in words(" ".join([item, *titles])) if len(w) > 2}
    return bool(near) and not said & near


def _names_before(sentence: str, value: str, not_dated: str) -> list[str] | None:
    """The names a few words before ``value`` in ``sentence`` that name a dated thing, nearest last: none that
    the words ``not_dated`` put before it make who did it, where, or a work's maker ("first performed by the
    Opéra-Comique in Paris on 3 March 1875", "un roman de Gustave Flaubert paru en 1857"); None when the
    sentence does not write the value."""
    found = re.search(rf"(?<!\w){re.escape(value)}(?!\w)", sentence)
    if found is None:
        return None
    before = sentence[:found.start()].split()
    wider = " ".join(before[-_NEAR_WORDS - 2:])
    # A month is the date's own ("on 3 March 1875"), no named thing.
    return [r.name for r in Names.of(" ".join(before[-_NEAR_WORDS:])).runs
            if fold(r.name.rstrip(".")) not in MONTHS
            and not re.search(rf"{not_dated}{re.escape(r.name)}", wider, re.IGNORECASE)]


def _bounds_a_span(clause: str, read: str, sentence: str) -> bool:
    """Whether ``read`` is the year a span of years in ``sentence`` begins with and ``clause`` says its
    subject began, or the year it ends with and ``clause`` says its subject ended: "The Berlin Wall fell
    in 1991" read on "encircled West Berlin from 1961 to 1989"; so is a lifespan's, for a birth or a
    death ("He was born in 1664" read on "Galileo Galilei (1564–1642)"), and a value given just after a
    word for the birth or the death the clause tells of ("née … à Junín" for "Nació en Chile")."""
    began, ended = BEGAN.search(clause) is not None, ENDED.search(clause) is not None
    return dates_the_life(clause, read, sentence) or any(
        (began and read == span.group(1)) or (ended and read == span.group(2))
        for span in _SPAN_OF_YEARS.finditer(sentence))


def _dates_its_bound(clause: str, read: str, sentence: str) -> bool:
    """Whether ``clause`` tells of its subject's start only (or its end only) and in ``sentence`` the nearest
    word for a start or an end before ``read`` is of the same sort: "began with the Estates General of 1789"
    dates the start "began in 1799" tells of."""
    began, ended = BEGAN.search(clause) is not None, ENDED.search(clause) is not None
    at = sentence.find(read)
    if began == ended or at < 0:
        return False
    words = [(m.end(), True) for m in BEGAN.finditer(sentence[:at])] + \
        [(m.end(), False) for m in ENDED.finditer(sentence[:at])]
    return bool(words) and max(words)[1] == began


def _event_words(clause: str, spans: Sequence[ValueSpan], read: str, titles: Sequence[str]) -> set[str]:
    """The stems (``EVENT_STEM`` letters) of what ``clause`` says of its values: its words besides the
    item's names, the value read and the articles' ``titles`` ("invented" of "The telephone was invented by
    Alexander Graham Bell in 1876")."""
    said = " ".join([*(s.text for s in spans if s.kind in NAMED), read, *titles])
    return {w for w in stems(clause, EVENT_STEM) - stems(said, EVENT_STEM) if w.isalpha()}


def _as_the_sentence_goes_on(item: str, span: ValueSpan, sentence: str | None) -> str:
    """The name ``span`` with the lower-case words the item writes after it where ``sentence`` writes them
    after it too: a title in French or Spanish capitalises its first word only ("Paradis reconquis" of
    "Le Paradis perdu, Le Paradis reconquis et Samson Agonistes", a list that holds it)."""
    after = re.findall(r"\s+[^\W\d_]+", item[span.end:span.end + 60])[:_TITLE_WORDS]
    for n in range(len(after), 0, -1):
        longer = span.text + "".join(after[:n])
        if all(w.strip()[:1].islower() for w in after[:n]) and says(sentence or "", longer):
            return longer
    return span.text


def _of_first_subject(article: Evidence, passages: Sequence[Evidence]) -> bool:
    """Whether ``article`` is about the item's subject: the first passage's article, or the same subject's
    in another language (a name both leads give it: *Canada* in French and in English; or the same life,
    as the lifespan among the first article's passages gives it: *Johann Sebastian Bach (1685–1750)* and
    *Jean-Sébastien Bach*)."""
    first, title = passages[0].title, article.title
    if title == first:
        return True
    if not first or not title:
        return False
    return bool(subject_names(title, article.text) & subject_names(first, passages[0].text)) or any(
        ev.title == first and same_life(first, ev.text, title, article.text) for ev in passages)


def _locates(passage: str, place: str) -> bool:
    """Whether ``passage`` writes ``place`` as where something is: in brackets ("Pise, en Toscane (Italie)")
    or after "in", "en", "dans", "à" ("située en Italie"; folded, "à" is "a")."""
    return re.search(rf"(?:\b(?:in|en|dans|a|au|aux)\s+(?:the\s+|la\s+|le\s+|l'|les\s+|el\s+)?|\(\s*)"
                     rf"{re.escape(fold(place))}\b", fold(passage)) is not None


def _another_edition(item: str, article: Evidence, passages: Sequence[Evidence]) -> bool:
    """Whether ``article`` is written in another language than both ``item`` and the first passage (all
    guessed): the English lead read after the item's own, where a name read that differs from the item's
    may be its translation ("Germany", "Allemagne"). Where every passage is in another language than the
    item (its own has no article), names are compared as they are ("Austria" is not "Australie")."""
    theirs, ours, first = guess_language(article.text), guess_language(item), guess_language(passages[0].text)
    return bool(theirs and ours and first and theirs != ours and theirs != first)


def _clause(item: str, at: int) -> str:
    """The clause of ``item`` holding the character ``at`` ("France has 68 million inhabitants" of "…, and
    its capital is Paris"): what the item says of the value there."""
    start = max((m.end() for m in _CLAUSE_BREAK.finditer(item, 0, at)), default=0)
    end = next((m.start() for m in _CLAUSE_BREAK.finditer(item, at)), len(item))
    return item[start:end]


def read_without_a_call(passages: Sequence[Evidence], item: str, span: ValueSpan, *, form: Form = "cloze",
                        lang: str | None = None, question: str = "") -> ValueReading | None:
    """The reading of ``span`` the passages' own words give, with no call: the value stated in the
    item's words (confirmed), or the passage's value between the item's words around it
    (``_aligned``); None when the model has to be asked."""
    asked = asked_text(item, span, form, lang)
    alike = stated_alike(item, span.start, span.end, [ev.text for ev in passages])
    if alike is not None:  # the passage says it in the item's own words: nothing to read
        confirmed = ValueCheck(span.text, span.kind, asked, span.text, "confirmed", span.start, span.end,
                               alike[1])
        return ValueReading(confirmed, form, alike[0], "", None, calls=0)
    aligned = _aligned(passages, item, span, asked, question) or _in_lifespan(passages, item, span, asked)
    return dataclasses.replace(aligned, form=form) if aligned is not None else None


def _in_lifespan(passages: Sequence[Evidence], item: str, span: ValueSpan, asked: str) -> ValueReading | None:
    """The birth's or the death's year the item's subject's lifespan gives ("Confucius (c. 551 – c. 479
    BCE)", its era said once for both), confirmed when it is the year the item states for the one its
    clause tells of. No call: a small model reads such brackets backwards ("479" for the birth). Any other
    reading is left to the model, which the contradiction's excuses then apply to."""
    told = life_told(_clause(item, span.start))
    if span.kind not in DATES or told not in ("birth", "death"):
        return None
    for where, ev in enumerate(passages):
        found = LIFESPAN.search(ev.text)
        years = _LIFE_YEARS.findall(found.group()) if found and _of_first_subject(ev, passages) else []
        if len(years) != 2:
            continue
        era = years[1][1] or years[0][1]
        year = years[0] if told == "birth" else years[1]
        read = f"{year[0]} {year[1] or era}".strip()
        if compare_values(span.text, read, span.kind) == "confirmed":
            check = ValueCheck(span.text, span.kind, asked, read, "confirmed", span.start, span.end, ev.text)
            return ValueReading(check, "cloze", where, "", None, calls=0)
    return None


def _missed(reading: ValueReading) -> bool:
    """Whether the reply gave a value, but not the passage's value for this slot: one the
    passages do not hold, or one read from the wrong slot (excused, or echoing the item)."""
    check = reading.check
    return check.outcome == "not_stated" and check.read is not None and (
        reading.passage is None or check.excused is not None or reading.echo)


def _ask(model: ChatModel, passages: Sequence[Evidence], item: str, span: ValueSpan, form: Form,
         lang: str | None, question: str, max_tokens: int, max_attempts: int) -> ValueReading:
    """One call: the value ``span`` asked for in ``form``, what was read, and how it compares."""
    asked = asked_text(item, span, form, lang)
    prompt = load_prompt(PROMPTS[form])
    contract = prompt.contract_of(ValueContract)
    # Headed by title: the title names what a passage is about, the value asked for is of it.
    data = {"passages": fence("passages", render_passages(passages, by_title=True))}
    data.update({"statement": fence("statement", asked)} if form == "cloze" else
                {"question": fence("question", asked)})
    params = GenerationParams(max_tokens=max_tokens, stop=("\n",))
    result = ask(model, prompt, data, params, contract.parse, step="read_value", max_attempts=max_attempts)
    reply: ValueReply | None = result.value
    answer = result.completion.text if result.completion else ""
    texts = [ev.text for ev in passages]
    read = reply.value if reply is not None else None
    where = passage_with(read, texts) if read else None
    if read and where is not None and span.kind in NAMED and not says(texts[where], read):
        # A name found only in part ("Panama City" in "Ciudad de Panamá": "city" is no name word): the
        # passage that writes it whole, else GeoNames' rendering of it where a passage writes one.
        whole = next((n for n, text in enumerate(texts) if says(text, read)), None)
        written = place_form(read, texts) if whole is None else None
        where = whole if whole is not None else passage_with(written, texts) if written else where
        read = written or read
    foreign = _foreign(texts, item, lang) if read and where is None and span.kind in NAMED else []
    if read and foreign:
        # A name read in English where the passage is in another language ("Egypt" where it writes
        # "Égypte"): compared as the passage writes it. Not for an English passage, where a word
        # spelled alike is another word ("Paris", "Parish").
        written = passage_form(read, foreign, span.text)
        if written is not None:
            read, where = written, passage_with(written, texts)
    if read and where is None and span.kind in NAMED:
        written = place_form(read, texts)
        if written is not None:
            read, where = written, passage_with(written, texts)
    if read and where is None and span.kind in NAMED:
        part = held_name(read, texts, span.text)
        read, where = (part, passage_with(part, texts)) if part else (read, where)
    nation = None
    if read and where is None and span.kind == "place" and country(read):
        # A country read where the lead writes its nationality ("Germany" for "a German inventor").
        nation = next(((n, found) for n, text in enumerate(texts)
                       if (found := written_nationality(read, text)) is not None), None)
        where = nation[0] if nation else None
    if read and where is not None and span.kind == "date":
        read = with_its_year(read, texts[where])
    others = _others(item, span, question)
    held = passages[where].text if where is not None else None
    outcome = value_outcome(span.text, read, span.kind, held=held is not None, others=others,
                            before=item[:span.start], passage=held or "")
    echo = bool(read) and held is not None and outcome == "not_stated" and echoes_other(read or "", span.kind,
                                                                                      others)
    sentence = _sentence_with(read, passages[where].text) if read and where is not None else None
    sentence = " ".join(nation[1].split()) if nation else sentence
    if outcome == "contradicted" and read and one_thing(span.text, read, span.kind, passages):
        outcome = "confirmed"
    excused = None
    if outcome == "contradicted" and read:
        excused = _excuse(item, span, read, sentence, passages, where)
        outcome = "not_stated" if excused else outcome
    check = ValueCheck(span.text, span.kind, asked, read, outcome, span.start, span.end, sentence, excused)
    return ValueReading(check, form, where, answer, result.trace, echo=echo)


def _foreign(texts: Sequence[str], item: str, lang: str | None) -> list[str]:
    """The passages in another language than English, where a name read in English is looked for as
    they write it: all of them when the check's ``lang`` is another, none when it is English, and with
    no ``lang`` those whose words (else the item's) are guessed another language's (``guess_language``)."""
    if lang:
        return list(texts) if lang.split("-")[0].lower() != "en" else []
    own = guess_language(item)
    return [text for text in texts if (guess_language(text) or own or "en") != "en"]


def value_outcome(stated: str, read: str | None, kind: Kind, *, held: bool, others: Sequence[str] = (),
                  before: str = "", passage: str = "") -> Outcome:
    """How the value ``read`` from the passages compares with the one ``stated`` (``compare_values``:
    ``before``, the item's text before it, and ``passage``, the one it was read from): not stated when
    no passage holds what was read (it came from belief), and when it echoes one of ``others`` (another
    value the item states, or its topic: read into the wrong blank, it contradicts nothing).
    ``read_value`` then excuses a contradiction the passage explains (``text.contradiction``)."""
    outcome = compare_values(stated, read, kind, before=before, passage=passage) if held else "not_stated"
    if outcome == "contradicted" and read and echoes_other(read, kind, others) \
            and not (kind == "place" and place_in_a_name(read, others, passage)):
        return "not_stated"
    return outcome


def check_values(model: ChatModel, item: str, passages: Sequence[Evidence], *, question: str = "",
                 lang: str | None = None, limit: int | None = 2, form: Form = "cloze",
                 retry: bool = False) -> list[ValueReading]:
    """Read the item's values (the most telling first) from ``passages``: every value a country's record or a
    work's own lead settles (``settled``) or the passages' own words do (``read_without_a_call``), and of the
    others at most ``limit`` asked of the model, so a
    swapped value behind others is still read. ``retry``: see ``read_value``.

    With no passage there is nothing to read: no call, no reading.
    """
    if not passages:
        return []
    readings = [ValueReading(check, "cloze", where, "", None, calls=0)
                for check, where in settled(item, passages)]
    for span in value_spans(item, question=question, lang=lang):
        if any(r.check.start == span.start for r in readings):
            continue  # settled by a record's words
        free = read_without_a_call(passages, item, span, form=form, lang=lang, question=question)
        if free is None and limit is not None and sum(r.calls > 0 for r in readings) >= limit:
            continue
        # Settled by the passages' words, or asked of the model (not looked for in the words again).
        readings.append(_not_its_articles_subject(
            free or _read_by_model(model, passages, item, span, form, lang, question, retry=retry), passages))
    return readings + _ranks(item, passages, lang)


def _ranks(item: str, passages: Sequence[Evidence], lang: str | None) -> list[ValueReading]:
    """A superlative of ``item`` that a passage ranks lower, or a count it gives otherwise, for the thing it
    names (``other_rank``): read from the words, no call, contradicted ("la segunda más grande" for "El
    océano más grande es el Atlántico", "the third president" for "The first president … was Thomas
    Jefferson"). The things are the item's named values and the name it opens with."""
    lead = Names.of(item).leading()
    names: list[tuple[str | None, int]] = [(s.text, s.start) for s in value_spans(item, lang=lang)
                                           if s.kind in NAMED]
    # An item opening with no name ("Es el país más grande de Sudamérica") ranks its article's subject.
    names += [(lead.name, max(item.find(lead.name), 0)) if lead is not None else (None, 0)]
    for name, at in names:
        clause = _clause(item, at)
        offset = item.find(clause)
        for where, ev in enumerate(passages):
            if name is None and not (ev.title and _of_first_subject(ev, passages)):
                continue
            # Its own article: titled by it ("Atlantique" of *Océan Atlantique*), or naming its subject so.
            own = bool(ev.title) and (name is None or set(words(name)) <= set(words(ev.title or ""))
                                      or fold(name) in subject_names(ev.title or "", ev.text))
            for sentence in split_sentences(ev.text):
                rank = other_rank(clause, offset, name or ev.title or "", sentence, own_article=own)
                if rank is not None:
                    check = ValueCheck(rank.said, "rank", "", rank.ranked, "contradicted", rank.start,
                                       rank.end, " ".join(sentence.split()))
                    return [ValueReading(check, "cloze", where, "", None, calls=0)]
    return []


def _sentence_with(value: str, passage: str) -> str | None:
    """The sentence of ``passage`` that holds the value ``value`` (as ``passage_with`` finds it)."""
    return next((" ".join(s.split()) for s in split_sentences(passage) if passage_with(value, [s]) == 0),
                None)
