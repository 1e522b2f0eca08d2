"""Text as it reads, not as it is encoded: what a check compares is normalised once, here.

"Cаnada" with a Cyrillic а, "Ma\u200drie" with a zero-width joiner and "Ｃａｎａｄａ" in full-width letters
look like the words they copy but match nothing: no article is found about them, and a value read
right is compared wrong. So the question, the answer and the context are read as

- Unicode NFKC (full-width letters and digits, ligatures, "℃", "㎞" to their plain forms), except
  superscripts and subscripts ("km²", "10³", "1º" keep them: "10³" is not 103) and punctuation and
  spaces (a Chinese "，" or "？", a no-break space: the segmenter reads them as written), and a vulgar
  fraction spelled with a slash ("½" → "1/2", "1½" → "1 1/2");
- without invisible characters (zero-width space, word joiner, soft hyphen, byte-order mark, bidi
  marks), and without zero-width joiners between Latin, Greek or Cyrillic letters (in Arabic, Indic
  scripts and emoji they shape the text, and are kept);
- with a Cyrillic or Greek letter inside a Latin word folded to the Latin letter it copies (and a
  Latin letter inside a Cyrillic or Greek word to that script's): a word's most-used script wins.

``normalized`` keeps, for each character it returns, where it came from, so a span found in the
normalised text is a span of the text the user gave (``Normalized.original_span``), and lists each
word it read otherwise (``ReadAs``) for the result to say so.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from factjudge.records import ReadAs  # the result records it; the text is read here

# Characters that show nothing and mean nothing to a reader of Latin, Greek or Cyrillic text.
INVISIBLE = frozenset("\u200b\u2060\ufeff\u00ad\u180e\u200e\u200f\u061c\u2061\u2062\u2063\u2064")
JOINERS = frozenset("\u200c\u200d")  # zero-width (non-)joiner: dropped only between alphabets
_ALPHABETS = ("LATIN", "GREEK", "CYRILLIC")

# Letters that copy a Latin letter, by script (Unicode's confusables, the letters seen in words).
_LOOKALIKES = {
    "CYRILLIC": dict(zip("аеорсухіјѕԁһӏԛԝАВЕКМНОРСТУХІЈЅԚԜ", "aeopcyxijsdhlqwABEKMHOPCTYXIJSQW",
                         strict=True)),
    "GREEK": dict(zip("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧοανιρυκ", "ABEZHIKMNOPTYXoaviruk", strict=True)),
}
# Text with none of these (and in NFKC) has nothing to fold: invisible characters, joiners, and the
# Greek and Cyrillic blocks (a Latin word with one of their letters, or their words with a Latin one).
_SUSPECT = re.compile(f"[{''.join(sorted(INVISIBLE | JOINERS))}\u0370-\u03ff\u0400-\u052f\u1f00-\u1fff]")
# The other way: the letter of a script a Latin letter copies, where one does.
_FROM_LATIN = {script: {latin: own for own, latin in table.items()} for script, table in _LOOKALIKES.items()}


@dataclass(frozen=True)
class Normalized:
    """``text`` normalised from ``original``: its character ``k`` is from ``original[starts[k]:ends[k]]``."""

    original: str
    text: str
    starts: tuple[int, ...] = ()
    ends: tuple[int, ...] = ()
    read_as: tuple[ReadAs, ...] = field(default=())

    @property
    def changed(self) -> bool:
        """Whether the text was changed at all."""
        return self.text != self.original

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """The span of ``original`` that ``text[start:end]`` was read from (-1 offsets stay -1)."""
        if not self.changed or start < 0 or end < 0:
            return start, end
        size = len(self.text)
        start, end = min(start, size), min(end, size)
        if start >= end:
            at = self.starts[start] if start < size else len(self.original)
            return at, at
        return self.starts[start], self.ends[end - 1]


def normalized(text: str, where: str = "answer") -> Normalized:
    """``text`` read as the module says, with where each character came from and the words read otherwise."""
    if text.isascii() or (unicodedata.is_normalized("NFKC", text) and not _SUSPECT.search(text)):
        return Normalized(text, text)  # nothing to fold: most text (French, Spanish …), at little cost
    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    why: list[str] = []  # per character of ``out``: why it differs from what was written ("" if not)
    dropped: list[int] = []  # where invisible characters were removed (original offsets)
    i = 0
    while i < len(text):
        if text[i] in INVISIBLE or (text[i] in JOINERS and _between_alphabets(text, i)):
            dropped.append(i)
            i += 1
            continue
        j = i + 1
        while j < len(text) and unicodedata.combining(text[j]):
            j += 1
        cluster = text[i:j]
        read = _read_cluster(cluster, out[-1] if out else "")
        reason = "compatibility" if _letters_differ(cluster, read) else ""
        for char in read:
            out.append(char)
            starts.append(i)
            ends.append(j)
            why.append(reason)
        i = j
    if _fold_lookalikes(out, why) or not unicodedata.is_normalized("NFC", "".join(out)):
        out, starts, ends, why = _recomposed(out, starts, ends, why)
    result = "".join(out)
    if result == text:
        return Normalized(text, text)
    return Normalized(text, result, tuple(starts), tuple(ends),
                      tuple(_words_read_as(text, out, starts, ends, why, dropped, where)))


def _read_cluster(cluster: str, before: str) -> str:
    """One character and its combining marks, in NFKC but for superscripts and subscripts; a vulgar
    fraction with a plain slash, set apart from a whole number before it."""
    tag = unicodedata.decomposition(cluster[0]).split(" ", 1)[0]
    if tag in ("<super>", "<sub>") or unicodedata.category(cluster[0])[0] in "PZ":
        return unicodedata.normalize("NFC", cluster)
    read = unicodedata.normalize("NFKC", cluster)
    if tag == "<fraction>":
        read = read.replace("\u2044", "/")
        if before.isdigit():
            read = " " + read
    return read


def _letters_differ(written: str, read: str) -> bool:
    """Whether a letter was changed in more than its encoding (canonically equal forms look the same)."""
    if not any(c.isalpha() for c in written):
        return False
    return unicodedata.normalize("NFD", written) != unicodedata.normalize("NFD", read)


def _script(char: str) -> str:
    return unicodedata.name(char, "").split(" ", 1)[0]


def _between_alphabets(text: str, at: int) -> bool:
    """Whether a joiner at ``at`` shapes nothing: no neighbour is a letter of another script or an emoji."""
    near = [unicodedata.normalize("NFKC", text[k])[:1] for k in (at - 1, at + 1) if 0 <= k < len(text)]
    return not any((c.isalpha() and _script(c) not in _ALPHABETS) or unicodedata.category(c) == "So"
                   for c in near)


def _fold_lookalikes(chars: list[str], why: list[str]) -> bool:
    """Fold, in place, the letters of a word written in another alphabet than most of its letters;
    whether any was."""
    folded_any = False
    for k, end in _runs(chars, str.isalpha):
        scripts = Counter(s for s in map(_script, chars[k:end]) if s in _ALPHABETS)
        if len(scripts) > 1:
            # The word's script: the one most of its letters are in, Latin on a tie.
            main = max(scripts, key=lambda s: (scripts[s], s == "LATIN"))
            for at in range(k, end):
                folded = _folded(chars[at], main)
                if folded != chars[at]:
                    why[at] = _script(chars[at]).lower()
                    chars[at] = folded
                    folded_any = True
    return folded_any


def _runs(chars: list[str], starts_word: Callable[[str], bool]) -> Iterator[tuple[int, int]]:
    """The (start, end) of each word of ``chars``: a character ``starts_word`` accepts, then those it
    accepts and combining marks."""
    k = 0
    while k < len(chars):
        if not starts_word(chars[k]):
            k += 1
            continue
        end = k
        while end < len(chars) and (starts_word(chars[end]) or unicodedata.combining(chars[end])):
            end += 1
        yield k, end
        k = end


def _recomposed(chars: list[str], starts: list[int], ends: list[int],
                why: list[str]) -> tuple[list[str], list[int], list[int], list[str]]:
    """The characters with each letter and its marks composed again (NFC) where folding a letter or
    removing a character between them left them apart: a Cyrillic С with an acute, folded, is Ć."""
    out: tuple[list[str], list[int], list[int], list[str]] = ([], [], [], [])
    k = 0
    while k < len(chars):
        end = k + 1
        while end < len(chars) and unicodedata.combining(chars[end]):
            end += 1
        for char in unicodedata.normalize("NFC", "".join(chars[k:end])):
            out[0].append(char)
            out[1].append(starts[k])
            out[2].append(ends[end - 1])
            out[3].append(next((w for w in why[k:end] if w), ""))
        k = end
    return out


def _folded(char: str, main: str) -> str:
    """``char`` as the letter of ``main``'s script it copies (itself when it copies none)."""
    script = _script(char)
    if script == main or script not in _ALPHABETS:
        return char
    latin = _LOOKALIKES[script].get(char) if script != "LATIN" else char
    if latin is None:
        return char
    return latin if main == "LATIN" else _FROM_LATIN[main].get(latin, char)


def _words_read_as(text: str, out: list[str], starts: list[int], ends: list[int], why: list[str],
                   dropped: list[int], where: str) -> list[ReadAs]:
    """The words whose letters were changed or had an invisible character removed from inside them."""
    found: list[ReadAs] = []
    for k, end in _runs(out, str.isalnum):
        first, last = starts[k], ends[end - 1]
        reasons = dict.fromkeys(r for r in why[k:end] if r)
        inside = bisect.bisect_right(dropped, first)
        if inside < len(dropped) and dropped[inside] < last:
            reasons["invisible"] = None
        if reasons:
            found.append(ReadAs(where, first, last, text[first:last], "".join(out[k:end]), tuple(reasons)))
    return found
