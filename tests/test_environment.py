"""The environment is read in one module, and every cache folder honours XDG_CACHE_HOME."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from factjudge import environment
from factjudge.llm.cache import default_cache_path
from factjudge.llm.model_file import models_dir
from factjudge.llm.ranks import cache_dir as ranks_dir
from factjudge.retrieval.evidence import page_cache_dir
from factjudge.retrieval.wiki import wiki_cache_dir

PACKAGE = Path(__file__).resolve().parents[1] / "factjudge"
# A variable read: os.environ[...] / .get(...) / os.getenv(...) naming one of ours or OpenAI's.
READ = re.compile(r"""(?:environ(?:\.get)?\s*[\[(]|getenv\s*\()\s*["'](FACTJUDGE_|OPENAI_)""")


def test_factjudge_and_openai_variables_are_read_in_one_module() -> None:
    readers = {str(p.relative_to(PACKAGE.parent)) for p in PACKAGE.rglob("*.py")
               if READ.search(p.read_text(encoding="utf-8"))}
    assert readers == set()  # environment.py reads them by name, through one function
    names = set(re.findall(r'"((?:FACTJUDGE|OPENAI)_[A-Z_]+)"', (PACKAGE / "environment.py").read_text()))
    assert {"FACTJUDGE_CACHE", "FACTJUDGE_PAGES", "FACTJUDGE_MODELS", "FACTJUDGE_THREADS",
            "FACTJUDGE_API_KEY", "OPENAI_BASE_URL", "OPENAI_API_KEY"} <= names


def test_every_cache_folder_is_under_xdg_cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("FACTJUDGE_CACHE", "FACTJUDGE_PAGES", "FACTJUDGE_MODELS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    home = tmp_path / "factjudge"
    assert default_cache_path() == home / "calls.sqlite"
    assert page_cache_dir() == home / "pages"
    assert models_dir() == home / "models"
    assert wiki_cache_dir() == home / "wiki"
    assert ranks_dir() == home / "tiktoken"


def test_the_variables_override_and_blank_ones_do_not(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("FACTJUDGE_CACHE", str(tmp_path / "mine.sqlite"))
    monkeypatch.setenv("FACTJUDGE_MODELS", "  ")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("OPENAI_ORG_ID", "org-1")
    assert environment.call_cache_path() == tmp_path / "mine.sqlite"
    assert environment.pages_dir() == tmp_path / "pages"  # beside the call cache
    assert environment.models_dir() == tmp_path / "factjudge" / "models"
    assert environment.openai_base_url() == "http://127.0.0.1:9/v1"
    assert environment.openai_org_headers() == {"OpenAI-Organization": "org-1"}
