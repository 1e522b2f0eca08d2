"""RAGTruth: both layouts load into examples with typed gold spans; its metrics; bench end to end."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from factjudge.config import CheckConfig
from factjudge.errors import InputError
from factjudge.eval import metrics
from factjudge.eval.datasets import Example, dataset_files, dataset_hash, load_dataset, load_rows
from factjudge.eval.datasets.json_record import record_passages, render_record
from factjudge.eval.evaluate import evaluate
from factjudge.eval.report import write_report
from factjudge.eval.summary import predicted_spans
from factjudge.eval.tables.ragtruth import rag_rows, rag_type_rows
from factjudge.llm.base import Completion, Message, TokenLogprob
from factjudge.llm.registry import LOCAL_DEFAULT
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.records import Evidence

NEWS = ("The council opened a new library in Leeds on Monday. It holds 40,000 books. "
        "The mayor said it cost four million pounds.")
GOOD = "A new library opened in Leeds on Monday. It holds 40,000 books."
# Two errors: a figure the news contradicts, and a fact it never states.
BAD = "A new library opened in Leeds on Monday. It holds 90,000 books. It is closed on Sundays."
RECORD = {"name": "Finch & Fork", "city": "Santa Barbara",
          "hours": {"Monday": "17:30-23:0", "Sunday": "9:0-14:0"},
          "attributes": {"BusinessParking": {"garage": True, "lot": False}, "Music": None},
          "review_info": [{"review_stars": 5.0, "review_text": "Great brunch.\nWe'll be back."},
                          {"review_stars": 3.0, "review_text": "Overpriced."}]}
OVERVIEW = "Finch & Fork is in Santa Barbara. It has live music every night."


def _label(answer: str, words: str, kind: str, **flags: bool) -> dict[str, Any]:
    start = answer.index(words)
    return {"start": start, "end": start + len(words), "text": words, "meta": "note", "label_type": kind,
            "implicit_true": flags.get("implicit_true", False),
            "due_to_null": flags.get("due_to_null", False)}


def _jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def faithjudge_files(folder: Path) -> tuple[Path, Path]:
    """FaithJudge's layout: one source a line, its responses with labels."""
    summary = _jsonl(folder / "ragtruth_summary.jsonl", [{"source_id": 7, "source": NEWS, "responses": [
        {"response": GOOD, "model": "gpt-4-0613", "labels": []},
        {"response": BAD, "model": "llama-2-7b-chat", "labels": [
            _label(BAD, "closed on Sundays", "Evident Baseless Info"),
            _label(BAD, "90,000", "Evident Conflict")]}]}])
    data2txt = _jsonl(folder / "ragtruth_data2txt.jsonl", [{"source_id": 9, "source": RECORD, "responses": [
        {"response": OVERVIEW, "model": "mistral-7B-instruct", "labels": [
            _label(OVERVIEW, "live music every night", "Subtle Conflict", due_to_null=True)]},
        {"response": "Finch & Fork is in Santa Barbara.", "model": "gpt-4-0613", "labels": []}]}])
    return summary, data2txt


def ragtruth_folder(folder: Path) -> Path:
    """RAGTruth's own layout: response.jsonl and source_info.jsonl side by side."""
    folder.mkdir()
    _jsonl(folder / "source_info.jsonl", [
        {"source_id": "11", "task_type": "Summary", "source": "CNN/DM", "source_info": NEWS, "prompt": "p"},
        {"source_id": "12", "task_type": "QA", "source": "MARCO", "prompt": "p", "source_info": {
            "question": "how long to boil an egg", "passages": "passage 1:Boil it for 9 minutes.\n\n"}},
        {"source_id": "13", "task_type": "Data2txt", "source": "Yelp", "source_info": RECORD, "prompt": "p"}])
    _jsonl(folder / "response.jsonl", [
        {"id": "1", "source_id": "11", "model": "gpt-4-0613", "temperature": 0.7, "split": "train",
         "quality": "good", "response": BAD, "labels": [_label(BAD, "90,000", "Evident Conflict")]},
        {"id": "2", "source_id": "12", "model": "llama-2-13b-chat", "temperature": 0.7, "split": "test",
         "quality": "good", "response": "Boil it for 9 minutes.", "labels": []},
        {"id": "3", "source_id": "13", "model": "mistral-7B-instruct", "temperature": 0.7, "split": "test",
         "quality": "truncated", "response": OVERVIEW,
         "labels": [_label(OVERVIEW, "live music every night", "Subtle Baseless Info", implicit_true=True)]}])
    return folder


def test_a_record_is_rendered_as_titled_passages_in_plain_words() -> None:
    assert render_record(RECORD).split("\n") == [
        "Finch & Fork", "name: Finch & Fork", "city: Santa Barbara", "",
        "Finch & Fork: hours", "Monday: 5:30 PM to 11:00 PM (17:30-23:00)",
        "Sunday: 9:00 AM to 2:00 PM (9:00-14:00)", "",
        "Finch & Fork: attributes", "parking: garage yes, lot no", "Music: not given", "",
        "Finch & Fork: review 1 of 2", "review stars: 5.0", "review text: Great brunch. We'll be back.", "",
        "Finch & Fork: review 2 of 2", "review stars: 3.0", "review text: Overpriced."]


