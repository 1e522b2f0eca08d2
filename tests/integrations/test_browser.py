"""The web page in headless Chromium against the service under a real uvicorn on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
webdriver = pytest.importorskip("selenium.webdriver")

from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support import expected_conditions as ec  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

from factjudge.config import CheckConfig  # noqa: E402
from factjudge.integrations.http import create_app  # noqa: E402
from factjudge.llm.scripted import ScriptedChatModel  # noqa: E402
from factjudge.testing.live import serve_in_thread  # noqa: E402
from tests.integrations.samples import ANSWER, CONTEXT, QUESTION, second_is_wrong  # noqa: E402
from tests.support.browser import (  # noqa: E402
    UNCLIPPED_TABLES,
    chromium,
    clipped_tables,
    console_errors,
    needs_chromium,
    screenshot,
)

pytestmark = needs_chromium


@pytest.fixture
def browser() -> Iterator[Any]:
    yield from chromium()


def fill_and_submit(driver: Any, base_url: str, granularity: str | None = None, context: bool = True) -> None:
    driver.get(base_url + "/")
    find = driver.find_element
    if granularity:
        Select(find(By.ID, "granularity")).select_by_value(granularity)
    find(By.ID, "question").send_keys(QUESTION)
    find(By.ID, "answer").send_keys(ANSWER)
    if context:
        find(By.ID, "context").send_keys(CONTEXT[0])
    find(By.ID, "check-button").click()
    WebDriverWait(driver, 20).until(ec.visibility_of_element_located((By.ID, "result")))


def test_page_checks_an_answer_and_colours_segments_by_verdict(browser: Any, tmp_path: Path) -> None:
    model = ScriptedChatModel(second_is_wrong, name="scripted:judge")
    with serve_in_thread(create_app(model=model)) as base_url:
        fill_and_submit(browser, base_url)
        spans = browser.find_elements(By.CSS_SELECTOR, "#rendered-answer span.seg")
        assert [s.get_attribute("data-verdict") for s in spans] == ["true", "false", "not_checkable"]
        assert spans[1].text == "It stands on the north bank of the river."
        assert "verdict-false" in spans[1].get_attribute("class")
        marks = browser.find_elements(By.CSS_SELECTOR, "#rendered-answer mark.err")
        assert [m.text for m in marks] == ["north bank"]  # the wrong words, and only those
        assert marks[0].find_element(By.XPATH, "..").get_attribute("data-verdict") == "false"
        colour = spans[1].value_of_css_property("background-color")
        assert colour != spans[0].value_of_css_property("background-color")
        rendered = browser.find_element(By.ID, "rendered-answer").text
        assert rendered.replace("\n", " ") == ANSWER
        summary = browser.find_element(By.ID, "summary").text
        assert "false" in summary and "grounded/segment" in summary and "scripted:judge" in summary
        items = browser.find_elements(By.CSS_SELECTOR, "#segments > li")
        assert [i.get_attribute("data-verdict") for i in items] == ["true", "false", "not_checkable"]
        assert "error score 1.00" in items[1].text
        assert not browser.find_element(By.ID, "model-note").is_displayed()
        assert "south bank" in model.calls[0][0]["content"]
        options = Select(browser.find_element(By.ID, "strategy")).options  # from the service's registry
        assert [o.get_attribute("value") for o in options][:3] == ["", "vanilla", "cot"]
        assert "bm25 (no model)" in [o.text for o in options]
        severe = [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"]
        assert not severe, severe  # no script errors, no failed (or external) loads
        browser.save_screenshot(str(tmp_path / "page.png"))


def test_page_shows_claims_evidence_and_the_note_about_the_local_model(browser: Any) -> None:
    extraction = ("Segment 1:\nClaim 1. The city museum opened in 1998.\n"
                  "Segment 2:\nClaim 1. The city museum stands on the north bank.\n"
                  "Claim 2. The city museum is by a river.\n")
    model = ScriptedChatModel(lambda m: extraction if "atomic factual claims" in m[0]["content"]
                              else "Answer: 2", name="local:tiny.gguf")
    with serve_in_thread(create_app(model=model, config=CheckConfig(strategy="vanilla"))) as base_url:
        fill_and_submit(browser, base_url, granularity="claim")
        note = browser.find_element(By.ID, "model-note")
        assert note.is_displayed() and "local model tiny.gguf" in note.text and "not measured" in note.text
        claims = browser.find_elements(By.CSS_SELECTOR, "li.claim")
        assert claims, "claims should be listed under their segments"
        assert any(c.get_attribute("data-verdict") == "false" for c in claims)
        evidence = browser.find_elements(By.CSS_SELECTOR, "#segments details")
        blocks = browser.find_elements(By.CSS_SELECTOR, "#segments .evidence")
        assert evidence and blocks and "evidence: context" in blocks[0].text


def test_page_says_when_a_verdict_rests_on_no_passage(browser: Any) -> None:
    model = ScriptedChatModel(lambda m: "False", name="scripted:judge")
    with serve_in_thread(create_app(model=model, config=CheckConfig(strategy="fact"))) as base_url:
        fill_and_submit(browser, base_url, context=False)
        notes = browser.find_elements(By.CSS_SELECTOR, "#segments .no-evidence")
        assert notes and all("no passage: checked against no source" in n.text for n in notes)


def test_page_shows_a_json_error_from_the_service(browser: Any) -> None:
    model = ScriptedChatModel(second_is_wrong)
    with serve_in_thread(create_app(model=model, api_key="s3cret")) as base_url:
        browser.get(base_url + "/")
        assert "needs an API key" in WebDriverWait(browser, 10).until(
            lambda d: d.find_element(By.ID, "model-line").text or None)
        browser.find_element(By.ID, "answer").send_keys(ANSWER)
        browser.find_element(By.ID, "check-button").click()
        error = WebDriverWait(browser, 10).until(ec.visibility_of_element_located((By.ID, "error")))
        assert "401" in error.text and "API key" in error.text


# --- What new users met on the pages (issue #26, points 11 and 12), with screenshots ---

FACT_ANSWERS = {"en": "The museum opened in 1998.\n\nIt stands on the north bank.\nIt has a cafe.",
                "fr": "Le musée a ouvert en 1998.\n\nIl est sur la rive nord.\nIl a un café."}
WRONG = ("north bank", "rive nord")


def scripted_judge(messages: list[dict[str, str]]) -> str:
    """Yes/No and True/False judges call the north bank wrong; a list judge quotes it."""
    text = messages[-1]["content"]
    wrong = any(w in text for w in WRONG)
    if "Answer with only Yes" in text:
        return "No" if wrong else "Yes"
    if "one word and nothing else" in text:
        return "False" if wrong else "True"
    for line in text.splitlines():  # a list judge: "2. It stands on the north bank."
        number, dot, rest = line.partition(". ")
        quoted = next((w for w in WRONG if w in rest), None)
        if dot and number.strip().isdigit() and quoted:
            return f'Answer: {number.strip()} ["{quoted}"]'
    return "Answer: ALL_CORRECT"


def small_run(run_dir: Path) -> Path:
    """A bench run over answers in two languages (fact-level gold) and TRUE pairs, by four set-ups."""
    from factjudge.eval.datasets import Example
    from factjudge.eval.grid import expand, parse_grid
    from factjudge.eval.report import write_report
    from factjudge.eval.runner import BenchRun, name_setups

    examples = [Example(id=f"m-{k}-{lang}", question="Where is the museum?", answer=answer,
                        segments=tuple(answer.replace("\n\n", "\n").split("\n")),
                        segment_labels=(True, False, True), response_label=False, dataset="hand",
                        domain="wk", language=lang, meta={"parallel_id": f"p{k}"})
                for k in range(1, 4) for lang, answer in FACT_ANSWERS.items()]
    examples += [Example(id=f"t-{k}", question="", answer=f"The museum is on the {side} bank, {k}.",
                         segment_labels=(side == "south",), response_label=side == "south",
                         dataset="begin", domain="dialogue",
                         grounding="The city museum opened in 1998 on the south bank of the river.")
                 for k, side in enumerate(["south", "north"] * 4)]
    grid = parse_grid(["strategy=fact,vanilla,bm25,token_f1"])
    configs = expand(CheckConfig(model="scripted"), grid)
    model = ScriptedChatModel(scripted_judge, name="scripted")
    setups = name_setups(configs, list(grid), examples, lambda c: "scripted")
    BenchRun(run_dir, examples, setups, model_factory=lambda c: model, dataset="hand",
             dataset_hash="h", concurrency=1).run(show_progress=False)
    return write_report(run_dir)["html"]


def choose_setup(driver: Any, label: str) -> None:
    select = Select(driver.find_element(By.ID, "setup"))
    select.select_by_index(next(i for i, o in enumerate(select.options) if o.text.startswith(label)))


def one_line(driver: Any, element: Any) -> bool:
    """Whether an element's text is laid out on a single line."""
    return driver.execute_script("const r = document.createRange(); r.selectNodeContents(arguments[0]); "
                                 "return new Set([...r.getClientRects()].map(x => Math.round(x.top))).size",
                                 element) == 1


