"""TRUE's protocol: ROC AUC with bootstrap intervals and paired p-values, the ensemble, and test
accuracy at a threshold tuned on a dev run by sqrt(TPR·(1−FPR)).

Labels follow TRUE (True = consistent); scores are error scores, so a high score flags an
inconsistent pair. Only lines with a gold label and an error score count.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from factjudge.eval import metrics
from factjudge.eval.setup_name import ENSEMBLE, ensemble_id
from factjudge.eval.tables.lines import pct

BEST = "best"
# dataset -> set-up -> example id -> error score
Scores = dict[str, dict[str, dict[str, float]]]
# dataset -> set-up -> ids of its gold-labelled answers, scored or not
Answered = dict[str, dict[str, set[str]]]


def scored(lines: Iterable[dict[str, Any]]) -> tuple[Scores, dict[tuple[str, str], bool]]:
    """Each set-up's error scores per dataset and the gold labels (the set-ups that ran: TRUE's
    ensemble is ``ensemble_table``'s, never a row beside them)."""
    scores, gold, _ = scored_and_answered(lines)
    return scores, gold


def scored_and_answered(lines: Iterable[dict[str, Any]],
                        ) -> tuple[Scores, dict[tuple[str, str], bool], Answered]:
    """``scored``, and every gold-labelled answer of each set-up, so an answer left without an error
    score (every item unverified with no passage, or unparseable) is counted, never silently dropped."""
    scores, gold, answered, _ = _scored(lines)
    return scores, gold, answered


def ensembles(lines: Iterable[dict[str, Any]]) -> dict[str, tuple[str, ...]]:
    """TRUE's ensembles in ``lines``: each one's id and its members' ids, so a report names it from theirs."""
    return _scored(lines)[3]


def ensemble_table(lines: Iterable[dict[str, Any]], n: int = 1000, seed: int = 0) -> pd.DataFrame:
    """TRUE's ensemble per dataset (the mean error score of the set-ups that rank): its ROC AUC and
    interval, apart from the set-ups' table, since no grid asked for it and it is never their best."""
    scores, gold, answered, members = _scored(lines, with_ensembles=True)
    rows = []
    for dataset, by_setup in sorted(scores.items()):
        for setup in (s for s in by_setup if s in members):
            labels, ours = _series(dataset, by_setup[setup], gold)
            rows.append(_auc_row(setup, dataset, labels, ours, n, seed,
                                 _unscored(setup, by_setup, answered[dataset])))
    return pd.DataFrame(rows)


def _scored(lines: Iterable[dict[str, Any]], with_ensembles: bool = False,
            ) -> tuple[Scores, dict[tuple[str, str], bool], Answered, dict[str, tuple[str, ...]]]:
    scores: Scores = defaultdict(lambda: defaultdict(dict))
    answered: Answered = defaultdict(lambda: defaultdict(set))
    gold: dict[tuple[str, str], bool] = {}
    for line in lines:
        result = line["result"]
        if line["gold"]["response_label"] is None:
            continue
        answered[line["dataset"]][line["setup"]].add(line["example_id"])
        if result["error_score"] is None:
            continue
        scores[line["dataset"]][line["setup"]][line["example_id"]] = result["error_score"]
        gold[(line["dataset"], line["example_id"])] = bool(line["gold"]["response_label"])
    members: dict[str, tuple[str, ...]] = {}
    for dataset, by_setup in scores.items():
        grown, given = (by_setup, answered[dataset]) if with_ensembles else (dict(by_setup),
                                                                             dict(answered[dataset]))
        members.update(_add_ensemble(grown, given))
    return scores, gold, answered, members


