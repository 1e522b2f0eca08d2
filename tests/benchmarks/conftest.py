"""Every benchmark runs here on the scripted model and a tiny input (issue 41, point 4): a refactor that
breaks one fails the suite. The figures they print are not checked, only that the code runs through."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.benchmarks.scripted import BENCHMARKS, load, scripted_endpoint

DATA = BENCHMARKS.parents[1] / "shared" / "data"
needs_shared_data = pytest.mark.skipif(not (DATA / "felm_all.jsonl").is_file(),
                                       reason=f"the shared benchmark data is not at {DATA}")


@pytest.fixture(autouse=True)
def _private_call_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The scripted replies are cached in the test's own folder, never beside the user's real ones."""
    monkeypatch.setenv("FACTJUDGE_CACHE", str(tmp_path / "calls.sqlite"))


@pytest.fixture
def scripted_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """The scripted endpoint, and this process (and its subprocesses) pointed at it."""
    with scripted_endpoint() as env:
        for key, value in env.items():
            monkeypatch.setenv(key, value)
        yield env


@pytest.fixture
def run_main(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
             ) -> Callable[..., str]:
    """Run a benchmark's ``main()`` with ``argv`` in this process; what it printed."""
    def run(name: str, *argv: str, patch: dict[str, Any] | None = None) -> str:
        module = load(name)
        for attribute, value in (patch or {}).items():
            monkeypatch.setattr(module, attribute, value)
        monkeypatch.setattr(sys, "argv", [str(BENCHMARKS / f"{name}.py"), *argv])
        returned = module.main()  # type: ignore[attr-defined]
        assert returned in (None, 0), f"{name} exited with {returned}"
        return capsys.readouterr().out

    return run
