"""factjudge: check whether what a chatbot said is true."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from factjudge.checking.api import check
    from factjudge.checking.verifier import Verifier
    from factjudge.config import CheckConfig
    from factjudge.eval.evaluate import Evaluation, evaluate
    from factjudge.records import CheckResult, Failure

__all__ = ["CheckConfig", "CheckResult", "Evaluation", "Failure", "Verifier", "check", "evaluate"]

# The public names, imported when first asked for: `import factjudge.cli` (every command,
# `--help` too) would otherwise import the whole checker, and `evaluate` pandas.
_WHERE = {"check": "factjudge.checking.api", "Verifier": "factjudge.checking.verifier",
          "CheckConfig": "factjudge.config", "CheckResult": "factjudge.records",
          "Failure": "factjudge.records", "evaluate": "factjudge.eval.evaluate",
          "Evaluation": "factjudge.eval.evaluate"}


def __getattr__(name: str) -> Any:
    """A public name, imported on first use."""
    if name in _WHERE:
        return getattr(import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'factjudge' has no attribute {name!r}")
