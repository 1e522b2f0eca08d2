"""Read MediaWiki XML export dumps (.xml or .xml.bz2) into plain-text documents for the KB.

Pages are streamed with ``iterparse`` and each finished ``<page>`` is cleared, so memory
stays bounded on multi-gigabyte dumps. Only main-namespace articles that are not
redirects are yielded; wikitext is reduced to plain text by ``strip_wiki_markup``.
"""

from __future__ import annotations

import bz2
import html
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from factjudge.errors import InputError

# Every pattern below stops scanning where its construct cannot continue (the next opening
# tag, a "<" or "[", the end of the line), so a page of thousands of unclosed <ref>, <math>, "<a"
# or "[http://" is read in linear time instead of rescanning the rest of the page for each.
_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.S)
_REF_SELF = re.compile(r"<ref\b[^>/]*/\s*>", re.I)
_REF = re.compile(r"<ref\b[^>]*>(?:(?!<ref\b).)*?</ref\s*>", re.I | re.S)
# Elements whose content is never prose.
_DROP_ELEMENTS = re.compile(
    r"<(math|gallery|timeline|score|syntaxhighlight|source|imagemap|templatedata|nowiki)\b[^>]*>"
    r"(?:(?!<\1\b).)*?</\1\s*>",
    re.I | re.S,
)
_TAG = re.compile(r"</?[a-zA-Z][^<>]*>")
_EXT_LINK = re.compile(r"\[(?:https?:)?//[^\s\[\]]+(?:[ \t]+([^\[\]\n]*))?\]")
# Links nest a level or two in real pages (a link in a file caption); deeper is not prose.
MAX_LINK_NESTING = 16
_HEADING = re.compile(r"^(={1,6})\s*(.*?)\s*\1\s*$", re.M)
_BOLD_ITALIC = re.compile(r"'{2,5}")
_LIST_MARK = re.compile(r"^[*#:;]+\s*", re.M)
_MAGIC_WORD = re.compile(r"__[A-Z]+__")
_BLANK_LINES = re.compile(r"\n{3,}")
_SPACES = re.compile(r"[ \t]{2,}")
# Link targets with these prefixes are media or page metadata, not text (English and a few
# common localised names; a colon-prefixed [[:Category:X]] is a visible link and is kept).
_PREFIX_WORDS = (
    "file image media category datei bild kategorie fichier catégorie archivo imagen categoría "
    "файл изображение категория ملف تصنيف चित्र श्रेणी চিত্র বিষয়শ্রেণী 文件 檔案 图像 分类 分類"
)
_NON_TEXT_PREFIXES = frozenset(_PREFIX_WORDS.split())


def _remove_nested(text: str, open_: str, close: str) -> str:
    """Remove balanced ``open_ … close`` spans, innermost nesting included, in one linear scan."""
    out: list[str] = []
    depth = 0
    i = 0
    n = len(text)
    while i < n:
        if text.startswith(open_, i):
            depth += 1
            i += len(open_)
        elif depth and text.startswith(close, i):
            depth -= 1
            i += len(close)
        else:
            if depth == 0:
                out.append(text[i])
            i += 1
    return "".join(out)


def _replace_links(text: str) -> str:
    """Turn [[target|label]] into label and [[target]] into target; drop file and category links.

    Works innermost-first so that links inside a file caption go with the file.
    """
    inner = re.compile(r"\[\[([^\[\]]*)\]\]")

    def repl(match: re.Match[str]) -> str:
        body = match.group(1)
        target, _, label = body.partition("|")
        prefix = target.split(":", 1)[0].strip().lower() if ":" in target else ""
        if prefix in _NON_TEXT_PREFIXES and not target.lstrip().startswith(":"):
            return ""
        if label:
            # For [[File:…|thumb|caption]]-like bodies outside media, the last part is the label.
            return label.rsplit("|", 1)[-1]
        return target.lstrip(":").split("#", 1)[0] or target

    for _ in range(MAX_LINK_NESTING):
        text, found = inner.subn(repl, text)
        if not found:
            break
    return text


def strip_wiki_markup(text: str) -> str:
    """Plain text of wikitext: templates, tables, refs, files, categories and tags removed."""
    text = _COMMENT.sub("", text)
    text = _REF_SELF.sub("", text)
    text = _REF.sub("", text)
    text = _DROP_ELEMENTS.sub("", text)
    # Templates and tables both nest; parser functions {{#if:…}} are templates too.
    text = _remove_nested(text, "{{", "}}")
    text = _remove_nested(text, "{|", "|}")
    text = _replace_links(text)
    text = _EXT_LINK.sub(lambda m: m.group(1) or "", text)
    text = _TAG.sub("", text)
    text = _HEADING.sub(lambda m: m.group(2), text)
    text = _BOLD_ITALIC.sub("", text)
    text = _MAGIC_WORD.sub("", text)
    text = _LIST_MARK.sub("", text)
    text = html.unescape(text)
    lines = [_SPACES.sub(" ", line).strip() for line in text.split("\n")]
    text = "\n".join(lines)
    return _BLANK_LINES.sub("\n\n", text).strip()


def _local(tag: str) -> str:
    """Tag name without its ``{namespace}``, so every export schema version matches."""
    return tag.rsplit("}", 1)[-1]


def _open(path: Path) -> IO[bytes]:
    """A binary stream of the dump, decompressing .bz2 on the fly."""
    if path.suffix == ".bz2":
        return bz2.open(path, "rb")
    return open(path, "rb")


def read_mediawiki_dump(path: str | Path, *, strip: bool = True) -> Iterator[dict[str, str]]:
    """Yield {title, text, lang} for each main-namespace, non-redirect page of a MediaWiki dump."""
    path = Path(path)
    if not path.exists():
        raise InputError(f"no such dump file: {path}")
    lang = ""
    try:
        with _open(path) as fh:
            context = ET.iterparse(fh, events=("start", "end"))
            root: ET.Element | None = None
            for event, elem in context:
                name = _local(elem.tag)
                if event == "start":
                    if root is None:
                        root = elem
                        # <mediawiki xml:lang="en"> gives the wiki's language.
                        lang = elem.get("{http://www.w3.org/XML/1998/namespace}lang", "")
                    continue
                if name != "page":
                    continue
                page = _page_fields(elem)
                # Clearing the page and detaching it from the root keeps memory flat.
                elem.clear()
                if root is not None:
                    root.clear()
                if page is None:
                    continue
                title, wikitext = page
                text = strip_wiki_markup(wikitext) if strip else wikitext
                if text:
                    yield {"title": title, "text": text, "lang": lang}
    except (ET.ParseError, OSError, EOFError) as exc:
        raise InputError(f"cannot read MediaWiki dump {path}: {exc}") from exc


def _page_fields(page: ET.Element) -> tuple[str, str] | None:
    """(title, wikitext) of an article page, or None for other namespaces and redirects."""
    title = ""
    ns = ""
    redirect = False
    text = ""
    for child in page:
        name = _local(child.tag)
        if name == "title":
            title = child.text or ""
        elif name == "ns":
            ns = (child.text or "").strip()
        elif name == "redirect":
            redirect = True
        elif name == "revision":
            for field in child:
                if _local(field.tag) == "text":
                    text = field.text or ""
    # Very old dumps have no <ns>; their pages are kept rather than guessed at.
    if ns and ns != "0":
        return None
    if redirect or re.match(r"\s*#redirect\b", text, re.I):
        return None
    return title, text
