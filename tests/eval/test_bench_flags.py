"""Bad bench settings are refused before the run starts (issue 14 item 6): exit 2, one line, no run dir."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from factjudge.cli import main
from factjudge.testing.openai_server import OpenAIServer

SEGMENTS = ["Paris is in France.", "The Moon is made of cheese."]


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    """A FELM-shaped file of three examples in two domains."""
    rows = [{"prompt": f"Question {i}?", "response": " ".join(SEGMENTS), "segmented_response": SEGMENTS,
             "labels": [True, False], "domain": domain, "source": "test"}
            for i, domain in enumerate(["wk", "wk", "science"])]
    path = tmp_path / "felm.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.mark.parametrize(("flags", "message"), [
    (["--limit", "-1"], "--limit must be at least 1, not -1"),
    (["--limit", "0"], "--limit must be at least 1, not 0"),
    (["--per-domain", "-2"], "--per-domain must be at least 1, not -2"),
    (["--domain", "nope"], "has no examples of domain 'nope'; its domains: 'science', 'wk'"),
    (["--language", "xx"], "has no examples of language 'xx'; its languages: 'en'"),
    (["--k", "-1"], "k (passages per source and item) must be at least 1"),
    (["--grid", "k=-3"], "k (passages per source and item) must be at least 1"),
    (["--grid", "k=1", "--grid", "k=2"], "grid key 'k' is given twice; list its values once: k=V1,V2"),
    (["--grid", "k=1", "k=2"], "grid key 'k' is given twice"),
    (["--grid", "model=bogus"], "unknown model 'bogus'; use local, local:smollm2"),
    (["--grid", "model=openai:m,local:/no/such.gguf"], "no GGUF model file at /no/such.gguf"),
    (["--grid", "logprobs=maybe"], "grid value logprobs='maybe' is not true or false"),
    (["--grid", "deadline=soon"], "grid value deadline='soon' is not a number"),
])
def test_a_bad_setting_is_refused_before_the_run(flags: list[str], message: str, dataset: Path,
                                                 tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir = tmp_path / "run"
    code = main(["bench", str(dataset), "--model", "openai:m", "--base-url", "http://127.0.0.1:9/v1",
                 "--run-dir", str(run_dir), "--no-progress", *flags])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and message in err, err
    assert not run_dir.exists()  # nothing was started, no model was built


def test_good_filters_and_grid_values_still_run(dataset: Path, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("FACTJUDGE_CACHE", str(tmp_path / "calls.sqlite"))
    with OpenAIServer() as server:
        code = main(["bench", str(dataset), "--domain", "wk", "--limit", "1", "--model", "openai:m",
                     "--base-url", server.base_url, "--strategy", "vanilla", "--grid", "logprobs=true,false",
                     "--run-dir", str(tmp_path / "run"), "--no-progress"])
    out = capsys.readouterr().out
    assert code == 0 and "2 done, 0 already done, 0 failed" in out  # one example × two set-ups
    assert len(server.requests) == 2
