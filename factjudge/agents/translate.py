"""Translation to English by the model, for claims before retrieval or passages after it.

Multilingual FActScore compares translating to English with working in the
original language; English input is passed through without a model call.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Sequence
from functools import partial

from factjudge.agents.calling import ask
from factjudge.errors import ParseError
from factjudge.llm.base import ChatModel, GenerationParams
from factjudge.prompts import fence, load_prompt, numbered
from factjudge.records import Evidence

log = logging.getLogger(__name__)

# The languages of the multilingual FActScore study; other codes are shown to the model as given.
LANGUAGE_NAMES = {
    "fr": "French", "es": "Spanish", "zh": "Chinese", "zh-cn": "Chinese (Simplified)",
    "ru": "Russian", "vi": "Vietnamese", "ar": "Arabic", "hi": "Hindi", "bn": "Bengali",
    "de": "German", "it": "Italian", "pt": "Portuguese", "ja": "Japanese", "ko": "Korean",
}
_NUMBERED = re.compile(r"^(\d+)[.)]\s*(.*)$")


def is_english(language: str | None) -> bool:
    """True for ``en``, ``en-GB``, ``English`` and the like."""
    if not language:
        return False
    code = language.strip().lower().replace("_", "-")
    return code in ("en", "eng", "english") or code.startswith("en-")


def language_name(language: str) -> str:
    """A readable name for a language code, for the prompt."""
    return LANGUAGE_NAMES.get(language.strip().lower().replace("_", "-"), language.strip())


def parse_numbered(reply: str, *, count: int) -> list[str]:
    """Read exactly ``count`` lines ``1. text`` .. ``count. text``, in order; ParseError otherwise."""
    lines = [line.strip() for line in reply.strip().splitlines() if line.strip()]
    if not lines:
        raise ParseError("the reply is empty")
    texts: list[str] = []
    for line in lines:
        match = _NUMBERED.match(line)
        if match is None:
            raise ParseError(f"line {line[:40]!r} is not numbered like '1. <translation>'")
        number, text = int(match.group(1)), match.group(2).strip()
        if number != len(texts) + 1:
            raise ParseError(f"expected text {len(texts) + 1} next, got {number}")
        if not text:
            raise ParseError(f"translation {number} is empty")
        texts.append(text)
    if len(texts) != count:
        raise ParseError(f"expected {count} translations, got {len(texts)}")
    return texts


def translate_texts(
    texts: Sequence[str],
    *,
    model: ChatModel,
    language: str | None = None,
    max_attempts: int = 3,
) -> list[str] | None:
    """English versions of ``texts`` in one call; None when every reply was unreadable.

    ``language`` is the source language (code or name); English returns the texts
    unchanged with no call. Unknown (None) lets the model copy English texts as they are.
    """
    if not texts or is_english(language):
        return list(texts)
    # One line per text keeps the numbered contract unambiguous for multi-line passages.
    flat = [" ".join(text.split()) for text in texts]
    budget = min(8192, 64 + 24 * len(flat) + sum(len(text) for text in flat) // 2)
    asked = ask(
        model,
        load_prompt("translate"),
        {"texts": fence("texts", numbered(flat)), "count": str(len(flat)),
         "source": f" from {language_name(language)}" if language else ""},
        GenerationParams(max_tokens=budget),
        partial(parse_numbered, count=len(flat)),
        step="translate",
        max_attempts=max_attempts,
    )
    if asked.value is None:
        log.warning("translate: no readable translation of %d texts after %d attempts",
                    len(flat), max_attempts)
    return asked.value


def translate_evidence(
    evidence: Sequence[Evidence],
    *,
    model: ChatModel,
    language: str | None = None,
    max_attempts: int = 3,
) -> list[Evidence] | None:
    """The same evidence with English text; None when the translation failed."""
    texts = translate_texts([e.text for e in evidence], model=model,
                            language=language, max_attempts=max_attempts)
    if texts is None:
        return None
    return [dataclasses.replace(e, text=text) for e, text in zip(evidence, texts, strict=True)]
