"""A bare label hides the score: every strategy says the rule that made its label, and a close call shows.

Each judge records the cut (the error score from which it labels an item false); an error score
within ``UNCERTAIN_MARGIN`` of it is a close call, shown as such in the terminal, never as the
same green tick as a confident verdict.
"""

from __future__ import annotations

import io
import math

import pytest
from rich.console import Console

from factjudge import explain
from factjudge.checking.checker import Checker
from factjudge.checking.render import print_result
from factjudge.config import CheckConfig
from factjudge.grounds import Grounds
from factjudge.judges.base import Item, JudgeInput
from factjudge.judges.decision import Band, DecisionJudge
from factjudge.llm.base import Completion, TokenLogprob
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.records import Evidence, Verdict


def _reply(word: str, p_false: float) -> Completion:
    top = {"True": math.log(1 - p_false), "False": math.log(p_false)}
    return Completion(text=word, logprobs=(TokenLogprob(word, top[word], top),), model="m")


def _job() -> JudgeInput:
    items = (Item("segment", 1, "The museum opened in 1998.", 1),
             Item("segment", 2, "It is on the north bank.", 2))
    return JudgeInput("When did it open?", items, ())


def test_the_models_own_word_has_its_cut_and_a_rule_in_words() -> None:
    model = ScriptedChatModel([_reply("True", 0.1), _reply("True", 0.45)], name="m")
    confident, close = DecisionJudge(model, "fact", prompt="judge_fact", max_tokens=2).judge(_job())
    assert (confident.label, confident.cut, confident.uncertain) == ("true", 0.5, False)
    assert (close.label, close.uncertain) == ("true", True)  # 0.45 is within 0.1 of the 0.5 cut
    assert explain.why(close) == "the model answered True"


def test_the_calibrated_cut_and_the_scorers_cut_are_recorded() -> None:
    model = ScriptedChatModel(["Yes"], name="m")
    judge = DecisionJudge(model, "supported", prompt="judge_supported", max_tokens=2, band=Band(0.41, 0.41))
    [verdict] = judge.judge(JudgeInput("q", (_job().items[0],), ()))
    assert verdict.cut is None  # no log-probabilities: the label is the word, not a cut of a score

    context = [Evidence("context", "The city museum opened in 1998 on the south bank.")]
    result = Checker(CheckConfig(strategy="token_f1"), ScriptedChatModel([])).check(
        "q", "The city museum opened in 1998.", context=context)
    [scored] = result.segment_verdicts
    assert scored.cut == pytest.approx(0.5) and explain.why(scored).startswith("token_f1 consistency")


def test_a_cut_survives_json_and_old_verdicts_load_without_one() -> None:
    verdict = Verdict("segment", 1, "false", 0.46, "fact@m", grounds=Grounds("cut", 0.46, true_below=0.41,
                                                                             false_from=0.41))
    again = Verdict.from_dict(verdict.to_dict())
    assert again == verdict and again.cut == 0.41 and again.uncertain
    # A verdict written before grounds has its cut alone.
    old = {k: v for k, v in explain.verdict_dict(verdict).items() if k not in ("grounds", "why")}
    assert Verdict.from_dict(old).cut == 0.41 and Verdict.from_dict(old).uncertain
    del old["cut"]
    assert Verdict.from_dict(old).cut is None and not Verdict.from_dict(old).uncertain


def test_the_terminal_shows_the_rule_and_the_close_call() -> None:
    model = ScriptedChatModel([_reply("True", 0.45), _reply("False", 0.95)], name="m")
    result = Checker(CheckConfig(strategy="fact", wiki="none"), model).check(
        "When did it open?", "The museum opened in 1998. It is on the north bank.")
    out = io.StringIO()
    print_result(result, Console(file=out, width=200, color_system=None))
    text = out.getvalue()
    assert "✔ true (uncertain) [1]" in text and "✘ false [2]" in text
    assert "(error score 0.45, a close call; false from 0.50)" in text
    assert text.count("the model answered") == 2  # the rule for the true item too
