"""Where a word of a question cannot be a common noun, with no tagger (en, es, fr).

Two rules say when a word an encyclopedia titles is no noun of the sentence:

- **Locutions**: a word inside a fixed phrase that works as one function word ("as well as", "sin
  embargo", "en effet") is no noun: "well" is no *Well*, "embargo" no *Embargo*, "train" of "en train
  de" no *Train*. Known as a list (adverbs, prepositions and conjunctions of several words, and a few
  set phrases with a noun in them: "on foot", "dar a luz", "avoir lieu"), and the comparison "as … as"
  ("tan … como", "aussi … que"), whose middle word is an adjective or an adverb whatever it is.
- **Determiners** (Spanish and French only): a singular common noun there follows an article, a
  determiner, a possessive or a preposition joined to its article ("la ciudad", "del parto", "au
  stade", "l'oignon"), maybe with an adjective said before the noun between ("le grand lac"); a
  singular word that follows none is an adjective after its noun ("la comuna suiza", "l'état
  vietnamien"), a noun complement ("serie de televisión") or a word of a set phrase ("mis en
  musique"). A plural may stand alone ("por actuaciones"). English says its mass nouns and plurals
  bare ("is cannabis legal?"), so it has no such rule.
"""

from __future__ import annotations

import re
from functools import lru_cache

# Locutions by language, separated by "|" or a line break (an apostrophe or a hyphen as written).
_LOCUTIONS = {
    "en": """as well as|as well|as long as|as far as|as soon as|as much as|as many as|so far|by far
        at least|at most|at all|at last|at first|at once|at times|at home|at birth|at hand|by hand|on foot
        of course|in fact|in case|in any case|in general|in particular|in order to|in front of|in spite of
        instead of|because of|on behalf of|in terms of|by means of|by the way|for example|for instance
        kind of|sort of|a lot|lots of|no longer|right now|per cent|in addition|in advance|in detail
        on purpose|on top of|with respect to|with regard to|in view of|in light of|in the light of|in touch
        in turn|in short|in brief|in place of|in favour of|in favor of|in common|in love|in person
        in public|in private|on time|in time|from time to time|at the same time|on average|take place
        takes place|took place|taken place|take part|took part|in part|for the most part|in the end
        on the other hand|on the one hand|in charge of|on account of|into account|day to day
        day after day|in other words|in a word|in a few words|how many times|how often
        son in law|daughter in law|mother in law|father in law|brother in law|sister in law""",
    "es": """por supuesto|sin embargo|no obstante|a pesar de|en cuanto a|por ejemplo|a veces|de hecho
        en lugar de|en vez de|a través de|sin duda|por lo tanto|por tanto|a menudo|a partir de
        a lo largo de|al menos|por lo menos|por fin|de repente|a la vez|en realidad|en general|por cierto
        de nuevo|a cabo|a favor de|en contra de|a fin de|con el fin de|a medida que|en torno a|de manera
        de forma|de modo|en medio de|a causa de|debido a|en cambio|por otra parte|por otro lado
        por un lado|en efecto|es decir|o sea|a tiempo|a la hora de|en cuenta|en serio|de acuerdo
        sobre todo|tal vez|a mano|a pie|cuántas veces|de vez en cuando|en particular|por parte de
        en parte|dar a luz|dio a luz|a la luz de|en busca de|en función de|en relación con
        con respecto a|respecto a|frente a|junto a|alrededor de|acerca de|a raíz de|a principios de
        a finales de|a mediados de|en caso de|de todos modos|en todo caso|tener lugar|tuvo lugar
        tiene lugar|ha tenido lugar""",
    "fr": """bien que|en effet|tout à fait|par exemple|en fait|au moins|à peu près|peut-être|d'abord
        en outre|grâce à|à cause de|au lieu de|à travers|en train de|au cours de|à partir de|en raison de
        à propos de|par rapport à|de plus|du moins|quand même|tout de suite|à la fois|en tant que
        au sein de|à l'aide de|en matière de|à l'égard de|sans doute|d'ailleurs|en revanche
        au fur et à mesure|en cas de|en tout cas|de toute façon|à pied|à la main|à temps|à l'heure
        de temps en temps|combien de fois|en général|en particulier|en partie|de la part de|faire partie
        fait partie|font partie|avoir lieu|a lieu|ont lieu|a eu lieu|ont eu lieu|aura lieu|avait lieu
        en premier lieu|en compte|en cours|à la suite de|en fonction de|au début de|à la fin de
        au milieu de|en face de|à côté de|au-delà de|au-dessus de|le long de|en dépit de|à l'époque
        à l'instar de|en vue de|en ce qui concerne|donner naissance|donné naissance|donne naissance
        mettre au monde|mis au monde|bien sûr|en somme|en bref|en réalité""",
}
# The comparison of equality: its middle word ("well" of "as well as") is no noun.
_COMPARED = {"en": r"as\s+(\w+)\s+as", "es": r"tan\s+(\w+)\s+como", "fr": r"(?:aussi|si)\s+(\w+)\s+que"}


