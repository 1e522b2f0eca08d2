"""Text code that never calls a model: sentences, tokens, checkability and error spans."""
