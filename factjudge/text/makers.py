"""Who made a work, as the opening sentence of the work's own article says it, in en/es/fr.

"Moby-Dick … is an 1851 epic novel by American writer Herman Melville", "Les Misérables est un roman de
Victor Hugo", "Las meninas … es un cuadro del pintor barroco español Diego Velázquez": the sentence calls
its subject a work of some kind and names who made it. An item crediting the work to another ("He wrote
Moby-Dick", about Charles Dickens) is contradicted there, where the person's own lead is silent: a short
lead lists a few of his works and never another's. Only a work of the kind the item's verb makes is read
("wrote" a novel, not the film of it, whose maker is its director), and only a maker said after the
sentence's own work word.
"""

from __future__ import annotations

import re

from factjudge.text.places import is_place
from factjudge.text.tokenize import stopwords_for

# A person's making of a work, or finding or publishing of a thing, en/es/fr ("He painted the Mona Lisa",
# "Escribió Cien años de soledad", "Il a écrit Les Misérables", "Il a publié sa Théorie générale"): the work's
# article says by whom.
MADE = re.compile(r"\b(?:painted|wrote|written|composed|sculpted|designed|directed|invented|discovered|"
                  r"pint[óo]|pintad[oa]|escribi[óo]|escrit[oa]|compuso|compuest[oa]|esculpi[óo]|diseñ[óo]|"
                  r"dirigi[óo]|invent[óo]|descubri[óo]|peint|peignit|[ée]crit|[ée]crivit|compos[ée]|composa|"
                  r"sculpt[ée]|con[çc]u|r[ée]alis[ée]|invent[ée]|d[ée]couvert|published|public[óo]|publicad[oa]|"
                  r"publi[ée]e?|para[iî]tre|parut?)\b", re.IGNORECASE)

# Each kind of making: the verbs saying it, and the words for its works in en, es and fr.
_KINDS = {
    "write": (r"wrote|written|published|escribi[óo]|escrit[oa]|public[óo]|publicad[oa]|[ée]crit|[ée]crivit|"
              r"publi[ée]e?",
              {"en": "novel novella book poem play story tragedy essay treatise",
               "es": "novela libro poema cuento tragedia ensayo",
               "fr": "roman livre poème conte nouvelle pièce tragédie essai recueil"}),
    "paint": (r"painted|pint[óo]|pintad[oa]|peint|peignit",
              {"en": "painting portrait fresco mural triptych",
               "es": "pintura cuadro retrato fresco mural tríptico óleo",
               "fr": "tableau peinture portrait fresque triptyque toile"}),
    "compose": (r"composed|compuso|compuest[oa]|compos[ée]|composa",
                {"en": "opera symphony concerto ballet sonata requiem oratorio",
                 "es": "ópera sinfonía concierto ballet sonata réquiem oratorio",
                 "fr": "opéra symphonie concerto ballet sonate requiem oratorio"}),
    "sculpt": (r"sculpted|esculpi[óo]|sculpt[ée]",
               {"en": "sculpture statue", "es": "escultura estatua", "fr": "sculpture statue"}),
}
# A word for any work, whatever was made.
_ANY_WORK = {"en": {"work"}, "es": {"obra"}, "fr": {"œuvre", "oeuvre"}}
# The words after a work's word that say by whom, per language, and those of them that only an agent follows
# ("by", "par", "por"), after which a maker of one word is taken ("by Raphael"); after "de" one of two words
# at least is ("un roman de Victor Hugo", not "un tableau de la Renaissance").
_BY = {"en": ("by",), "es": ("por", "del", "de"), "fr": ("par", "du", "de", "d'", "d’")}
_AGENT = frozenset({"by", "por", "par"})
# How many words may stand between a verb of making and what was made ("wrote the novel Moby-Dick").
_BETWEEN_VERB_AND_WORK = 3
# How the sentence calls its subject a work: "is an 1851 epic novel", "is the only novel", "es un famoso
# cuadro", "est une huile sur toile": a verb, an article, then at most this many words before the work's word.
_IS_A = re.compile(r"\b(?:is|was|es|fue|est|était|fut)\s+(?:an?|the|una?|el|la|une?|le|l['’])\s*",
                   re.IGNORECASE)
_BEFORE_WORK = 4
# How many words may describe the maker between the word saying by whom and his name ("by the Italian
# artist", "par le peintre et lithographe romantique français").
_DESCRIBING = 6
# Lower-case words inside a person's name ("Leonardo da Vinci", "Miguel de Cervantes").
_PARTICLES = frozenset("da de del della di do dos du van von der den y la le".split())  # noqa: SIM905
_WORD = re.compile(r"[\w'’.-]+|,")
_AND = frozenset({"and", "y", "et", ","})


