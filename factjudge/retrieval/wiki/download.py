"""``factjudge wiki get``: a Kiwix Wikipedia edition downloaded, checked and installed.

The newest file of the edition is found in the download folder's listing (Kiwix's, or a
mirror's given with ``--mirror``), its SHA-256 read from the checksum published beside it
(``<file>.sha256``, else the metalink ``<file>.meta4``), and the file streamed into
``<file>.part`` in the user data folder, under a file lock, through the link guards (address
checks on every hop, a size cap, a stall timeout and a deadline). An interrupted download is
resumed where it stopped (HTTP Range); a server that ignores Range sends it again from the
start. The whole file is then hashed: a mismatch removes it, a match is renamed into place at
once, so a ZIM in the folder is always whole. A disk too small for what is left is refused
before the first byte.
"""

from __future__ import annotations

import errno
import hashlib
import io
import logging
import os
import re
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urljoin

from factjudge.environment import zim_dir
from factjudge.errors import InputError, RetrievalError
from factjudge.llm.model_file import file_lock
from factjudge.retrieval.regular import not_regular
from factjudge.retrieval.wiki.installed import KIWIX_NAME
from factjudge.version import package_version

if TYPE_CHECKING:
    from factjudge.retrieval.links import LinkFetcher

log = logging.getLogger(__name__)
# Kiwix's folder of Wikipedia files (its listing names every edition and month).
KIWIX = "https://download.kiwix.org/zim/wikipedia/"
# The edition fetched when none is named: English's most-read articles whole, without pictures
# (about 2 GB; all of English is 43-48 GB), and every article of the other languages (Spanish and
# French about 9-11 GB).
DEFAULT_EDITIONS = {"en": "top_nopic"}
DEFAULT_EDITION = "all_nopic"
# The largest file accepted: all of English with pictures is about 110 GB.
MAX_ZIM_BYTES = 200 * 1024**3
# A listing of the download folder, and a checksum file, are small.
MAX_LISTING_BYTES = 16 * 1024**2
MAX_CHECKSUM_BYTES = 64 * 1024
# A server silent this long has stalled; the whole download may take this long.
STALL_SECONDS = 60.0
DEADLINE_SECONDS = 24 * 3600.0
# Room kept free beyond the file itself.
SPARE_BYTES = 64 * 1024**2
# A run of the characters a file name in a listing is made of; quotes, tags, slashes and spaces end it.
_NAME_RUN = re.compile(r"[\w.-]+")
# A listing at the size cap is read in well under a second; a bound all the same.
LISTING_SECONDS = 10.0
_LANG = re.compile(r"[a-z]{2,3}(-[a-z]+)*")  # en, es; zh-min-nan, be-tarask
_EDITION = re.compile(r"[a-z0-9]+_[a-z]+")


@dataclass(frozen=True)
class Fetched:
    """What ``get_edition`` did: the installed file, and whether it was there already or resumed."""

    path: Path
    size: int
    already: bool = False
    resumed_from: int = 0
    restarted: bool = False  # the server ignored Range: the part was fetched again from the start
    replaced: str = ""  # why the file found in its place was not kept (empty, unreadable, another SHA-256)


def default_edition(lang: str) -> str:
    """The edition ``wiki get LANG`` fetches when none is named."""
    return DEFAULT_EDITIONS.get(lang, DEFAULT_EDITION)


def fetcher_for(*, allow_loopback: bool = False, allow_private: bool = False) -> LinkFetcher:
    """The guarded fetcher downloads go through (``allow_*`` for a mirror on this machine or a LAN)."""
    # links pulls in httpx: `factjudge --help` reads this module's editions and fetches nothing.
    from factjudge.retrieval.links import LinkFetcher

    return LinkFetcher(timeout=STALL_SECONDS, max_bytes=MAX_ZIM_BYTES, allow_loopback=allow_loopback,
                       allow_private=allow_private,
                       user_agent=f"factjudge/{package_version()} (fact-checking tool; wiki get) httpx")


