"""The Wikipedia sources a check can use on this machine, and the one ``auto`` picks per language.

Downloaded Kiwix editions live in the user data folder (``environment.zim_dir``), named as
Kiwix names them: ``wikipedia_<lang>_<selection>_<flavour>_<YYYY-MM>.zim`` (``all`` every
article, ``top`` the most read; ``maxi`` and ``nopic`` whole articles, ``mini`` their leads
only). ``auto`` prefers an installed ZIM of the answer's language, the widest selection of
whole articles first, then the newest; for English, then FActScore's SQLite dump put there;
else the packaged lead summaries. What ``wiki status`` flags (a FIFO or other file that is not a
regular one, an empty, unreadable or unindexed ZIM, a ``.db`` of another schema) ``auto`` passes over,
and says so once a process (a warning). Nothing here opens a file that is not a regular one: SQLite
and libzim would wait on a FIFO for good.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from factjudge.environment import zim_dir
from factjudge.retrieval.regular import not_regular, read_head

# A Kiwix Wikipedia file name: language, selection, flavour, month.
KIWIX_NAME = re.compile(r"wikipedia_(?P<lang>[a-z]{2,3}(?:-[a-z]+)*)_(?P<selection>[a-z0-9]+)_"
                        r"(?P<flavour>[a-z]+)_(?P<date>\d{4}-\d{2})\.zim")
# How much of Wikipedia a selection holds, widest first; other selections (a topic's) rank after.
_SELECTIONS = ("all", "top1m", "top")
# Whole articles (maxi with pictures, nopic without) before leads only (mini).
_FLAVOURS = ("maxi", "nopic", "mini")
# What a person is told each part of a Kiwix name means.
SELECTION_NOTES = {"all": "every article", "top1m": "the million most-read articles",
                   "top": "the most-read articles"}
FLAVOUR_NOTES = {"maxi": "whole articles with pictures", "nopic": "whole articles, no pictures",
                 "mini": "each article's lead only"}

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class InstalledZim:
    """A Kiwix Wikipedia file in the data folder, and what its name says it holds."""

    path: Path
    lang: str
    selection: str
    flavour: str
    date: str

    @classmethod
    def from_path(cls, path: Path) -> InstalledZim | None:
        """The edition a file's Kiwix name describes; None for a name Kiwix would not give."""
        found = KIWIX_NAME.fullmatch(path.name)
        if found is None:
            return None
        return cls(path, found["lang"], found["selection"], found["flavour"], found["date"])

    @property
    def spec(self) -> str:
        """The ``--wiki`` value that reads it."""
        return f"zim:{self.path}"

    @property
    def covers(self) -> str:
        """What it holds, in words: "every article; whole articles, no pictures"."""
        selection = SELECTION_NOTES.get(self.selection, f"the {self.selection} selection")
        return f"{selection}; {FLAVOUR_NOTES.get(self.flavour, self.flavour)}"

    def rank(self) -> tuple[int, int]:
        """Sort key, best first: the widest selection, then whole articles (maxi and nopic alike)."""
        selection = _SELECTIONS.index(self.selection) if self.selection in _SELECTIONS else len(_SELECTIONS)
        whole = 0 if self.flavour in _FLAVOURS[:2] else 1 if self.flavour == "mini" else 2
        return selection, whole


def installed_zims(directory: Path | None = None) -> list[InstalledZim]:
    """The Kiwix Wikipedia files in ``directory`` (the data folder by default), best first; a FIFO or
    other non-regular file so named is left out (``passed_over`` says so)."""
    return [z for z in _kiwix_files(directory) if not_regular(z.path) is None]


def _kiwix_files(directory: Path | None) -> list[InstalledZim]:
    """Every file with a Kiwix Wikipedia name in ``directory``, best first."""
    named = (InstalledZim.from_path(path) for path in _named(directory, "wikipedia_*.zim"))
    found = sorted((z for z in named if z is not None),
                   key=lambda z: z.date, reverse=True)  # the newest of each kind first (a stable sort)
    return sorted(found, key=lambda z: (z.lang, z.rank()))


