"""factjudge: check whether what a chatbot said is true."""

from typing import Any

from factjudge.api import check
from factjudge.config import CheckConfig
from factjudge.records import CheckResult
from factjudge.verifier import Verifier

__all__ = ["CheckConfig", "CheckResult", "Evaluation", "Verifier", "check", "evaluate"]


def __getattr__(name: str) -> Any:
    """``evaluate`` and ``Evaluation`` on first use: they bring pandas, which ``import factjudge`` skips."""
    if name in ("evaluate", "Evaluation"):
        from factjudge.eval import evaluate as module

        return getattr(module, name)
    raise AttributeError(f"module 'factjudge' has no attribute {name!r}")