def newest_file(listing: str, lang: str, edition: str, *, seconds: float = LISTING_SECONDS) -> str | None:
    """The newest ``wikipedia_<lang>_<edition>_<YYYY-MM>.zim`` a folder listing names.

    The listing is cut into maximal runs of name characters in one pass (each character read once,
    however the text repeats ``wikipedia_``), and only a whole run is matched against Kiwix's names:
    time grows linearly with the listing. RetrievalError if it takes over ``seconds`` all the same.
    """
    ends = time.monotonic() + seconds
    wanted = []
    for count, run in enumerate(_NAME_RUN.finditer(listing)):
        if count % 4096 == 0 and time.monotonic() > ends:
            raise RetrievalError(f"reading the folder listing took over {seconds:g} s: it is not a "
                                 "listing of Kiwix files")
        name = run.group(0)
        if name.startswith("wikipedia_") and name.endswith(".zim") and (m := KIWIX_NAME.fullmatch(name)) \
                and m["lang"] == lang and f"{m['selection']}_{m['flavour']}" == edition:
            wanted.append(name)
    return max(wanted, key=lambda n: n[-11:-4], default=None)


def published_sha256(text: str, name: str) -> str | None:
    """The SHA-256 in a ``.sha256`` file ("<hex>  <name>") or a metalink (``<hash type="sha-256">``)."""
    for line in text.splitlines():
        parts = line.split()
        if parts and re.fullmatch(r"[0-9a-fA-F]{64}", parts[0]) and (len(parts) == 1 or
                                                                    parts[-1].lstrip("*") == name):
            return parts[0].lower()
    found = re.search(r"<hash\s+type=[\"']sha-256[\"']\s*>\s*([0-9a-fA-F]{64})\s*</hash>", text)
    return found.group(1).lower() if found else None


def _small(url: str, fetcher: LinkFetcher, cap: int) -> str:
    """The text of a small file at ``url`` (a listing, a checksum), through the same guards."""
    from factjudge.retrieval.links import download

    buffer = io.BytesIO()
    download(url, buffer, fetcher, max_bytes=cap, deadline=STALL_SECONDS, sized=False)  # chunked is fine
    return buffer.getvalue().decode("utf-8", "replace")


def _checksum(url: str, name: str, fetcher: LinkFetcher) -> str:
    """The SHA-256 published beside ``url``; RetrievalError when none is."""
    failures = []
    for suffix in (".sha256", ".meta4"):
        try:
            digest = published_sha256(_small(url + suffix, fetcher, MAX_CHECKSUM_BYTES), name)
        except RetrievalError as exc:
            failures.append(str(exc))
            continue
        if digest:
            return digest
        failures.append(f"{url}{suffix}: no SHA-256 for {name} in it")
    raise RetrievalError(f"no checksum is published beside {url}, so it cannot be verified "
                         f"({'; '.join(failures)})")


def _free_bytes(directory: Path) -> int:
    """Free space where the file is written."""
    return shutil.disk_usage(directory).free


def _refuse_short_disk(directory: Path, start: int, total: int) -> None:
    """InputError in one line when ``directory`` cannot hold the rest of a ``total``-byte file."""
    need = total - start + SPARE_BYTES
    free = _free_bytes(directory)
    if free < need:
        raise InputError(f"not enough disk space in {directory}: the file needs {_size(total - start)} "
                         f"more (and {_size(SPARE_BYTES)} spare), {_size(free)} is free; free some space, "
                         "choose a smaller edition, or --dir elsewhere")


def _size(n: int) -> str:
    for unit, scale in (("GB", 1024**3), ("MB", 1024**2), ("KB", 1024)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} bytes"


def _sha256(path: Path, progress: Callable[[int], None] | None = None) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while piece := handle.read(1024 * 1024):
            digest.update(piece)
            if progress is not None:
                progress(len(piece))
    return digest.hexdigest()


