"""The check pipeline: plan a check once, run its fixed stages, and show its result.

``plan`` validates and decides everything (strategy, granularity, evidence, fallbacks);
``checker`` runs the stages (segment → items → evidence → judge → aggregate); ``api``,
``verifier`` and ``verify_many`` are the entry points that share that one path; ``render``
prints a result for people.
"""
