"""The named thing a sentence opens by describing: "La capitale du Japon est Tokyo" is about *Japon*."""

from __future__ import annotations

import re

# A determiner, up to three lower-case words saying what of the thing is told, and "of"/"de"/"in" before its
# name ("The population of Paris", "La capitale de l'Australie", "El río más largo de España", "The largest
# lake in Sweden"). "In" follows a superlative only: "The abbey stands in Lyon" tells where the abbey is.
_DESCRIBED = re.compile(r"\s*(?:(?:the|el|la|los|las|le|les)\s+|l['’]\s*)((?-i:[a-zà-ÿ][\w'’-]*)"
                        r"(?:\s+(?-i:[a-zà-ÿ][\w'’-]*)){0,2})\s+(?:of|de|del|du|des|d['’]|(in|en))\s*"
                        r"(?:the\s+|la\s+|l['’]\s*)?(?=(?-i:[A-ZÀ-Ý]))", re.IGNORECASE)
# Words naming the thing's own kind: "la ciudad de México" is the city, not the country ("la ciudad más
# poblada de México" is the country's).
_OWN_KIND = frozenset("""city town ciudad villa ville province provincia state estado état region región
région department departamento département county condado comté island isla île republic república
république kingdom reino royaume""".split())  # noqa: SIM905

# A superlative or a first, en/es/fr ("largest", "most populous", "más alto", "plus grand", "first").
_SUPERLATIVE = re.compile(r"\b(?:\w+est|most|first|only|m[aá]s|plus|premi[eè]re?|primer[oa]?)\b",
                          re.IGNORECASE)


def described_at(sentence: str) -> int | None:
    """Where the name starts that ``sentence`` opens by describing ("Japon" of "La capitale du Japon est
    Tokyo"), or None."""
    opening = _DESCRIBED.match(sentence)
    if opening is None or opening.group(1).lower() in _OWN_KIND:
        return None
    if opening.group(2) and not _SUPERLATIVE.search(opening.group(1)):
        return None
    return opening.end()