def made_by(sentence: str, verb: str) -> tuple[str, ...]:
    """The makers ``sentence`` (a work's opening one) names for its subject when it calls that a work of the
    kind ``verb`` (an item's "wrote", "pintó", "a peint") makes: "an 1851 epic novel by American writer
    Herman Melville" → ("Herman Melville",); none when it calls it no such work or names no one."""
    kind = next((k for k, (verbs, _) in _KINDS.items() if re.fullmatch(verbs, verb, re.IGNORECASE)), None)
    opening = _IS_A.search(sentence)
    if kind is None or opening is None:
        return ()
    tokens = _WORD.findall(sentence[opening.end():])
    for at, token in enumerate(tokens[:_BEFORE_WORK + 1]):
        if token == ",":
            return ()
        lang = next((lang for lang, nouns in _KINDS[kind][1].items()
                     if token.lower() in nouns.split() or token.lower() in _ANY_WORK[lang]), None)
        if lang is not None:
            return _makers(tokens[at + 1:], lang)
    return ()


def made_verb(item: str) -> str | None:
    """The verb of ``item`` that says its subject made a work ("wrote", "pintó"), if any."""
    found = MADE.search(item)
    return found.group() if found else None


def _makers(tokens: list[str], lang: str) -> tuple[str, ...]:
    """The names after the first word of ``tokens`` saying by whom that leads to one, in ``lang``."""
    for at, token in enumerate(tokens):
        word = token.lower()
        if word in _BY[lang] or (lang == "fr" and word.startswith(("d'", "d’")) and len(word) > 2):
            rest = tokens[at + 1:] if word in _BY[lang] else [token[2:], *tokens[at + 1:]]
            found = _names(rest, word in _AGENT, lang)
            if found:
                return found
    return ()


def _names(tokens: list[str], agent: bool, lang: str) -> tuple[str, ...]:
    """The persons' names ``tokens`` open with, after at most ``_DESCRIBING`` words describing them (in
    ``lang``: only English capitalises a nationality)."""
    described = 0
    while tokens and described < _DESCRIBING:
        if tokens[0][:1].islower():
            tokens, described = tokens[1:], described + 1
            continue
        # In English, capitalised words, then words naming what he was, describe him before his name
        # ("American writer Herman Melville", "the Scottish economist and philosopher Adam Smith"; not
        # "Wolfgang Amadeus Mozart to an Italian libretto", nor "Herman Melville published in 1851").
        run = next((at for at, token in enumerate(tokens) if not token[:1].isupper()), len(tokens))
        after = run
        while after < min(run + _DESCRIBING, len(tokens)) and tokens[after][:1].islower() \
                and tokens[after] not in _PARTICLES and (tokens[after] == "and"
                                                         or tokens[after] not in stopwords_for(lang)):
            after += 1
        if lang != "en" or after == run or after == len(tokens) or not tokens[after][:1].isupper():
            break
        tokens, described = tokens[after:], described + after
    names: list[str] = []
    while tokens and tokens[0][:1].isupper():
        name: list[str] = []
        while tokens and (tokens[0][:1].isupper() or (name and tokens[0] in _PARTICLES)):
            name.append(tokens[0])
            tokens = tokens[1:]
            if name[-1].endswith(".") and len(name[-1]) > 2:  # the sentence ends; an initial ("D.") does not
                break
        while name and name[-1] in _PARTICLES:
            name.pop()
        text = " ".join(name).rstrip(".")
        # A place ("una estatua … de El Cairo") or a possessive ("Newton's laws") is no maker.
        if len(name) < (1 if agent else 2) or is_place(text) or text.endswith(("'s", "’s")):
            break
        names.append(text)
        if not tokens or tokens[0] not in _AND:
            break
        tokens = tokens[1:]
    return tuple(names)


def what_was_made(item: str, start: int) -> bool:
    """Whether the value of ``item`` at ``start`` is what its subject made, wrote or found, said just after
    the verb saying so ("He wrote Moby-Dick", "Il a peint La Joconde"), not who made it ("written by …"): a
    person makes many things, so another read in his lead ("the American Renaissance period", another of his
    works) contradicts nothing."""
    verb = next((m for m in reversed(list(MADE.finditer(item))) if m.end() <= start), None)
    between = item[verb.end():start].split() if verb else []
    return verb is not None and len(between) <= _BETWEEN_VERB_AND_WORK \
        and not any(word.lower() in _AGENT for word in between)
