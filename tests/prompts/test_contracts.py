"""Reply contracts: one object per reply shape, its tokens named in one module, shown through placeholders."""

from __future__ import annotations

import math
import re
from importlib import resources
from pathlib import Path

import pytest

from factjudge.config import CheckConfig
from factjudge.errors import InputError
from factjudge.judges.decision import DecisionJudge
from factjudge.judges.list_judge import ListJudge
from factjudge.judges.strategies import STRATEGIES
from factjudge.llm.base import TokenLogprob
from factjudge.llm.local import choice_grammar
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.prompts import fence, load_prompt
from factjudge.prompts.contracts import (
    ALL_CORRECT,
    ANSWER,
    CONTRACTS,
    ID_LIST,
    ID_LIST_COT,
    MARKERS,
    THOUGHT,
    TRUE_FALSE,
    YES_NO,
    DecisionContract,
    ListContract,
    contract_for,
)

PACKAGE = Path(__file__).resolve().parents[2] / "factjudge"
CONTRACT_MODULE = "factjudge/prompts/contracts.py"
NAMES = sorted(p.name[:-4] for p in resources.files("factjudge.prompts").iterdir() if p.name.endswith(".txt"))
# What callers fill; everything else in braces is a contract's.
DATA_PLACEHOLDERS = {"question", "items", "references", "passages", "statement", "segments", "results",
                     "texts", "count", "language", "source", "title"}