# Pairs (a gold-false segment's line, another segment's box) where the other box covers the band under
# the line that its wavy underline is drawn in (issue 11d: the underline showed under the last words only).
COVERED_UNDERLINES = """
const band = 6, out = [];
for (const seg of document.querySelectorAll('#items p.answer .gold-false')) {
  for (const line of seg.getClientRects()) {
    for (const other of seg.closest('p').querySelectorAll('.seg')) {
      if (other === seg) continue;
      for (const box of other.getClientRects()) {
        const across = box.left < line.right && line.left < box.right;
        if (across && box.top < line.bottom + band && box.bottom > line.bottom) out.push(seg.textContent);
      }
    }
  }
}
return out;
"""


def luminance(rgb: str) -> float:
    """Relative luminance (WCAG) of a computed ``rgb(r, g, b)`` colour."""
    channels = [int(v) / 255 for v in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3]]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_report_of_a_small_run_reads_well(browser: Any, tmp_path: Path) -> None:
    browser.get(small_run(tmp_path / "run").resolve().as_uri())
    # (a) set-ups read as words in the tables, the selector and the ensemble's one row
    first_cells = [td.text for td in browser.find_elements(By.CSS_SELECTOR, "table tbody td:first-child")]
    assert "bm25 · segment · no model" in first_cells
    assert not [c for c in first_cells if "=" in c]
    (ensemble,) = {td for td in browser.find_elements(By.CSS_SELECTOR, "table tbody td:first-child")
                   if td.text.startswith("ensemble of")}
    # TRUE's ensemble of the three set-ups that rank: one line, what the members share said once
    assert ensemble.text == "ensemble of fact → supported or fact + bm25 + token_f1 (segment)"
    assert one_line(browser, ensemble)
    options = [o.text for o in Select(browser.find_element(By.ID, "setup")).options]
    assert options and not [o for o in options if "=" in o]
    # (b) no table is cut at the right edge; the wide ones scroll in their own box
    assert clipped_tables(browser) == []
    assert any(t["scrolls"] for t in browser.execute_script(UNCLIPPED_TABLES))
    assert browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(browser, tmp_path, "report-tables.png")

    # (e) a paragraph break is one line break; (d) a gold-false segment is underlined along its whole width
    choose_setup(browser, "vanilla")
    item = browser.find_element(By.CSS_SELECTOR, "#items .item[data-example='m-1-en']")
    answer = item.find_element(By.CSS_SELECTOR, "p.answer")
    assert answer.get_attribute("textContent") == FACT_ANSWERS["en"].replace("\n\n", "\n")
    assert browser.execute_script(COVERED_UNDERLINES) == []
    (wrong,) = item.find_elements(By.CSS_SELECTOR, "p.answer .gold-false")
    (mark,) = wrong.find_elements(By.CSS_SELECTOR, "mark.err")
    assert mark.text == "north bank"  # the quoted words stay marked apart from the segment
    style = browser.execute_script
    underline = style("return getComputedStyle(arguments[0]).textDecorationColor", wrong)
    behind = style("return getComputedStyle(arguments[0]).backgroundColor", mark)
    assert contrast(underline, behind) >= 3, (underline, behind)  # the underline shows under the mark
    # (f) each segment's error score, and why it got its label, for every strategy
    for name in ("vanilla", "fact"):
        choose_setup(browser, name)
        item = browser.find_element(By.CSS_SELECTOR, "#items .item[data-example='m-1-en']")
        item.find_element(By.CSS_SELECTOR, "details summary").click()
        table = item.find_element(By.CSS_SELECTOR, "table.items")
        heads = [th.text for th in table.find_elements(By.CSS_SELECTOR, "th")]
        assert "error score" in heads
        rows = [[td.text for td in tr.find_elements(By.CSS_SELECTOR, "td")]
                for tr in table.find_elements(By.CSS_SELECTOR, "tr")[1:]]
        why = heads.index("rationale, or the rule that made the label")
        assert all(row[why] for row in rows), rows
        assert rows[1][heads.index("error score")] == "1.00"
        if name == "fact":
            assert "the model answered False" in rows[1][why]  # the judge states its rule
    assert clipped_tables(browser) == []
    assert console_errors(browser) == []
    screenshot(browser, tmp_path, "report-answers.png")


