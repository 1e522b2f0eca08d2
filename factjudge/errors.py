"""The few named errors factjudge raises; the CLI maps each to one line and an exit code."""


class FactJudgeError(Exception):
    """Base of every error factjudge raises on purpose."""

    exit_code = 1


class InputError(FactJudgeError):
    """The caller's input (answer, flags, files, config) is unusable."""

    exit_code = 2


class ModelError(FactJudgeError):
    """A model backend failed after its retries (network, HTTP status, timeout, load)."""

    exit_code = 3

    def __init__(self, message: str, kind: str = "error") -> None:
        super().__init__(message)
        # What went wrong in a few words, without the endpoint or its reply: what the
        # HTTP service may tell its clients ("timed out", "HTTP 503" ...).
        self.kind = kind


class ParseError(FactJudgeError):
    """A model reply could not be parsed into the expected contract."""

    exit_code = 3


class RetrievalError(FactJudgeError):
    """Evidence could not be fetched or searched."""

    exit_code = 4


class TooMuchWork(InputError):
    """The input needs more than one check may cost: more items or model calls than its caps allow."""


class SourceUnusable(InputError):
    """An evidence source named in the setup (a knowledge base, a Wikipedia file) cannot be opened: the
    user's input on the command line (exit 2), the operator's fault in the service (500, path logged)."""
