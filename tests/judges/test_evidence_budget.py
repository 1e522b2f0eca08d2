"""Evidence is trimmed to a token budget, in order, and the judge sees only what fits."""

from __future__ import annotations

import dataclasses

import pytest

from factjudge.checking.checker import Checker
from factjudge.config import CheckConfig
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.llm.tokens import count_tokens, get_encoding
from factjudge.records import Evidence
from factjudge.retrieval import budget
from factjudge.retrieval.budget import trim_evidence

LONG = " ".join(f"Sentence number {i} about the Arctic Ocean." for i in range(200))


def test_trims_in_order_and_cuts_the_last_passage() -> None:
    evidence = [Evidence("kb", "The Arctic Ocean is the smallest ocean."), Evidence("kb", LONG),
                Evidence("kb", "never shown")]
    kept = trim_evidence(evidence, 50)
    assert len(kept) == 2 and kept[0] == evidence[0]
    assert kept[1].text.endswith(" …") and count_tokens(kept[1].text, "gpt-4") <= 50
    assert trim_evidence(evidence, None) == tuple(evidence)


def test_the_judge_prompt_and_the_verdict_hold_only_the_trimmed_evidence() -> None:
    model = ScriptedChatModel(["Yes"])
    # With a context: the supported judge, here reading its grounding whole (not in windows).
    config = CheckConfig(strategy="fact", evidence_tokens=30, chunk_tokens=None, values=0)
    result = Checker(config, model).check("q", "The Arctic Ocean is small.",
                                           context=[Evidence("context", LONG)])
    prompt = model.calls[0][0]["content"]
    assert "Sentence number 2 " in prompt and "Sentence number 150 " not in prompt
    assert result.segment_verdicts[0].evidence[0].text.endswith(" …")


def test_one_list_call_stays_within_the_budget_and_every_item_gets_its_best_passage() -> None:
    from factjudge.judges.base import Item, JudgeInput
    from factjudge.judges.strategies import STRATEGIES

    items = tuple(Item("segment", i, f"Statement {i}.", i,
                       evidence=(Evidence("kb", f"Best passage for item {i}."), Evidence("kb", LONG)))
                  for i in (1, 2, 3))
    model = ScriptedChatModel(["Answer: ALL_CORRECT"])
    job = JudgeInput("q", items, evidence_tokens=60)
    verdicts = list(STRATEGIES["doc"].judge(model, CheckConfig()).judge(job))
    shown = verdicts[0].evidence
    assert [e.text for e in shown[:3]] == [f"Best passage for item {i}." for i in (1, 2, 3)]
    assert sum(count_tokens(e.text, "gpt-4") for e in shown) <= 60 + 2  # the cut passage's " …"
    assert "Sentence number 150 " not in model.calls[0][0]["content"]


def _trim_by_counting(evidence: list[Evidence], max_tokens: int) -> tuple[Evidence, ...]:
    """The budget's rule with every passage counted: what trim_evidence must return."""
    kept: list[Evidence] = []
    left = max_tokens
    for ev in evidence:
        if left <= 0:
            break
        tokens = get_encoding().encode_ordinary(ev.text)
        if len(tokens) > left:
            ev = dataclasses.replace(ev, text=get_encoding().decode(tokens[:left]).rstrip() + " …")
        kept.append(ev)
        left -= len(tokens)
    return tuple(kept)


SHORT = [Evidence("kb", "The Arctic Ocean is the smallest ocean."), Evidence("kb", ""),
         Evidence("kb", "北京是首都。 Привет 🙂")]


@pytest.mark.parametrize("evidence", [SHORT, [*SHORT, Evidence("kb", LONG)], [Evidence("kb", "")]])
def test_the_budget_is_what_counting_every_passage_gives(evidence: list[Evidence]) -> None:
    tokens = sum(count_tokens(e.text, "gpt-4") for e in evidence)
    size = sum(len(e.text.encode()) for e in evidence)
    # Under, at and over the token count and the byte size, and the edges 0 and 1.
    for limit in sorted({0, 1, tokens - 1, tokens, tokens + 1, size - 1, size, size + 1, 30, 5000}):
        assert trim_evidence(evidence, limit) == _trim_by_counting(evidence, limit), limit


def test_passages_smaller_than_the_budget_in_bytes_are_not_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_encoding(*args: object) -> None:
        raise AssertionError("counted tokens")

    monkeypatch.setattr(budget, "get_encoding", no_encoding)
    size = sum(len(e.text.encode()) for e in SHORT)
    assert trim_evidence(SHORT, size + 1) == tuple(SHORT)
    with pytest.raises(AssertionError, match="counted tokens"):
        trim_evidence(SHORT, size)