def _add_ensemble(by_setup: dict[str, dict[str, float]], answered: dict[str, set[str]],
                  ) -> dict[str, tuple[str, ...]]:
    """TRUE's ensemble: the mean error score of every set-up that ranks (is not a constant); its id
    and members, none when fewer than two rank."""
    members = sorted(s for s, values in by_setup.items() if len(set(values.values())) > 1)
    if len(members) < 2:
        return {}
    ids = sorted(set.intersection(*(set(by_setup[s]) for s in members)))
    # every member scored every id in ``ids``, so no mean is None
    means = metrics.ensemble_scores([[by_setup[s][i] for i in ids] for s in members])
    name = ensemble_id(members)
    by_setup[name] = {i: float(m) for i, m in zip(ids, means, strict=True) if m is not None}
    # The answers every member was given: those some member left unscored are the ensemble's too.
    answered[name] = set.intersection(*(answered[s] for s in members))
    return {name: tuple(members)}


def _series(dataset: str, values: dict[str, float],
            gold: dict[tuple[str, str], bool]) -> tuple[list[bool], list[float]]:
    ids = sorted(values)
    return [gold[(dataset, i)] for i in ids], [values[i] for i in ids]


def _paired(dataset: str, a: dict[str, float], b: dict[str, float],
            gold: dict[tuple[str, str], bool]) -> tuple[list[bool], list[float], list[float]]:
    """Gold and both set-ups' scores on the examples both scored, in one order."""
    ids = sorted(set(a) & set(b))
    return [gold[(dataset, i)] for i in ids], [a[i] for i in ids], [b[i] for i in ids]


@dataclass(frozen=True)
class Ranking:
    """Set-ups ranked by ROC AUC: the best one (None: none may be), each other's paired-bootstrap
    p-value against it (None: none), and why a row has no p-value or is not ranked."""

    best: str | None = None
    p_values: dict[str, float | None] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)

    def columns(self, setup: str) -> dict[str, Any]:
        """A row's typed columns: ``best`` (bool), ``p_vs_best`` (float or None), ``p_note`` (str)."""
        return {"best": setup == self.best, "p_vs_best": self.p_values.get(setup),
                "p_note": self.notes.get(setup, "")}


def p_values_against_best(dataset: str, by_setup: dict[str, dict[str, float]],
                          gold: dict[tuple[str, str], bool], n: int = 1000, seed: int = 0,
                          answered: Mapping[str, set[str]] | None = None) -> Ranking:
    """The best set-up by ROC AUC and each other's paired-bootstrap p-value against it; none where the
    items both scored are too few (``metrics.too_few``), which ``notes`` says.

    Only a set-up that scored every answer it was given (``answered``) can be the best: one that
    left answers unscored ranks on fewer, perhaps easier, answers. When none scored them all, no row
    is the best and none gets a p-value.
    """
    aucs = {s: metrics.roc_auc(*_series(dataset, v, gold)) for s, v in by_setup.items()}
    ranked = [s for s in sorted(by_setup) if aucs[s] is not None]
    complete = [s for s in ranked if answered is None or not _unscored(s, by_setup, answered)]
    if not complete:
        return Ranking(notes={s: f"{_unscored(s, by_setup, answered or {})} answers unscored; no set-up "
                                 "scored every answer" for s in ranked})
    best = max(complete, key=lambda s: aucs[s] or 0.0)
    out = Ranking(best)
    for setup in ranked:
        if setup != best:
            labels, ours, theirs = _paired(dataset, by_setup[setup], by_setup[best], gold)
            small = metrics.too_few(labels)
            out.p_values[setup] = None if small else round(
                metrics.paired_bootstrap(metrics.roc_auc, labels, ours, theirs, n=n, seed=seed), 3)
            unscored = _unscored(setup, by_setup, answered or {})
            out.notes[setup] = ", ".join(note for note in (small, f"{unscored} answers unscored: not ranked"
                                                           if unscored else "") if note)
    return out


def _unscored(setup: str, by_setup: dict[str, dict[str, float]], answered: Mapping[str, set[str]]) -> int:
    """How many of the answers ``setup`` was given have no error score."""
    return len(answered.get(setup, set()) - set(by_setup.get(setup, {})))


def _ordered(by_setup: dict[str, dict[str, float]]) -> list[str]:
    """Set-ups by name, an ensemble last."""
    return sorted(by_setup, key=lambda s: (s.startswith(ENSEMBLE), s))


