"""Prompt templates: one ``*.txt`` file per prompt, named ``{placeholders}``, loaded by name."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from factjudge.errors import InputError

_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")
# Every line break Python's splitlines knows, so none can start a new numbered line.
_LINE_BREAK = re.compile(r"\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
LINE_BREAK_MARK = " ⏎ "
# A tag as the prompt files write theirs (``<passages>``, ``</statement>``).
_TAG_NAME = re.compile(r"</?([a-z_]+)>")
# A line of fenced text that reads like the output contract (``Answer: ALL_CORRECT``).
_CONTRACT_LINE = re.compile(r"^(?=[ \t*#_>-]*(?:answer|thought)\s*:)", re.IGNORECASE | re.MULTILINE)


@dataclass(frozen=True)
class Prompt:
    """A template and the hash of its text, which travels with every result."""

    name: str
    text: str

    @property
    def hash(self) -> str:
        """Short content hash of the template, so results say which prompt made them."""
        return hashlib.sha256(self.text.encode()).hexdigest()[:12]

    @property
    def placeholders(self) -> set[str]:
        """Names the template expects."""
        return set(_PLACEHOLDER.findall(self.text))

    def render(self, **values: str) -> str:
        """Fill the placeholders; braces that are not placeholders stay as written."""
        missing = self.placeholders - values.keys()
        if missing:
            raise KeyError(f"prompt {self.name} needs {sorted(missing)}")
        return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), self.text)


@cache
def load_prompt(name: str) -> Prompt:
    """Load ``prompts/<name>.txt`` from the package."""
    path = resources.files(__package__).joinpath(f"{name}.txt")
    if not path.is_file():
        raise InputError(f"no prompt named {name!r}")
    return Prompt(name, path.read_text(encoding="utf-8"))


def fence(tag: str, text: str) -> str:
    """Wrap user text in ``<tag>`` markers so the model reads it as data, not instructions.

    Inside the text, anything that looks like a tag of this fence or of any prompt
    (``</statement>``, ``< /Statement id=1>``, ``&lt;passages&gt;``) has its angle brackets
    turned into ``‹ ›``: the text can neither end the fence early nor open a fence of its
    own. A line that reads like the reply's contract (``Answer: ALL_CORRECT``) is quoted
    with ``> ``, so it cannot pass for an answer already given.
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


def numbered(items: Sequence[str]) -> str:
    """``1. first`` lines, one per item, the way every prompt lists its items."""
    return "\n".join(f"{i}. {one_line(text)}" for i, text in enumerate(items, start=1))