def get_edition(lang: str, edition: str | None = None, *, mirror: str | None = None,
                directory: Path | None = None, fetcher: LinkFetcher | None = None,
                show: Callable[[str, int, int], Callable[[int], None]] | None = None) -> Fetched:
    """Download, verify and install the newest ``wikipedia_<lang>_<edition>`` file.

    ``mirror`` is a folder serving Kiwix's files (its listing, files and checksums), Kiwix's
    own by default. ``show(what, done, total)`` returns a callback advanced by each piece of
    work (a progress bar); RetrievalError or InputError in one line on every failure.
    """
    lang = lang.strip().lower()
    if not _LANG.fullmatch(lang):
        raise InputError(f"bad language {lang!r}: a Wikipedia language code such as en, es, fr")
    edition = (edition or default_edition(lang)).strip().lower()
    if not _EDITION.fullmatch(edition):
        raise InputError(f"bad edition {edition!r}: a Kiwix selection and flavour such as top_nopic, "
                         "all_nopic, all_maxi or all_mini")
    base = mirror or KIWIX
    if not base.startswith(("http://", "https://")):
        raise InputError(f"bad mirror {base!r}: an http(s) address of a folder of Kiwix files")
    from factjudge.retrieval.links import AddressRefused, download

    base = base if base.endswith("/") else base + "/"
    fetcher = fetcher or fetcher_for()
    folder = directory or zim_dir()
    try:
        listing = _small(base, fetcher, MAX_LISTING_BYTES)
    except AddressRefused as exc:
        if exc.problem not in ("loopback", "private"):
            raise
        raise RetrievalError(f"{exc}: a mirror on this machine or a private network is fetched from "
                             "only with --allow-private") from None
    name = newest_file(listing, lang, edition)
    if name is None:
        raise RetrievalError(f"no wikipedia_{lang}_{edition} file is listed at {base} "
                             "(see the editions there, e.g. top_nopic, all_nopic, all_mini)")
    target = folder / name
    url = urljoin(base, name)
    digest = _checksum(url, name, fetcher)
    replaced = _installed_problem(target, digest, show)
    found = _stamp(target)
    if found and not replaced:
        return Fetched(target, target.stat().st_size, already=True)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot make {folder}: {exc.strerror or exc}") from None
    part = folder / f"{name}.part"
    def waiting() -> None:
        log.warning("another wiki get is downloading %s into %s: waiting for it to finish", name, folder)

    with file_lock(folder / f"{name}.lock", waiting):  # two gets of one file take turns
        if _stamp(target) not in (None, found) and _installed_problem(target, digest, None) is None:
            # installed by the other while this one waited
            return Fetched(target, target.stat().st_size, already=True)
        offset = part.stat().st_size if part.is_file() else 0
        advance: list[Callable[[int], None]] = []

        def start(at: int, total: int) -> None:
            _refuse_short_disk(folder, at, total)
            if show is not None:
                advance.append(show(f"downloading {name}", at, total))

        try:
            with part.open("r+b" if offset else "wb") as handle:
                handle.seek(offset)
                got = download(url, handle, fetcher, offset=offset, deadline=DEADLINE_SECONDS,
                               max_bytes=MAX_ZIM_BYTES, before_body=start,
                               progress=lambda n: advance[0](n) if advance else None)
                handle.flush()
                os.fsync(handle.fileno())
        except OSError as exc:
            if exc.errno == errno.ENOSPC:  # the disk filled (another program wrote meanwhile): not bad input
                kept = part.stat().st_size if part.is_file() else 0
                raise RetrievalError(f"the disk holding {folder} is full: {_size(kept)} of {name} kept; free "
                                     "some space and run the same command again to resume") from None
            raise InputError(f"cannot write {part}: {exc.strerror or exc}") from None
        except RetrievalError as exc:
            kept = part.stat().st_size if part.is_file() else 0
            if not kept:
                part.unlink(missing_ok=True)
            again = f"; {_size(kept)} kept: run the same command again to resume" if kept else ""
            raise RetrievalError(f"{exc}{again}") from None
        except InputError:
            if part.is_file() and not part.stat().st_size:
                part.unlink()
            raise
        hashed = _sha256(part, show("verifying its SHA-256", 0, got.total) if show is not None else None)
        if hashed != digest:
            part.unlink(missing_ok=True)
            raise RetrievalError(f"{name} has SHA-256 {hashed}, not the {digest} published beside it: "
                                 "the download was removed; run the command again")
        os.replace(part, target)
    return Fetched(target, got.total, resumed_from=offset if got.resumed else 0,
                   restarted=bool(offset) and not got.resumed, replaced=replaced or "")


def _stamp(path: Path) -> tuple[int, int, int] | None:
    """What tells one file at ``path`` from another put there later (None: there is none)."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_ino, stat.st_size, stat.st_mtime_ns


def _installed_problem(target: Path, digest: str,
                       show: Callable[[str, int, int], Callable[[int], None]] | None) -> str | None:
    """Why the file at ``target`` is not the edition whose SHA-256 is ``digest`` (it is then fetched
    again, and replaced once the new one is verified); None when it is, or when there is none."""
    if not target.exists():
        return None
    problem = not_regular(target)  # a FIFO would block the hash below
    size = target.stat().st_size
    if problem is not None or not size:
        return problem or "empty (0 bytes)"
    hashed = _sha256(target, show("verifying the installed file's SHA-256", 0, size) if show else None)
    return None if hashed == digest else \
        f"not the published file (SHA-256 {hashed[:12]}…, not {digest[:12]}…)"
