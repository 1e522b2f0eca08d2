"""The Verifier: RAG mode picks a passage-reading judge and shares the pipeline with check()."""

from __future__ import annotations

import asyncio

import pytest

from factjudge import explain
from factjudge.checking.api import check
from factjudge.checking.context import context_passages
from factjudge.checking.verifier import Verifier, summarize
from factjudge.config import CheckConfig
from factjudge.errors import InputError
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.records import Evidence
from tests.integrations.samples import ANSWER, CONTEXT, QUESTION, second_is_wrong


def scripted() -> ScriptedChatModel:
    return ScriptedChatModel(second_is_wrong, name="scripted:judge")


def comparable(data: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in data.items() if k != "version"}


def test_without_context_it_is_the_same_check_as_the_cli() -> None:
    model = scripted()
    result = Verifier(model=model).verify(QUESTION, ANSWER)
    expected = check(QUESTION, ANSWER, CheckConfig(), model=scripted())
    assert comparable(result.to_dict()) == comparable(expected.to_dict())
    assert result.strategy == "vanilla"


def test_rag_mode_is_grounded_in_the_context_by_default() -> None:
    model = scripted()
    result = Verifier(model=model).verify(QUESTION, ANSWER, context=CONTEXT)
    assert result.strategy == "grounded"
    assert [v.label for v in result.segment_verdicts] == ["true", "false", "not_checkable"]
    prompt = model.calls[0][0]["content"]
    assert "south bank of the river" in prompt
    assert "never against your own knowledge" in prompt
    assert result.traces[0].prompt_name == "judge_segment_grounded"
    assert result.segment_verdicts[1].evidence[0].source == "context"


def test_open_mode_falls_back_to_world_knowledge_with_the_doc_prompt() -> None:
    model = scripted()
    result = Verifier(model=model, grounded=False).verify(QUESTION, ANSWER, context=CONTEXT,
                                                          ref_texts=["The museum is free on Sundays."])
    assert result.strategy == "doc"
    prompt = model.calls[0][0]["content"]
    assert "well-established knowledge" in prompt and "south bank" in prompt
    assert result.traces[0].prompt_name == "judge_segment_doc"


def test_per_call_grounded_and_config_override_the_verifier_defaults() -> None:
    model = scripted()
    verifier = Verifier(model=model)
    result = verifier.verify(QUESTION, ANSWER, context=CONTEXT, grounded=False,
                             config=CheckConfig(granularity="segment", strategy="cot"))
    assert result.strategy == "doc"


def test_claim_level_grounded_uses_the_claim_prompt() -> None:
    extraction = ("Segment 1:\nClaim 1. The city museum opened in 1998.\n"
                  "Segment 2:\nClaim 1. The city museum stands on the north bank of the river.\n"
                  "Segment 3:\nNo claims\n")
    model = ScriptedChatModel([extraction, "Answer: 2"])
    result = Verifier(CheckConfig(granularity="claim"), model=model).verify(QUESTION, ANSWER,
                                                                            context=CONTEXT)
    assert [v.label for v in result.claim_verdicts][:2] == ["true", "false"]
    assert result.traces[-1].prompt_name == "judge_claim_grounded"
    assert summarize(result)["unsupported"][0]["text"].endswith("north bank of the river.")


def test_model_free_scorer_needs_no_model_call() -> None:
    model = ScriptedChatModel([])
    result = Verifier(CheckConfig(strategy="token_f1"), model=model).verify(QUESTION, ANSWER,
                                                                            context=CONTEXT)
    assert result.strategy == "token_f1" and not model.calls
    assert result.segment_verdicts[0].error_score is not None


def test_context_items_may_be_strings_evidence_or_mappings() -> None:
    passages = context_passages(["a", Evidence("wiki", "b", url="https://x"), {"text": "c", "title": "T"},
                                 "  "])
    assert [(p.source, p.text) for p in passages] == [("context", "a"), ("wiki", "b"), ("context", "c")]
    assert passages[2].title == "T"
    assert context_passages("one passage")[0].text == "one passage"
    with pytest.raises(InputError):
        context_passages([{"title": "no text"}])
    with pytest.raises(InputError):
        context_passages([42])  # type: ignore[list-item]


