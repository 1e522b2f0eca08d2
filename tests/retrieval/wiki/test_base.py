from __future__ import annotations

import pytest

from factjudge.errors import InputError
from factjudge.retrieval.wiki.base import Article, WikiSpec, parse_wiki_spec, rank_articles
from factjudge.retrieval.wiki.names import fold, name_parts, noun_titles, title_candidates


@pytest.mark.parametrize(("text", "names", "related"), [
    ("The capital of Australia is Sydney.", ["Australia", "Sydney"], ["Capital"]),
    ("Where is the Statue of Liberty?", ["Statue of Liberty"], ["Statue", "Liberty"]),
    ("It was written by Gabriel García Márquez in 1967.", ["Gabriel García Márquez"],
     ["Gabriel García", "García Márquez", "Gabriel", "García", "Márquez", "Written"]),
    ("Canberra was founded in 1913. However, Paris is big.", ["Canberra", "However", "Paris"], ["Founded"]),
    ("Walt Disney's body lies in Glendale.", ["Walt Disney", "Glendale"], ["Walt", "Disney", "Body", "Lie"]),
    ("Are all mammals vertebrates?", [], ["Mammal", "Vertebrate"]),
    ("it rains. The weather is bad.", [], ["Rain", "Weather"]),
])
def test_whole_names_then_their_parts_and_nouns(text: str, names: list[str], related: list[str]) -> None:
    assert title_candidates([text]) == names
    assert name_parts([text]) + noun_titles([text]) == related


def test_parse_wiki_spec_names_each_backend() -> None:
    assert parse_wiki_spec("zim:/data/w.zim") == WikiSpec("zim", "/data/w.zim")
    assert str(parse_wiki_spec("api:es")) == "api:es"
    with pytest.raises(InputError, match="needs a file"):
        parse_wiki_spec("factscore")


def test_fold_ignores_case_accents_and_underscores() -> None:
    assert fold("Córdoba_Province") == fold("cordoba province")


ARTICLES = [
    Article("Paris", "Paris is the capital of France and its largest city.", "en"),
    Article("Lyon", "Lyon is a city in France, known for its cuisine.", "en"),
    Article("París", "París es la capital de Francia.", "es"),
]


def test_the_topic_article_ranks_first_even_against_a_better_match() -> None:
    found = rank_articles("Lyon is a city in France known for cuisine", ARTICLES, 3, topics=["paris"])
    # "paris" folds to both titles; the better-scored Lyon comes only after them.
    assert [e.title for e in found] == ["Paris", "París", "Lyon"]
    assert all(0 <= (e.score or 0) < 1 for e in found)


def test_passages_in_the_language_asked_come_before_better_scored_others() -> None:
    query = "the capital of France, its largest city"
    assert rank_articles(query, ARTICLES, 1)[0].title == "Paris"
    assert rank_articles(query, ARTICLES, 1, language="es")[0].title == "París"


def test_nothing_to_rank_and_unmatched_passages_give_no_evidence() -> None:
    assert rank_articles("Paris", [], 3) == []
    assert rank_articles("Paris", ARTICLES, 0) == []
    assert rank_articles("zebra", ARTICLES, 3) == []


def test_an_excerpt_keeps_the_first_sentence_and_those_that_bear_on_the_item() -> None:
    from factjudge.retrieval.wiki.base import excerpt

    text = ("The Eiffel Tower is a lattice tower in Paris. It is named after Gustave Eiffel. "
            "Locals first criticised its design. It was completed in 1889 for the World's Fair. "
            "It is the most visited monument with an entrance fee.")
    assert excerpt(text, "It was completed in 1889.", sentences=2) == \
        "The Eiffel Tower is a lattice tower in Paris. … It was completed in 1889 for the World's Fair."
    assert excerpt("One sentence only.", "anything") == "One sentence only."


def test_an_excerpt_weighs_a_word_by_how_few_sentences_say_it() -> None:
    from factjudge.retrieval.wiki.base import excerpt

    # "Japan" is in most sentences; "capital" in the one that answers.
    text = ("Japan is an island country in East Asia. It is bordered by the Sea of Japan. The Japanese "
            "archipelago has four major islands. Japan is divided into 47 prefectures. Tokyo is the "
            "country's capital and largest city.")
    assert excerpt(text, "The capital of Japan is Osaka.", sentences=2) == \
        "Japan is an island country in East Asia. … Tokyo is the country's capital and largest city."
