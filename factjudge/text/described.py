"""The named thing a sentence opens by describing: "La capitale du Japon est Tokyo" is about *Japon*."""

from __future__ import annotations

import re

# A determiner, up to three lower-case words saying what of the thing is told, and "of"/"de" before its name
# ("The population of Paris", "La capitale de l'Australie", "El río más largo de España").
_DESCRIBED = re.compile(r"\s*(?:the|el|la|los|las|le|les|l['’])\s*((?-i:[a-zà-ÿ][\w'’-]*)"
                        r"(?:\s+(?-i:[a-zà-ÿ][\w'’-]*)){0,2})\s+(?:of|de|del|du|des|d['’])\s*"
                        r"(?:the\s+|la\s+|l['’]\s*)?(?=(?-i:[A-ZÀ-Ý]))", re.IGNORECASE)
# Words naming the thing's own kind: "la ciudad de México" is the city, not the country.
_OWN_KIND = frozenset("""city town ciudad villa ville province provincia state estado état region región
région department departamento département county condado comté island isla île republic república
république kingdom reino royaume""".split())  # noqa: SIM905


def described_at(sentence: str) -> int | None:
    """Where the name starts that ``sentence`` opens by describing ("Japon" of "La capitale du Japon est
    Tokyo"), or None."""
    opening = _DESCRIBED.match(sentence)
    if opening is None or set(opening.group(1).lower().split()) & _OWN_KIND:
        return None
    return opening.end()
