"""The one guard against a hung test: generous on purpose, so a loaded machine never trips it.

A test checks behaviour, not speed (speed and memory figures are printed by ``benchmarks/``).
A two-core CI machine busy with other jobs ran the embedded model's demo check for over two
minutes; a guard exists only to end a test that would never end.
"""

HANG_GUARD = 900.0  # seconds