@pytest.fixture
def kb_path(tmp_path: Path) -> Path:
    """A knowledge base of one document about the museum."""
    from factjudge.retrieval.kb import KnowledgeBase

    path = tmp_path / "kb.sqlite"
    with KnowledgeBase(path) as base:
        base.add_documents([{"title": "City museum", "source": "encyclopedia",
                             "text": "The city museum opened its doors in 1998 in a former power station. "
                                     "It stands on the south bank of the river."}])
    return path


def test_page_names_what_ran_shows_the_passage_and_cached_calls(browser: Any, tmp_path: Path) -> None:
    from factjudge.llm.cache import CachedChatModel

    inner = ScriptedChatModel(scripted_judge, name="scripted:judge")
    model = CachedChatModel(inner, tmp_path / "cache.sqlite")
    # One decision per item (no value reading): the test counts calls.
    with serve_in_thread(create_app(model=model, config=CheckConfig(strategy="fact", values=0))) as base_url:
        browser.get(base_url + "/")
        line = WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "model-line").text or None)
        assert "Without a context a check runs fact" in line and "with a context, supported" in line
        # (c) "only the context counts" is off and greyed until there is a context
        grounded = browser.find_element(By.ID, "grounded")
        assert not grounded.is_enabled() and not grounded.is_selected()
        label = browser.find_element(By.ID, "grounded-label")
        assert label.value_of_css_property("color") != browser.find_element(
            By.CSS_SELECTOR, "label[for=question]").value_of_css_property("color")
        browser.find_element(By.ID, "context").send_keys(CONTEXT[0])
        assert grounded.is_enabled() and grounded.is_selected()
        # (e) the API key's placeholder shows whole
        room = browser.execute_script("""
            const input = document.getElementById('api-key'), s = getComputedStyle(input);
            const ctx = document.createElement('canvas').getContext('2d');
            ctx.font = getComputedStyle(input, '::placeholder').font || s.font;
            return [ctx.measureText(input.placeholder).width,
                    input.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight)];""")
        assert room[0] <= room[1], room

        for _ in range(2):  # the second check is answered from the cache
            fill_and_submit(browser, base_url)
            WebDriverWait(browser, 10).until(lambda d: "ran " in d.find_element(By.ID, "ran").text)
        # (a) the strategy that ran, in the result and the header
        ran = browser.find_element(By.ID, "ran").text
        assert "ran supported/segment by scripted:judge" in ran
        assert "supported" in browser.find_element(By.ID, "last-run").text
        # (b) cached calls are counted
        assert "0 model calls (2 from cache)" in ran
        # the passage each verdict rests on, under it
        items = browser.find_elements(By.CSS_SELECTOR, "#segments > li")
        passages = [i.find_elements(By.CSS_SELECTOR, "blockquote.passage") for i in items]
        assert [len(p) for p in passages] == [1, 1, 0]  # the greeting is not checkable
        assert "south bank of the river" in passages[1][0].text and passages[1][0].is_displayed()
        assert "evidence: context" in items[1].text
        assert clipped_tables(browser) == []
        assert console_errors(browser) == []
        screenshot(browser, tmp_path, "page-with-context.png")


