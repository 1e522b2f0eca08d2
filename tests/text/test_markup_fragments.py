"""Fragments of markup in an answer (a closing tag, a code fence) are not judged as items (issue 44, low)."""

from __future__ import annotations

import pytest

from factjudge.checking.api import check
from factjudge.config import CheckConfig
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.text.checkability import is_checkable


@pytest.mark.parametrize("fragment", ["</div>", "<br/>", "```python", "```", "&nbsp;", "</p> <p>",
                                      "<td></td>", "~~~"])
def test_a_fragment_of_markup_states_nothing(fragment: str) -> None:
    assert not is_checkable(fragment)


@pytest.mark.parametrize("sentence", ["<b>Paris is in France.</b>", "<td>It opened in 1937.</td>"])
def test_a_statement_inside_markup_is_still_judged(sentence: str) -> None:
    assert is_checkable(sentence)


def test_markup_fragments_of_an_answer_never_reach_the_judge() -> None:
    model = ScriptedChatModel(["Answer: ALL_CORRECT"], name="scripted:judge")
    result = check("Where is Paris?", "Paris is in France.\n</div>\n<br/>\nIt is the capital.",
                   CheckConfig(strategy="vanilla"), model=model)
    labels = [(s.text, v.label) for s, v in zip(result.segments, result.segment_verdicts, strict=True)]
    assert labels == [("Paris is in France.", "true"), ("</div>", "not_checkable"),
                      ("<br/>", "not_checkable"), ("It is the capital.", "true")]
    [call] = model.calls
    assert "</div>" not in call[0]["content"].split("Now check")[-1]
