"""The CLI's input and output edges: undecodable argv, endless files, closed pipes, terminal control."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from factjudge.text.printable import printable
from tests.support.timing import HANG_GUARD

ROOT = Path(__file__).resolve().parents[1]
CONTEXT = "The Eiffel Tower is a wrought-iron lattice tower in Paris, France."
# Model-free and given a context: no model is built or loaded, so each run takes about a second.
CHEAP = ("--strategy", "always_true", "--context", CONTEXT)


def run_cli(*args: str | bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "factjudge.cli", *args], capture_output=True, cwd=ROOT,
                          timeout=HANG_GUARD)


def assert_one_line(done: subprocess.CompletedProcess[bytes], code: int, message: bytes) -> None:
    assert done.returncode == code, done.stderr
    assert message in done.stderr
    assert b"Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "args",
    [
        [b"check", b"Where is it?", b"The tower is in Par\xffis.", *[a.encode() for a in CHEAP]],
        [b"check", b"Wh\xfeere is it?", b"The tower is in Paris.", *[a.encode() for a in CHEAP]],
        [b"check", b"Where is it?", b"The tower is in Paris.", b"--strategy", b"always_true",
         b"--context", b"The tower is in Par\xe9is."],
    ],
)
def test_undecodable_argv_bytes_are_refused_in_one_line(args: list[bytes]) -> None:
    done = run_cli(*args)
    assert_one_line(done, 2, b"not valid UTF-8")
    assert done.stdout == b""


def test_an_endless_answer_file_is_refused_without_reading_it_all() -> None:
    # Reading /dev/zero to its end never ends: refusing it at all is the proof.
    done = run_cli("check", "Where is it?", "--answer-file", "/dev/zero", *CHEAP)
    assert_one_line(done, 2, b"the answer limit is 100,000 characters")


def test_a_reader_that_goes_away_ends_the_run_quietly() -> None:
    process = subprocess.Popen([sys.executable, "-m", "factjudge.cli", "check", "Where is it?",
                                "The Eiffel Tower is in Paris. " * 200, *CHEAP, "--json"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # as `| head -c 10` does once it has its bytes
    stderr = process.stderr.read()
    assert process.wait(timeout=HANG_GUARD) == 1
    assert stderr == b""


def test_json_output_is_utf8_and_loads_back() -> None:
    done = run_cli("check", "Où est-elle ?", "La tour Eiffel est à Paris. ჯერ არა.", *CHEAP, "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.decode("utf-8"))["answer"] == "La tour Eiffel est à Paris. ჯერ არა."


def test_terminal_output_shows_control_characters_instead_of_obeying_them() -> None:
    answer = "The tower is in Paris.\x1b[2A\x1b[2K\rForged. \u202eesraP\u202c is a city. Tab\tand\x07bell."
    done = run_cli("check", "Where is it?", answer, *CHEAP)
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode("utf-8")
    for raw in ("\x1b", "\r", "\u202e", "\u202c", "\x07"):
        assert raw not in out
    assert "\\x1b[2A\\x1b[2K" in out and "\\u202eesraP\\u202c" in out and "\\x07bell" in out


def test_printable_escapes_only_what_steers_a_terminal() -> None:
    assert printable("a\tb\nc é 北京 ‘q’ — ok") == "a\tb\nc é 北京 ‘q’ — ok"
    assert printable("\x00\x1b\x7f\x9b\u2066x\u2069\ud800") == "\\x00\\x1b\\x7f\\x9b\\u2066x\\u2069\\ud800"


def test_an_unknown_domain_is_refused() -> None:
    done = run_cli("check", "Where is it?", "The tower is in Paris.", *CHEAP, "--domain", "nope")
    assert_one_line(done, 2, b"invalid choice: 'nope'")
