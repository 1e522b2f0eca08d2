"""Property tests: any dict or TOML file gives a CheckConfig or an InputError, never another exception."""

from __future__ import annotations

import dataclasses
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from factjudge.config import CheckConfig
from factjudge.errors import InputError

FIELDS = [f.name for f in dataclasses.fields(CheckConfig)]
scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=8)
# Valid values for each field, so that a config is often one wrong value away from a good one.
GOOD: dict[str, Any] = {"strategy": "cot", "granularity": "claim", "batch_size": 3, "evidence": "kb",
                        "kb": "kb.sqlite", "k": 5, "timeout": 5.0, "use_cache": False, "max_attempts": 2}
SETTINGS = settings(max_examples=500, deadline=None)


def config_or_input_error(build: Any) -> None:
    try:
        config = build()
    except InputError as exc:
        assert "\n" not in str(exc)
    else:
        assert isinstance(config, CheckConfig)


@SETTINGS
@given(st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=6), values, max_size=4),
       st.dictionaries(st.sampled_from(sorted(GOOD)), st.just(None), max_size=4))
def test_from_dict_on_any_values(data: dict[str, Any], keep: dict[str, None]) -> None:
    config_or_input_error(lambda: CheckConfig.from_dict({**{k: GOOD[k] for k in keep}, **data}))


@SETTINGS
@given(st.one_of(st.binary(max_size=200),
                 st.lists(st.sampled_from([*FIELDS, "[check]", "check"]) | st.text(max_size=8), max_size=6)
                 .map(lambda parts: " = ".join(parts).encode("utf-8", "surrogatepass")),
                 st.sampled_from(FIELDS).flatmap(lambda key: st.sampled_from(
                     ['"3"', "7", "-1", "true", '"no"', "[1, 2]", "{a = 1}", "1979-05-27", "nan", "inf"]
                 ).map(lambda value: f"[check]\n{key} = {value}\n".encode()))))
def test_from_toml_on_any_file(content: bytes) -> None:
    path = Path(tempfile.mkdtemp()) / "check.toml"
    path.write_bytes(content)
    config_or_input_error(lambda: CheckConfig.from_toml(path))


@pytest.mark.parametrize("content", [b"[check]\nbatch_size = \"3\"\n", b"[check]\nevidence = 7\n",
                                     b"timeout = \"x\"\xff\n", b"check = 3\n", b"a = " + b"[" * 5000])
def test_bad_toml_values_are_one_line_input_errors(content: bytes, tmp_path: Path) -> None:
    path = tmp_path / "check.toml"
    path.write_bytes(content)
    with pytest.raises(InputError) as info:
        CheckConfig.from_toml(path)
    assert str(info.value).startswith(("cannot read config", "bad config")) and "\n" not in str(info.value)


@pytest.mark.parametrize(("line", "message"), [
    ('use_cache = "no"', "bad config: use_cache expects true or false, not 'no'"),
    ('batch_size = "3"', "bad config: batch_size expects a whole number or none, not '3'"),
    ("evidence = 7", "bad config: evidence expects a list of names, not 7"),
    ("evidence = [1, 2]", "bad config: evidence expects a list of names, not [1, 2]"),
    ("k = 2.5", "bad config: k expects a whole number, not 2.5"),
    ("logprobs = 1", "bad config: logprobs expects true or false, not 1"),
    ('translate = "during"', "bad config: translate expects one of 'before', 'after' or none, not 'during'"),
    ("deadline = true", "bad config: deadline expects a number, not True"),
])
def test_a_value_of_the_wrong_type_names_the_key_the_type_and_the_value(line: str, message: str,
                                                                       tmp_path: Path) -> None:
    path = tmp_path / "check.toml"
    path.write_text(f"[check]\n{line}\n", encoding="utf-8")
    with pytest.raises(InputError) as info:
        CheckConfig.from_toml(path)
    assert str(info.value) == message


def test_right_types_pass_and_a_whole_number_is_a_number(tmp_path: Path) -> None:
    path = tmp_path / "check.toml"
    path.write_text('[check]\ntimeout = 30\nuse_cache = false\nevidence = ["kb"]\nkb = "kb.sqlite"\n',
                    encoding="utf-8")
    config = CheckConfig.from_toml(path)
    assert (config.timeout, config.use_cache, config.evidence) == (30, False, ("kb",))