@lru_cache(maxsize=8)
def _pattern(language: str) -> re.Pattern[str] | None:
    """One expression finding every locution of ``language`` and its comparisons, None for another."""
    if language not in _LOCUTIONS:
        return None
    phrases = sorted((p.strip() for line in _LOCUTIONS[language].splitlines() for p in line.split("|")),
                     key=len, reverse=True)
    said = [r"[\s-]+".join(re.escape(w).replace("'", "['’]").replace(r"\-", r"[-\s]") for w in p.split())
            for p in phrases if p]
    return re.compile(rf"(?<![\w'’-])(?:{'|'.join([*said, _COMPARED[language]])})(?![\w'’-])",
                      re.IGNORECASE)


def locution_spans(text: str, language: str | None) -> list[tuple[int, int]]:
    """Where ``text`` says a locution of ``language`` (its start and end offsets): no word in one is a
    noun. None found for a language this module does not know."""
    pattern = _pattern(language.split("-")[0].lower()) if language else None
    return [m.span() for m in pattern.finditer(text)] if pattern is not None else []


# Words after which a Spanish or French singular noun may stand (lower case; "l'" and "qu'un" are read
# off the word itself).
_DETERMINERS = {
    "es": frozenset("""el la lo los las un una unos unas al del este esta estos estas ese esa esos esas
        aquel aquella aquellos aquellas mi mis tu tus su sus nuestro nuestra nuestros nuestras vuestro
        vuestra cada otro otra otros otras algún alguno alguna algunos algunas ningún ninguna mucho mucha
        muchos muchas poco poca pocos pocas todo toda todos todas varios varias cuyo cuya cuyos cuyas
        qué cuál cuáles cuánto cuánta cuántos cuántas dicho dicha ambos ambas tanto tanta""".split()),  # noqa: SIM905
    "fr": frozenset("""le la les un une des du au aux ce cet cette ces mon ma mes ton ta tes son sa ses
        notre nos votre vos leur leurs chaque quel quelle quels quelles quelque quelques tout toute tous
        toutes plusieurs certain certaine certains certaines aucun aucune autre autres ledit ladite
        lequel laquelle lesquels lesquelles""".split()),  # noqa: SIM905
}
# Adjectives said before the noun, between it and its determiner ("la primera ciudad", "le grand lac").
_BEFORE_NOUN = {
    "es": frozenset("""gran grande grandes primer primera primeros primeras segundo segunda tercer tercera
        último última últimos últimas nuevo nueva nuevos nuevas viejo vieja buen buena mal mala mejor peor
        más menos pequeño pequeña antiguo antigua mismo misma principal único única propio propia
        famoso famosa célebre actual""".split()),  # noqa: SIM905
    "fr": frozenset("""grand grande grands grandes petit petite petits petites premier première premiers
        premières deuxième second seconde dernier dernière derniers dernières nouveau nouvel nouvelle
        nouveaux nouvelles vieux vieil vieille ancien ancienne bon bonne mauvais mauvaise meilleur
        meilleure plus moins haut haute même seul seule beau bel belle gros grosse jeune vrai vraie
        célèbre principal principale""".split()),  # noqa: SIM905
}
_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
_ELIDED_ARTICLE = re.compile(r"^l['’]", re.IGNORECASE)
# A French word elided onto the next ("l'", "d'", "qu'", "jusqu'"), at a word's start.
ELIDED = re.compile(r"^(?:[cdjlmnst]|qu|jusqu|lorsqu|puisqu)['’](?=\w)", re.IGNORECASE)


def not_nouns(text: str, language: str | None) -> list[tuple[int, int]]:
    """Where ``text`` says a word that cannot be a common noun in ``language`` (its start and end
    offsets): the locutions (``locution_spans``) and, in Spanish and French, a singular word that no
    determiner comes before."""
    spans = locution_spans(text, language)
    lang = language.split("-")[0].lower() if language else ""
    if lang not in _DETERMINERS:
        return spans
    words = list(_WORD.finditer(text))
    for i, match in enumerate(words):
        word = match.group().casefold()
        if _ELIDED_ARTICLE.match(word) or word.endswith(("s", "x")):
            continue  # "l'oignon" has its article; a plural may stand alone
        before = [ELIDED.sub("", w.group().casefold()) for w in words[max(0, i - 2) : i]]
        # "qu'un": the determiner elided onto is read without what it follows.
        if before and (before[-1] in _DETERMINERS[lang] or (
                len(before) == 2 and before[-1] in _BEFORE_NOUN[lang] and before[0] in _DETERMINERS[lang])):
            continue
        spans.append(match.span())
    return spans
