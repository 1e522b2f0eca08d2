"""FELM's tables: balanced accuracy per domain with what was left out beside each cell, and
which of FELM's annotated error types each set-up catches."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

import pandas as pd

from factjudge.eval.metrics import MIN_ITEMS
from factjudge.eval.tables.lines import gold_segment_labels, pct

UNTYPED = "untyped"
SMALL_NOTE = (f"* fewer than {MIN_ITEMS} gold-labelled items (n): too few for the number to be a result; "
              "read it as a count.")
ALL_ERRORS = "all errors"


def counted_cells(rows: pd.DataFrame, metric: str, left_out: str, group: str = "domain") -> pd.DataFrame:
    """``felm_table``'s layout with every cell written ``66.7 (u2 f0)``: the number, then how many items
    were unparseable (``left_out``) and how many failed, so a missing number is never a silent blank.

    A number resting on fewer than ``metrics.MIN_ITEMS`` items (its ``{metric}_n`` column) is
    starred and says its n: ``100.0* (n=3 u0 f0)``. Segments (answers, at response level) the
    evidence left unverified (counted as not flagged) are added where there are any: ``61.2 (u0 f0 v12)``.
    """
    def cell(row: pd.Series) -> str:
        unverified = {"segment_ba": "unverified", "response_ba": "unverified_answers"}.get(metric)
        open_ = int(row.get(unverified, 0) or 0) if unverified else 0
        counts = f"u{int(row[left_out])} f{int(row['failed'])}" + (f" v{open_}" if open_ else "")
        if pd.isna(row[metric]):
            return f"n/a ({counts})"
        n = int(row.get(f"{metric}_n", MIN_ITEMS))
        small = f"* (n={n} " if n < MIN_ITEMS else " ("
        return f"{row[metric]:.1f}{small}{counts})"

    table = rows.assign(cell=rows.apply(cell, axis=1)).pivot(index="setup", columns=group, values="cell")
    table = table.fillna("n/a (no items)")  # a set-up that never reached a group: say so, not a blank
    return table[[c for c in table.columns if c != "overall"] + ["overall"]]


def error_type_rows(lines: Iterable[dict[str, Any]]) -> pd.DataFrame:
    """Per (set-up, FELM error type): gold false segments of that type, how many the set-up flagged false,
    how many it could not parse or left unverified, and the recall over the parsed ones (an unverified
    error is not caught).

    False segments FELM gave no type (all of math and reasoning in the release) count as
    ``untyped``; ``all errors`` pools every type.
    """
    # errors, caught, unparseable, unverified
    counts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for line in lines:
        types = line["gold"].get("error_types") or []
        verdicts = line["result"]["segment_verdicts"]
        for i, (label, verdict) in enumerate(zip(gold_segment_labels(line), verdicts, strict=False)):
            if label is not False:
                continue
            kind = str(types[i]) if i < len(types) and types[i] else UNTYPED
            for key in ((line["setup"], kind), (line["setup"], ALL_ERRORS)):
                counts[key][0] += 1
                counts[key][1] += verdict["label"] == "false"
                counts[key][2] += verdict["label"] == "unparseable"
                counts[key][3] += verdict["label"] == "unverified"
    rows = [{"setup": setup, "error_type": kind, "errors": errors, "caught": caught, "unparseable": unp,
             "unverified": open_, "recall": pct(caught / (errors - unp)) if errors > unp else None}
            for (setup, kind), (errors, caught, unp, open_) in sorted(counts.items())]
    return pd.DataFrame(rows)


def error_type_table(rows: pd.DataFrame) -> pd.DataFrame:
    """Set-ups × error types, each cell ``recall (caught/errors, uN)``, ``vN`` added for errors the
    evidence left unverified (not caught, and shown apart); ``all errors`` last."""
    def cell(row: pd.Series) -> str:
        value = "n/a" if pd.isna(row["recall"]) else f"{row['recall']:.1f}"
        open_ = int(row.get("unverified", 0) or 0)
        counts = f"u{row['unparseable']}" + (f" v{open_}" if open_ else "")
        return f"{value} ({row['caught']}/{row['errors']}, {counts})"

    table = rows.assign(cell=rows.apply(cell, axis=1))
    table = table.pivot(index="setup", columns="error_type", values="cell").fillna("n/a (0/0, u0)")
    return table[[c for c in table.columns if c != ALL_ERRORS] + [ALL_ERRORS]]