def _holders(needle: str) -> set[str]:
    """The package's source and template files that contain ``needle``, relative to the repository."""
    files = [*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.txt")]
    return {str(f.relative_to(PACKAGE.parent)) for f in files if needle in f.read_text(encoding="utf-8")}


@pytest.mark.parametrize("token", [ALL_CORRECT, ANSWER, THOUGHT])
def test_each_contract_token_is_named_in_one_module(token: str) -> None:
    assert _holders(token) == {CONTRACT_MODULE}


@pytest.mark.parametrize("contract", [TRUE_FALSE, YES_NO], ids=lambda c: "/".join(c.words))
def test_the_decision_words_reach_prompts_only_through_the_contract(contract: DecisionContract) -> None:
    assert _holders(f"{contract.yes} or {contract.no}") == set()  # the templates write {yes} or {no}
    assert f"{contract.yes} or {contract.no}" in load_prompt(contract.templates[0]).text


def test_every_template_is_bound_to_one_contract_at_most_and_exists() -> None:
    bound = [name for contract in CONTRACTS for name in contract.templates]
    assert len(bound) == len(set(bound)) and set(bound) <= set(NAMES)
    assert {name for name in NAMES if name.startswith(("judge_", "read_value_"))} == set(bound)


@pytest.mark.parametrize("name", NAMES)
def test_loading_fills_every_contract_placeholder(name: str) -> None:
    raw = resources.files("factjudge.prompts").joinpath(f"{name}.txt").read_text(encoding="utf-8")
    prompt, contract = load_prompt(name), contract_for(name)
    assert prompt.contract is contract and prompt.placeholders <= DATA_PLACEHOLDERS
    shown = set(re.findall(r"\{([a-z_]+)\}", raw)) - DATA_PLACEHOLDERS
    assert shown <= set(contract.format_values() if contract else ())


@pytest.mark.parametrize("name", [n for n in NAMES if isinstance(contract_for(n), ListContract)])
def test_the_example_answer_a_list_prompt_shows_is_one_its_contract_reads(name: str) -> None:
    prompt = load_prompt(name)
    contract = prompt.contract_of(ListContract)
    example = prompt.text[prompt.text.index("Example") : prompt.text.index("Now ")]
    reply = example[example.rindex("</") :].partition("\n")[2]  # what follows the last closing tag
    parsed = contract.parse(reply, 4)
    assert parsed.wrong_ids and all(parsed.quotes.get(i) for i in parsed.wrong_ids)
    assert bool(parsed.thought) == contract.thought_first


def test_list_grammar_is_the_one_the_list_judge_asked_for() -> None:
    assert ID_LIST.grammar(2) == (
        'root ::= answer\n'
        'answer ::= "Answer: " ("ALL_CORRECT" | wrong (", " wrong)*)\n'
        'wrong ::= id " [\\"" [^"\\n]+ "\\"]"\nid ::= "2" | "1"\n')
    assert ID_LIST_COT.grammar(1).startswith('root ::= "Thought: " [^\\n]+ "\\n" answer\nanswer ::= ')


def test_decision_contract_constrains_parses_and_scores_its_own_words() -> None:
    assert YES_NO.grammar() == choice_grammar(("Yes", "No")) and YES_NO.words == ("Yes", "No")
    assert YES_NO.parse("Answer: **No**") is False and TRUE_FALSE.parse("True.") is True
    assert YES_NO.scores([TokenLogprob("No", -0.1, {"Yes": -2.4})]) == pytest.approx(0.909, abs=1e-3)
    assert TRUE_FALSE.format_values() == {"yes": "True", "no": "False"}


def test_a_judge_takes_its_contract_from_its_template() -> None:
    model = ScriptedChatModel([], name="m")
    config = CheckConfig()
    cot, vanilla = STRATEGIES["cot"].judge(model, config), STRATEGIES["vanilla"].judge(model, config)
    assert isinstance(cot, ListJudge) and isinstance(vanilla, ListJudge)
    for target in ("segment", "claim"):
        assert load_prompt(f"judge_{target}_{cot.prompt}").contract is ID_LIST_COT
        assert load_prompt(f"judge_{target}_{vanilla.prompt}").contract is ID_LIST
    supported = STRATEGIES["supported"].judge(model, config)
    assert isinstance(supported, DecisionJudge) and supported.contract is YES_NO
    with pytest.raises(InputError, match="shows no DecisionContract"):
        DecisionJudge(model, "x", prompt="translate", max_tokens=2)


@pytest.mark.parametrize("marker", MARKERS)
def test_the_fence_quotes_a_line_that_starts_with_any_contract_marker(marker: str) -> None:
    for line in (marker, f"**{marker.lower()}** 1", f"- {marker.upper()}"):
        assert fence("q", f"ok\n{line}") == f"<q>\nok\n> {line}\n</q>"


def _tok(token: str, p: float, **top: float) -> TokenLogprob:
    return TokenLogprob(token, math.log(p), {k: math.log(v) for k, v in top.items()})


def test_listed_and_unlisted_ids_get_the_probability_mass_put_on_them() -> None:
    tokens = [_tok("Answer", 0.99), _tok(":", 0.99), _tok(" 2", 0.7, **{" ALL": 0.2, " 1": 0.1}),
              _tok(",", 0.5), _tok(" 3", 0.6, **{" 1": 0.3})]
    assert ID_LIST.scores(tokens, 3) == pytest.approx({1: 0.3, 2: 0.7, 3: 0.6})


def test_ids_in_a_thought_before_the_answer_do_not_count() -> None:
    tokens = [_tok("Thought", 0.9), _tok(" 1", 0.9), _tok(" ok", 0.9), _tok("Answer", 0.9), _tok(":", 0.9),
              _tok(" ALL", 0.8, **{" 2": 0.15})]
    assert ID_LIST.scores(tokens, 2) == pytest.approx({1: 0.0, 2: 0.15})


def test_no_logprobs_means_no_graded_score() -> None:
    assert ID_LIST.scores(None, 3) is None
    assert TRUE_FALSE.scores([]) is None


def test_true_false_score_is_the_normalised_probability_of_false() -> None:
    assert TRUE_FALSE.scores([_tok("True", 0.6, **{"False": 0.2})]) == pytest.approx(0.25)
    assert TRUE_FALSE.scores([_tok("**", 0.9), _tok("False", 0.9, **{"True": 0.1})]) == pytest.approx(0.9)


def test_judges_ask_for_the_output_contract_as_a_grammar() -> None:
    from factjudge.agents.extractor import claims_grammar
    from factjudge.judges.list_judge import id_list_grammar

    assert 'id ::= "3" | "2" | "1"' in id_list_grammar(3) and "wrong ::= id" in id_list_grammar(3)
    assert id_list_grammar(2, thought=True).startswith('root ::= "Thought: "')
    assert choice_grammar(("True", "False")) == 'root ::= "True" | "False"\n'  # local fallback
    assert '"Segment 2:\\n" claims' in claims_grammar(2)
