"""factjudge: check whether what a chatbot said is true."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from factjudge.checking.api import check
from factjudge.checking.verifier import Verifier
from factjudge.config import CheckConfig
from factjudge.records import CheckResult, Failure

if TYPE_CHECKING:
    from factjudge.eval.evaluate import Evaluation, evaluate

__all__ = ["CheckConfig", "CheckResult", "Evaluation", "Failure", "Verifier", "check", "evaluate"]


def __getattr__(name: str) -> Any:
    # evaluate needs pandas; importing it only when asked keeps `import factjudge` fast.
    if name in ("evaluate", "Evaluation"):
        from factjudge.eval import evaluate as module

        return getattr(module, name)
    raise AttributeError(f"module 'factjudge' has no attribute {name!r}")
