"""The model-free measurements behind two rules of the RAG judge, on RAGTruth's summary and data2txt
answers (dev; the QA task is kept apart and never read here).

    python benchmarks/ragtruth_words.py          # about a minute, no model
    python benchmarks/ragtruth_words.py --limit 20   # the first 20 answers of each task: seconds

1. Nearly word for word (``judges.verbatim.NEARLY_VERBATIM``): for each answer sentence (as a check
   cuts it), the largest share of its content words and numbers one source sentence holds; per bar, how
   many sentences reach it and how many of those hold a marked hallucination.
2. Every word in the context (``judges.verbatim.IN_CONTEXT``): for each answer sentence, the share of
   its content words and numbers the whole source holds (pooled, not one sentence of it; not in a
   clause that denies them, ``unsupported.affirmed``, as the rule counts them); per bar, how
   many sentences reach it, how many of those hold a marked hallucination, and the share of all marked
   sentences they are (what a rule supporting them would cost a perfect judge).
3. Spans as phrases (``judges.decision.PHRASE_JOIN``): character-level span F1 of the ways to mark a
   false sentence (its words no source holds, those words joined into phrases across at most N words the
   source holds, or the whole sentence), if the sentences with a marked span were found with recall r
   and the clean ones flagged at rate f (r = 1, f = 0: a perfect judge of sentences).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from factjudge.eval.datasets import Example, load_dataset
from factjudge.text.segmenter import segment
from factjudge.text.unsupported import affirmed, context_share, stated_share, unsupported_spans

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
TASKS = ("summary", "data2txt")
BARS = (1.0, 0.95, 0.9, 0.85, 0.8, 0.7)
# name -> join (None: single words; a large join: from the first flagged word to the last)
MARKINGS: dict[str, int | None] = {"words": None, "phrases, join 0": 0, "phrases, join 1": 1,
                                   "phrases, join 2": 2, "first to last word": 1000}
DETECTORS = ((1.0, 0.0), (0.6, 0.1), (0.8, 0.2))


def _texts(ex: Example) -> list[str]:
    """What the judge reads: a record's passages apart, else the source as one passage."""
    return [ev.text for ev in ex.passages] or [ex.grounding]


def _overlaps(spans: Sequence[tuple[int, int]], start: int, end: int) -> bool:
    return any(a < end and start < b for a, b in spans)


def verbatim_table(examples: dict[str, list[Example]]) -> list[str]:
    """Per task and bar: sentences at or above it, and those holding a marked hallucination."""
    out = ["| task | sentences | marked | " + " | ".join(f"share ≥ {b:g}: sentences, marked" for b in BARS)
           + " |", "|---" * (3 + len(BARS)) + "|"]
    for task, part in examples.items():
        rows = []
        for ex in part:
            for sentence in segment(ex.answer):
                share, _ = stated_share(sentence.text, _texts(ex))
                rows.append((share, _overlaps(ex.spans, sentence.start, sentence.end)))
        cells = []
        for bar in BARS:
            reached = [bad for share, bad in rows if share >= bar]
            cells.append(f"{len(reached)}, {sum(reached)} ({100 * sum(reached) / max(1, len(reached)):.1f}%)")
        out.append(f"| {task} | {len(rows)} | {sum(bad for _, bad in rows)} | " + " | ".join(cells) + " |")
    return out


def context_table(examples: dict[str, list[Example]]) -> list[str]:
    """Per task and bar: sentences whose words the whole source holds at or above it, and the marked."""
    bars = (1.0, 0.9, 0.8)
    out = ["| task | sentences | marked | " + " | ".join(f"share ≥ {b:g}: sentences, marked (of all marked)"
                                                       for b in bars) + " |", "|---" * (3 + len(bars)) + "|"]
    for task, part in examples.items():
        rows = [(context_share(s.text, affirmed(s.text, _texts(ex))) or 0.0,
                 _overlaps(ex.spans, s.start, s.end)) for ex in part for s in segment(ex.answer)]
        marked = sum(bad for _, bad in rows)
        cells = []
        for bar in bars:
            reached = [bad for share, bad in rows if share >= bar]
            cells.append(f"{len(reached)}, {sum(reached)} ({100 * sum(reached) / max(1, len(reached)):.1f}%; "
                         f"{100 * sum(reached) / max(1, marked):.1f}%)")
        out.append(f"| {task} | {len(rows)} | {marked} | " + " | ".join(cells) + " |")
    return out


def _chars(spans: Sequence[tuple[int, int]]) -> set[int]:
    return {i for a, b in spans for i in range(a, b)}


def span_table(examples: dict[str, list[Example]]) -> list[str]:
    """Per task, marking and detector: the span F1 the marking would reach."""
    names = [*MARKINGS, "whole sentence"]
    out = ["| task | r, f | " + " | ".join(names) + " |", "|---" * (2 + len(names)) + "|"]
    for task, part in examples.items():
        # per marking: gold chars caught on marked sentences, chars marked on them, on clean ones
        caught, on_bad, on_clean = dict.fromkeys(names, 0), dict.fromkeys(names, 0), dict.fromkeys(names, 0)
        gold_total = 0
        for ex in part:
            gold = _chars(ex.spans)
            gold_total += len(gold)
            for sentence in segment(ex.answer):
                bad = _overlaps(ex.spans, sentence.start, sentence.end)
                for name in names:
                    join = MARKINGS.get(name)
                    found = [] if name == "whole sentence" else unsupported_spans(
                        sentence.text, _texts(ex), ex.answer, sentence.start, sentence.end, join=join)
                    # a false sentence that quotes nothing is marked whole, as the RAGTruth tables do
                    spans = [(s.start, s.end) for s in found] or [(sentence.start, sentence.end)]
                    marked = _chars(spans)
                    if bad:
                        caught[name] += len(marked & gold)
                        on_bad[name] += len(marked)
                    else:
                        on_clean[name] += len(marked)
        for recall, rate in DETECTORS:
            cells = []
            for name in names:
                tp, predicted = recall * caught[name], recall * on_bad[name] + rate * on_clean[name]
                p, r = tp / predicted if predicted else 0.0, tp / gold_total if gold_total else 0.0
                cells.append(f"{200 * p * r / (p + r):.1f}" if p + r else "–")
            out.append(f"| {task} | {recall:g}, {rate:g} | " + " | ".join(cells) + " |")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Print both tables."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DATA, help="the folder of ragtruth_summary.jsonl and "
                        "ragtruth_data2txt.jsonl (default ../shared/data)")
    parser.add_argument("--limit", type=int, help="the first N answers of each task (default: all)")
    args = parser.parse_args(argv)
    examples = {task: load_dataset(args.data / f"ragtruth_{task}.jsonl")[: args.limit] for task in TASKS}
    print("Nearly word for word: answer sentences whose words one source sentence holds\n")
    print("\n".join(verbatim_table(examples)))
    print("\nEvery word in the context: answer sentences whose words the whole source holds\n")
    print("\n".join(context_table(examples)))
    print("\nSpan F1 of each marking, sentences found with recall r, clean ones flagged at rate f\n")
    print("\n".join(span_table(examples)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
