"""The faithfulness threshold a result's ``is_successful()`` asks for, checked in one place.

``Verifier(threshold=…)`` and ``CheckResult.from_dict`` both go through ``checked_threshold``, so a
threshold written as text (``"0.5"``), None, a bool or NaN is one clear InputError wherever it
comes in, never a comparison that fails later or silently passes.
"""

from __future__ import annotations

import math
import numbers

from factjudge.errors import InputError


def checked_threshold(value: object) -> float:
    """``value`` as a faithfulness threshold in [0, 1]; an InputError for anything else."""
    # bool is a number to Python, but True as a threshold is a mistake, not 1.0.
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InputError(f"the threshold is a faithfulness between 0 and 1, not {value!r} "
                         f"({type(value).__name__})")
    number = float(value)
    if math.isnan(number) or not 0.0 <= number <= 1.0:
        raise InputError(f"the threshold is a faithfulness between 0 and 1, not {value!r}")
    return number
