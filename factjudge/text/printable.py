"""Text from users and models made safe to print on a terminal.

An answer holding escape sequences, a carriage return or bidi overrides could rewrite
what the terminal shows: move the cursor over lines printed above it, or reverse a
verdict's words. Each such character is shown as a visible escape instead.
"""

from __future__ import annotations

import re

# C0 controls but tab and newline, DEL and C1 controls, bidi embeddings, overrides and
# isolates, and lone surrogates (undecodable bytes), which a UTF-8 terminal cannot be sent.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` with every character that could steer a terminal shown as ``\\x1b`` / ``\\u202e``."""
    return _UNSAFE.sub(_visible, text)
