"""Extraction replies are bounded: claims per segment by the grammar, tokens by the answer's size."""

from __future__ import annotations

from factjudge.agents.extractor import (
    MAX_CLAIMS_PER_SEGMENT,
    claims_grammar,
    completion_budget,
    extract_claims,
)
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.text.segmenter import segment
from factjudge.transcript import recording


def test_the_token_budget_grows_with_the_answer_and_stops_at_the_ceiling() -> None:
    short = segment("The Arctic Ocean is the smallest ocean.")
    long = segment(" ".join(f"Fact number {i} is about the Arctic Ocean." for i in range(100)))
    small = completion_budget(short, "gpt-4o-mini", 1500)
    assert 64 < small < 150  # room for a few claims of an 8-token sentence, not for 1500 tokens
    assert completion_budget(long, "gpt-4o-mini", 1500) == 1500


def test_the_token_budget_is_the_exact_count_under_and_over_the_ceiling() -> None:
    # 21 tokens in both encodings: 64 + 3 × 21 + 8 × 3 = 151, as counted before the encoding's
    # start-up was cut (issue 16); a bound in place of the count would change these numbers.
    segments = segment("The Arctic Ocean is the smallest ocean. 北京是首都。 "
                       "It borders Russia, Canada and Norway.")
    assert len(segments) == 3
    for model in ("gpt-4o-mini", "gpt-4", "bench-model"):
        assert [completion_budget(segments, model, c) for c in (1500, 152, 151, 150, 100)] == \
            [151, 151, 151, 150, 100]


def test_the_grammar_caps_claims_per_segment() -> None:
    assert f"claim{{1,{MAX_CLAIMS_PER_SEGMENT}}}" in claims_grammar(2)


def _extract(question: str, texts: list[str], reply: str,
             language: str = "en") -> tuple[list[str], list[str]]:
    segments = segment(" ".join(texts))
    with recording() as transcript:
        claims = extract_claims(ScriptedChatModel([reply]), question, segments, domain="wk",
                                language=language)
    assert claims is not None
    dropped = [f"{t.reply} | {t.error}" for t in transcript.traces if t.step == "claims"]
    return [c.text for c in claims], dropped


def test_claims_copied_from_the_example_fragments_duplicates_and_inventions_are_dropped_and_traced() -> None:
    kept, dropped = _extract(
        "¿Dónde está la Torre Eiffel?",
        ["La Torre Eiffel está en París y mide 330 metros."],
        "Segment 1:\nClaim 1. La Torre Eiffel está en París.\n"
        "Claim 2. La Mona Lisa fue pintada por Leonardo da Vinci.\nClaim 3. La mona l\n"
        "Claim 4. La Torre Eiffel está en París.\nClaim 5. La Torre Eiffel mide 330 metros.\n"
        "Claim 6. El Coliseo romano tiene dos mil años de historia.\n", language="es")
    assert kept == ["La Torre Eiffel está en París.", "La Torre Eiffel mide 330 metros."]
    assert dropped == [
        "La Mona Lisa fue pintada por Leonardo da Vinci. | dropped: copies the prompt's worked example",
        "La mona l | dropped: a fragment, not a claim",
        "La Torre Eiffel está en París. | dropped: repeats an earlier claim",
        "El Coliseo romano tiene dos mil años de historia. | dropped: its words are not in the answer"]


def test_a_claim_that_names_what_a_pronoun_stood_for_is_kept() -> None:
    kept, dropped = _extract("Tell me about Marie Curie.",
                             ["Marie Curie was a physicist.", "She won two Nobel Prizes."],
                             "Segment 1:\nClaim 1. Marie Curie was a physicist.\n"
                             "Segment 2:\nClaim 1. Marie Curie won two Nobel Prizes.\n")
    assert kept == ["Marie Curie was a physicist.", "Marie Curie won two Nobel Prizes."] and not dropped


def test_claims_in_scripts_without_spaces_are_checked_too() -> None:
    kept, dropped = _extract("中国的首都是哪里？", ["北京是中国的首都，人口约两千万。"],
                             "Segment 1:\nClaim 1. 北京是中国的首都。\nClaim 2. 北京人口约两千万。\n"
                             "Claim 3. 大堡礁是世界上最大的珊瑚礁。\n", language="zh")
    assert kept == ["北京是中国的首都。", "北京人口约两千万。"]
    assert dropped == ["大堡礁是世界上最大的珊瑚礁。 | dropped: its words are not in the answer"]
