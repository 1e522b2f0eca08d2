"""The three-outcome judge: supported, contradicted or unverified, and evidence first by default."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from rich.console import Console

from factjudge import CheckConfig, explain
from factjudge.checking.api import check
from factjudge.checking.plan import plan_check
from factjudge.checking.render import print_result
from factjudge.judges.base import Item, JudgeInput
from factjudge.judges.decision import Band, DecisionJudge, Reading
from factjudge.llm.base import Completion, Message, TokenLogprob
from factjudge.llm.registry import LOCAL_DEFAULT
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.records import CheckResult, Evidence, Verdict
from factjudge.resources import Resources
from factjudge.retrieval import wiki as wiki_module
from factjudge.retrieval.wiki.packaged import PackagedWiki
from tests.retrieval.wiki.test_packaged import write_files

PASSAGE = Evidence("wikipedia", "Australia is a country in Oceania. Its capital is Canberra.",
                   title="Australia")


def responder(supported: dict[str, str]) -> ScriptedChatModel:
    """Replies Yes/No by which statement the prompt holds."""

    def reply(messages: list[Message]) -> str:
        prompt = messages[-1]["content"]
        return next(word for text, word in supported.items() if text in prompt)

    return ScriptedChatModel(reply, name="local:scripted")


def judge(model: ScriptedChatModel, *texts: str, evidence: tuple[Evidence, ...] = (PASSAGE,),
          bands: dict[str, Band] | None = None) -> list[Verdict]:
    items = tuple(Item("segment", i, t, i, evidence=evidence) for i, t in enumerate(texts))
    band = (bands or {}).get(model.name)
    judge = DecisionJudge(model, "evidence", prompt="judge_evidence_supported", max_tokens=10, band=band,
                          reading=Reading(unverified_without_evidence=True))
    return list(judge.judge(JudgeInput("q", items)))


def test_without_a_band_the_models_word_decides() -> None:
    model = responder({"The capital is Canberra": "Yes", "Sydney": "No"})
    verdicts = judge(model, "The capital is Canberra.", "The capital is Sydney.")
    assert [v.label for v in verdicts] == ["true", "false"]
    assert explain.why(verdicts[1]) == "the model answered No"
    assert len(model.calls) == 2  # one question an item


def test_no_passage_is_unverified_without_a_call() -> None:
    model = responder({})
    assert [v.label for v in judge(model, "The capital is Canberra.", evidence=())] == ["unverified"]
    assert model.calls == []


def yes_no(p_no: float, model: str = "local:scripted") -> Completion:
    """A one-token reply with the log-probabilities of Yes and No, as ``model`` gave it."""
    word = "No" if p_no >= 0.5 else "Yes"
    top = {"Yes": math.log(1 - p_no), "No": math.log(p_no)}
    return Completion(word, logprobs=(TokenLogprob(word, top[word], top),), model=model)


def test_a_band_of_doubt_is_unverified() -> None:
    replies = iter([yes_no(0.2), yes_no(0.5), yes_no(0.8)])
    model = ScriptedChatModel(lambda messages: next(replies), name="local:scripted")
    verdicts = judge(model, "a", "b", "c", bands={"local:scripted": Band(true_below=0.4, false_from=0.6)})
    assert [v.label for v in verdicts] == ["true", "unverified", "false"]
    assert [v.error_score for v in verdicts] == pytest.approx([0.2, 0.5, 0.8])
    assert (verdicts[1].grounds.rule, verdicts[1].grounds.true_below, verdicts[1].grounds.false_from) == (
        "band", 0.4, 0.6)
    assert explain.why(verdicts[1]).startswith("not enough evidence: the passage neither clearly supports it")


def holding_wiki(source: PackagedWiki) -> Resources:
    """The process's resources, with ``source`` already opened as the packaged Wikipedia."""
    held = Resources()
    held.get("wiki", ("packaged", False), lambda: source)
    return held


@pytest.fixture
def small_wiki(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The packaged source, opened on small summary files of its shape."""
    source = PackagedWiki(tmp_path / "cache", write_files(tmp_path))
    monkeypatch.setattr("factjudge.resources.PROCESS", holding_wiki(source))
    monkeypatch.setattr(wiki_module, "best_offline_wiki", lambda language=None: "packaged")
    monkeypatch.setattr("factjudge.config.best_offline_wiki", lambda language=None: "packaged")


def test_a_local_model_with_no_evidence_reads_wikipedia_first(small_wiki: None) -> None:
    plan = plan_check(CheckConfig(), "What is the capital of Australia?", "It is Sydney.",
                      model_name="local:scripted")
    assert (plan.strategy.name, plan.sources, plan.wiki) == ("evidence", ("wiki",), "packaged")
    # An endpoint's model, a chosen strategy, or wiki=none keep today's behaviour.
    endpoint = plan_check(CheckConfig(model="openai:m"), "q", "a", model_name="openai:m")
    assert endpoint.strategy.name == "vanilla"
    assert plan_check(CheckConfig(strategy="fact"), "q", "a", model_name="local:x").strategy.name == "fact"
    assert plan_check(CheckConfig(wiki="none"), "q", "a", model_name="local:x").strategy.name == "fact"


def test_a_check_shows_the_passage_each_item_rests_on(small_wiki: None,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    replies = {"Australia is ___": "Canberra", "___": "NOT STATED",  # the values read, then the doubts
               "Australia is Sydney": yes_no(0.9), "Australia is in Oceania": yes_no(0.1),
               "Atlantis": yes_no(0.45)}
    model = ScriptedChatModel(lambda m: next(r for t, r in replies.items() if t in m[-1]["content"]),
                              name=LOCAL_DEFAULT)
    result = check("What is the capital of Australia?",
                   "The capital of Australia is Sydney. Australia is in Oceania. Atlantis sank in 9600 BC.",
                   model=model)
    assert [v.label for v in result.segment_verdicts] == ["false", "true", "unverified"]
    assert result.label == "false" and result.strategy == "evidence"
    assert result.segment_verdicts[0].evidence[0].title == "Australia"
    assert explain.why(result.segment_verdicts[0]) == ("the passage says Canberra; the answer says Sydney; "
                                                "asked “The capital of Australia is ___ (a name).”")
    again = CheckResult.from_json(json.dumps(result.to_dict()))
    assert again.segment_verdicts[2].label == "unverified"
    print_result(result, Console(width=400))
    out = capsys.readouterr().out
    assert "evidence: wikipedia · Australia · https://en.wikipedia.org/wiki/Australia" in out
    assert "Its capital is Canberra" in out
    assert "1 unverified" in out


def test_an_item_with_no_passage_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    empty = PackagedWiki(tmp_path / "cache", write_files(tmp_path, {"en": {"Mars": "Mars is a planet."}}))
    monkeypatch.setattr("factjudge.resources.PROCESS", holding_wiki(empty))
    monkeypatch.setattr("factjudge.config.best_offline_wiki", lambda language=None: "packaged")
    model = ScriptedChatModel([], name="local:scripted")
    result = check("Who won?", "Zyxw qrst won the 1911 derby.", model=model)
    verdict = result.segment_verdicts[0]
    assert (verdict.label, verdict.evidence, model.calls) == ("unverified", (), [])
    assert result.label == "unverified"
    print_result(result, Console(width=400))
    assert "no passage was found for it: not enough evidence" in capsys.readouterr().out
