"""Request, response and error bodies of the HTTP service.

The response is the result's JSON view (``explain.result_dict``), the one the CLI and result files
write: with the metric fields a Python caller reads off the result (``faithfulness``, ``threshold``,
``successful``, and ``reason``, ``explain.reason(result)``), so JSON clients see the same.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from factjudge import explain
from factjudge.config import FELM_DOMAINS, MAX_ANSWER_CHARS
from factjudge.judges.strategies import STRATEGIES
from factjudge.records import CheckResult


class ContextPassage(BaseModel):
    """One retrieved passage; a plain string is accepted too."""

    model_config = ConfigDict(extra="forbid")

    text: str = Field(description="the passage text")
    title: str | None = Field(default=None, description="a title shown as the passage's header")
    url: str | None = Field(default=None, description="where the passage came from")


class CheckOptions(BaseModel):
    """Per-request judge settings; the model and endpoint are fixed by whoever runs the service."""

    model_config = ConfigDict(extra="forbid")

    strategy: str | None = Field(
        default=None, description=f"one of {', '.join(STRATEGIES)} (GET /v1/info lists them)")
    granularity: str | None = Field(default=None, description="segment or claim")
    domain: str | None = Field(default=None, description=", ".join(FELM_DOMAINS))
    language: str | None = Field(default=None, description="language of the answer, e.g. en, fr, zh")
    grounded: bool | None = Field(
        default=None, description="with a context: true = only the context counts (default), "
        "false = fall back to refs and well-established knowledge")
    threshold: float | None = Field(
        default=None, ge=0.0, le=1.0, allow_inf_nan=False, strict=True,
        description="the share of checked items shown true `successful` asks for (default: the service's)")

    @field_validator("domain")
    @classmethod
    def _known_domain(cls, value: str | None) -> str | None:
        """A domain the checker has prompts for; anything else is refused with the choices."""
        if value is not None and value not in FELM_DOMAINS:
            raise ValueError(f"unknown domain {value!r}; choose from {', '.join(FELM_DOMAINS)}")
        return value

    def config_changes(self) -> dict[str, Any]:
        """The CheckConfig fields this request sets."""
        fields = ("strategy", "granularity", "domain", "language", "grounded")
        return {name: getattr(self, name) for name in fields if getattr(self, name) is not None}


class CheckRequest(BaseModel):
    """A question, the answer to check, and optionally the context the answer was written from."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{
        "question": "When did the museum open?",
        "answer": "The museum opened in 1998. It is on the north bank.",
        "context": ["The city museum opened in 1998 on the south bank of the river."],
    }]})

    question: str = Field(default="", max_length=10_000,
                          description="the question the answer responds to")
    answer: str = Field(min_length=1, max_length=MAX_ANSWER_CHARS, description="the answer to check")
    context: list[str | ContextPassage] | None = Field(
        default=None, max_length=200,
        description="passages the answer should be grounded in (RAG mode); leave it out to check without "
        "one: an empty list is an empty retrieval, refused (400) as the Verifier refuses it")
    refs: list[str] = Field(default_factory=list, max_length=20,
                            description="reference links whose text becomes evidence")
    ref_texts: list[str] = Field(default_factory=list, max_length=50,
                                 description="reference texts (already fetched pages)")
    options: CheckOptions = Field(default_factory=lambda: CheckOptions(),
                                  description="per-request judge settings")

    def context_items(self) -> list[str | dict[str, Any]] | None:
        """The context as the Verifier takes it: None when none was given, ``[]`` when it came back empty."""
        if self.context is None:
            return None
        return [p if isinstance(p, str) else p.model_dump() for p in self.context]


class ErrorDetail(BaseModel):
    """What went wrong, for a program (code) and a person (message)."""

    status: int
    code: str
    message: str


class ErrorBody(BaseModel):
    """Every error response has this shape."""

    error: ErrorDetail


class CheckResponse(BaseModel):
    """The check's result: every field of ``explain.result_dict(result)``, the metric fields first."""

    model_config = ConfigDict(extra="allow")

    label: str = Field(
        description="the answer's label: true, false, unverified, not_checkable or unparseable")
    faithfulness: float | None = Field(
        description="share of judged (true or false) items labelled true; null when none was judged")
    threshold: float = Field(description="the share of checked items shown true `successful` asks for")
    successful: bool = Field(
        description="the answer passes: no item is false, and the items shown true reach `threshold` of the "
        "items checked (unverified and unparseable items count against it); an answer with nothing to check "
        "(only opinions) passes")
    reason: str = Field(description="why, in plain words: which items are not supported")


def response_body(result: CheckResult) -> dict[str, Any]:
    """The JSON of a check: the result's JSON view (``explain.result_dict``), the metric fields with it."""
    return explain.result_dict(result)
