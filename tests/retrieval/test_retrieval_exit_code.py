"""Exit code 4 (issue 34.11): evidence that cannot be retrieved, one line, as the README's list says."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from factjudge.cli import main
from factjudge.errors import RetrievalError

README = Path(__file__).resolve().parents[2] / "README.md"


def test_a_source_that_cannot_be_asked_exits_4_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    # The check's MediaWiki client refuses loopback addresses: a RetrievalError before any request.
    code = main(["check", "Where is Paris?", "Paris is in France.", "--evidence", "wiki", "--wiki",
                 "api:http://127.0.0.1:1/w/api.php", "--strategy", "token_f1",
                 "--model", "openai:unused", "--base-url", "http://127.0.0.1:9/v1"])
    err = capsys.readouterr().err
    assert code == RetrievalError.exit_code == 4
    assert err.count("\n") == 1 and err.startswith("factjudge: error: MediaWiki API")


def test_the_readme_lists_every_exit_code_of_check() -> None:
    text = " ".join(README.read_text(encoding="utf-8").split())
    listed = re.search(r"Exit codes: (.*?) Errors are one line", text)
    assert listed is not None
    for code, meaning in ((0, "when the check ran"), (2, "for bad input"), (3, "when the model failed"),
                          (4, "when evidence could not be retrieved"), (1, "for any other factjudge error")):
        assert f"{code} {meaning}" in listed.group(1)
