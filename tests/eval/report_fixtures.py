"""Result lines written by hand, as `factjudge bench` writes them, for tables checked against hand values."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from factjudge.eval.setup_name import MANIFEST_KEY, SetupName


def verdict(target_id: int, label: str, target: str = "segment") -> dict[str, Any]:
    """One verdict record as CheckResult.to_dict writes it."""
    return {"target": target, "target_id": target_id, "label": label,
            "error_score": {"false": 0.9, "true": 0.1}.get(label), "judge": "hand", "evidence": [],
            "rationale": "", "prompt_hash": "", "raw_reply": "", "trace": None, "spans": []}


def line(example_id: str, setup: str, preds: Sequence[str], *, gold: Sequence[bool | None] = (),
         dataset: str = "felm", domain: str = "wk", language: str = "en", response_label: bool | None = None,
         error_score: float | None = None, claim_preds: Sequence[str] = (),
         claim_labels: Sequence[bool | None] = (), error_types: Sequence[str | None] = (),
         grounded: bool = False) -> dict[str, Any]:
    """A result line: segment verdicts ``preds`` ('true', 'false', 'unparseable', …) against ``gold``."""
    texts = [f"Segment {i}." for i in range(len(preds))]
    segments, at = [], 0
    for i, text in enumerate(texts):
        segments.append({"id": i, "text": text, "start": at, "end": at + len(text)})
        at += len(text) + 1
    if response_label is None and gold and None not in gold:
        response_label = all(gold)
    labels = set(preds)
    label = "unparseable" if "unparseable" in labels else "false" if "false" in labels else "true"
    return {
        "example_id": example_id, "setup": setup, "dataset": dataset, "domain": domain, "language": language,
        "gold": {"segment_labels": list(gold), "response_label": response_label,
                 "claim_labels": list(claim_labels), "spans": [], "soft_spans": [], "grounded": grounded,
                 "error_types": list(error_types), "parallel_id": None},
        "result": {"question": "Q?", "answer": " ".join(texts), "segments": segments,
                   # claim i of segment i (the last segment's: the rest), so that no segment is left
                   # without claims to be judged whole, as a check would judge it
                   "claims": [{"id": i, "segment_id": min(i, len(preds) - 1), "text": f"fact {i}",
                               "checkable": True} for i in range(len(claim_preds))],
                   "segment_verdicts": [verdict(i, p) for i, p in enumerate(preds)],
                   "claim_verdicts": [verdict(i, p, "claim") for i, p in enumerate(claim_preds)],
                   "label": label, "score": None, "error_score": error_score, "model": "hand",
                   "strategy": "vanilla", "granularity": "segment", "domain": domain, "model_note": None,
                   "traces": [], "usage": {}, "version": "test"},
        "seconds": 0.0,
    }


def write_run(run_dir: Path, lines: Sequence[dict[str, Any]], dataset_hash: str,
              errors: Sequence[dict[str, Any]] = (), names: Sequence[SetupName] = ()) -> Path:
    """A run directory with a manifest (recording the set-ups ``names``), the results and the errors,
    as bench leaves it."""
    run_dir.mkdir(parents=True)
    manifest = {"dataset": run_dir.name, "dataset_hash": dataset_hash, "version": "test",
                MANIFEST_KEY: {name.id: name.to_dict() for name in names}}
    (run_dir / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    for name, records in (("results.jsonl", lines), ("errors.jsonl", errors)):
        (run_dir / name).write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return run_dir


def true_pair(example_id: str, setup: str, consistent: bool, score: float, dataset: str) -> dict[str, Any]:
    """A TRUE pair's line: one segment, flagged false at or above 0.5."""
    pred = "false" if score >= 0.5 else "true"
    return line(example_id, setup, [pred], gold=[consistent], dataset=dataset, domain="dialogue",
                response_label=consistent, error_score=score, grounded=True)


# TRUE: dev pairs d1..d4 and test pairs t1..t6 (True = consistent), error scores of set-ups a and b.
DEV_GOLD = {"d1": True, "d2": True, "d3": False, "d4": False}
DEV_SCORES = {"a": {"d1": 0.1, "d2": 0.4, "d3": 0.6, "d4": 0.3},
              "b": {"d1": 0.2, "d2": 0.1, "d3": 0.9, "d4": 0.8}}
TEST_GOLD = {"t1": True, "t2": True, "t3": False, "t4": False, "t5": False, "t6": False}
TEST_SCORES = {"a": {"t1": 0.2, "t2": 0.35, "t3": 0.5, "t4": 0.25, "t5": 0.9, "t6": 0.4},
               "b": {"t1": 0.1, "t2": 0.2, "t3": 0.9, "t4": 0.8, "t5": 0.7, "t6": 0.3}}


def true_runs(tmp: Path) -> tuple[Path, Path]:
    """A BEGIN-like dev run and a Q²-like test run of set-ups a and b."""
    dev = [true_pair(i, s, DEV_GOLD[i], v, "begin-wow") for s, scores in DEV_SCORES.items()
           for i, v in scores.items()]
    test = [true_pair(i, s, TEST_GOLD[i], v, "q2-memnet") for s, scores in TEST_SCORES.items()
            for i, v in scores.items()]
    return write_run(tmp / "dev", dev, "dev-hash"), write_run(tmp / "test", test, "test-hash")


def felm_run(tmp: Path) -> Path:
    """Set-ups s1 and s2 on four FELM answers; s1 cannot parse science, s2 failed on math."""
    kinds = {"e1": ["wk", [True, False, False], [None, "knowledge_error", "fooled"]],
             "e2": ["wk", [True, True], [None, None]],
             "e3": ["science", [True, False], [None, "knowledge_error"]],
             "e4": ["math", [False], []]}
    preds = {("s1", "e1"): ["true", "false", "true"], ("s1", "e2"): ["false", "true"],
             ("s1", "e3"): ["unparseable", "unparseable"], ("s1", "e4"): ["false"],
             ("s2", "e1"): ["true", "true", "true"], ("s2", "e2"): ["true", "true"],
             ("s2", "e3"): ["true", "false"]}
    lines = [line(e, s, p, gold=kinds[e][1], domain=kinds[e][0], error_types=kinds[e][2])
             for (s, e), p in preds.items()]
    errors = [{"example_id": "e4", "setup": "s2", "dataset": "felm", "domain": "math", "language": "en",
               "error": "ModelError: timed out"}]
    return write_run(tmp / "felm", lines, "felm-hash", errors)


def multilingual_run(tmp: Path) -> Path:
    """Set-up m on a FActScore-style pair of languages; b1 is the same answer in en and fr."""
    lines = [
        line("b1-en", "m", ["true", "true"], gold=[True, False], dataset="factscore", domain="bio",
             claim_labels=[True, True, False, None], claim_preds=["true", "true", "true"]),
        line("b2-en", "m", ["false"], gold=[True], dataset="factscore", domain="bio",
             claim_labels=[True], claim_preds=["false"]),
        line("b1-fr", "m", ["true", "false"], gold=[True, False], dataset="factscore", domain="bio",
             language="fr", claim_labels=[True, False, False], claim_preds=["true", "false"]),
        line("b2-fr", "m", ["not_checkable"], dataset="factscore", domain="bio", language="fr"),
    ]
    return write_run(tmp / "multi", lines, "multi-hash")