def test_empty_context_and_grounded_without_context_are_input_errors() -> None:
    verifier = Verifier(model=scripted())
    with pytest.raises(InputError, match="context is empty"):
        verifier.verify(QUESTION, ANSWER, context=["   "])
    with pytest.raises(InputError, match="grounded strategy judges against evidence"):
        verifier.verify(QUESTION, ANSWER, config=CheckConfig(strategy="grounded"))
    with pytest.raises(InputError, match="give a context"):
        verifier.verify(QUESTION, ANSWER, config=CheckConfig(strategy="bm25"))


def test_averify_gives_the_same_result() -> None:
    verifier = Verifier(model=scripted())
    result = asyncio.run(verifier.averify(QUESTION, ANSWER, context=CONTEXT))
    assert result.strategy == "grounded" and result.label == "false"


def test_model_is_built_from_the_config_once(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[str] = []

    def fake_model_for(config: CheckConfig) -> ScriptedChatModel:
        built.append(config.model)
        return ScriptedChatModel(second_is_wrong, name=config.model)

    monkeypatch.setattr("factjudge.checking.model_pool.build_model", fake_model_for)
    verifier = Verifier(CheckConfig(model="openai:judge"))
    first = verifier.verify(QUESTION, ANSWER, context=CONTEXT)
    verifier.verify(QUESTION, ANSWER, context=CONTEXT)
    assert first.model == "openai:judge" and built == ["openai:judge"]


def test_summary_lists_what_is_not_supported_and_why() -> None:
    result = Verifier(model=scripted()).verify(QUESTION, ANSWER, context=CONTEXT)
    summary = summarize(result)
    assert summary["label"] == "false" and summary["model_note"] is None
    assert summary["faithfulness"] == 0.5 and summary["successful"] is False  # labelled false
    assert summary["reason"] == explain.reason(result)
    [item] = summary["unsupported"]
    assert item["target"] == "segment" and item["text"] == "It stands on the north bank of the river."
    assert item["why"] == "the judge listed it as wrong"


def test_an_opinion_beside_a_fact_is_not_judged_against_the_context() -> None:
    # Issue 26, point 1: "She is my favourite scientist!" was judged false against the context.
    model = ScriptedChatModel(["Yes"], name="local:qwen2.5-coder-1.5b-instruct-q4_k_m")
    result = Verifier(CheckConfig(values=0), model=model).verify(  # one Yes/No question an item
        "Who was Marie Curie?", "Marie Curie won two Nobel Prizes. She is my favourite scientist!",
        context=["Marie Curie won the Nobel Prize in Physics in 1903 and in Chemistry in 1911."])
    assert result.strategy == "supported"
    assert [v.label for v in result.segment_verdicts] == ["true", "not_checkable"]
    assert len(model.calls) == 1 and "favourite" not in model.calls[0][0]["content"]
    assert result.label == "true" and result.is_successful()


def test_a_candid_opinion_beside_a_fact_is_not_judged_against_the_context() -> None:
    # Issue 35, point 2: "Honestly, I think …" was judged false (0.80) and dragged faithfulness down.
    model = ScriptedChatModel(["Yes"], name="local:qwen2.5-coder-1.5b-instruct-q4_k_m")
    result = Verifier(CheckConfig(values=0), model=model).verify(  # one Yes/No question an item
        "Where is the Eiffel Tower?",
        "The Eiffel Tower is in Paris. Honestly, I think it is the most romantic place on Earth.",
        context=["The Eiffel Tower is a wrought-iron lattice tower on the Champ de Mars in Paris, France."])
    assert [v.label for v in result.segment_verdicts] == ["true", "not_checkable"]
    assert len(model.calls) == 1 and "romantic" not in model.calls[0][0]["content"]
    assert result.faithfulness == 1.0 and result.is_successful()


def test_an_empty_context_is_refused_and_none_is_a_check_without_one() -> None:
    # Issue 35, point 3: context=[] silently became a check against Wikipedia.
    from factjudge.checking.verifier import EmptyContextError

    model = scripted()
    verifier = Verifier(model=model)
    for empty in ([], (), "", [" "]):
        with pytest.raises(EmptyContextError, match="empty retrieval"):
            verifier.verify(QUESTION, ANSWER, context=empty)
    assert model.calls == []
    with pytest.raises(InputError, match=r"the context is 5 \(int\)"):
        verifier.verify(QUESTION, ANSWER, context=5)  # type: ignore[arg-type]
    assert verifier.verify(QUESTION, ANSWER, context=None).strategy == "vanilla"
    assert verifier.verify(QUESTION, ANSWER, context=iter(CONTEXT)).strategy == "grounded"
