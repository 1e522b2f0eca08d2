"""The FELM table from felm_all.jsonl for every strategy × granularity, with FELM's fallbacks."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from factjudge.config import CheckConfig
from factjudge.eval.datasets import load_dataset
from factjudge.eval.grid import expand, parse_grid, setup_name
from factjudge.eval.report import write_report
from factjudge.eval.results import read_lines
from factjudge.eval.runner import BenchRun, Setup
from factjudge.eval.summary import felm_table, metric_rows
from factjudge.llm.base import Message
from factjudge.llm.cache import CachedChatModel
from factjudge.llm.scripted import ScriptedChatModel
from tests.support.browser import chromium, console_errors, needs_chromium

FELM = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "felm_all.jsonl"
pytestmark = pytest.mark.skipif(not FELM.exists(), reason="needs ../shared/data")
DOMAINS = ["math", "reasoning", "science", "wk", "writing_rec"]


def fenced(prompt: str, tag: str) -> list[str]:
    block = prompt[prompt.rindex(f"<{tag}>") + len(tag) + 2 : prompt.rindex(f"</{tag}>")]
    return re.findall(r"^\d+\. (.*)$", block, flags=re.M)


def reply(messages: list[Message]) -> str:
    """Extract each segment as one claim; call the first item wrong, quoting its first two words."""
    prompt = messages[0]["content"]
    if "Claim 1." in prompt:
        return "".join(f"Segment {i}:\nClaim 1. {s}\n" for i, s in enumerate(fenced(prompt, "segments"), 1))
    items = fenced(prompt, "claims" if "<claims>" in prompt[prompt.rindex("Now check"):] else "segments")
    quote = " ".join(items[0].split()[:2]).replace('"', "")
    answer = f'Answer: 1 ["{quote}"]'
    return f"Thought: checked.\n{answer}" if "Thought:" in prompt else answer


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, ScriptedChatModel, BenchRun]:
    examples = load_dataset(str(FELM))
    picked = [e for d in DOMAINS for e in [x for x in examples if x.domain == d][:4]]
    picked += [e for e in examples if e.domain == "wk" and e.ref_contents and e not in picked][:2]
    tmp = tmp_path_factory.mktemp("felm")
    inner = ScriptedChatModel(reply)
    model = CachedChatModel(inner, tmp / "calls.sqlite")
    grid = parse_grid(["strategy=vanilla,cot,link,doc", "granularity=segment,claim"])
    setups = [Setup.named(setup_name(c, list(grid)), c) for c in expand(CheckConfig(model="scripted"), grid)]
    bench = BenchRun(tmp / "run", picked, setups, model_factory=lambda c: model, dataset=str(FELM),
                     dataset_hash="felm", concurrency=4)
    assert bench.run(show_progress=False).done == len(picked) * 8
    return tmp / "run", inner, bench


Run = tuple[Path, ScriptedChatModel, BenchRun]


def test_every_strategy_and_granularity_gets_a_row_with_every_domain(run: Run) -> None:
    lines = list(read_lines(run[0] / "results.jsonl"))
    table = felm_table(metric_rows(lines), "segment_ba")
    assert len(table) == 8 and list(table.columns) == [*DOMAINS, "overall"]
    assert table.notna().all().all()
    paths = write_report(run[0])
    assert "Response-level balanced accuracy by domain" in paths["markdown"].read_text()


def test_fallbacks_follow_felm(run: Run) -> None:
    lines = list(read_lines(run[0] / "results.jsonl"))
    for line in lines:
        result, setup = line["result"], line["setup"]
        if line["domain"] in ("math", "reasoning"):
            assert result["granularity"] == "segment"  # no claim extraction for math and reasoning
        judge_prompts = {t["prompt_name"] for t in result["traces"] if t["step"] == "judge"}
        assert judge_prompts == {f"judge_{result['granularity']}_{result['strategy']}"}
        if "strategy=link" in setup:
            assert result["strategy"] in ("link", "vanilla")
            if result["strategy"] == "link":
                assert "http" in result["traces"][-1]["messages"][0]["content"].split("<references>")[-1]
        if "strategy=doc" in setup:
            verdicts = result["segment_verdicts"] + result["claim_verdicts"]
            shown = [ev for v in verdicts for ev in v["evidence"]]
            assert (result["strategy"] == "doc") == bool(shown)
            assert all(ev["source"] == "link" for ev in shown)
    docs = [ln for ln in lines if "strategy=doc" in ln["setup"] and ln["result"]["strategy"] == "doc"]
    assert docs, "FELM's shipped ref_contents must let the doc strategy run offline"
    assert all(ln["result"]["strategy"] == "vanilla" for ln in lines
               if "strategy=doc" in ln["setup"] and ln["domain"] == "math")


def test_quoted_errors_are_located_in_the_answer(run: Run) -> None:
    lines = [ln for ln in read_lines(run[0] / "results.jsonl") if "granularity=segment" in ln["setup"]]
    spans = [s for ln in lines for s in ln["result"]["segment_verdicts"][0]["spans"]]
    assert spans and sum(s["located"] for s in spans) / len(spans) > 0.9


def test_resume_makes_no_call(run: Run) -> None:
    _, inner, bench = run
    calls = len(inner.calls)
    again = bench.run(resume=True, show_progress=False)
    assert again.done == 0 and len(inner.calls) == calls


@needs_chromium
def test_html_report_marks_the_false_words_and_not_the_true_ones(run: Run) -> None:
    from selenium.webdriver.common.by import By

    html_path = write_report(run[0])["html"]
    driver_iter = chromium()
    driver = next(driver_iter)
    try:
        driver.get(html_path.resolve().as_uri())
        marks = driver.find_elements(By.CSS_SELECTOR, ".seg-false mark.err")
        assert marks and all(m.text.strip() for m in marks)
        assert not driver.find_elements(By.CSS_SELECTOR, ".seg-true mark.err")
        first = marks[0]
        # a red frame (not a red fill, which hid the segment's gold underline under the words)
        frame = driver.execute_script("const s = getComputedStyle(arguments[0]); "
                                      "return [s.outlineStyle, s.outlineColor]", first)
        assert frame == ["solid", "rgb(229, 57, 53)"]
        assert console_errors(driver) == []
    finally:
        driver_iter.close()
