"""One way to compare names and values whatever their case, accents and spacing: ``fold``.

Titles ("Émile_Zola"), the names a text gives and the values an item states are all compared
folded, so "émile zola", "Emile Zola" and "Émile_Zola" meet; a module of its own so the title
finder (``retrieval/wiki/names``) and the value finder (``text/values``) share one rule.
"""

from __future__ import annotations

import re
import unicodedata


def fold(text: str) -> str:
    """``text`` case-, accent- and whitespace-blind, an underscore read as a space (as titles write it)."""
    decomposed = unicodedata.normalize("NFKD", text.replace("_", " "))
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).casefold().split())


def says(text: str, name: str) -> bool:
    """Whether ``text`` writes ``name`` as words of its own, case and accents aside ("par Emile Zola")."""
    return re.search(rf"\b{re.escape(fold(name))}\b", fold(text)) is not None


def words(text: str) -> list[str]:
    """The words of ``text``, folded, without digits or punctuation."""
    return re.findall(r"[^\W\d_]+", fold(text))
