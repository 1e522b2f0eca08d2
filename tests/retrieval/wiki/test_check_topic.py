"""A whole check, FActScore's way: a biography is judged on its topic's article or left unverified."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from factjudge import explain
from factjudge.checking.checker import Checker
from factjudge.config import CheckConfig
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.records import CheckResult, Coverage
from tests.retrieval.wiki.test_reading import BIO, BIO_QUESTION, CURIE

ROOT = Path(__file__).resolve().parents[3]
CURIE_BIO = ("Marie Curie was a Polish physicist and chemist. In 1911 she received the Nobel Prize in "
             "Chemistry. She died in 1934 in Passy. Pierre Curie was a pioneer in crystallography.")


def test_check_on_a_biography_the_packaged_summaries_lack_leaves_every_item_unverified() -> None:
    from factjudge.retrieval.wiki.installed import packaged_installed

    if not packaged_installed():
        pytest.skip("the packaged Wikipedia (the wiki extra) is not installed")
    pytest.importorskip("llama_cpp")  # the default judge; no call is made: nothing is left to judge
    done = subprocess.run([sys.executable, "-m", "factjudge.cli", "check", BIO_QUESTION, BIO, "--json",
                           "--wiki", "packaged"], capture_output=True, cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr.decode()
    result = CheckResult.from_json(done.stdout.decode())
    assert result.strategy == "evidence" and len(result.segment_verdicts) == 5
    for verdict in result.segment_verdicts:
        # Florida, New York, Sydney and Australia have articles there; none of them is about him.
        assert verdict.label == "unverified" and verdict.evidence == ()
        assert verdict.evidence_note == "no article about Lanny Flaherty in the packaged Wikipedia summaries"
    assert result.usage.calls == 0
    assert result.coverage == Coverage("the packaged Wikipedia summaries", 5, 0, 0, ("Lanny Flaherty",))
    shown = subprocess.run([sys.executable, "-m", "factjudge.cli", "check", BIO_QUESTION, BIO, "--wiki",
                            "packaged"], capture_output=True, cwd=ROOT, check=False).stdout.decode()
    assert ("read: the packaged Wikipedia summaries, an article for 0 of 5 items (none about Lanny "
            "Flaherty)") in " ".join(shown.split())


def test_check_with_a_zim_that_has_the_article_judges_on_passages_of_that_article(tmp_path: Path) -> None:
    pytest.importorskip("libzim.writer")
    from tests.retrieval.wiki.test_zim import make_zim

    zim = make_zim(tmp_path / "wikipedia_en_all_nopic_2024-06.zim", {
        "Marie Curie": CURIE,
        "Nobel Prize in Chemistry": "The Nobel Prize in Chemistry was first awarded in 1901.",
        "Paris": "Paris is the capital and largest city of France.",
        "Pierre Curie": "Pierre Curie was a French physicist, a pioneer in crystallography.",
    })
    model = ScriptedChatModel(lambda messages: "Yes")
    config = CheckConfig(strategy="evidence", evidence=("wiki",), wiki=f"zim:{zim}")
    result = Checker(config, model).check(
        "Tell me a bio of Marie Curie.", CURIE_BIO)
    physicist, nobel, died, pierre = result.segment_verdicts
    for verdict in (physicist, nobel, died):
        assert verdict.evidence and {e.title for e in verdict.evidence} == {"Marie Curie"}
    assert "In 1911 she received the Nobel Prize in Chemistry" in nobel.evidence[0].text
    assert "She died in 1934" in died.evidence[0].text
    # The judge read those passages, and only those: no other article was in its prompt.
    prompts = ["\n".join(m["content"] for m in call) for call in model.calls]
    assert any("In 1911 she received the Nobel Prize" in p for p in prompts)
    assert not any("first awarded in 1901" in p or "largest city of France" in p for p in prompts)
    # An item opening with another name is about that name, and reads that name's article.
    assert {e.title for e in pierre.evidence} == {"Pierre Curie"}
    assert result.coverage == Coverage(zim.name, 4, 4)
    assert CheckResult.from_json(explain.result_json(result)).coverage == result.coverage
