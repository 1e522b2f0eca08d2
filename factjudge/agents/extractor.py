"""Extractor agent: an answer's segments to atomic claims, one model call per answer."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from factjudge.agents.calling import ask
from factjudge.agents.parsing import parse_claims
from factjudge.llm.base import ChatModel, GenerationParams
from factjudge.llm.tokens import count_tokens
from factjudge.prompts import fence, load_prompt, numbered
from factjudge.records import Claim, Segment, Trace
from factjudge.text.checkability import is_checkable
from factjudge.text.tokenize import tokenize
from factjudge.transcript import record

# FELM does not extract claims from math and reasoning answers: their steps are the unit.
NO_EXTRACTION_DOMAINS = frozenset({"math", "reasoning"})


def extraction_prompt_name(domain: str, language: str) -> str:
    """Pick the extraction template for a domain and language."""
    if language.lower() not in ("", "en"):
        return "extract_claims_multilingual"
    if domain in ("science", "science_tech", "tech"):
        return "extract_claims_science"
    return "extract_claims"


# A sentence rarely holds more atomic facts than this; the cap stops a looping model.
MAX_CLAIMS_PER_SEGMENT = 12
# A claim is grounded in its answer when this share of its content words occurs in its
# segment, the question or an earlier segment (a claim names what a pronoun stood for).
MIN_GROUNDED_SHARE = 0.5
# Content words a claim needs to state anything: "The" or "La mona l" state nothing.
MIN_CONTENT_WORDS = 2
# Claims sharing this much of their content words say the same thing.
NEAR_DUPLICATE = 0.9


def claims_grammar(n_segments: int) -> str:
    """GBNF for the extraction contract: one ``Segment i:`` block per segment, in order."""
    blocks = " ".join(f'"Segment {i}:\\n" claims' for i in range(1, n_segments + 1))
    return (f"root ::= {blocks}\n"
            f'claims ::= "No claims\\n" | claim{{1,{MAX_CLAIMS_PER_SEGMENT}}}\n'
            'claim ::= "Claim " [1-9] [0-9]? ". " [^\\n]+ "\\n"\n')


def completion_budget(segments: Sequence[Segment], model: str, ceiling: int) -> int:
    """Tokens an extraction reply may take: claims restate their segment, subject repeated.

    Three times the segments' tokens plus a header per segment covers splitting a
    sentence into several self-contained claims; a model that loops stops there
    instead of at the ceiling, on every attempt.
    """
    words = sum(count_tokens(s.text, model) for s in segments)
    return min(ceiling, 64 + 3 * words + 8 * len(segments))


def extract_claims(
    model: ChatModel,
    question: str,
    segments: Sequence[Segment],
    *,
    domain: str,
    language: str,
    max_attempts: int = 3,
    max_tokens: int = 1500,
) -> tuple[Claim, ...] | None:
    """Claims of every segment, numbered across the answer; None when extraction failed.

    A segment the reply skips is kept whole as its own claim (so nothing goes
    unjudged); a segment with "No claims" gets none. A claim that is a personal
    statement or opinion is kept but marked not checkable.
    """
    prompt = load_prompt(extraction_prompt_name(domain, language))
    values = {
        "question": fence("question", question),
        "segments": fence("segments", numbered([s.text for s in segments])),
    }
    asked = ask(
        model,
        prompt,
        values,
        GenerationParams(max_tokens=completion_budget(segments, model.name, max_tokens),
                         grammar=claims_grammar(len(segments))),
        partial(parse_claims, n_segments=len(segments)),
        step="extract",
        max_attempts=max_attempts,
    )
    if asked.value is None:
        return None
    example = _words(prompt.text[prompt.text.index("Example"):prompt.text.index("Now ")], language)
    claims: list[Claim] = []
    seen: list[set[str]] = []
    context = _words(question, language)
    for index, segment in enumerate(segments, start=1):
        context |= _words(segment.text, language)
        for text in asked.value.get(index, [segment.text]):
            words = _words(text, language)
            why = _dropped(words, example, context, seen)
            if why:
                record(Trace("claims", prompt.name, prompt.hash, (), text, error=f"dropped: {why}"))
                continue
            seen.append(words)
            claims.append(Claim(len(claims) + 1, segment.id, text, is_checkable(text)))
    return tuple(claims)


def _words(text: str, language: str) -> set[str]:
    """Content words (stop words out; CJK as character bigrams) in the answer's language."""
    return set(tokenize(text, stopwords=True, lang=language))


def _overlap(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a) if a else 0.0


def _dropped(words: set[str], example: set[str], context: set[str], kept: list[set[str]]) -> str:
    """Why a claim is not kept, or "" to keep it.

    A small model copies the prompt's worked example into unrelated answers, repeats
    itself, stops mid-word, and invents: those claims would be judged as if the answer
    had made them.
    """
    if sum(len(w) > 1 for w in words) < MIN_CONTENT_WORDS:  # a lone letter is a cut-off word
        return "a fragment, not a claim"
    if _overlap(words, example) >= NEAR_DUPLICATE and _overlap(words, context) < MIN_GROUNDED_SHARE:
        return "copies the prompt's worked example"
    if _overlap(words, context) < MIN_GROUNDED_SHARE:
        return "its words are not in the answer"
    if any(_overlap(words, other) >= NEAR_DUPLICATE and _overlap(other, words) >= NEAR_DUPLICATE
           for other in kept):
        return "repeats an earlier claim"
    return ""
