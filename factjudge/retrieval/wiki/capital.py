"""A country's capital read in the capital's own lead, where the country's lead never names it.

Many a country's lead summary leaves its capital out (in French, *Australie*, *Italie*, *Canada*…), so
"La capitale de l'Australie est Sydney" found nothing to read and stayed unverified, or was judged on
silence. The capital's lead says it in its first sentence ("Canberra est la capitale de l'Australie"):
that sentence, found by full text, is what such an item is read on. Only a sentence that gives a
capital without a qualifier, in the present tense, is taken ("the administrative capital", "was the
capital" are not), and only where one article gives it: a country with several capitals stays
unverified.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from factjudge.records import Evidence
from factjudge.retrieval.wiki.names import fold
from factjudge.text.places import capital
from factjudge.text.segmenter import split_sentences

# The word for a capital, en/es/fr: an item that speaks of one. A federal capital is the capital
# ("Brasilia est la capitale fédérale du Brésil"); any other word before or after it qualifies it.
CAPITAL = re.compile(r"\bcapital(?:e|es)?\b", re.IGNORECASE)
# Up to where a sentence's opening may run before its verb ("Tokio (東京, Tōkyō), oficialmente …, es"), and
# how many of a lead's sentences are looked at.
_OPENING = r"[^;]{0,160}?"
_SENTENCES = 2


def _says_capital_of(country: str) -> re.Pattern[str]:
    """A sentence that says its subject is the capital of ``country``: "… is the capital (city) (and
    largest city) of (the) Australia", "… es la capital de Japón", "… est la capitale du Japon"."""
    name = re.escape(fold(country))
    return re.compile(
        rf"^{_OPENING}\s(?:is|es|est)\s+(?:the\s+federal|the|la)\s+capitale?(?:\s+city|\s+f[eé]d[eé]rale?)?"
        r"(?:\s+(?:and|y|et)\s+[^,.;]{0,40}?)?"
        rf"\s+(?:of|de|du|des|d['’])\s*(?:the\s+|la\s+|l['’]\s*)?{name}(?![\w-])")


def capital_sentence(country_names: Sequence[str], leads: Iterable[Evidence]) -> Evidence | None:
    """The one lead sentence among ``leads`` (another article's, each opening with its own title's first
    word) that says its subject is the capital of the country ``country_names`` name; None when no lead
    or more than one article says so."""
    patterns = [_says_capital_of(name) for name in country_names if name.strip()]
    found: dict[str, Evidence] = {}
    for lead in leads:
        title = fold(lead.title or "")
        for sentence in split_sentences(lead.text)[:_SENTENCES]:
            plain = fold(sentence)
            if title and plain.startswith(title.split()[0]) and any(p.search(plain) for p in patterns):
                found.setdefault(title, Evidence("wikipedia", sentence, url=lead.url, title=lead.title))
                break
    return next(iter(found.values())) if len(found) == 1 else None


def geonames_capital(country: str) -> Evidence | None:
    """The capital GeoNames gives the country ``country`` names, as a sentence ("The capital of India is New
    Delhi."), for a country no lead names the capital of (*India*'s does not, and *Delhi*'s says it only in
    passing: "… containing New Delhi, the capital of India"); None where GeoNames gives none or several."""
    found = capital(country)
    if found is None:
        return None
    name, town, number = found
    return Evidence("geonames", f"The capital of {name} is {town}.", url=f"https://www.geonames.org/{number}",
                    title=f"{name} (GeoNames)")
