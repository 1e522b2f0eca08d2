"""The report page: gold beside predicted, confusion matrices, filter, every set-up reachable, escaping."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from factjudge.config import CheckConfig
from factjudge.eval.datasets import Example
from factjudge.eval.report import write_report
from factjudge.eval.report_html import EVIDENCE_CHARS, confusion_rows, example_order, page_data
from factjudge.eval.results import read_lines
from factjudge.eval.runner import BenchRun, Setup
from factjudge.llm.scripted import ScriptedChatModel
from tests.eval.test_felm_table import reply
from tests.support.browser import chromium, console_errors, needs_chromium

ANSWER = "Alpha is one. Beta is two."
N = 60  # more than one page (50) of answers per set-up
JUDGE = "judge: segment 1 false"  # the scripted judge calls segment 1 wrong, quoting its first two words
ALWAYS_TRUE = "<b>always true</b>"  # a judge that finds no error; its name has markup that must show as text
HOSTILE = '<img src=x onerror="window.pwned=1">'


def example(k: int) -> Example:
    """Even k: segment 1 is a gold error, its word "one" the gold span; odd k: all true."""
    wrong = k % 2 == 0
    return Example(id=f"t-{k}", question="What are they?", answer=ANSWER,
                   segments=("Alpha is one.", "Beta is two."), segment_labels=(not wrong, True),
                   response_label=not wrong, spans=((9, 12),) if wrong else (), dataset="hand")


def hostile() -> Example:
    """Markup in the answer and the question; its first segment (a gold error) is nowhere in the answer."""
    answer = f"Gamma is {HOSTILE} three."
    return Example(id="x-1", question="</script><script>window.pwned=2</script>", answer=answer,
                   segments=("Zeta zeta zeta zeta.", answer), segment_labels=(False, True),
                   response_label=False, dataset="hand")


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    examples = [example(k) for k in range(1, N + 1)] + [hostile()]
    models = {"scripted": ScriptedChatModel(reply),
              "scripted:lenient": ScriptedChatModel(lambda messages: "ALL_CORRECT")}
    setups = [Setup(JUDGE, CheckConfig(model="scripted")),
              Setup(ALWAYS_TRUE, CheckConfig(model="scripted:lenient"))]
    path = tmp_path_factory.mktemp("page") / "run"
    bench = BenchRun(path, examples, setups, model_factory=lambda c: models[c.model], dataset="hand",
                     dataset_hash="h")
    assert bench.run(show_progress=False).done == 2 * (N + 1)
    write_report(path)
    return path


def test_confusion_matrices_match_hand_counts(run_dir: Path) -> None:
    lines = [ln for ln in read_lines(run_dir / "results.jsonl") if ln["example_id"] != "x-1"]
    table = confusion_rows(lines).set_index(["setup", "level"])
    half = N // 2
    # The judge calls every segment 1 false: right on the even answers, wrong on the odd ones.
    # columns: TP, FN, FP, TN, unverified, unparseable
    assert table.loc[(JUDGE, "response")].tolist() == [half, 0, half, 0, 0, 0]
    assert table.loc[(JUDGE, "segment")].tolist() == [half, 0, half, N, 0, 0]
    # Always true misses every error and is right on everything else.
    assert table.loc[(ALWAYS_TRUE, "response")].tolist() == [0, half, 0, half, 0, 0]
    assert table.loc[(ALWAYS_TRUE, "segment")].tolist() == [0, half, 0, N + half, 0, 0]
    # an unparseable reply is counted apart, never as a verdict
    broken = next(ln for ln in lines if ln["setup"] == JUDGE and ln["example_id"] == "t-2")
    broken["result"]["label"] = broken["result"]["segment_verdicts"][0]["label"] = "unparseable"
    table = confusion_rows(lines).set_index(["setup", "level"])
    assert table.loc[(JUDGE, "response")].tolist() == [half - 1, 0, half, 0, 0, 1]
    assert table.loc[(JUDGE, "segment")].tolist() == [half - 1, 0, half, N, 0, 1]
    # Issue 34, point 10: an item the evidence left unverified is counted apart, not folded into FN/TN.
    open_ = next(ln for ln in lines if ln["setup"] == ALWAYS_TRUE and ln["example_id"] == "t-2")
    open_["result"]["label"] = open_["result"]["segment_verdicts"][0]["label"] = "unverified"
    table = confusion_rows(lines).set_index(["setup", "level"])
    assert table.loc[(ALWAYS_TRUE, "response")].tolist() == [0, half - 1, 0, half, 1, 0]
    assert table.loc[(ALWAYS_TRUE, "segment")].tolist() == [0, half - 1, 0, N + half, 1, 0]


def test_examples_are_ordered_by_id_with_numbers_read_as_numbers() -> None:
    assert sorted(["t-10", "t-2", "x-1", "t-1"], key=example_order) == ["t-1", "t-2", "t-10", "x-1"]


def test_the_page_escapes_what_results_hold(run_dir: Path) -> None:
    page = (run_dir / "report" / "report.html").read_text()
    assert HOSTILE not in page and "<script>window.pwned" not in page and "<b>always" not in page


@pytest.fixture(scope="module")
def browser(run_dir: Path) -> Iterator[Any]:
    for driver in chromium():
        driver.get((run_dir / "report" / "report.html").resolve().as_uri())
        yield driver


def choose(driver: Any, setup: str | None = None, show: str | None = None) -> None:
    """Pick a set-up and a filter, back on the first page (as a person choosing them would be)."""
    from selenium.webdriver.support.ui import Select

    if setup is not None:
        select = Select(driver.find_element("id", "setup"))
        select.select_by_index(next(i for i, o in enumerate(select.options) if o.text.startswith(setup)))
    if show is not None:
        Select(driver.find_element("id", "filter")).select_by_value(show)
    # Selenium does not fire "change" for an option already chosen; the page then keeps its page number.
    driver.execute_script("document.getElementById('filter').dispatchEvent(new Event('change'))")


def shown_ids(driver: Any) -> list[str]:
    """Every answer the current set-up and filter show, walking the pages."""
    ids: list[str] = []
    while True:
        items = driver.find_elements("css selector", "#items .item")
        assert len(items) <= 50  # drawn a page at a time
        ids += [i.get_attribute("data-example") for i in items]
        button = driver.find_element("id", "next")
        if not button.is_enabled():
            return ids
        button.click()


@needs_chromium
def test_every_set_ups_answers_are_reachable_in_example_order(browser: Any) -> None:
    expected = [f"t-{k}" for k in range(1, N + 1)] + ["x-1"]
    for setup in (JUDGE, ALWAYS_TRUE):
        choose(browser, setup, "all")
        assert shown_ids(browser) == expected
    assert console_errors(browser) == []


@needs_chromium
def test_the_filter_shows_false_negatives_false_positives_and_disagreements(browser: Any) -> None:
    even = [f"t-{k}" for k in range(2, N + 1, 2)]
    odd = [f"t-{k}" for k in range(1, N + 1, 2)]
    choose(browser, JUDGE, "p")
    assert shown_ids(browser) == odd  # gold true, judged false
    assert browser.find_element("id", "page-info").text == f"answers 1–{N // 2} of {N // 2} (page 1 of 1)"
    choose(browser, JUDGE, "n")
    assert shown_ids(browser) == []
    assert browser.find_element("id", "page-info").text == "no answers match"
    choose(browser, JUDGE, "np")
    assert shown_ids(browser) == odd
    choose(browser, ALWAYS_TRUE, "n")
    assert shown_ids(browser) == [*even, "x-1"]  # every gold error missed
    choose(browser, ALWAYS_TRUE, "p")
    assert shown_ids(browser) == []


@needs_chromium
def test_gold_and_predicted_labels_and_spans_are_both_marked(browser: Any) -> None:
    choose(browser, JUDGE, "all")
    item = browser.find_element("css selector", "#items .item[data-example='t-2']")
    meta = item.find_element("css selector", ".meta").text
    assert "gold label: false" in meta and "predicted label: false" in meta  # whose label, said
    first, second = item.find_elements("css selector", "p.answer span.seg")
    assert (first.get_attribute("data-gold"), first.get_attribute("data-verdict")) == ("false", "false")
    assert (second.get_attribute("data-gold"), second.get_attribute("data-verdict")) == ("true", "true")
    assert [m.text for m in first.find_elements("css selector", "mark.err")] == ["Alpha is"]
    assert [g.text for g in first.find_elements("css selector", ".gold-span")] == ["one"]
    style = browser.execute_script
    assert style("return getComputedStyle(arguments[0]).textDecorationLine", first) == "underline"
    assert style("return getComputedStyle(arguments[0]).backgroundColor", first) == "rgb(253, 226, 226)"
    assert item.find_element("css selector", "p.answer").text == ANSWER
    odd = browser.find_element("css selector", "#items .item[data-example='t-1']")
    assert "gold label: true · predicted label: false" in odd.find_element("css selector", ".meta").text
    assert not odd.find_elements("css selector", ".gold-span")


@needs_chromium
def test_an_unlocated_segment_is_still_coloured_and_markup_stays_text(browser: Any) -> None:
    choose(browser, JUDGE, "all")
    browser.find_element("id", "next").click()
    item = browser.find_element("css selector", "#items .item[data-example='x-1']")
    (lost,) = item.find_elements("css selector", ".unlocated span.seg")
    assert lost.text == "Zeta zeta zeta zeta."
    assert (lost.get_attribute("data-gold"), lost.get_attribute("data-verdict")) == ("false", "false")
    assert "seg-false" in lost.get_attribute("class") and "gold-false" in lost.get_attribute("class")
    red = browser.execute_script("return getComputedStyle(arguments[0]).backgroundColor", lost)
    assert red == "rgb(253, 226, 226)"
    assert HOSTILE in item.find_element("css selector", "p.answer").text
    assert not item.find_elements("css selector", "img")
    assert browser.execute_script("return window.pwned") is None
    choose(browser, ALWAYS_TRUE)
    assert browser.find_element("id", "setup").text.count("<b>always true</b>") == 1


def test_passages_the_set_ups_share_are_sent_once_and_cut(run_dir: Path) -> None:
    lines = [ln for ln in read_lines(run_dir / "results.jsonl") if ln["example_id"] == "t-2"]
    for line in lines:
        line["result"]["segment_verdicts"][0]["evidence"] = [
            {"source": "link", "text": "word " * 400, "url": "https://example.org/a"}]
    data = page_data(lines)
    assert len(data["items"]) == 2 and [it["evidence"] for it in data["items"]] == [[0], [0]]
    (passage,) = data["passages"]
    assert passage[:2] == ["link", "https://example.org/a"] and passage[2].endswith(" …")
    assert len(passage[2]) == EVIDENCE_CHARS + 2


def test_each_item_says_which_passage_it_rests_on_or_none() -> None:
    from factjudge.eval.report_html import item_record
    from tests.eval.report_fixtures import line

    judged = line("e1", "s", ["true", "unverified", "not_checkable"], gold=[True, False, None])
    verdicts = judged["result"]["segment_verdicts"]
    verdicts[0]["evidence"] = [{"source": "wikipedia", "text": "Paris is in France.", "title": "Paris",
                                "url": "https://en.wikipedia.org/wiki/Paris"}]
    verdicts[1]["evidence"] = []
    record = item_record(judged, 0, 0)
    assert [s["src"] for s in record["segments"]] == ["Paris", "none", ""]
