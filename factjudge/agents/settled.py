"""Values settled by the words of a record or of a work's own lead, with no model asked.

Two kinds of passage the wiki reader adds say one closed thing in a form known in advance: a country's
record (its currency, its land neighbours: ``text.country_facts``) and the opening sentence of a work's
article, which names who made it (``text.makers``). An item they bear on is compared with them by words:
"Su moneda es el peso" (of Venezuela) is contradicted by "La moneda de Venezuela: bolívar venezolano
(VES).", and "He wrote Moby-Dick" (of Charles Dickens) by "Moby-Dick … is an 1851 epic novel by American
writer Herman Melville". So does a word of the subject's own lead that says the opposite of the item's
(``text.opposites``: "landlocked" against "Paraguay tiene salida al mar"). A small model asked to fill such a
blank reads the record's other words or the subject's own name back; the words leave nothing to doubt.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from factjudge.grounds import ValueCheck
from factjudge.records import Evidence
from factjudge.text import country_facts
from factjudge.text.fold import words
from factjudge.text.makers import made_by, made_verb
from factjudge.text.opposites import said_otherwise
from factjudge.text.segmenter import split_sentences
from factjudge.text.value_match import Outcome

# Lower-case words inside a person's name, which tell two persons apart by nothing.
_PARTICLES = frozenset("da de del della di do dos du van von der den y la le el".split())  # noqa: SIM905


def settled(item: str, passages: Sequence[Evidence]) -> list[tuple[ValueCheck, int]]:
    """Each value of ``item`` a record or a work's lead among ``passages`` settles, with the passage's
    index."""
    found: list[tuple[ValueCheck, int]] = []
    for where, ev in enumerate(passages):
        for fact in country_facts.checks(item, ev, passages[0].title):
            outcome: Outcome = "confirmed" if fact.confirmed else "contradicted"
            check = ValueCheck(fact.stated, "record", "", fact.read, outcome, fact.start, fact.end, ev.text)
            found.append((check, where))
    maker = _made_by_another(item, passages)
    return found + ([maker] if maker else []) + said_otherwise(item, passages)


def _made_by_another(item: str, passages: Sequence[Evidence]) -> tuple[ValueCheck, int] | None:
    """The contradiction of an item crediting its subject (the first passage's article) with a work whose own
    lead, among ``passages``, names another maker; None where none does, or where the maker may be the
    subject under another name (his passages' opening sentences write the maker's surname: "Doménikos
    Theotokópoulos, conocido como El Greco") or the item names the maker itself."""
    verb = made_verb(item)
    subject = passages[0].title if passages else None
    if verb is None or not subject:
        return None
    # The names his passages' opening sentences give him; a peer named further on is another ("aux côtés de
    # Victor Hugo", in *Gustave Flaubert*).
    own = " ".join(split_sentences(ev.text)[0] for ev in passages if ev.title == subject and ev.text.strip())
    said = " ".join(words(item))
    for where, ev in enumerate(passages):
        if not ev.title or ev.title == subject or not _names_work(said, ev.title):
            continue
        opening = split_sentences(ev.text)[:1]
        makers = made_by(opening[0], verb) if opening else ()
        if not makers or any(_may_be(maker, subject, own, said) for maker in makers):
            continue
        read = " and ".join(makers)
        return ValueCheck(_plain_title(subject), "maker", "", read, "contradicted",
                          passage=" ".join(opening[0].split())), where
    return None


def _names_work(said: str, title: str) -> bool:
    """Whether the item's words ``said`` name the work titled ``title`` ("Moby Dick" in "he wrote moby
    dick")."""
    work = " ".join(words(_plain_title(title)))
    return bool(work) and re.search(rf"(?:^|\s){re.escape(work)}(?:\s|$)", said) is not None


def _may_be(maker: str, subject: str, own: str, said: str) -> bool:
    """Whether ``maker`` may be the subject titled ``subject`` (a word of their names shared, or his
    surname written in the opening sentences of the subject's passages, ``own``) or is named by the item's
    words ``said``."""
    named = [w for w in words(maker) if w not in _PARTICLES]
    if not named or set(named) & set(words(subject)):
        return True
    surname = named[-1]
    return surname in words(own) or surname in said.split()


def _plain_title(title: str) -> str:
    """``title`` without the words in brackets that tell it from its homonyms ("Dune (novel)")."""
    return re.sub(r"\s*\([^()]*\)$", "", title)