def test_a_records_passages_survive_the_examples_json() -> None:
    example = Example("x", "", "Finch & Fork is in Santa Barbara.", grounding="g",
                      passages=tuple(record_passages(RECORD)))
    assert Example.from_dict(json.loads(json.dumps(example.to_dict()))) == example
    assert Example.from_dict({"id": "y", "question": "", "answer": "a", "passages": ["one"]}).passages == (
        Evidence("context", "one"),)


def test_faithjudge_layout_one_example_per_response_with_typed_spans(tmp_path: Path) -> None:
    summary, data2txt = faithjudge_files(tmp_path)
    good, bad = load_dataset(summary)
    assert (good.id, bad.id) == ("ragtruth-summary-7-gpt-4-0613", "ragtruth-summary-7-llama-2-7b-chat")
    assert (good.domain, good.dataset, good.grounding, good.question) == ("summary", "ragtruth", NEWS, "")
    assert (good.response_label, good.spans, good.segment_labels) == (True, (), (True, True))
    assert bad.response_label is False
    # Sorted by offset, each with its type; the sentences a span touches are false.
    assert [BAD[s:e] for s, e in bad.spans] == ["90,000", "closed on Sundays"]
    assert bad.meta["span_types"] == ["Evident Conflict", "Evident Baseless Info"]
    assert bad.segments == ("A new library opened in Leeds on Monday.", "It holds 90,000 books.",
                            "It is closed on Sundays.")
    assert bad.segment_labels == (True, False, False)
    record, plain = load_dataset(data2txt)
    assert (record.domain, record.grounding) == ("data2txt", render_record(RECORD))
    assert (record.meta["span_types"], record.meta["due_to_null"]) == (["Subtle Conflict"], [True])
    assert plain.response_label is True
    # Rows held in memory are read by the same loader.
    rows = [json.loads(line) for line in summary.read_text().splitlines()]
    assert load_rows(rows) == [good, bad]


def test_ragtruth_layout_folder_or_response_file_tasks_as_domains(tmp_path: Path) -> None:
    folder = ragtruth_folder(tmp_path / "RAGTruth")
    examples = load_dataset(folder)
    assert load_dataset(folder / "response.jsonl") == examples
    summary, qa, data2txt = examples
    assert [e.id for e in examples] == ["ragtruth-1", "ragtruth-2", "ragtruth-3"]
    assert [e.domain for e in examples] == ["summary", "qa", "data2txt"]
    assert (qa.question, qa.grounding) == ("how long to boil an egg", "passage 1:Boil it for 9 minutes.\n\n")
    assert (qa.response_label, qa.meta["split"]) == (True, "test")
    assert (summary.grounding, [BAD[s:e] for s, e in summary.spans]) == (NEWS, ["90,000"])
    assert data2txt.grounding == render_record(RECORD)
    assert (data2txt.meta["span_types"], data2txt.meta["implicit_true"]) == (["Subtle Baseless Info"], [True])
    assert data2txt.meta["quality"] == "truncated"
    # Both files are the dataset: the hash changes with the sources too.
    assert dataset_files(folder) == [folder / "response.jsonl", folder / "source_info.jsonl"]
    before = dataset_hash(folder)
    sources = folder / "source_info.jsonl"
    sources.write_text(sources.read_text().replace("9 min", "8 min"))
    assert dataset_hash(folder) != before


def test_bad_ragtruth_input_is_one_named_error(tmp_path: Path) -> None:
    alone = _jsonl(tmp_path / "answers.jsonl",
                   [{"id": "1", "source_id": "11", "response": "x", "labels": []}])
    with pytest.raises(InputError, match=r"read with their source_info\.jsonl"):
        load_dataset(alone)
    outside = _jsonl(tmp_path / "ragtruth_summary.jsonl", [{"source_id": 1, "source": NEWS, "responses": [
        {"response": "Short.", "model": "m", "labels": [{"start": 2, "end": 40, "label_type": "x"}]}]}])
    with pytest.raises(InputError, match=r"ragtruth_summary.jsonl:1: a label \(2, 40\) falls outside"):
        load_dataset(outside)
    folder = ragtruth_folder(tmp_path / "RAGTruth")
    (folder / "source_info.jsonl").write_text(json.dumps(
        {"source_id": "11", "task_type": "Poetry", "source_info": NEWS}) + "\n")
    with pytest.raises(InputError, match="task_type 'Poetry' is not QA, Summary or Data2txt"):
        load_dataset(folder)


