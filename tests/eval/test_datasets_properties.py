"""Property tests: on any file content every dataset loader returns Examples or raises InputError."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from factjudge.errors import InputError
from factjudge.eval.datasets import Example, load_dataset, load_true_pairs

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12)
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)
texts = st.text(max_size=30)
labels = st.sampled_from([True, False, None, 0, 1, "yes", "no", "correct", ""])
# A position, sometimes a float or out of range.
offsets = st.integers(-2, 40) | st.floats()


@st.composite
def spoiled(draw: st.DrawFn, good: dict[str, Any]) -> dict[str, Any]:
    """A well-formed row, or one with a key or two dropped or replaced by any JSON value."""
    row = dict(good)
    for key in draw(st.lists(st.sampled_from(sorted(row)), max_size=2, unique=True)):
        if draw(st.booleans()):
            del row[key]
        else:
            row[key] = draw(json_values)
    return row


@st.composite
def felm_rows(draw: st.DrawFn) -> dict[str, Any]:
    segments = draw(st.lists(texts, min_size=1, max_size=3))
    n = len(segments)
    return draw(spoiled({
        "segmented_response": segments, "labels": draw(st.lists(labels, min_size=n, max_size=n)),
        "prompt": draw(texts), "response": draw(texts), "domain": draw(texts), "index": draw(texts),
        "ref": draw(st.lists(texts, max_size=2)), "ref_contents": draw(st.lists(texts, max_size=2)),
        "type": draw(st.lists(texts, max_size=n)), "comment": draw(st.lists(texts, max_size=n)),
        "source": draw(texts),
    }))


@st.composite
def mushroom_rows(draw: st.DrawFn) -> dict[str, Any]:
    soft = st.fixed_dictionaries({"start": offsets, "end": offsets, "prob": st.floats()})
    return draw(spoiled({
        "id": draw(texts), "lang": draw(texts), "model_input": draw(texts), "model_output_text": draw(texts),
        "hard_labels": draw(st.lists(st.lists(offsets, min_size=2, max_size=2), max_size=3)),
        "soft_labels": draw(st.lists(soft, max_size=3)), "wikipedia_url": draw(texts),
        "annotations": draw(json_values),
    }))


@st.composite
def factscore_rows(draw: st.DrawFn) -> dict[str, Any]:
    fact = st.fixed_dictionaries({"text": texts, "label": st.sampled_from(["S", "NS", "IR", "s", "X"])})
    sentence = st.fixed_dictionaries({"text": texts, "is-relevant": st.booleans(),
                                      "human-atomic-facts": st.lists(fact, max_size=3) | json_values})
    return draw(spoiled({
        "input": draw(texts), "output": draw(texts), "topic": draw(texts), "id": draw(texts),
        "annotations": draw(st.none() | st.lists(sentence, max_size=3)), "cat": draw(json_values),
    }))


@st.composite
def factbench_rows(draw: st.DrawFn) -> dict[str, Any]:
    claims = draw(st.lists(texts, min_size=1, max_size=3))
    n = len(claims)
    return draw(spoiled({
        "prompt": draw(texts), "response": draw(texts), "claims": claims,
        "claim_labels": draw(st.lists(labels, min_size=n, max_size=n)), "response_label": draw(labels),
        "hallucination_spans": draw(st.lists(texts, max_size=2)),
        "source": draw(st.sampled_from(["felm-wk", "factool-qa", "x"])),
    }))


@st.composite
def example_rows(draw: st.DrawFn) -> dict[str, Any]:
    segments = draw(st.lists(texts, max_size=3))
    n = len(segments)
    row = {"id": draw(texts), "answer": draw(texts), "question": draw(texts),
           "segments": segments, "segment_labels": draw(st.lists(labels, min_size=n, max_size=n)),
           "spans": draw(st.lists(st.lists(offsets, min_size=2, max_size=2), max_size=2)),
           "soft_spans": draw(st.lists(st.lists(offsets, min_size=3, max_size=3), max_size=2)),
           "meta": draw(st.dictionaries(st.text(max_size=5), json_values, max_size=2)),
           "language": draw(texts)}
    row[draw(st.sampled_from(["label", "response_label", "unknown"]))] = draw(labels)
    return draw(spoiled(row))


ROWS = {"felm": felm_rows(), "mushroom": mushroom_rows(), "factscore": factscore_rows(),
        "factbench": factbench_rows(), "examples": example_rows()}


def loads_or_refuses(load: Callable[[Path], list[Example]], path: Path) -> None:
    try:
        examples = load(path)
    except InputError as exc:
        assert "\n" not in str(exc)  # one line for the CLI
    else:
        assert all(isinstance(e, Example) and isinstance(e.answer, str) for e in examples)


def write(name: str, data: bytes) -> Path:
    path = Path(tempfile.mkdtemp()) / name
    path.write_bytes(data)
    return path


@SETTINGS
@given(kind=st.sampled_from(sorted(ROWS)), data=st.data())
def test_any_rows_of_any_known_shape(kind: str, data: st.DataObject) -> None:
    rows = data.draw(st.lists(ROWS[kind], min_size=1, max_size=3))
    loads_or_refuses(load_dataset, write("data.jsonl", "".join(json.dumps(r) + "\n" for r in rows).encode()))


@SETTINGS
@given(content=st.binary(max_size=300), suffix=st.sampled_from([".jsonl", ".csv", ".tsv"]))
def test_any_bytes(content: bytes, suffix: str) -> None:
    loads_or_refuses(load_dataset, write(f"data{suffix}", content))


@SETTINGS
@given(header=st.sampled_from(["knowledge\tresponse\tbegin_label", "grounding\tgenerated_text\tlabel",
                               "knowledge\tresponse\tlabel", "knowledge\tresponse"]),
       body=st.text(max_size=200))
def test_any_tsv_body_under_a_true_header(header: str, body: str) -> None:
    data = f"{header}\n{body}".encode("utf-8", "surrogatepass")  # lone surrogates make bad UTF-8
    loads_or_refuses(load_true_pairs, write("pairs.tsv", data))


def test_deep_nesting_and_bad_bytes_are_one_line(tmp_path: Path) -> None:
    deep = tmp_path / "deep.jsonl"
    deep.write_text('{"id": "1", "answer": "a", "meta": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
    with pytest.raises(InputError) as info:
        load_dataset(deep)
    assert str(info.value) == f"{deep}:1: JSON nested too deeply"
    latin = tmp_path / "latin.jsonl"
    latin.write_bytes(b'{"id": "1", "answer": "ok"}\n{"id": "2", "answer": "caf\xe9"}\n')
    with pytest.raises(InputError) as info:
        load_dataset(latin)
    assert str(info.value) == f"{latin}:2: not UTF-8 text (undecodable byte 0xe9)"
    tsv = tmp_path / "begin.tsv"
    tsv.write_bytes(b"knowledge\tresponse\tbegin_label\nk\tr\xff\tFully attributable\n")
    with pytest.raises(InputError, match=r"begin\.tsv:2: not UTF-8 text"):
        load_true_pairs(tsv)
