"""Multilingual tokenisation for BM25."""

from __future__ import annotations

import pytest

from factjudge.text.tokenize import normalize, stopwords_for, tokenize


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("The Eiffel Tower, in PARIS!", ["the", "eiffel", "tower", "in", "paris"]),
        ("Straße ﬁle Ⅻ", ["strasse", "file", "xii"]),  # case folding and NFKC compatibility forms
        ("L'été à Montréal", ["l", "été", "à", "montréal"]),
        ("¿Dónde está la Ñ?", ["dónde", "está", "la", "ñ"]),
        ("Москва — столица России", ["москва", "столица", "россии"]),
        ("Hà Nội là thủ đô của Việt Nam", ["hà", "nội", "là", "thủ", "đô", "của", "việt", "nam"]),
        ("हिन्दी भारत की भाषा है।", ["हिन्दी", "भारत", "की", "भाषा", "है"]),
        ("বাংলা আমার ভাষা", ["বাংলা", "আমার", "ভাষা"]),
        ("3.14 and 2,000", ["3", "14", "and", "2", "000"]),
        ("snake_case", ["snake", "case"]),
    ],
)
def test_words(text: str, tokens: list[str]) -> None:
    assert tokenize(text) == tokens


def test_the_scorers_cases() -> None:
    """The cases of the token-F1 scorer's former tokenizer: one tokenizer serves both."""
    assert tokenize("It's 3.5 km, Ünïcode!") == ["it", "s", "3", "5", "km", "ünïcode"]
    assert tokenize("हिन्दी भाषा") == ["हिन्दी", "भाषा"]  # vowel signs stay in the word
    assert tokenize("北京is大") == ["北京", "is", "大"]  # CJK as bigrams (the scorer had unigrams)
    assert tokenize("  ,;") == []


def test_devanagari_and_bengali_marks_stay_inside_words() -> None:
    assert tokenize("हिन्दी") == ["हिन्दी"]
    assert tokenize("বাংলা") == ["বাংলা"]
    # Nukta letters decompose under NFKC; the nukta is a mark and stays in the word.
    assert tokenize("क़िला") == [normalize("क़िला")]


def test_arabic_tashkeel_and_tatweel_removed() -> None:
    assert tokenize("اللُّغَةُ العَرَبِيَّةُ") == ["اللغة", "العربية"]
    assert tokenize("العـــربية") == tokenize("العربية")
    assert tokenize("ما هي عاصمة مصر؟") == ["ما", "هي", "عاصمة", "مصر"]


def test_cjk_runs_become_bigrams() -> None:
    assert tokenize("北京是中国的首都。") == ["北京", "京是", "是中", "中国", "国的", "的首", "首都"]
    assert tokenize("東京タワー") == ["東京", "京タ", "タワ", "ワー"]
    assert tokenize("ひらがな") == ["ひら", "らが", "がな"]
    assert tokenize("서울 한국어") == ["서울", "한국", "국어"]


def test_single_cjk_character_is_a_unigram_and_mixed_words_split() -> None:
    assert tokenize("猫") == ["猫"]
    assert tokenize("猫 と 犬") == ["猫", "と", "犬"]
    assert tokenize("iPhone手机2023年") == ["iphone", "手机", "2023", "年"]
    assert tokenize("ｶﾀｶﾅ") == ["カタ", "タカ", "カナ"]  # half-width forms normalised first


def test_invisible_characters() -> None:
    assert tokenize("soft\u00adhyphen zero\u200bwidth") == ["softhyphen", "zero", "width"]
    assert tokenize("क्\u200dष") == tokenize("क्ष")


def test_stray_marks_and_empty_input() -> None:
    assert tokenize("") == []
    assert tokenize(" \u093f \u0301 ... ") == []


def test_stopwords_by_language() -> None:
    assert tokenize("The capital of France is Paris", stopwords=True, lang="en") == [
        "capital",
        "france",
        "paris",
    ]
    assert tokenize("La capitale de la France est Paris", stopwords=True, lang="fr") == [
        "capitale",
        "france",
        "paris",
    ]
    assert tokenize("La capital de España es Madrid", stopwords=True, lang="es-ES") == [
        "capital",
        "españa",
        "madrid",
    ]
    assert tokenize("Столица России и Москва", stopwords=True, lang="ru") == ["столица", "россии", "москва"]
    assert tokenize("भारत की राजधानी", stopwords=True, lang="hi") == ["भारत", "राजधानी"]


def test_stopwords_without_language_use_every_list() -> None:
    assert tokenize("the capital de la France", stopwords=True) == ["capital", "france"]
    # English content words that are function words elsewhere are kept in the union.
    assert tokenize("the car era", stopwords=True) == ["car", "era"]


def test_unknown_language_has_no_stop_list() -> None:
    assert stopwords_for("zh") == frozenset()
    assert tokenize("the cat", stopwords=True, lang="xx") == ["the", "cat"]
    assert "the" in stopwords_for("EN_us")
