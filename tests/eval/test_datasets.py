"""Loaders on real rows of every shipped file, on a FActScore fixture, and on broken input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from factjudge.errors import InputError
from factjudge.eval import datasets
from factjudge.eval.datasets import Example, load_dataset

DATA = Path(__file__).parents[2].parent / "shared" / "data"


def shipped(name: str) -> Path:
    path = DATA / name
    if not path.exists():
        pytest.skip(f"{path} is not here")
    return path


def round_trips(examples: list[Example]) -> bool:
    return all(Example.from_dict(json.loads(json.dumps(e.to_dict()))) == e for e in examples)


# ---------------------------------------------------------------- real files


def test_felm_all() -> None:
    examples = datasets.load_felm(shipped("felm_all.jsonl"))
    assert len(examples) == 847
    counts = {d: sum(e.domain == d for e in examples) for d in datasets.FELM_DOMAINS}
    assert counts == {"wk": 184, "science": 125, "writing_rec": 136, "math": 194, "reasoning": 208}
    assert all(len(e.segments) == len(e.segment_labels) > 0 for e in examples)
    assert all(e.response_label == all(e.segment_labels) for e in examples)
    assert sum(bool(e.ref_contents) for e in examples) == 299
    assert all(not e.refs for e in examples if e.domain in ("math", "reasoning"))
    assert all(e.answer for e in examples)  # the two NaN responses are rebuilt from segments
    first = examples[0]
    assert first.id == "felm-0" and first.language == "en" and first.dataset == "felm"
    assert first.meta["comments"] == ["76537610772"]
    typed = [e for e in examples if "knowledge_error" in e.meta["error_types"]]
    assert typed and all(len(e.meta["error_types"]) == len(e.segments) for e in typed)
    assert not any(r.endswith(",") for e in examples for r in e.refs)
    assert round_trips(examples)


def test_felm_wk_segments_and_factool_claims() -> None:
    wk = datasets.load_factbench(shipped("felm_wk.jsonl"))
    assert len(wk) == 184 and all(e.segments and not e.claims for e in wk)
    assert sum(e.response_label is False for e in wk) == 85
    assert wk[0].segment_labels == (False, True) and wk[0].domain == "wk"
    qa = datasets.load_factbench(shipped("factool_qa.jsonl"))
    assert len(qa) == 50 and all(e.claims and not e.segments for e in qa)
    assert qa[0].claim_labels == (True, False, True, True, True, True)
    assert round_trips(wk) and round_trips(qa)


def test_halueval_dolly() -> None:
    examples = datasets.load_factbench(shipped("halueval_dolly.jsonl"))
    assert len(examples) == 4507
    assert sum(e.response_label is True for e in examples) == 3692
    assert {e.dataset for e in examples} == {"halueval-dolly15k"}
    located = [e for e in examples if e.spans]
    assert located
    assert all(0 <= s < t <= len(e.answer) for e in located for s, t in e.spans)
    assert len({e.id for e in examples}) == len(examples)


def test_begin() -> None:
    examples = datasets.load_true_pairs(shipped("begin_dev_wow.tsv"))
    assert len(examples) == 430
    assert sum(e.response_label is True for e in examples) == 180
    first = examples[0]
    assert first.grounding.startswith("originally an industrial pigment")
    assert first.answer.startswith("crayola shifted") and first.response_label is True
    assert first.question.startswith("strange name") and first.dataset == "begin-wow"
    assert first.meta["model_name"] == "t5"


def test_q2_by_file_name_and_prefix() -> None:
    consistent = datasets.load_true_pairs(shipped("q2_memnet_consistent.csv"))
    inconsistent = datasets.load_true_pairs(shipped("q2_memnet_inconsistent.csv"))
    assert len(consistent) == len(inconsistent) == 150
    assert all(e.response_label is True for e in consistent)
    assert all(e.response_label is False for e in inconsistent)
    both = load_dataset(DATA / "q2_memnet")
    assert len(both) == 300 and {e.dataset for e in both} == {"q2-memnet"}
    half = datasets.dataset_hash(DATA / "q2_memnet_consistent.csv")
    assert datasets.dataset_hash(DATA / "q2_memnet") != half


def test_q2_label_argument(tmp_path: Path) -> None:
    source = shipped("q2_memnet_consistent.csv")
    renamed = tmp_path / "dialogues.csv"
    renamed.write_bytes(source.read_bytes())
    with pytest.raises(InputError, match="label="):
        datasets.load_true_pairs(renamed)
    assert all(e.response_label is False for e in datasets.load_true_pairs(renamed, label=False))


def test_mushroom_directory() -> None:
    examples = datasets.load_mushroom(shipped("mushroom_val"))
    assert len(examples) == 499
    assert {e.language for e in examples} == {"ar", "de", "en", "es", "fi", "fr", "hi", "it", "sv", "zh"}
    en = next(e for e in examples if e.id == "val-en-1")
    assert en.spans == ((25, 31), (45, 49), (69, 83))
    assert en.soft_spans[0] == (10, 12, 0.2)
    assert en.answer[25:31] == "silver" and en.response_label is False
    assert en.refs == ("https://en.wikipedia.org/wiki/Petra_van_Staveren",)
    assert round_trips(examples[:20])


@pytest.mark.parametrize("name, dataset", [
    ("felm_all.jsonl", "felm"), ("felm_wk.jsonl", "felm-wk"), ("factool_qa.jsonl", "factool-qa"),
    ("begin_dev_wow.tsv", "begin-wow"), ("mushroom_val", "mushroom"),
    ("mushroom_val/mushroom.en-val.v2.extra.jsonl", "mushroom"),
])
def test_load_dataset_dispatches_by_shape(name: str, dataset: str) -> None:
    examples = load_dataset(shipped(name))
    assert examples and {e.dataset for e in examples} == {dataset}
    assert all(e.language for e in examples)


def test_dataset_hash_is_short_and_stable() -> None:
    path = shipped("factool_qa.jsonl")
    assert datasets.dataset_hash(path) == datasets.dataset_hash(str(path))
    assert len(datasets.dataset_hash(path)) == 16


# ---------------------------------------------------------------- FActScore fixture

FACTSCORE_ROWS = [
    {"input": "Question: Tell me a bio of Ada Lovelace.", "topic": "Ada Lovelace",
     "output": "Ada Lovelace was an English mathematician. She was born in 1816. I hope this helps.",
     "annotations": [
         {"text": "Ada Lovelace was an English mathematician.", "is-relevant": True,
          "human-atomic-facts": [{"text": "Ada Lovelace was English.", "label": "S"},
                                 {"text": "Ada Lovelace was a mathematician.", "label": "S"}]},
         {"text": "She was born in 1816.", "is-relevant": True,
          "human-atomic-facts": [{"text": "She was born in 1816.", "label": "NS"}]},
         {"text": "I hope this helps.", "is-relevant": False, "human-atomic-facts": None}]},
    {"input": "Question: Tell me a bio of Nobody.", "topic": "Nobody",
     "output": "I'm sorry, I have no information about Nobody.", "annotations": None},
    {"input": "Question: Tell me a bio of Marie Curie.", "topic": "Marie Curie", "lang": "FR",
     "generation": "Marie Curie était physicienne.",
     "annotations": [{"text": "Marie Curie était physicienne.", "is-relevant": True,
                      "human-atomic-facts": [{"text": "Marie Curie était physicienne.", "label": "S"},
                                             {"text": "Elle aimait le thé.", "label": "IR"}]}]},
]


def write_jsonl(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def test_factscore_fixture(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "InstructGPT.jsonl", FACTSCORE_ROWS)
    ada, nobody, curie = load_dataset(path)
    assert ada.dataset == "factscore" and ada.domain == "bio" and ada.meta["topic"] == "Ada Lovelace"
    assert ada.claims == ("Ada Lovelace was English.", "Ada Lovelace was a mathematician.",
                          "She was born in 1816.")
    assert ada.claim_labels == (True, True, False) and ada.response_label is False
    assert ada.segment_labels == (True, False, None) and ada.meta["claim_segment"] == [0, 0, 1]
    assert nobody.meta["abstained"] and nobody.claims == () and nobody.response_label is None
    assert curie.language == "fr" and curie.answer.startswith("Marie Curie")
    assert curie.claim_labels == (True, None) and curie.response_label is True
    assert round_trips([ada, nobody, curie])


def test_factscore_bad_label(tmp_path: Path) -> None:
    row = json.loads(json.dumps(FACTSCORE_ROWS[0]))
    row["annotations"][0]["human-atomic-facts"][0]["label"] = "maybe"
    path = write_jsonl(tmp_path / "bad.jsonl", [FACTSCORE_ROWS[1], row])
    with pytest.raises(InputError, match=r"bad\.jsonl:2: .*'MAYBE'"):
        datasets.load_factscore(path)


# ---------------------------------------------------------------- generic tables


def test_load_table_csv_and_jsonl(tmp_path: Path) -> None:
    csv_path = tmp_path / "rag.csv"
    csv_path.write_text('context,reply,ok,parts\n"Paris is in France.","Paris is in France.",yes,'
                        '"[""Paris is in France.""]"\n"Rome is in Italy.","Rome is in Spain.",0,\n',
                        encoding="utf-8")
    mapping = {"grounding": "context", "answer": "reply", "response_label": "ok", "segments": "parts"}
    rows = datasets.load_table(csv_path, mapping, defaults={"language": "FR", "domain": "rag"})
    assert [r.response_label for r in rows] == [True, False]
    assert rows[0].segments == ("Paris is in France.",) and rows[1].segments == ()
    assert rows[0].language == "fr" and rows[0].domain == "rag" and rows[0].id == "rag-0"
    row_in = {"q": "Q?", "a": "A.", "labs": [True, False], "segs": ["A", "."]}
    jsonl = write_jsonl(tmp_path / "t.jsonl", [row_in])
    [row] = datasets.load_table(jsonl, {"question": "q", "answer": "a", "segments": "segs",
                                        "segment_labels": "labs"})
    assert row.response_label is False and row.segment_labels == (True, False)


def test_load_table_errors(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "t.jsonl", [{"a": "x", "l": "yes"}, {"a": "y", "l": "perhaps"}])
    with pytest.raises(InputError, match=r"t\.jsonl:2: 'response_label' value 'perhaps'"):
        datasets.load_table(path, {"answer": "a", "response_label": "l"})
    with pytest.raises(InputError, match="unknown Example fields"):
        datasets.load_table(path, {"answer": "a", "colour": "l"})
    with pytest.raises(InputError, match=r"t\.jsonl:1: column 'nope'"):
        datasets.load_table(path, {"answer": "nope"})
    with pytest.raises(InputError, match="unknown table format"):
        datasets.load_table(path, {"answer": "a"}, fmt="xml")


# ---------------------------------------------------------------- broken input


def test_missing_path() -> None:
    with pytest.raises(InputError, match="no such file"):
        load_dataset("/nonexistent/data.jsonl")
    with pytest.raises(InputError, match="no such file"):
        datasets.load_felm("/nonexistent/all.jsonl")


def test_bad_json_line_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "felm.jsonl"
    path.write_text('{"segmented_response": ["a"], "labels": [true], "prompt": "q", "domain": "wk"}\n'
                    '{"segmented_response": ["a"], "labels": [tru\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"felm\.jsonl:2: not valid JSON"):
        load_dataset(path)


def test_malformed_rows(tmp_path: Path) -> None:
    felm = write_jsonl(tmp_path / "f.jsonl", [{"segmented_response": ["a", "b"], "labels": [True],
                                               "prompt": "q", "domain": "wk"}])
    with pytest.raises(InputError, match=r"f\.jsonl:1: 2 segments but 1 labels"):
        datasets.load_felm(felm)
    bench = write_jsonl(tmp_path / "b.jsonl", [{"prompt": "q", "response": "r", "claims": "x",
                                                "claim_labels": [True, False], "response_label": True}])
    with pytest.raises(InputError, match=r"b\.jsonl:1: 1 claims but 2 claim labels"):
        datasets.load_factbench(bench)
    mush = write_jsonl(tmp_path / "m.jsonl", [{"id": "1", "lang": "EN", "model_input": "q",
                                               "model_output_text": "abc", "hard_labels": [[0, 9]]}])
    with pytest.raises(InputError, match=r"m\.jsonl:1: a hard label falls outside"):
        datasets.load_mushroom(mush)
    tsv = tmp_path / "begin.tsv"
    tsv.write_text("knowledge\tresponse\tbegin_label\nk\tr\tFully attributable\nk\tr\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"begin\.tsv:3: row does not match"):
        datasets.load_true_pairs(tsv)
    other = write_jsonl(tmp_path / "o.jsonl", [{"foo": 1}])
    with pytest.raises(InputError, match="unrecognised dataset columns"):
        load_dataset(other)
    with pytest.raises(InputError, match="no rows"):
        load_dataset(write_jsonl(tmp_path / "empty.jsonl", []))


def test_example_round_trip_and_defaults() -> None:
    example = Example(id="x", question="q", answer="a", spans=((1, 2),), soft_spans=((1, 2, 0.5),),
                      meta={"k": [1]})
    assert example.language == "en" and example.grounding == ""
    data = example.to_dict()
    assert data["spans"] == [[1, 2]] and data["soft_spans"] == [[1, 2, 0.5]]
    assert Example.from_dict(data | {"unknown": 1}) == example


def test_rows_of_id_answer_and_label_keep_their_labels(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "rag.jsonl", [{"id": "a", "answer": "Paris is in France.", "label": 1},
                                                {"id": "b", "answer": "Rome is in Spain.", "label": "no"}])
    first, second = load_dataset(path)
    assert (first.response_label, second.response_label) == (True, False)
    assert first.question == "" and second.id == "b"


def test_rows_of_id_and_answer_refuse_keys_they_would_drop(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "rag.jsonl", [{"id": "a", "answer": "x", "gold": True}])
    with pytest.raises(InputError, match=r"rag\.jsonl:1: unknown keys \['gold'\]; .*response_label.*label"):
        load_dataset(path)
    both = write_jsonl(tmp_path / "both.jsonl", [{"id": "a", "answer": "x", "label": 1, "response_label": 0}])
    with pytest.raises(InputError, match="not both"):
        load_dataset(both)


def test_examples_written_by_to_dict_load_back(tmp_path: Path) -> None:
    example = Example(id="x", question="q", answer="Paris is in France.", segments=("Paris is in France.",),
                      segment_labels=(True,), response_label=True, spans=((0, 5),), meta={"k": [1]})
    assert load_dataset(write_jsonl(tmp_path / "e.jsonl", [example.to_dict()])) == [example]