def test_span_f1_pools_characters_over_answers() -> None:
    # Answer 1: gold 0-10, predicted 5-15: 5 shared. Answer 2: no gold, 5 predicted characters.
    prf = metrics.span_prf([[(0, 10)], []], [[(5, 15)], [(0, 5)]])
    assert (prf.precision, prf.recall, prf.support) == (pytest.approx(5 / 15), 0.5, 10)
    assert prf.f1 == pytest.approx(2 * (1 / 3) * 0.5 / (1 / 3 + 0.5))
    assert metrics.span_prf([[]], [[]]) == metrics.PRF(0.0, 0.0, 0.0, 0)
    # Overlapping predictions count each character once.
    assert metrics.span_prf([[(0, 4)]], [[(0, 3), (1, 4)]]).f1 == 1.0


def test_recall_per_error_type_by_answer_and_by_character() -> None:
    types = [["Evident Conflict", "Evident Conflict", "Subtle Baseless Info"], ["Evident Conflict"], []]
    assert metrics.recall_by_type(types, [True, False, True]) == {
        "Evident Conflict": (0.5, 2), "Subtle Baseless Info": (1.0, 1)}
    gold = [[(0, 4, "Evident Conflict"), (10, 20, "Subtle Baseless Info")], [(0, 6, "Evident Conflict")]]
    by_type = metrics.span_recall_by_type(gold, [[(2, 15)], []])
    assert by_type == {"Evident Conflict": (pytest.approx(2 / 10), 10), "Subtle Baseless Info": (0.5, 10)}


def _statement_reply(messages: list[Message]) -> Completion:
    """An embedded-model stand-in: No (P 0.9) to a statement about Sundays or music, else Yes; a value
    asked for is not stated."""
    if any(m["content"].startswith("You read passages") for m in messages):  # read_value_* prompts
        return Completion("NOT STATED", model=LOCAL_DEFAULT)
    statement = messages[-1]["content"].rpartition("<statement>")[2]
    p_no = 0.9 if ("Sundays" in statement or "music" in statement) else 0.1
    word = "No" if p_no > 0.5 else "Yes"
    top = {"Yes": math.log(1 - p_no), "No": math.log(p_no)}
    return Completion(word, logprobs=(TokenLogprob(word, top[word], top),), model=LOCAL_DEFAULT)


def test_bench_on_ragtruth_judges_sentences_and_reports_response_and_span_scores(tmp_path: Path) -> None:
    summary, data2txt = faithjudge_files(tmp_path)
    examples = load_dataset(summary) + load_dataset(data2txt)
    model = ScriptedChatModel(_statement_reply, name=LOCAL_DEFAULT)
    done = evaluate(examples, CheckConfig(), model=model, run_dir=tmp_path / "run")
    results = done.results.set_index("example_id")
    bad = results.loc["ragtruth-summary-7-llama-2-7b-chat", "result"]
    # The answer's sentences are judged one by one against the source, as `check --context` does.
    assert [s["text"] for s in bad["segments"]] == list(examples[1].segments)
    assert [v["label"] for v in bad["segment_verdicts"]] == ["true", "true", "false"]
    lines = [{"example_id": r.example_id, "setup": "default", "domain": r.domain, "dataset": r.dataset,
              "gold": r.gold, "result": r.result, "seconds": r.seconds} for r in done.results.itertuples()]
    rows = rag_rows(lines).set_index("domain")
    # Both hallucinated answers flagged, no faithful one: response-level P = R = F1 = 100.
    assert rows.loc["overall", ["answers", "hallucinated", "precision", "recall", "f1"]].tolist() == [
        4, 2, 100.0, 100.0, 100.0]
    assert rows.loc["overall", "balanced_accuracy"] == 100.0
    # Spans: the judge marks the phrases of a false sentence the source lacks ("music", in the record,
    # lies between two of its words).
    marked = [[r.result["answer"][s:e] for s, e, _ in predicted_spans(r.result)]
              for r in done.results.itertuples()]
    assert marked == [[], ["closed on Sundays"], ["live music every night"], []]
    hit = len("closed on Sundays") + len("live music every night")  # every predicted character is gold
    gold = len("closed on Sundays") + len("live music every night") + len("90,000")
    assert rows.loc["overall", "span_precision"] == 100.0
    assert rows.loc["overall", "span_recall"] == round(100 * hit / gold, 1)
    recall = hit / gold
    assert rows.loc["overall", "span_f1"] == round(100 * 2 * recall / (1 + recall), 1)
    assert rows.loc["summary", "recall"] == 100.0 and rows.loc["summary", "answers"] == 2
    types = rag_type_rows(lines).set_index("error_type")
    conflict = types.loc["Evident Conflict", ["answers", "response_recall", "span_recall"]]
    assert conflict.tolist() == [1, 100.0, 0.0]
    assert types.loc["Evident Baseless Info", "span_recall"] == 100.0
    assert types.loc["Subtle Baseless Info", "answers"] == 0
    # The report of the run holds the same tables, in markdown and CSV.
    paths = write_report(tmp_path / "run")
    markdown = paths["markdown"].read_text(encoding="utf-8")
    assert "RAGTruth: hallucinated answers and spans found, by task" in markdown
    assert "RAGTruth: recall per error type" in markdown
    assert "ragtruth_by_task" in paths and "ragtruth_error_types" in paths
