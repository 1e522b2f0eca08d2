"""Wikipedia as evidence, wherever the user has it: one interface, backends chosen by one spec.

``packaged`` (lead summaries shipped in a package, offline), ``zim:PATH`` (a Kiwix ZIM file, such
as those ``factjudge wiki get`` installs),
``factscore:PATH`` (FActScore's SQLite dump) and ``api[:LANG|URL]`` (a MediaWiki API: it
sends the user's text to a third party, so it is never chosen by default).
"""

from __future__ import annotations

from pathlib import Path

from factjudge.environment import wiki_dir
from factjudge.errors import InputError, RetrievalError
from factjudge.resources import Resources, current
from factjudge.retrieval.wiki.base import WikiSpec, parse_wiki_spec
from factjudge.retrieval.wiki.reading import WikiSource

__all__ = ["WikiSource", "WikiSpec", "best_offline_wiki", "open_wiki", "parse_wiki_spec", "wiki_cache_dir"]

def wiki_cache_dir() -> Path:
    """Where built Wikipedia indexes are kept: ``$XDG_CACHE_HOME/factjudge/wiki`` (or ``~/.cache``)."""
    return wiki_dir()


def best_offline_wiki(language: str | None = None) -> str | None:
    """The offline source a check of an answer in ``language`` reads when none is named: an
    installed ZIM of that language (``factjudge wiki get``), else the packaged summaries."""
    from factjudge.retrieval.wiki.installed import best_for

    return best_for(language)


def open_wiki(spec: str, *, allow_private: bool = False, resources: Resources | None = None) -> WikiSource:
    """The source ``spec`` names, opened once by ``resources`` (the current check's holder by default):
    opening may build an index."""
    parsed = parse_wiki_spec(spec)
    return (resources or current()).get("wiki", (str(parsed), allow_private),
                                        lambda: _open(parsed, allow_private))


def _open(spec: WikiSpec, allow_private: bool) -> WikiSource:
    if spec.kind == "packaged":
        from factjudge.retrieval.wiki.packaged import PackagedWiki

        try:
            return PackagedWiki(wiki_cache_dir())
        except InputError as exc:
            # An altered or half-installed package is the installation's fault, not a request's:
            # said in full on the command line, and to the service's log, never to its clients.
            raise RetrievalError(str(exc)) from None
    if spec.kind == "zim":
        from factjudge.retrieval.wiki.zim import ZimWiki

        return ZimWiki(spec.arg)
    if spec.kind == "factscore":
        from factjudge.retrieval.wiki.factscore_db import FactScoreWiki

        return FactScoreWiki(spec.arg)
    from factjudge.retrieval.wiki.mediawiki import MediaWikiApi

    return MediaWikiApi(spec.arg, allow_private=allow_private)