def _auc_row(setup: str, dataset: str, labels: Sequence[bool], values: Sequence[float],
             n: int, seed: int, unscored: int) -> dict[str, Any]:
    auc = metrics.roc_auc(labels, values)
    low, high = (None, None)
    if auc is not None and not metrics.too_few(labels):  # no interval on a handful of items
        low, high = metrics.bootstrap_ci(metrics.roc_auc, labels, values, n=n, seed=seed)
    return {"setup": setup, "dataset": dataset, "n": len(labels), "unscored": unscored, "roc_auc": pct(auc),
            "ci_low": pct(low), "ci_high": pct(high)}


def roc_auc_intervals(lines: Iterable[dict[str, Any]], n: int = 1000, seed: int = 0) -> pd.DataFrame:
    """ROC AUC per (set-up, dataset), its bootstrap 95% interval and paired p-value against the best row.

    ``n`` is the answers the ROC AUC rests on; ``unscored``, the set-up's gold-labelled answers left
    without an error score (not in ``n``); such a set-up is never called the best.
    """
    scores, gold, answered = scored_and_answered(lines)
    rows = []
    for dataset, by_setup in sorted(scores.items()):
        given = answered[dataset]
        ranking = p_values_against_best(dataset, by_setup, gold, n=n, seed=seed, answered=given)
        for setup in _ordered(by_setup):
            labels, ours = _series(dataset, by_setup[setup], gold)
            rows.append(_auc_row(setup, dataset, labels, ours, n, seed, _unscored(setup, by_setup, given))
                        | ranking.columns(setup))
    return _typed(pd.DataFrame(rows))


def threshold_table(dev_lines: Iterable[dict[str, Any]], test_lines: Iterable[dict[str, Any]],
                    n: int = 1000, seed: int = 0) -> pd.DataFrame:
    """Per (set-up, test dataset): the threshold tuned on the dev run, test accuracy and balanced accuracy
    at it, and test ROC AUC with its interval and p-value against the best set-up.

    A set-up's dev scores are pooled over the dev run's datasets; set-ups (and ensembles)
    missing from the dev run get no row.
    """
    dev, dev_gold = scored(dev_lines)
    thresholds: dict[str, tuple[float, int]] = {}
    for setup in sorted({s for by_setup in dev.values() for s in by_setup}):
        pairs = [(dev_gold[(d, i)], v) for d, by_setup in dev.items()
                 for i, v in by_setup.get(setup, {}).items()]
        thresholds[setup] = (metrics.tune_threshold([g for g, _ in pairs], [v for _, v in pairs]), len(pairs))
    test, gold, answered = scored_and_answered(test_lines)
    rows = []
    for dataset, by_setup in sorted(test.items()):
        tuned = {s: v for s, v in by_setup.items() if s in thresholds}
        given = answered[dataset]
        ranking = p_values_against_best(dataset, tuned, gold, n=n, seed=seed, answered=given)
        for setup in _ordered(tuned):
            labels, ours = _series(dataset, tuned[setup], gold)
            threshold, dev_n = thresholds[setup]
            flagged = [v >= threshold for v in ours]
            rows.append({
                "setup": setup, "dataset": dataset, "dev_n": dev_n, "threshold": round(threshold, 4),
                "accuracy": pct(metrics.accuracy_at(labels, ours, threshold)),
                "balanced_accuracy": pct(metrics.balanced_accuracy([not g for g in labels], flagged)),
            } | _auc_row(setup, dataset, labels, ours, n, seed, _unscored(setup, tuned, given))
              | ranking.columns(setup))
    return _typed(pd.DataFrame(rows))


def _typed(table: pd.DataFrame) -> pd.DataFrame:
    """One type per column: ``p_vs_best`` a float (NaN: no p-value), ``best`` a bool."""
    if not table.empty:
        table["p_vs_best"] = table["p_vs_best"].astype(float)
        table["best"] = table["best"].astype(bool)
    return table