def test_page_counts_unverified_items_apart_without_a_context(browser: Any, tmp_path: Path,
                                                              kb_path: Path) -> None:
    model = ScriptedChatModel(lambda m: "Yes", name="scripted:judge")
    config = CheckConfig(strategy="evidence", evidence=("kb",), kb=str(kb_path), values=0)
    with serve_in_thread(create_app(model=model, config=config)) as base_url:
        browser.get(base_url + "/")
        browser.find_element(By.ID, "answer").send_keys(
            "The city museum opened in 1998. Zorblat quaffed the glimmerwine at dawn.")
        browser.find_element(By.ID, "check-button").click()
        WebDriverWait(browser, 20).until(ec.visibility_of_element_located((By.ID, "result")))
        summary = browser.find_element(By.ID, "summary").text
        # (d) one item supported, one left unverified: not "100% of judged items supported"
        assert "1 supported, 0 false, 1 unverified" in summary and "not counted as supported" in summary
        assert "No context was given. Checked against the knowledge base: 1 item;" in summary
        assert "no passage found (left unverified): 1 item." in summary
        assert "1 of the 1 item labelled true or false is supported (100%)." in summary
        assert "of judged items supported" not in summary  # the old line, true of one item in two
        assert "1 model call." in summary
        items = browser.find_elements(By.CSS_SELECTOR, "#segments > li")
        assert [i.get_attribute("data-verdict") for i in items] == ["true", "unverified"]
        assert "opened its doors in 1998" in items[0].find_element(By.CSS_SELECTOR, "blockquote.passage").text
        assert "no passage" in items[1].text
        assert console_errors(browser) == []
        screenshot(browser, tmp_path, "page-no-context.png")


def test_page_names_the_plan_and_the_fallback_when_another_granularity_ran(browser: Any) -> None:
    model = ScriptedChatModel(lambda m: "True", name="scripted:judge")  # no claim list: extraction fails
    config = CheckConfig(strategy="fact", granularity="claim")
    with serve_in_thread(create_app(model=model, config=config)) as base_url:
        fill_and_submit(browser, base_url, context=False)
        ran = WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "ran").text or None)
        assert "ran fact/segment by scripted:judge (planned fact/claim)" in ran
        assert "fallback: claims ran as segments: the claim extraction failed" in ran
        assert "ran fact/segment" in browser.find_element(By.ID, "last-run").text
