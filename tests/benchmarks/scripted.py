"""The scripted model every benchmark's smoke run is checked with: a reply in the output contract of
each of factjudge's prompts (claims split from each segment, a decision word, a value read, a list
judge's answer), made at once from the prompt, so a run measures nothing and proves the code runs.

Benchmarks that build their model in process are handed ``ScriptedChatModel(reply)``; those that run
``factjudge`` as a subprocess are pointed at ``OpenAIServer(responder=reply)`` on 127.0.0.1 with
``--model openai:scripted`` (``OPENAI_BASE_URL``).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from factjudge.llm.base import Message
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.testing.openai_server import DEFAULT_REPLY, OpenAIServer

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "benchmarks"
SCRIPTED = "openai:scripted"


def _choice(prompt: str) -> str | None:
    """The first of a decision prompt's two words ("Answer with only Yes or No")."""
    found = re.search(r"(?:Answer with only|one word and nothing else:) (\S+) or (\S+?)[.\s]", prompt)
    return found.group(1) if found else None


def reply(messages: list[Message]) -> str:
    """A well-formed reply to any of factjudge's prompts."""
    prompt = "\n".join(m["content"] for m in messages)
    tail = prompt[prompt.rfind("Now "):] if "Now " in prompt else prompt
    if "Claim 1." in prompt and "<segments>" in tail:  # claim extraction: each segment is its claim
        numbered = re.findall(r"^(\d+)\. (.*)$", tail, flags=re.M)
        return "".join(f"Segment {n}:\nClaim 1. {text}\n" for n, text in numbered)
    if prompt.startswith("You translate"):
        return "\n".join(f"{n}. {text}" for n, text in re.findall(r"^(\d+)\. (.*)$", tail, flags=re.M))
    if "UNKNOWN" in prompt and "Passage:" in prompt:
        return "UNKNOWN"
    if "Question: <question>" in prompt:
        return "Question: What is it?"
    if "reply DONE" in prompt:
        return "DONE"
    if "___" in prompt or "one question about a value" in prompt:
        stated = re.search(r"reply (\w+)", prompt)
        return stated.group(1) if stated else "not stated"
    word = _choice(prompt)
    if word is not None:
        return word
    return DEFAULT_REPLY  # a list judge: nothing is wrong


def scripted_model(name: str = "scripted") -> ScriptedChatModel:
    """The scripted model, in process."""
    return ScriptedChatModel(reply, name=name)


@contextmanager
def scripted_endpoint() -> Iterator[dict[str, str]]:
    """The scripted model behind an OpenAI-compatible server on 127.0.0.1: the environment that points
    a ``factjudge`` subprocess at it (``--model openai:scripted``)."""
    with OpenAIServer(responder=reply) as server:
        yield {"OPENAI_BASE_URL": server.base_url, "OPENAI_API_KEY": "scripted"}


def load(name: str) -> object:
    """A benchmark script as a module (its folder on the path, as when it runs)."""
    import importlib

    if str(BENCHMARKS) not in sys.path:
        sys.path.insert(0, str(BENCHMARKS))
    return importlib.import_module(name)
