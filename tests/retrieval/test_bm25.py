"""BM25Plus search over passages and FELM's best-chunk selection."""

from __future__ import annotations

import math

import pytest

from factjudge.errors import InputError
from factjudge.retrieval.bm25 import BM25Index, best_chunk

# (language, topic) -> passage; three topics per language so the right passage has rivals
# in its own script as well as across scripts.
PASSAGES: dict[tuple[str, str], str] = {
    ("en", "volcano"): "Mount Vesuvius erupted in 79 AD and buried the Roman city of Pompeii under ash.",
    ("en", "bees"): "Honey bees communicate the direction of flowers to the hive with a waggle dance.",
    ("en", "chess"): "The Sicilian Defence is the most popular chess opening against the king's pawn.",
    ("es", "volcano"): "El volcán Popocatépetl, cerca de la Ciudad de México, expulsa ceniza con frecuencia.",
    ("es", "football"): "El Real Madrid ha ganado la Liga de Campeones de fútbol más veces que ningún club.",
    ("es", "cooking"): "La paella valenciana se cocina con arroz, azafrán, pollo y conejo en una sartén.",
    ("ar", "river"): "نهر النيل هو أطول نهر في أفريقيا ويمر عبر مصر والسودان.",
    ("ar", "desert"): "الصحراء الكبرى هي أكبر صحراء حارة في العالم وتغطي شمال أفريقيا.",
    ("ar", "science"): "ابن الهيثم عالم عربي درس البصريات وانكسار الضوء في القرن الحادي عشر.",
    ("bn", "poet"): "রবীন্দ্রনাথ ঠাকুর গীতাঞ্জলি কাব্যগ্রন্থের জন্য নোবেল পুরস্কার পেয়েছিলেন।",
    ("bn", "river"): "পদ্মা নদী বাংলাদেশের একটি প্রধান নদী এবং গঙ্গার প্রধান শাখা।",
    ("bn", "food"): "ইলিশ মাছ বাংলাদেশের জাতীয় মাছ এবং সরিষা দিয়ে রান্না করা হয়।",
    ("zh", "wall"): "长城是中国古代修建的军事防御工程，总长度超过两万公里。",
    ("zh", "panda"): "大熊猫主要生活在四川的山区竹林中，以竹子为主要食物。",
    ("zh", "tea"): "龙井茶是产于杭州西湖一带的绿茶，以色绿、香郁、味甘著称。",
    ("hi", "monument"): "ताजमहल आगरा में यमुना नदी के किनारे स्थित एक सफेद संगमरमर का मकबरा है।",
    ("hi", "cricket"): "सचिन तेंदुलकर ने अंतरराष्ट्रीय क्रिकेट में सौ शतक बनाए हैं।",
    ("hi", "festival"): "दिवाली रोशनी का त्योहार है जिसमें लोग दीये जलाते हैं।",
}
QUERIES: dict[str, tuple[str, str]] = {
    "en": ("Which city did the eruption of Vesuvius bury?", "volcano"),
    "es": ("¿Con qué ingredientes se cocina la paella?", "cooking"),
    "ar": ("ما هو أطول نهر في أفريقيا؟", "river"),
    "bn": ("রবীন্দ্রনাথ ঠাকুর কোন পুরস্কার পেয়েছিলেন?", "poet"),
    "zh": ("大熊猫吃什么食物？", "panda"),
    "hi": ("ताजमहल कहाँ स्थित है?", "monument"),
}


@pytest.mark.parametrize("lang", sorted(QUERIES))
def test_multilingual_query_ranks_its_passage_first(lang: str) -> None:
    keys = list(PASSAGES)
    index = BM25Index(list(PASSAGES.values()))
    query, topic = QUERIES[lang]
    [(best, score), (_, runner_up)] = index.search(query, 2)
    assert keys[best] == (lang, topic)
    assert score > runner_up


def test_search_orders_best_first_and_limits_k() -> None:
    index = BM25Index(["cats purr", "dogs bark loudly", "dogs and cats", "fish swim"])
    results = index.search("dogs bark", 3)
    assert [i for i, _ in results] == [1, 2, 0]
    assert results[0][1] > results[1][1] > results[2][1]
    assert len(index.search("dogs", 10)) == 4
    assert index.search("dogs", 0) == []
    with pytest.raises(InputError):
        index.search("dogs", -1)


def test_two_passages_sharing_every_term_still_rank() -> None:
    # BM25Okapi gives idf <= 0 to terms in half the passages or more, so both would score 0;
    # BM25Plus keeps the term-frequency signal.
    index = BM25Index(["the moon orbits the earth", "the moon the moon the moon earth"])
    [(best, score), (_, other)] = index.search("moon", 2)
    assert best == 1 and score > other > 0


def test_ties_keep_passage_order() -> None:
    index = BM25Index(["same words here", "same words here", "other text"])
    assert [i for i, _ in index.search("same words", 3)] == [0, 1, 2]
    assert [i for i, _ in index.search("nothing matches", 3)] == [0, 1, 2]


def test_empty_index_and_empty_query() -> None:
    assert BM25Index([]).search("anything", 5) == []
    assert BM25Index(["", "  "]).search("anything", 5) == [(0, 0.0), (1, 0.0)]
    assert BM25Index(["alpha", "beta"]).scores("the of and") == [0.0, 0.0]


def test_best_chunk_picks_the_relevant_chunk() -> None:
    filler = " ".join(f"Paragraph {i} describes the weather in a small village." for i in range(40))
    target = "The lighthouse keeper lit the lamp at dusk every evening for forty years."
    text = f"{filler} {target} {filler}"
    chosen = best_chunk("When did the lighthouse keeper light the lamp?", text, max_tokens=64)
    assert target in chosen


def test_best_chunk_short_or_empty_text() -> None:
    assert best_chunk("query", "") == ""
    assert best_chunk("query", "One short page.") == "One short page."
    # No term in common: the first chunk, deterministically.
    text = " ".join(f"Sentence {i} is here." for i in range(200))
    assert best_chunk("zebra", text, max_tokens=32) == best_chunk("giraffe", text, max_tokens=32)
    assert text.startswith(best_chunk("zebra", text, max_tokens=32))


def test_ceiling_bounds_every_score_by_hand() -> None:
    index = BM25Index(["paris france", "lyon france"], stopwords=False)
    # BM25Plus idf is log((N + 1) / df): paris log(3); rome is unseen and counts at the top idf, log(3).
    assert index.ceiling("paris rome") == pytest.approx(2 * math.log(3) * (1 + 1.5 + 1))
    assert 0 < max(index.scores("paris rome")) < index.ceiling("paris rome")
    assert BM25Index([]).ceiling("paris") == 0.0 and index.ceiling("") == 0.0
