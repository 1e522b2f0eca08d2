"""A caller's context (RAG passages) as Evidence: the one conversion every entry point goes through.

Strings, ``Evidence``, mappings with ``text`` (or ``page_content``) and ``title``/``url``/``source``,
and LangChain ``Document``-like objects (``page_content`` and ``metadata``) are all accepted;
passages with no text are left out, and a context whose passages all lack text is refused.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from factjudge.errors import InputError
from factjudge.records import Evidence

ContextItem = str | Evidence | Mapping[str, Any] | Any  # Any: a LangChain Document
Context = str | ContextItem | Iterable[ContextItem]

EMPTY_CONTEXT = "the context is empty: give at least one passage with text"


def context_passages(context: Context | None) -> tuple[Evidence, ...]:
    """The passages of ``context`` with text (none for None or no items); an InputError for items
    that are not text, or when every item given is empty."""
    if context is None:
        return ()
    if isinstance(context, (str, Evidence, Mapping)) or _is_document(context):
        context = [context]
    given = [_passage(n, item) for n, item in enumerate(context, start=1)]
    passages = tuple(p for p in given if p.text.strip())
    if given and not passages:
        raise InputError(EMPTY_CONTEXT)
    return passages


def _passage(n: int, item: Any) -> Evidence:
    if isinstance(item, Evidence):
        return item
    if isinstance(item, str):
        return Evidence(source="context", text=item)
    if _is_document(item):
        return _document(item)
    if isinstance(item, Mapping):
        text = item.get("text", item.get("page_content"))
        if not isinstance(text, str):
            raise InputError(f"context passage {n} has no text")
        return Evidence(source=str(item.get("source") or "context"), text=text,
                        url=_opt_str(item.get("url")), title=_opt_str(item.get("title")))
    raise InputError(f"context passage {n} is a {type(item).__name__}, not text")


def _is_document(item: Any) -> bool:
    return isinstance(getattr(item, "page_content", None), str) and hasattr(item, "metadata")


def _document(doc: Any) -> Evidence:
    """A LangChain Document: its metadata's title, source or url name the passage."""
    meta = doc.metadata or {}
    source = meta.get("source")
    url = meta.get("url") or (source if isinstance(source, str) and "://" in source else None)
    title = meta.get("title") or (source if source is not None and source != url else None)
    return Evidence(source="context", text=doc.page_content, url=_opt_str(url), title=_opt_str(title))


def _opt_str(value: Any) -> str | None:
    return None if value is None else str(value)
