"""The knowledge base's BM25 for large collections: a bm25s index saved beside the SQLite file.

bm25s stores the BM25 weight of every (passage, term) pair in sparse columns, so a
query costs one vector add per query term and a top-k over the matches, with every
query term scored, however common. FTS5 instead scores each matching row in C at a
few microseconds a row, which at a million passages only fits a 50 ms budget once the
common query terms are dropped (see kb.py and benchmarks/retrieval.py).

Files in ``<kb>.bm25s/``: bm25s's own (``*.index.npy``, ``vocab.index.json``,
``params.index.json``), ``rows.npz`` (the passage id and a language code of each row)
and ``meta.json``, written last, so a directory without it is an unfinished build.

Documents added later are covered by rebuilding: bm25s cannot append, and adding
passages changes every idf and the mean passage length anyway. The knowledge base
notices that the index no longer reaches its newest passage and rebuilds it.
"""

from __future__ import annotations

import array
import json
import os
import shutil
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from factjudge.errors import InputError, RetrievalError

FORMAT = 1
# FTS5's bm25() constants, so both engines weigh term frequency and length alike.
K1 = 1.2
B = 0.75
_INSTALL_HINT = "pip install 'factjudge[retrieval]'"


def import_bm25s() -> Any:
    """The bm25s module, or an InputError saying how to install it."""
    os.environ.setdefault("DISABLE_TQDM", "1")  # bm25s reads it at import; its bars would flood logs
    try:
        import bm25s
    except ImportError as exc:
        raise InputError(f"the bm25s engine needs bm25s: {_INSTALL_HINT}") from exc
    return bm25s


class Bm25sIndex:
    """A bm25s index over passages, each row tagged with its passage id and language."""

    def __init__(self, model: Any, passage_ids: np.ndarray, langs: np.ndarray, lang_names: list[str]) -> None:
        """Wrap a loaded bm25s model and its row tables (use ``build`` or ``load``)."""
        self._model = model
        self._vocab: dict[str, int] = model.vocab_dict
        self.passage_ids = passage_ids
        self._langs = langs
        self._lang_codes = {name: code for code, name in enumerate(lang_names)}

    @property
    def max_passage_id(self) -> int:
        """The newest passage the index covers (passage ids only grow)."""
        return int(self.passage_ids[-1]) if len(self.passage_ids) else 0

    @classmethod
    def build(cls, rows: Iterable[tuple[int, str, Sequence[str]]], directory: Path) -> Bm25sIndex:
        """Index (passage id, language, tokens) rows in id order and save the index to ``directory``."""
        bm25s = import_bm25s()
        vocab: dict[str, int] = {}
        docs: list[array.array[int]] = []
        pids = array.array("q")
        lang_names: dict[str, int] = {}
        langs = array.array("H")
        for pid, lang, tokens in rows:
            # Compact int arrays, not lists: a million passages of Python ints would take gigabytes.
            docs.append(array.array("i", [vocab.setdefault(t, len(vocab)) for t in tokens]))
            pids.append(pid)
            langs.append(lang_names.setdefault(lang, len(lang_names)))
        if not docs:
            raise InputError("cannot build a bm25s index over no passages")
        model = bm25s.BM25(k1=K1, b=B, method="lucene")
        # Empty token: bm25s would append it to the vocabulary after sizing the matrix.
        model.index((docs, vocab), create_empty_token=False, show_progress=False)
        del docs
        directory = Path(directory)
        staging = Path(tempfile.mkdtemp(prefix=directory.name + ".", dir=directory.parent))
        try:
            model.save(str(staging), show_progress=False)
            np.savez(staging / "rows.npz", passage_ids=np.frombuffer(pids, dtype=np.int64),
                     langs=np.frombuffer(langs, dtype=np.uint16))
            meta = {"format": FORMAT, "rows": len(pids), "langs": list(lang_names)}
            (staging / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
            # Swap whole directories so a reader never sees new arrays with an old vocabulary.
            if directory.exists():
                shutil.rmtree(directory)
            staging.rename(directory)
        except OSError as exc:
            shutil.rmtree(staging, ignore_errors=True)
            raise RetrievalError(f"cannot save the bm25s index to {directory}: {exc}") from exc
        loaded = cls.load(directory)
        if loaded is None:
            raise RetrievalError(f"the bm25s index just saved to {directory} does not load")
        return loaded

    @classmethod
    def load(cls, directory: Path) -> Bm25sIndex | None:
        """The index saved in ``directory``, memory-mapped; None if absent, unfinished or outdated."""
        directory = Path(directory)
        try:
            meta = json.loads((directory / "meta.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if meta.get("format") != FORMAT:
            return None
        bm25s = import_bm25s()
        try:
            model = bm25s.BM25.load(str(directory), mmap=True, show_progress=False)
            with np.load(directory / "rows.npz") as rows:
                passage_ids, langs = rows["passage_ids"], rows["langs"]
        except (OSError, ValueError, KeyError) as exc:
            raise RetrievalError(f"cannot read the bm25s index in {directory}: {exc}") from exc
        return cls(model, passage_ids, langs, list(meta["langs"]))

    def search(
        self,
        terms: Sequence[str],
        k: int,
        *,
        passage_ids: Sequence[int] | None = None,
        lang: str | None = None,
    ) -> list[tuple[int, float]]:
        """The ``k`` best (passage id, score) for ``terms``, optionally within some passages or a language."""
        ids = [self._vocab[t] for t in dict.fromkeys(terms) if t in self._vocab]
        code = self._lang_codes.get(lang) if lang is not None else None
        if k <= 0 or not ids or (lang is not None and code is None):
            return []
        scores = self._model.get_scores_from_ids(ids)
        if passage_ids is not None:
            wanted = np.unique(np.asarray(passage_ids, dtype=np.int64))
            rows = np.searchsorted(self.passage_ids, wanted).clip(0, len(self.passage_ids) - 1)
            rows = rows[self.passage_ids[rows] == wanted]
            if code is not None:
                rows = rows[self._langs[rows] == code]
            rows = rows[scores[rows] > 0]
        else:
            matched = scores > 0
            if code is not None:
                matched &= self._langs == code
            rows = np.flatnonzero(matched)
        # Select among the matching rows only: np.argpartition over a million mostly-zero
        # scores has a slow worst case (a 60 ms p95 at 1M passages, against 16 ms this way).
        if len(rows) > k:
            rows = rows[np.argpartition(-scores[rows], k - 1)[:k]]
        best = rows[np.lexsort((rows, -scores[rows]))]  # ties: the older passage first
        return [(int(self.passage_ids[r]), float(scores[r])) for r in best]
