"""A model-free scorer with no passage for an item leaves it unverified (issue 44, point 10)."""

from __future__ import annotations

import pytest

from factjudge import explain
from factjudge.config import CheckConfig
from factjudge.judges.base import Item, JudgeInput
from factjudge.judges.strategies import STRATEGIES
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.records import Evidence, Verdict

NO_ARTICLE = "no article about Lanny Flaherty in a test wiki"
CANBERRA = Evidence("wikipedia", "Canberra is the capital city of Australia.", title="Australia")
ITEMS = (Item("segment", 1, "Canberra is the capital of Australia.", 1, evidence=(CANBERRA,)),
         Item("segment", 2, "Lanny Flaherty was born in 1949.", 2, evidence_note=NO_ARTICLE))


def judged(name: str) -> list[Verdict]:
    judge = STRATEGIES[name].judge(ScriptedChatModel([]), CheckConfig())
    return list(judge.judge(JudgeInput("Who is Lanny Flaherty?", ITEMS)))


@pytest.mark.parametrize("name", ["token_f1", "bm25"])
def test_an_item_with_no_passage_is_unverified_not_false(name: str) -> None:
    # Before: consistency with nothing was 0, so the item was false at 1.00, "the model's own belief".
    read, alone = judged(name)
    assert read.label != "unverified" and read.evidence
    assert alone.label == "unverified" and alone.error_score is None and alone.evidence == ()
    assert explain.why(alone) == f"no passage was found for it: {name} had nothing to score it against"
    assert alone.evidence_note == NO_ARTICLE
    assert explain.no_evidence(alone) == ""  # no belief is claimed for it


def test_a_constant_floor_keeps_its_label_and_claims_no_belief() -> None:
    for name, label in (("always_true", "true"), ("always_false", "false")):
        verdicts = judged(name)
        assert [v.label for v in verdicts] == [label, label]
        words = explain.no_evidence(verdicts[1])
        assert words == f"no passage: {name} gives every item this label, reading nothing"
        assert "belief" not in words
