"""factjudge: check whether what a chatbot said is true."""

from factjudge.api import check
from factjudge.config import CheckConfig
from factjudge.records import CheckResult
from factjudge.verifier import Verifier

__all__ = ["CheckConfig", "CheckResult", "Verifier", "check"]
