"""A name read in the English lead where a Spanish or French answer states another: the same thing in two
languages, or two things? Asked of the model.

A French answer's "Kyoto" against the English lead's "Tokyo" was excused as a name another language may
write otherwise (``other_language``), as "Allemagne" is "Germany"; the excuse cannot tell the two apart,
so "La capitale du Japon est Kyoto" and "La capital de Turquía es Estambul" stayed unverified. The stated
name is given to the model as a title to put in English (the ``english_title`` agent, one call a value
so excused): the English name that is the one read confirms it ("Lisbonne" is "Lisbon"); another one
("Kyoto", "Istanbul") makes the value read a contradiction, which is then confirmed like any other. An
English answer read in another language's passage is settled the other way round: the name read is put
in English ("Camberra" is "Canberra", not the "Sydney" stated).
"""

from __future__ import annotations

import dataclasses
from typing import cast

from factjudge.agents.english_title import english_title
from factjudge.agents.read_value import ValueReading
from factjudge.llm.base import ChatModel
from factjudge.text.fold import fold
from factjudge.text.language import guess_language
from factjudge.text.value_match import compare_values, spelled_out
from factjudge.text.values import Kind

# The letters two renderings of one name in English open with alike.
_RENDERED = 5


def read_in_english(model: ChatModel, reading: ValueReading, item: str, language: str | None) -> ValueReading:
    """``reading`` with its ``other_language`` excuse settled by the stated name put in English (an English
    item's: the name read): confirmed when the two are one name, contradicted when they are two; as it was
    when the model gives no name or the item's language is not known (``language``: the check's, where the
    item's words do not tell)."""
    check = reading.check
    if check.excused != "other_language" or not check.read:
        return reading
    written = guess_language(item)
    if written == "en":
        return _read_put_in_english(model, reading)
    # The item's own language where its words tell (a French answer checked with the default "en").
    language = written or language
    if language in (None, "en"):
        return reading
    english = english_title(model, check.stated, language)
    if english is None:
        return reading
    # An initialism read is compared as the name the passage spells it out as ("IOC" is the "International
    # Olympic Committee", which "Comité", put in English, is a word of).
    read = spelled_out(check.read, check.passage or "")
    outcome = compare_values(english, read, cast(Kind, check.kind))
    if outcome == "not_stated" or (outcome == "contradicted" and _one_name_rendered(english, read)):
        return reading
    return dataclasses.replace(reading, calls=reading.calls + 1, check=dataclasses.replace(
        check, read=read, outcome=outcome, excused=None, in_english=english))


def _read_put_in_english(model: ChatModel, reading: ValueReading) -> ValueReading:
    """An English item's ``reading`` excused as read in another language's passage, settled by the name read
    put in English: "Camberra" of *Camberra* is "Canberra", another city than the "Sydney" stated; the
    Spanish "Alemania" is "Germany", the country stated."""
    check = reading.check
    where = guess_language(check.passage or "")
    if where in (None, "en"):
        return reading
    english = english_title(model, str(check.read), where)
    if english is None:
        return reading
    outcome = compare_values(check.stated, english, cast(Kind, check.kind))
    if outcome == "not_stated" or (outcome == "contradicted" and _one_name_rendered(check.stated, english)):
        return reading
    return dataclasses.replace(reading, calls=reading.calls + 1, check=dataclasses.replace(
        check, outcome=outcome, excused=None, read_in_english=english))


def _one_name_rendered(english: str, read: str) -> bool:
    """Whether a name the model put in English and the one read may be two renderings of one name, which
    open with the same letters ("Venetia" for *Vénétie*, where the lead writes "Veneto"): a translation is
    no reading, and two such names are left excused, not called a swap."""
    a, b = fold(english).strip(), fold(read).strip()
    return min(len(a), len(b)) >= _RENDERED and a[:_RENDERED] == b[:_RENDERED]
