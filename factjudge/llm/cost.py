"""Estimated cost of model calls from a small price table (USD per million tokens)."""

from __future__ import annotations

# (input, output) USD per 1M tokens, as published by OpenAI; an estimate, not a bill.
PRICES: dict[str, tuple[float, float]] = {
    "gpt-4o": (2.50, 10.00),
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4.1": (2.00, 8.00),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1-nano": (0.10, 0.40),
    "gpt-4-turbo": (10.00, 30.00),
    "gpt-4": (30.00, 60.00),
    "gpt-3.5-turbo": (0.50, 1.50),
    "o3-mini": (1.10, 4.40),
    "o4-mini": (1.10, 4.40),
}


def price_of(model: str) -> tuple[float, float]:
    """Prices of a model, matching dated variants (``gpt-4o-2024-08-06``) by longest prefix."""
    name = model.split(":", 1)[-1]
    matches = [key for key in PRICES if name == key or name.startswith(key + "-")]
    return PRICES[max(matches, key=len)] if matches else (0.0, 0.0)


def estimate_cost(model: str, prompt_tokens: int, completion_tokens: int) -> float:
    """USD for one call; unknown and local models cost 0."""
    price_in, price_out = price_of(model)
    return (prompt_tokens * price_in + completion_tokens * price_out) / 1_000_000
