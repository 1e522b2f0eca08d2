"""Prompt templates: one ``*.txt`` file per prompt, named ``{placeholders}``, loaded by name.

A judge's template shows its reply contract (``factjudge.prompts.contracts``) only through
placeholders, which loading fills: the loaded text, and so its hash, is what the model reads.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import TypeVar

from factjudge.errors import InputError
from factjudge.prompts.contracts import MARKERS, Contract, contract_for
from factjudge.records import Evidence

_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")
# Every line break Python's splitlines knows, so none can start a new numbered line.
_LINE_BREAK = re.compile(r"\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
LINE_BREAK_MARK = " ⏎ "
# A tag as the prompt files write theirs (``<passages>``, ``</statement>``).
_TAG_NAME = re.compile(r"</?([a-z_]+)>")
# A line of fenced text that starts like a reply (a contract marker, in any case, after markdown).
_MARKER_WORDS = "|".join(re.escape(marker.rstrip(":")) for marker in MARKERS)
_CONTRACT_LINE = re.compile(rf"^(?=[ \t*#_>-]*(?:{_MARKER_WORDS})\s*:)", re.IGNORECASE | re.MULTILINE)
# Chat-control tokens as chat templates spell them: ChatML, Llama 3 and Phi (``<|im_end|>``,
# ``<|eot_id|>``), DeepSeek's full-width bars (``<｜end▁of▁sentence｜>``), Llama 2 and Mistral
# (``[INST]``, ``<<SYS>>``, ``</s>``), Gemma (``<start_of_turn>``).
_CONTROL = re.compile(r"<[|｜][^<>|｜\n]{1,60}[|｜]>|\[/?INST\]|<</?SYS>>|</?s>|<(?:start|end)_of_turn>"
                      r"|<[be]os>", re.IGNORECASE)
C = TypeVar("C", bound=Contract)


@dataclass(frozen=True)
class Prompt:
    """A template and the hash of its text, which travels with every result."""

    name: str
    text: str
    contract: Contract | None = None  # the reply it asks for, when a judge reads the reply

    @property
    def hash(self) -> str:
        """Short content hash of the template, so results say which prompt made them."""
        return hashlib.sha256(self.text.encode()).hexdigest()[:12]

    @property
    def placeholders(self) -> set[str]:
        """Names the template expects."""
        return set(_PLACEHOLDER.findall(self.text))

    def render(self, **values: str) -> str:
        """Fill the placeholders; braces that are not placeholders stay as written.

        Every value is data (a question, an answer, a context, passages, pages): the chat-control
        tokens it spells are defused here (``defuse_controls``), the one place every prompt passes.
        """
        missing = self.placeholders - values.keys()
        if missing:
            raise KeyError(f"prompt {self.name} needs {sorted(missing)}")
        return _fill(self.text, {name: defuse_controls(value) for name, value in values.items()})

    def contract_of(self, kind: type[C]) -> C:
        """The reply contract this prompt shows, which must be a ``kind``."""
        if not isinstance(self.contract, kind):
            raise InputError(f"prompt {self.name} shows no {kind.__name__}")
        return self.contract


def _fill(text: str, values: dict[str, str]) -> str:
    """``text`` with the placeholders ``values`` names filled, in one pass: values are never re-read."""
    return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), text)


@cache
def load_prompt(name: str) -> Prompt:
    """Load ``prompts/<name>.txt`` from the package, its reply contract's tokens filled in."""
    path = resources.files(__package__).joinpath(f"{name}.txt")
    if not path.is_file():
        raise InputError(f"no prompt named {name!r}")
    text = path.read_text(encoding="utf-8")
    contract = contract_for(name)
    if contract is not None:
        text = _fill(text, contract.format_values())
    return Prompt(name, text, contract)


def defuse_controls(text: str) -> str:
    """``text`` with every chat-control token it spells (``<|im_end|>``, ``[INST]``, ``</s>``) defused.

    A backend that tokenises the whole prompt (an endpoint's server) would read such text as the
    model's own turn markers; even kept as text (``LocalChatModel.prompt_tokens``), a forged
    ``<|im_start|>assistant`` turn in a passage reads to a small model as an answer given. Each token
    becomes ``‹…›`` with its name kept (``‹|im_end|›``), so the text still shows what was written.
    """
    return _CONTROL.sub(_defuse_control, text)


def _defuse_control(match: re.Match[str]) -> str:
    return f"‹{match.group().strip('<>[]')}›"


def fence(tag: str, text: str) -> str:
    """Wrap user text in ``<tag>`` markers so the model reads it as data, not instructions.

    Inside the text, anything that looks like a tag of this fence or of any prompt
    (``</statement>``, ``< /Statement id=1>``, ``&lt;passages&gt;``) has its angle brackets
    turned into ``‹ ›``: the text can neither end the fence early nor open a fence of its
    own. A line that starts with a reply contract's marker (``MARKERS``: the answer's, the
    Thought's) is quoted with ``> ``, so it cannot pass for an answer already given.
    """
    safe = _tag_look_alikes(tag).sub(_defuse_tag, _LINE_BREAK.sub("\n", text))
    safe = _CONTRACT_LINE.sub("> ", safe)
    return f"<{tag}>\n{safe}\n</{tag}>"


@cache
def prompt_tags() -> frozenset[str]:
    """The tag names the prompt files use (``<passages>``, ``<id>`` …): data may imitate none of them."""
    names: set[str] = set()
    for path in resources.files(__package__).iterdir():
        if path.name.endswith(".txt"):
            names.update(_TAG_NAME.findall(path.read_text(encoding="utf-8")))
    return frozenset(names)


@cache
def _tag_look_alikes(tag: str) -> re.Pattern[str]:
    names = "|".join(sorted(map(re.escape, prompt_tags() | {tag.lower()}), key=len, reverse=True))
    # An opening bracket (or its entity or full-width form), an optional slash, a known tag name,
    # then anything up to the closing bracket on the same line; invisible characters do not hide it.
    gap = r"[\s\u200b-\u200f\u2060\ufeff]*"
    return re.compile(rf"(?:<|＜|&lt;)({gap}/?{gap}(?:{names})(?![\w-])[^<>＜＞\n]{{0,80}})(>|＞|&gt;)?",
                      re.IGNORECASE)


def _defuse_tag(match: re.Match[str]) -> str:
    return f"‹{match.group(1)}{'›' if match.group(2) else ''}"


def one_line(text: str) -> str:
    """``text`` on one line, its line breaks shown as ``⏎``: an item cannot forge the next number."""
    return _LINE_BREAK.sub(LINE_BREAK_MARK, text)


def render_passages(evidence: Sequence[Evidence], *, by_title: bool = False) -> str:
    """Passages as ``[n] header`` lines followed by their text, the way every prompt shows them.

    The header says where a passage is from (its address, else its title, else its source) and that a
    model wrote it when it did; ``by_title``: what it is about (its title, else its source), for a
    reader asked for one value of it.
    """
    if not evidence:
        return "(no passages)"
    blocks = []
    for n, ev in enumerate(evidence, start=1):
        if by_title:
            blocks.append(f"[{n}] {ev.title or ev.source}\n{ev.text}")
            continue
        note = "" if ev.verified else " (model-generated, unverified)"
        blocks.append(f"[{n}] {ev.url or ev.title or ev.source}{note}\n{ev.text}")
    return "\n\n".join(blocks)


def numbered(items: Sequence[str]) -> str:
    """``1. first`` lines, one per item, the way every prompt lists its items."""
    return "\n".join(f"{i}. {one_line(text)}" for i, text in enumerate(items, start=1))
