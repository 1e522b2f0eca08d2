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


class ParseError(FactJudgeError):
    """A model reply could not be parsed into the expected contract."""

    exit_code = 3


class RetrievalError(FactJudgeError):
    """Evidence could not be fetched or searched."""

    exit_code = 4
