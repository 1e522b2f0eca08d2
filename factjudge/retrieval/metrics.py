"""Retrieval quality as the multilingual FActScore study measured it: Recall@k and top-k hit rate."""

from __future__ import annotations

from collections.abc import Collection, Hashable, Sequence


def _check(ranked: Sequence[Sequence[Hashable]], relevant: Sequence[Collection[Hashable]], k: int) -> None:
    if len(ranked) != len(relevant):
        raise ValueError(f"{len(ranked)} rankings but {len(relevant)} relevance sets")
    if k < 1:
        raise ValueError("k must be at least 1")


def recall_at_k(ranked: Sequence[Sequence[Hashable]], relevant: Sequence[Collection[Hashable]],
                k: int) -> float | None:
    """Mean share of each query's relevant passages found in its top ``k`` (queries with none skipped)."""
    _check(ranked, relevant, k)
    shares = [len(set(r[:k]) & set(rel)) / len(set(rel)) for r, rel in zip(ranked, relevant, strict=True)
              if rel]
    return sum(shares) / len(shares) if shares else None


def hit_rate(ranked: Sequence[Sequence[Hashable]], relevant: Sequence[Collection[Hashable]],
             k: int = 1) -> float | None:
    """Share of queries with at least one relevant passage in the top ``k`` (top-1, top-2 hit rate)."""
    _check(ranked, relevant, k)
    hits = [bool(set(r[:k]) & set(rel)) for r, rel in zip(ranked, relevant, strict=True) if rel]
    return sum(hits) / len(hits) if hits else None
