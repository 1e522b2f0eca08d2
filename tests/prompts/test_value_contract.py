"""The value reader's reply contract: a value in a few words, or the not-stated token."""

from __future__ import annotations

import pytest

from factjudge.errors import ParseError
from factjudge.prompts import fence, load_prompt
from factjudge.prompts.contracts import NOT_STATED, VALUE, ValueContract, contract_for


@pytest.mark.parametrize(("reply", "value"), [
    ("Ottawa", "Ottawa"),
    ("Answer: **Ottawa**.", "Ottawa"),
    ("\"Victor Hugo\"\nbecause the passage says so", "Victor Hugo"),
    ("  the Black Sea  ", "the Black Sea"),
    (NOT_STATED, None),
    ("not stated.", None),
    ("The passages do not say.", None),
    ("No se menciona.", None),
])
def test_replies_are_read(reply: str, value: str | None) -> None:
    assert VALUE.parse(reply).value == value


@pytest.mark.parametrize("reply", ["", "   \n  ", "**.**", "x" * 300])
def test_an_empty_or_rambling_reply_is_a_parse_error_never_a_value(reply: str) -> None:
    with pytest.raises(ParseError):
        VALUE.parse(reply)


@pytest.mark.parametrize("name", ["read_value_cloze", "read_value_question"])
def test_both_templates_show_the_contract_and_put_the_passages_before_the_item(name: str) -> None:
    prompt = load_prompt(name)
    assert contract_for(name) is VALUE and isinstance(prompt.contract, ValueContract)
    assert NOT_STATED in prompt.text and "{not_stated}" not in prompt.text
    data = "statement" if name.endswith("cloze") else "question"
    rendered = prompt.render(passages=fence("passages", "[1] Canada\nIts capital is Ottawa."),
                             **{data: fence(data, "The capital of Canada is ___ (a name).")})
    # The item comes last: every value of one item shares the prompt up to its passages.
    assert rendered.rindex("<passages>") < rendered.rindex(f"<{data}>")
    assert rendered.rstrip().endswith(f"</{data}>")
