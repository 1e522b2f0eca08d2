"""Judges: FELM's list judge, FActScore's True/False judge, model-free scorers; their strategy registry.

Also what turns verdicts into labels and scores without a model: aggregation.
"""
