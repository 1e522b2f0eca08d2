"""The language a text is written in, guessed from its function words (en, es, fr, ru, ar, hi).

A check given no ``language`` still reads an answer in French in the French article first, so the
answer's language is guessed from the stop words it uses: a French sentence says "le", "est",
"de"; a Spanish one "el", "es", "que". Too few such words, or a tie, is no guess.
"""

from __future__ import annotations

from factjudge.text.tokenize import STOPWORDS, tokenize

# Fewer function words than this say nothing about a language.
MIN_WORDS = 2


def guess_language(text: str) -> str | None:
    """The language whose function words ``text`` uses most, or None when it uses too few or several
    languages' as much."""
    words = tokenize(text[:2000])
    counts = sorted(((sum(w in stop for w in words), lang) for lang, stop in STOPWORDS.items()), reverse=True)
    (best, lang), (second, _) = counts[0], counts[1]
    return lang if best >= MIN_WORDS and best > second else None