def _named(directory: Path | None, pattern: str) -> list[Path]:
    """The files in ``directory`` (the data folder by default) whose names match ``pattern``."""
    try:
        return sorted((directory or zim_dir()).glob(pattern))
    except OSError:
        return []


# What a ZIM file's reading found, by (path, size, modification time): libzim opens it once a process.
_ZIM_PROBES: dict[tuple[str, int, int], str | None] = {}


def zim_problem(path: Path) -> str | None:
    """Why a check cannot read the ZIM file ``path`` (what ``wiki status`` flags), None when it can.

    Non-regular files are refused before libzim opens them (a FIFO would block); the rest is
    read once a process, kept by the file's size and time.
    """
    if (problem := not_regular(path)) is not None:
        return problem
    stat = path.stat()
    key = (str(path.resolve()), stat.st_size, stat.st_mtime_ns)
    if key not in _ZIM_PROBES:
        _ZIM_PROBES[key] = _read_zim(path, stat.st_size)
    return _ZIM_PROBES[key]


def _read_zim(path: Path, size: int) -> str | None:
    """Open ``path`` with libzim: why it cannot be searched, or None."""
    if size == 0:
        return "empty (0 bytes)"
    try:
        read_head(path, 4)
    except OSError as exc:
        return f"unreadable ({exc.strerror or exc})"
    if not libzim_installed():
        return "needs libzim: pip install 'factjudge[zim]'"
    from libzim.reader import Archive

    try:
        if not Archive(path).has_fulltext_index:
            return "no full-text index"
    except RuntimeError as exc:
        return f"unreadable: {exc}"
    return None


def libzim_installed() -> bool:
    """Whether ZIM files can be read here (the ``zim`` extra)."""
    try:
        metadata.distribution("libzim")
    except metadata.PackageNotFoundError:
        return False
    return True


def packaged_installed() -> bool:
    """Whether the packaged lead summaries are installed (the ``wiki`` extra)."""
    from factjudge.retrieval.wiki.packaged import PACKAGE

    try:
        metadata.distribution(PACKAGE)
    except metadata.PackageNotFoundError:
        return False
    return True


def best_for(language: str | None, directory: Path | None = None) -> str | None:
    """The source ``auto`` reads for an answer in ``language`` (English when unknown): an installed
    ZIM of that language a check can read, else the packaged summaries, else none. What it passes
    over (an empty, unreadable or unindexed file, what ``wiki status`` flags) is logged once."""
    lang = _language(language)
    for spec, why in passed_over(lang, directory):
        if (spec, why) not in _TOLD:
            _TOLD.add((spec, why))
            log.warning("auto passes over %s: %s", spec, why)
    if libzim_installed():
        for zim in installed_zims(directory):
            if zim.lang == lang and zim_problem(zim.path) is None:
                return zim.spec
    if lang == "en":
        for db in factscore_dbs(directory):
            return f"factscore:{db}"
    return "packaged" if packaged_installed() else None


_TOLD: set[tuple[str, str]] = set()


def _language(language: str | None) -> str:
    """A language tag as the Kiwix names' language: "en-GB" -> "en"."""
    return (language or "en").replace("_", "-").split("-")[0].lower()


def passed_over(language: str | None, directory: Path | None = None) -> list[tuple[str, str]]:
    """The sources of ``language`` in the data folder that ``auto`` passes over, and why."""
    lang = _language(language)
    found = []
    for zim in _kiwix_files(directory):
        if zim.lang == lang and (why := zim_problem(zim.path)) is not None:
            found.append((zim.spec, why))
    if lang == "en":
        found += [(f"factscore:{path}", why) for path in _named(directory, "*.db")
                  if (why := factscore_problem(path)) is not None]
    return found


