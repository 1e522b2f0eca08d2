"""Keep a judge prompt's evidence within a token budget, counted with tiktoken: cut to the
budget, or (for a judge that reads a long grounding in parts) laid out in windows of it."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from factjudge.llm.tokens import get_encoding
from factjudge.records import Evidence
from factjudge.retrieval.bm25 import BM25Index
from factjudge.retrieval.chunker import chunk
from factjudge.text.segmenter import split_sentences
from factjudge.text.tokenize import tokenize


def surely_fits(evidence: Sequence[Evidence], max_tokens: int) -> bool:
    """Whether the passages fit in ``max_tokens`` without counting: a token is at least one byte, so
    passages of fewer UTF-8 bytes than the budget are fewer tokens too."""
    return sum(len(ev.text.encode()) for ev in evidence) < max_tokens


def passage_tokens(evidence: Sequence[Evidence]) -> int:
    """How many tokens the passages take."""
    encoding = get_encoding()
    return sum(len(encoding.encode_ordinary(ev.text)) for ev in evidence)


def trim_evidence(evidence: Sequence[Evidence], max_tokens: int | None) -> tuple[Evidence, ...]:
    """Passages in order until the budget is spent; the last one cut to what is left.

    Order is kept because retrievers put the most relevant passage first. The trimmed
    tuple is what the judge sees and what the verdict records as its evidence.
    """
    if max_tokens is None or not evidence:
        return tuple(evidence)
    # The loop below would keep them all uncut; skipping it spares a small RAG context the count,
    # and a fresh process the encoding's build.
    if surely_fits(evidence, max_tokens):
        return tuple(evidence)
    encoding = get_encoding()
    kept: list[Evidence] = []
    left = max_tokens
    for ev in evidence:
        if left <= 0:
            break
        tokens = encoding.encode_ordinary(ev.text)
        if len(tokens) > left:
            ev = dataclasses.replace(ev, text=encoding.decode(tokens[:left]).rstrip() + " …")
        kept.append(ev)
        left -= len(tokens)
    return tuple(kept)


def evidence_windows(evidence: Sequence[Evidence], max_tokens: int) -> list[tuple[Evidence, ...]]:
    """All of ``evidence`` in windows of at most ``max_tokens``: whole passages packed in order, a
    longer passage cut at sentence ends (an eighth of a window overlapping, so that two sentences
    read together are together in some window). One window when everything fits."""
    if surely_fits(evidence, max_tokens):
        return [tuple(evidence)]
    encoding = get_encoding()
    pieces: list[tuple[Evidence, int]] = []
    for ev in evidence:
        size = len(encoding.encode_ordinary(ev.text))
        if size <= max_tokens:
            pieces.append((ev, size))
            continue
        for part in chunk(ev.text, max_tokens, overlap=max_tokens // 8):
            pieces.append((dataclasses.replace(ev, text=part), len(encoding.encode_ordinary(part))))
    windows: list[tuple[Evidence, ...]] = []
    current: list[Evidence] = []
    used = 0
    for ev, size in pieces:
        if current and used + size > max_tokens:
            windows.append(tuple(current))
            current, used = [], 0
        current.append(ev)
        used += size
    if current:
        windows.append(tuple(current))
    return windows


class Windows:
    """A grounding laid out in windows, with the BM25 index that picks which to read, built once."""

    def __init__(self, windows: Sequence[tuple[Evidence, ...]]) -> None:
        self.windows = tuple(windows)
        self._index: BM25Index | None = None

    def __len__(self) -> int:
        return len(self.windows)

    def best(self, text: str, k: int) -> list[int]:
        """The positions of the ``k`` windows BM25 ranks highest for ``text``, the highest first (a judge
        reads them in turn until one supports the text); every window when there are no more than ``k``."""
        if len(self.windows) == 1:
            return [0]
        if self._index is None:
            self._index = BM25Index([" ".join(ev.text for ev in window) for window in self.windows],
                                    stopwords=True)
        ranked = [i for i, _ in self._index.search(text, k)]
        if len(self.windows) <= k:  # all are read: those sharing no word last, in grounding order
            ranked += [i for i in range(len(self.windows)) if i not in ranked]
        return ranked


class Focus:
    """A long grounding's sentences, indexed once, from which a window of those bearing on one text is
    built: the sentences BM25 ranks highest for it, each with the sentence before it (where what "it"
    refers to usually is), in their order in the grounding."""

    def __init__(self, evidence: Sequence[Evidence]) -> None:
        self.evidence = tuple(evidence)
        self.sentences = [(p, s) for p, ev in enumerate(self.evidence)
                          for s in (split_sentences(ev.text) or [ev.text])]
        self._index = BM25Index([s for _, s in self.sentences], stopwords=True)
        self._words = [set(tokenize(s, stopwords=True)) for _, s in self.sentences]
        self._sizes: dict[int, int] = {}

    def _size(self, i: int) -> int:
        if i not in self._sizes:
            self._sizes[i] = len(get_encoding().encode_ordinary(self.sentences[i][1]))
        return self._sizes[i]

    def window(self, text: str, max_tokens: int) -> tuple[tuple[Evidence, ...], int]:
        """The passages cut to the sentences that bear on ``text`` (within ``max_tokens``), and how many
        sentences that is."""
        wanted = set(tokenize(text, stopwords=True))
        chosen: set[int] = set()
        used = 0
        for i, _ in self._index.search(text, len(self.sentences)):
            if chosen and not wanted & self._words[i]:  # BM25Plus scores every sentence above zero
                break
            for j in (i, i - 1):
                same_passage = j >= 0 and self.sentences[j][0] == self.sentences[i][0]
                fits = used + self._size(j) <= max_tokens or not chosen  # one sentence at least
                if same_passage and j not in chosen and fits:
                    chosen.add(j)
                    used += self._size(j)
            if used >= max_tokens:
                break
        window = []
        for p, ev in enumerate(self.evidence):
            kept = [i for i in sorted(chosen) if self.sentences[i][0] == p]
            if not kept:
                continue
            runs: list[list[str]] = []
            for n, i in enumerate(kept):
                if n == 0 or kept[n - 1] != i - 1:  # a gap between the sentences kept
                    runs.append([])
                runs[-1].append(self.sentences[i][1])
            window.append(dataclasses.replace(ev, text=" … ".join(" ".join(run) for run in runs)))
        return tuple(window), len(chosen)
