"""The language a text is written in, guessed from its function words (en, es, fr, ru, ar, hi).

A check given no ``language`` still reads an answer in French in the French article first, so the
answer's language is guessed from the stop words it uses: a French sentence says "le", "est",
"de"; a Spanish one "el", "es", "que". Too few such words, or a tie, is no guess.
"""

from __future__ import annotations

from factjudge.text.tokenize import STOPWORDS, tokenize

# Fewer function words than this say nothing about a language.
MIN_WORDS = 2
# Letters and marks only one of the languages writes, each counted as a function word: Spanish and
# French share "de", "la", "en", "se", so "Háblame de la Gran Muralla" needs its "á".
_MARKS = {"es": set("ñ¿¡áíóú"), "fr": set("àâçèêëîïôûùœ")}


def guess_language(text: str) -> str | None:
    """The language whose function words ``text`` uses most, or None when it uses too few or several
    languages' as much."""
    text = text[:2000]
    words = tokenize(text)
    marks = {lang: sum(c in chars for c in text.lower()) for lang, chars in _MARKS.items()}
    counts = sorted(((sum(w in stop for w in words) + marks.get(lang, 0), lang)
                     for lang, stop in STOPWORDS.items()), reverse=True)
    (best, lang), (second, _) = counts[0], counts[1]
    return lang if best >= MIN_WORDS and best > second else None