def factscore_problem(path: Path) -> str | None:
    """Why ``path`` is no FActScore database a check can read (``documents(title, text)``), or None.

    The file must be a regular one (SQLite would wait on a FIFO for good) starting as SQLite files
    do; its rows are read as bytes, as FactScoreWiki reads them, so bad UTF-8 in a row is no fault.
    """
    import sqlite3
    from contextlib import closing

    if (problem := not_regular(path)) is not None:
        return problem
    try:
        if not read_head(path, 16).startswith(b"SQLite format 3\0"):
            return "not an SQLite file"
    except OSError as exc:
        return f"unreadable ({exc.strerror or exc})"
    try:
        with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as db:
            db.text_factory = bytes
            db.execute("SELECT title, text FROM documents LIMIT 1").fetchall()
    except sqlite3.Error as exc:
        return f"not a FActScore database (SQLite with a table documents(title, text)): {exc}"
    return None


def factscore_dbs(directory: Path | None = None) -> list[Path]:
    """FActScore's SQLite Wikipedia files (``documents(title, text)``) put in the data folder."""
    return [path for path in _named(directory, "*.db") if factscore_problem(path) is None]


@dataclass(frozen=True)
class SourceInfo:
    """One source ``wiki status`` lists: how to name it, its languages, articles, size and date."""

    spec: str
    languages: tuple[str, ...]
    articles: int | None  # None: not known without reading it (not built yet, or libzim missing)
    size: int | None
    date: str
    covers: str
    note: str = ""  # why it cannot be read now, if it cannot


def _zim_info(zim: InstalledZim) -> SourceInfo:
    """What a ZIM file says of itself (its article count and date need libzim), or why auto passes it over."""
    size = zim.path.stat().st_size
    problem = zim_problem(zim.path)
    if problem is not None:
        return SourceInfo(zim.spec, (zim.lang,), None, size, zim.date, zim.covers, f"{problem}: {PASSED}")
    from libzim.reader import Archive

    try:
        archive = Archive(zim.path)
        date = archive.get_metadata("Date").decode("utf-8", "replace") \
            if "Date" in archive.metadata_keys else zim.date
        return SourceInfo(zim.spec, (zim.lang,), int(archive.article_count), size, date, zim.covers)
    except RuntimeError as exc:
        return SourceInfo(zim.spec, (zim.lang,), None, size, zim.date, zim.covers,
                          f"unreadable: {exc}: {PASSED}")


# What ``wiki status`` adds to the note of a file ``auto`` does not read.
PASSED = "auto passes over it"


def _packaged_info(cache: Path) -> SourceInfo:
    """The packaged summaries: articles per language from the index when it is built."""
    from factjudge.retrieval.kb import KnowledgeBase, file_damage
    from factjudge.retrieval.wiki.packaged import FILES, PACKAGE, VERSION

    built = sorted(cache.glob("packaged-*.sqlite"))
    covers = "the Level-4 Vital Articles; each article's lead only"
    if not built or file_damage(built[-1]) is not None:
        return SourceInfo("packaged", tuple(FILES), None, None, VERSION, covers,
                          f"{PACKAGE} {VERSION}; its index is built at the first check (about a minute)")
    with KnowledgeBase(built[-1]) as kb:
        langs = kb.info()["languages"]
    return SourceInfo("packaged", tuple(FILES), sum(langs.values()), built[-1].stat().st_size, VERSION,
                      covers + " (" + ", ".join(f"{lang} {n:,}" for lang, n in langs.items()) + ")")


def installed_sources(directory: Path | None = None, cache: Path | None = None) -> list[SourceInfo]:
    """Every offline source in the data folder and the packaged summaries: those a check can read, and
    the files ``auto`` passes over with why in their note."""
    from factjudge.environment import wiki_dir

    found = [_packaged_info(cache or wiki_dir())] if packaged_installed() else []
    found += [_zim_info(z) for z in _kiwix_files(directory)]
    for db in _named(directory, "*.db"):
        problem = factscore_problem(db)
        found.append(SourceInfo(f"factscore:{db}", ("en",), None, db.stat().st_size, "2023-04-01",
                                "FActScore's English Wikipedia; whole articles in passages",
                                "" if problem is None else f"{problem}: {PASSED}"))
    return found


def auto_choices(sources: list[SourceInfo], directory: Path | None = None) -> dict[str, str]:
    """The source ``auto`` reads, for each language some installed source has."""
    langs = sorted({lang for s in sources for lang in s.languages})
    return {lang: choice for lang in langs if (choice := best_for(lang, directory)) is not None}
