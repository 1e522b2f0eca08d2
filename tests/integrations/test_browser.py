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
from tests.support.browser import chromium, needs_chromium  # noqa: E402

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
        assert evidence and "evidence: context" in evidence[0].text


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
