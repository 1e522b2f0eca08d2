"""The English title of a Spanish or French article's subject: one line read back, a reply that gives
none asked again and then reported, and the call traced."""

from __future__ import annotations

import pytest

from factjudge.agents.english_title import english_title, parse_title
from factjudge.errors import ParseError
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.transcript import Transcript


@pytest.mark.parametrize(("reply", "title"), [
    ("World War I", "World War I"),
    ('"Brazil".\n', "Brazil"),
    ("  Hundred Years' War\nIt is the English title.", "Hundred Years' War"),
])
def test_the_first_line_is_the_title(reply: str, title: str) -> None:
    assert parse_title(reply) == title


@pytest.mark.parametrize("reply", ["", "  \n", '""', "x" * 120])
def test_a_reply_that_gives_no_title_is_a_parse_error(reply: str) -> None:
    with pytest.raises(ParseError):
        parse_title(reply)


def test_the_title_is_asked_fenced_in_the_articles_language_and_traced(transcript: Transcript) -> None:
    model = ScriptedChatModel(["Brazil"])
    assert english_title(model, "Brésil", "fr") == "Brazil"
    prompt = model.calls[0][0]["content"]
    assert "Now give the English title of this French article.\n<title>\nBrésil\n</title>" in prompt
    [trace] = transcript.traces
    assert trace.step == "english_title" and trace.reply == "Brazil" and trace.error is None


def test_no_title_read_after_the_retries_is_none_never_a_guess(transcript: Transcript) -> None:
    model = ScriptedChatModel(["", "", ""])
    assert english_title(model, "Primera Guerra Mundial", "es") is None
    assert [t.error is not None for t in transcript.traces] == [True, True, True]
