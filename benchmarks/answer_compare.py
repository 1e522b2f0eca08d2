"""Answer-then-compare on dev data: read each value from the passages, compare, combine with the doubt.

    python benchmarks/answer_compare.py --data swap,felm --limit 20      # run (resumable), then print
    python benchmarks/answer_compare.py --data all --print-only          # print what is recorded

For every item of each dev set this records, one JSONL line an item written at once (a rerun
skips what is there, and the call cache makes an interrupted item's calls free): the passages the
default gathers (the packaged Wikipedia, the question's topics first, as ``evidence`` does; FELM's
reference texts for ``felm-refs``), today's default doubt P(not supported) from the ``evidence``
judge, and for each form asked (``cloze``, ``question``) the item's values (up to ``--spans``, most
telling first) with the question, the reply, the value read and whether a passage holds it, plus
the seconds each call took. Outcomes are recomputed from the recorded replies when printing, so a
change to ``text/value_match.py`` reprints without a model call.

Printed per dataset, on the first and the second half of its answers and on all: segment balanced
accuracy (a false item is the positive class; unverified counts as not flagged, as in the README),
the share left unverified, model calls and seconds per item, and Mu-SHROOM's span IoU (a false
item's error span is its contradicted value; a segment false by the band marks its whole text),
for today's band and for the combination rules in ``RULES`` with 1, 2 or 3 values per item.

Datasets: ``swap`` (benchmarks/data/value_swaps.jsonl, pairs taken in order per language),
``felm`` (FELM world knowledge, first answers, over the packaged Wikipedia), ``felm-refs`` (the same
answers over their reference texts), ``factool`` (FacTool-QA's own claims), ``mushroom-en``,
``mushroom-es``, ``mushroom-fr`` (Mu-SHROOM val).
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
SWAPS = ROOT / "benchmarks" / "data" / "value_swaps.jsonl"
DATASETS = ("swap", "felm", "felm-refs", "factool", "mushroom-en", "mushroom-es", "mushroom-fr")
# Whether a read value the item states elsewhere is no contradiction (--no-echo shows the rule's worth).
ECHO = True
# Tables are printed per language of the swap set.
GROUPS = ("swap-en", "swap-es", "swap-fr", *DATASETS[1:])


# ---------------------------------------------------------------- the items of each dev set

def _jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").split("\n") if line.strip()]


def swap_items(limit: int) -> Iterator[dict[str, Any]]:
    """The swap set: the first ``limit`` pairs of each language (a pair is one answer)."""
    rows = _jsonl(SWAPS)
    for lang in ("en", "es", "fr"):
        pairs = sorted({r["pair"] for r in rows if r["lang"] == lang})[:limit]
        for row in (r for r in rows if r["lang"] == lang and r["pair"] in pairs):
            yield {"dataset": "swap", "answer": f"{row['pair']}", "seg": int(not row["label"]), "lang": lang,
                   "question": row["question"], "text": row["item"], "start": 0, "gold": row["label"],
                   "kind": row["kind"]}


def felm_items(limit: int, refs: bool) -> Iterator[dict[str, Any]]:
    """FELM world knowledge: the segments of its first ``limit`` answers (with reference texts when
    ``refs``: only answers that have them)."""
    rows = [r for r in _jsonl(DATA / "felm_all.jsonl") if r["domain"] == "wk"]
    if refs:
        rows = [r for r in rows if any(r["ref_contents"])]
    for row in rows[:limit]:
        for seg, (text, label) in enumerate(zip(row["segmented_response"], row["labels"], strict=True)):
            yield {"dataset": "felm-refs" if refs else "felm", "answer": str(row["index"]), "seg": seg,
                   "lang": "en", "question": row["prompt"], "text": text, "start": -1, "gold": bool(label),
                   "refs": (row["ref"], row["ref_contents"], f"{row['prompt']}\n{row['response']}")
                   if refs else None}


def factool_items(limit: int) -> Iterator[dict[str, Any]]:
    """FacTool-QA: its own claims of the first ``limit`` answers, judged one by one."""
    for i, row in enumerate(_jsonl(DATA / "factool_qa.jsonl")[:limit]):
        for seg, (text, label) in enumerate(zip(row["claims"], row["claim_labels"], strict=True)):
            yield {"dataset": "factool", "answer": str(i), "seg": seg, "lang": "en",
                   "question": row["prompt"], "text": text, "start": -1, "gold": bool(label)}


def mushroom_items(lang: str, limit: int) -> Iterator[dict[str, Any]]:
    """Mu-SHROOM val: the sentences of the first ``limit`` answers, false where a hard span overlaps."""
    from factjudge.text.segmenter import segment

    for row in _jsonl(DATA / "mushroom_val" / f"mushroom.{lang}-val.v2.extra.jsonl")[:limit]:
        answer = row["model_output_text"]
        hard = [tuple(span) for span in row["hard_labels"]]
        for seg in segment(answer):
            gold = not any(s < seg.end and seg.start < e for s, e in hard)
            yield {"dataset": f"mushroom-{lang}", "answer": row["id"], "seg": seg.id, "lang": lang,
                   "question": row["model_input"], "text": seg.text, "start": seg.start, "gold": gold,
                   "answer_text": answer, "hard": hard}


def items(name: str, limit: int) -> Iterator[dict[str, Any]]:
    """The items of dev set ``name``."""
    if name == "swap":
        return swap_items(limit)
    if name in ("felm", "felm-refs"):
        return felm_items(limit, name == "felm-refs")
    if name == "factool":
        return factool_items(limit)
    return mushroom_items(name.split("-")[1], limit)


# ---------------------------------------------------------------- recording

class Recorder:
    """The model, the gatherer and the judges, built once; ``record`` measures one item."""

    def __init__(self, model_spec: str) -> None:
        from factjudge.checking.gather import Gatherer
        from factjudge.checking.model_pool import build_model
        from factjudge.config import CheckConfig
        from factjudge.judges.strategies import STRATEGIES

        # The evidence judge without reading values: its doubt is today's P(not supported).
        config = CheckConfig(model=model_spec, values=0)
        self.model = build_model(config)
        self.judge = STRATEGIES["evidence"].judge(self.model, config)
        self.gatherer = Gatherer.from_config(config, self.model, ("wiki",), "packaged")

    def passages(self, item: dict[str, Any]) -> tuple[Any, ...]:
        """What the default judge reads for ``item`` (the judge's own evidence budget applied)."""
        from factjudge.judges.base import Item, JudgeInput
        from factjudge.retrieval.evidence import reference_evidence
        from factjudge.retrieval.wiki.names import title_candidates

        shared: tuple[Any, ...] = ()
        own: tuple[Any, ...] = ()
        if item.get("refs"):
            links, contents, query = item["refs"]
            shared = tuple(reference_evidence(query, links, contents)[0])
        else:
            own = tuple(self.gatherer.gather(item["text"], title_candidates([item["question"]])).evidence)
        judged = Item("segment", item["seg"], item["text"], item["seg"], evidence=own)
        return JudgeInput(item["question"], (judged,), shared, evidence_tokens=3000).evidence_for([judged])

    def record(self, item: dict[str, Any], forms: list[str], spans: int) -> dict[str, Any]:
        """Today's doubt and the value readings of one item."""
        from factjudge.agents.read_value import read_value
        from factjudge.judges.base import Item, JudgeInput
        from factjudge.text.values import value_spans

        passages = self.passages(item)
        out: dict[str, Any] = {k: v for k, v in item.items() if k not in ("refs",)}
        out["passages"] = len(passages)
        out["passage_titles"] = [ev.title for ev in passages]
        if not passages:
            out["readings"] = {form: [] for form in forms}
            return out
        started = time.perf_counter()
        alone = Item("segment", item["seg"], item["text"], item["seg"])  # the passages are shown as given
        [verdict] = self.judge.judge(JudgeInput(item["question"], (alone,), passages))
        out["doubt"], out["doubt_seconds"] = verdict.error_score, time.perf_counter() - started
        found = value_spans(item["text"], question=item["question"], lang=item["lang"], limit=spans)
        out["readings"] = {}
        for form in forms:
            readings = []
            for rank, span in enumerate(found):
                started = time.perf_counter()
                reading = read_value(self.model, passages, item["text"], span,
                                     form=form, lang=item["lang"])  # type: ignore[arg-type]
                readings.append({"rank": rank, "stated": span.text, "start": span.start, "end": span.end,
                                 "kind": span.kind, "question": reading.check.question,
                                 "reply": reading.reply, "read": reading.check.read,
                                 "passage": reading.passage, "seconds": time.perf_counter() - started})
            out["readings"][form] = readings
        return out


def run(args: argparse.Namespace) -> None:
    """Record every item not yet in the run file, one line each as soon as it is measured."""
    out = args.runs / "records.jsonl"
    out.parent.mkdir(parents=True, exist_ok=True)
    done = {(r["dataset"], r["answer"], r["seg"], form) for r in _read(out) for form in r.get("readings", {})}
    recorder: Recorder | None = None
    forms = args.forms.split(",")
    started = time.perf_counter()
    with out.open("a", encoding="utf-8") as sink:
        for name in args.datasets:
            for n, item in enumerate(items(name, args.limit)):
                todo = [f for f in forms if (name, item["answer"], item["seg"], f) not in done]
                if not todo:
                    continue
                recorder = recorder or Recorder(args.model)
                sink.write(json.dumps(recorder.record(item, todo, args.spans), ensure_ascii=False) + "\n")
                sink.flush()
                print(f"{name} item {n} done ({time.perf_counter() - started:.0f} s)", flush=True)


def _read(path: Path) -> Iterator[dict[str, Any]]:
    if path.exists():
        for line in path.read_text(encoding="utf-8").split("\n"):
            if line.strip():
                yield json.loads(line)


def merged(path: Path) -> list[dict[str, Any]]:
    """One record per item, the readings of each form from whichever line recorded them."""
    by_key: dict[tuple[str, str, int], dict[str, Any]] = {}
    for record in _read(path):
        key = (record["dataset"], record["answer"], record["seg"])
        if key in by_key:
            by_key[key]["readings"].update(record.get("readings", {}))
        else:
            by_key[key] = record
    return list(by_key.values())


# ---------------------------------------------------------------- rules

def band(doubt: float | None) -> str:
    """Today's label from P(not supported), the evidence judge's own band; no passage: unverified."""
    from factjudge.judges.strategies import EVIDENCE_BAND

    return "unverified" if doubt is None else EVIDENCE_BAND.label(doubt)


def outcomes(record: dict[str, Any], form: str, k: int,
             modifiers: bool = True) -> list[tuple[dict[str, Any], str]]:
    """The first ``k`` readings of ``form`` with their outcomes, recomputed from the recorded replies by
    the package's own comparison (``read_value.value_outcome``)."""
    from factjudge.agents.read_value import value_outcome
    from factjudge.text.values import topic_names, value_spans

    readings = record.get("readings", {}).get(form, [])
    if not modifiers:
        kept = {(s.start, s.end) for s in value_spans(record["text"], question=record["question"],
                                                      lang=record["lang"]) if not _modifier(record, s)}
        readings = [r for r in readings if (r["start"], r["end"]) in kept]
    result = []
    stated = [s.text for s in value_spans(record["text"])] + topic_names(record["question"])
    for r in readings[:k]:
        # A value no passage holds came from belief; one that echoes another of the item's was read
        # into the wrong blank (unless --no-echo).
        others = [text for text in stated if text != r["stated"]] if ECHO else []
        result.append((r, value_outcome(r["stated"], r["read"], r["kind"], held=r["passage"] is not None,
                                        others=others)))
    return result


def _modifier(record: dict[str, Any], span: Any) -> bool:
    from factjudge.text.values import _rank

    return _rank(record["text"], span) == 2


Rule = Callable[[dict[str, Any], str, int], tuple[str, list[dict[str, Any]]]]


def rule_band(record: dict[str, Any], form: str, k: int) -> tuple[str, list[dict[str, Any]]]:
    """Today's default: the band on P(not supported)."""
    return band(record.get("doubt")), []


def rule_a(record: dict[str, Any], form: str, k: int,
           modifiers: bool = True) -> tuple[str, list[dict[str, Any]]]:
    """A contradicted value makes it false, every value confirmed makes it true, else the band."""
    found = outcomes(record, form, k, modifiers)
    wrong = [r for r, o in found if o == "contradicted"]
    if wrong:
        return "false", wrong
    if found and all(o == "confirmed" for _, o in found):
        return "true", []
    return band(record.get("doubt")), []


def rule_b(record: dict[str, Any], form: str, k: int) -> tuple[str, list[dict[str, Any]]]:
    """Only a contradiction overrides the band."""
    wrong = [r for r, o in outcomes(record, form, k) if o == "contradicted"]
    return ("false", wrong) if wrong else (band(record.get("doubt")), [])


def rule_c(record: dict[str, Any], form: str, k: int) -> tuple[str, list[dict[str, Any]]]:
    """(a), with a confirmed value also taking a 'false' band to unverified instead of false."""
    found = outcomes(record, form, k)
    wrong = [r for r, o in found if o == "contradicted"]
    if wrong:
        return "false", wrong
    if found and all(o == "confirmed" for _, o in found):
        return "true", []
    label = band(record.get("doubt"))
    if label == "false" and any(o == "confirmed" for _, o in found):
        return "unverified", []
    return label, []


def rule_values_only(record: dict[str, Any], form: str, k: int) -> tuple[str, list[dict[str, Any]]]:
    """The values alone: contradicted → false, all confirmed → true, else unverified (no doubt)."""
    found = outcomes(record, form, k)
    wrong = [r for r, o in found if o == "contradicted"]
    if wrong:
        return "false", wrong
    if found and all(o == "confirmed" for _, o in found):
        return "true", []
    return "unverified", []


def rule_a_no_modifiers(record: dict[str, Any], form: str, k: int) -> tuple[str, list[dict[str, Any]]]:
    """(a), never asking about a lone capitalised word before a noun ("a French novel")."""
    return rule_a(record, form, k, modifiers=False)


RULES: dict[str, Rule] = {"(a) contradicted→false, all confirmed→true, else band": rule_a,
                          "(a) without modifier words": rule_a_no_modifiers,
                          "(b) only a contradiction overrides": rule_b,
                          "(c) (a), a confirmed value softens false to unverified": rule_c,
                          "values alone (no doubt)": rule_values_only}


# ---------------------------------------------------------------- printing

def group_of(record: dict[str, Any]) -> str:
    """The table a record is counted in: its dataset, the swap set split by language."""
    return f"swap-{record['lang']}" if record["dataset"] == "swap" else record["dataset"]


def errors(records: list[dict[str, Any]], k: int) -> None:
    """Rule (a), cloze, ``k`` values: every true item it calls false and every false item it misses."""
    for record in records:
        if "cloze" not in record.get("readings", {}):
            continue
        label, _ = rule_a(record, "cloze", k)
        if (label == "false") == record["gold"]:
            kind = "false alarm" if record["gold"] else f"missed ({label})"
            found = [(r["stated"], r["kind"], r["read"], o) for r, o in outcomes(record, "cloze", k)]
            print(f"- {group_of(record)} {record['answer']}/{record['seg']} {kind}, doubt "
                  f"{record.get('doubt') or 0:.2f}: {record['text'][:140]!r} {found}")


def _ba(gold: list[bool], labels: list[str]) -> float:
    flagged = [label == "false" for label in labels]
    pos = [f for g, f in zip(gold, flagged, strict=True) if not g]
    neg = [f for g, f in zip(gold, flagged, strict=True) if g]
    if not pos or not neg:
        return float("nan")
    return 50 * (sum(pos) / len(pos) + sum(not f for f in neg) / len(neg))


def _cost(records: list[dict[str, Any]], form: str | None, k: int) -> tuple[float, float]:
    """Model calls and seconds per item: the doubt's call, then the values asked (first ``k``)."""
    calls = seconds = 0.0
    for r in records:
        if r.get("doubt") is None:
            continue
        calls += 1
        seconds += r.get("doubt_seconds", 0.0)
        if form:
            used = r["readings"].get(form, [])[:k]
            calls += len(used)
            seconds += sum(x["seconds"] for x in used)
    return calls / max(len(records), 1), seconds / max(len(records), 1)


def _iou(records: list[dict[str, Any]], rule: Rule, form: str, k: int) -> float:
    """Mean span IoU per answer: a false item's contradicted values, or its whole text."""
    from factjudge.eval.metrics import span_iou

    answers: dict[str, list[dict[str, Any]]] = {}
    for r in records:
        answers.setdefault(r["answer"], []).append(r)
    scores = []
    for group in answers.values():
        predicted = []
        for r in group:
            label, wrong = rule(r, form, k)
            if label != "false":
                continue
            if wrong:
                predicted += [(r["start"] + w["start"], r["start"] + w["end"]) for w in wrong]
            else:
                predicted.append((r["start"], r["start"] + len(r["text"])))
        scores.append(span_iou(group[0]["hard"], predicted))
    return 100 * sum(scores) / max(len(scores), 1)


def report(records: list[dict[str, Any]], forms: list[str]) -> None:
    """The tables: per dataset, today's band and each rule × form × values per item, by half."""
    for name in GROUPS:
        rows = [r for r in records if group_of(r) == name]
        if not rows:
            continue
        answers = list(dict.fromkeys(r["answer"] for r in rows))
        middle = len(answers) // 2
        halves = {"first half": set(answers[:middle]), "second half": set(answers[middle:]),
                  "all": set(answers)}
        mushroom = name.startswith("mushroom")
        false, found = sum(not r["gold"] for r in rows), sum(bool(r["passages"]) for r in rows)
        print(f"\n### {name}: {len(rows)} items ({len(answers)} answers), {false} false, "
              f"{found} with passages\n")
        head = "| rule | form | values | " + " | ".join(halves) + " | unverified | calls/item | s/item |"
        head += " span IoU |" if mushroom else ""
        print(head)
        print("|---" * (head.count("|") - 1) + "|")
        setups: list[tuple[str, Rule, str | None, int]] = [("today's band", rule_band, None, 0)]
        setups += [(rule_name, rule, form, k) for rule_name, rule in RULES.items() for form in forms
                   for k in (1, 2, 3)]
        for rule_name, rule, form, k in setups:
            if form and not any(form in r.get("readings", {}) for r in rows):
                continue
            scoped = [r for r in rows if not form or form in r.get("readings", {}) or not r["passages"]]
            cells = []
            for members in halves.values():
                part = [r for r in scoped if r["answer"] in members]
                labels = [rule(r, form or "cloze", k)[0] for r in part]
                cells.append(f"{_ba([r['gold'] for r in part], labels):.1f}")
            labels = [rule(r, form or "cloze", k)[0] for r in scoped]
            open_share = 100 * sum(label == "unverified" for label in labels) / max(len(labels), 1)
            calls, seconds = _cost(scoped, form, k)
            line = (f"| {rule_name} | {form or '-'} | {k or '-'} | {' | '.join(cells)} | {open_share:.0f}% | "
                    f"{calls:.2f} | {seconds:.1f} |")
            if mushroom:
                line += f" {_iou(scoped, rule, form or 'cloze', k):.1f} |"
            print(line)
        if mushroom:
            mark_all = sum(__import__("factjudge.eval.metrics", fromlist=["span_iou"]).span_iou(
                g[0]["hard"], [(0, len(g[0]["answer_text"]))]) for g in _by_answer(rows).values())
            print(f"\nmark every character: {100 * mark_all / len(answers):.1f}")


def _by_answer(rows: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    groups: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault(r["answer"], []).append(r)
    return groups


def span_coverage() -> None:
    """No model: how many values items have, and how many of Mu-SHROOM's error spans they reach."""
    from factjudge.text.values import value_spans

    print("\n### Values per item, and Mu-SHROOM val error spans a value overlaps (all answers)\n")
    print("| data | items | values per item (all) | error spans | overlapped by any value | by the first 1 | "
          "2 | 3 |\n|---|---|---|---|---|---|---|---|")
    for name in ("felm", "factool", "mushroom-en", "mushroom-es", "mushroom-fr"):
        rows = list(items(name, 1000))
        counts = [len(value_spans(r["text"], question=r["question"], lang=r["lang"])) for r in rows]
        hits = dict.fromkeys(("any", 1, 2, 3), 0)
        total = 0
        for r in rows:
            for start, end in r.get("hard", []):
                if not (r["start"] <= start < r["start"] + len(r["text"])):
                    continue
                total += 1
                found = value_spans(r["text"], question=r["question"], lang=r["lang"])
                for key in hits:
                    kept = found if key == "any" else found[:key]  # type: ignore[misc]
                    hits[key] += any(r["start"] + v.start < end and start < r["start"] + v.end for v in kept)
        cells = " | ".join(f"{100 * hits[key] / total:.0f}%" if total else "-" for key in hits)
        print(f"| {name} | {len(rows)} | {sum(counts) / max(len(rows), 1):.2f} | {total or '-'} | {cells} |")


def main() -> None:
    """Parse the options, record what is missing, print the tables."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", default="swap,felm", help=f"comma-separated: {', '.join(DATASETS)}, or all")
    parser.add_argument("--limit", type=int, default=10,
                        help="answers per dataset (swap: pairs per language)")
    parser.add_argument("--forms", default="cloze", help="cloze, question or both (comma-separated)")
    parser.add_argument("--spans", type=int, default=3, help="values asked per item at most")
    parser.add_argument("--model", default="local")
    parser.add_argument("--runs", type=Path, default=ROOT / "runs" / "answer_compare")
    parser.add_argument("--print-only", action="store_true", help="print what is recorded, call no model")
    parser.add_argument("--spans-only", action="store_true",
                        help="no model: values per item and Mu-SHROOM error spans they reach")
    parser.add_argument("--no-echo", action="store_true",
                        help="count a read value the item states elsewhere as a contradiction")
    parser.add_argument("--errors", type=int, default=0, metavar="K",
                        help="also list rule (a)'s false alarms and misses with K cloze values")
    args = parser.parse_args()
    args.datasets = list(DATASETS) if args.data == "all" else args.data.split(",")
    unknown = set(args.datasets) - set(DATASETS)
    if unknown:
        parser.error(f"unknown dataset(s): {', '.join(sorted(unknown))}")
    if args.spans_only:
        span_coverage()
        return
    if not args.print_only:
        run(args)
    global ECHO
    ECHO = not args.no_echo
    records = merged(args.runs / "records.jsonl")
    report(records, ["cloze", "question"])
    if args.errors:
        print(f"\n### Rule (a), cloze, {args.errors} values: false alarms and misses\n")
        errors(records, args.errors)


if __name__ == "__main__":
    main()
