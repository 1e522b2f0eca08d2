"""The topic decides what may be read: FActScore's labelled biographies against the packaged Wikipedia.

    python benchmarks/wiki_topic.py --part retrieval        # no model: what each fact would be judged on
    python benchmarks/wiki_topic.py --part judge --bios covered           # the embedded judge (resumable)
    python benchmarks/wiki_topic.py --part judge --bios sample --limit 8  # bios the source lacks
    python benchmarks/wiki_topic.py --part table                          # the README table from the runs

``--model`` names the judge (``local``, the embedded one, by default; the tests' smoke run points it at
a scripted endpoint); ``--limit`` also cuts ``retrieval`` to the first biographies.

Data: ``benchmarks/data/factscore_bios.jsonl`` (FActScore's human-labelled biographies; its README).
Every S or NS fact people wrote for an answer is one item, as in FActScore (IR facts are left
out): its question is "Tell me a bio of <topic>." and the other facts of the answer are the
answer around it.

``retrieval`` reads, for every fact of the 183 ChatGPT biographies, the evidence the checker would
give the judge (``Gatherer`` with the packaged Wikipedia, the answer's topic found as the checker
finds it) and counts the facts with evidence, those read in the topic's article, and those resting
on a passage that does not mention the topic (neither from the topic's article nor naming the
person): the passages FActScore's authors found behind 70% of their judge's errors. Run it with
``PYTHONPATH`` at an older checkout for that code's figures (it then reads as that code did).

``judge`` checks each chosen biography's facts with the default set-up (the embedded judge, the
evidence strategy, the packaged Wikipedia): ``covered`` takes the biographies (of the three
systems in the file) whose topic the packaged summaries have an article about, ``sample`` the first
``--limit`` ChatGPT biographies whose topic they lack. One line a biography goes to
``--runs``/judge-<tag>.jsonl as soon as it is done, so a rerun skips it; ``table`` prints the
shares of facts left unverified and, per biography covered, the estimated FActScore (the share of
facts judged true; an unverified fact is not supported, as FActScore counts a fact its knowledge
source does not support) against the human one, and their mean absolute difference.
"""

from __future__ import annotations

import argparse
import inspect
import json
import re
import time
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "benchmarks" / "data" / "factscore_bios.jsonl"


def bios(systems: tuple[str, ...] = ("ChatGPT",)) -> Iterator[dict[str, Any]]:
    """The answered biographies of ``systems``, each with its S/NS facts as (text, supported)."""
    for line in DATA.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row["system"] not in systems or row["annotations"] is None:
            continue
        facts = [(f["text"], f["label"] == "S") for a in row["annotations"] for f in a["human-atomic-facts"]
                 if f["label"] in ("S", "NS")]
        if facts:
            yield {**row, "facts": facts}


def _fold(text: str) -> str:
    """Case and accents ignored (here, so that older checkouts are measured with the same test)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def mentions(passage: Any, topic: str) -> bool:
    """Whether a passage is about ``topic``: from its article, or naming the person (full or surname).

    A topic's disambiguation ("Ronaldo (Brazilian footballer)") is no part of the name a text uses.
    """
    name = re.sub(r"\s*\(.*\)$", "", topic)
    if _fold(passage.title or "") in (_fold(topic), _fold(name)):
        return True
    text = " " + " ".join(re.findall(r"\w+", _fold(passage.text))) + " "
    words = re.findall(r"\w+", _fold(name))
    return f" {' '.join(words)} " in text or (len(words[-1]) > 2 and f" {words[-1]} " in text)


def _gatherer(question: str, answer: str) -> Any:
    """The checker's gatherer for one answer: today's reads about the answer's subjects."""
    from factjudge.checking.gather import Gatherer
    from factjudge.config import CheckConfig

    config = CheckConfig(wiki="packaged")
    try:
        from factjudge.retrieval.wiki.topic import Subjects
    except ImportError:  # code from before the topic decided (d157028): the question's names
        return Gatherer.from_config(config, None, ("wiki",), "packaged")  # type: ignore[arg-type]
    return Gatherer.from_config(config, None, ("wiki",), "packaged",  # type: ignore[arg-type]
                                subjects=Subjects.of(question, answer))


def gathered(gatherer: Any, text: str, topics: list[str]) -> list[Any]:
    """The passages ``gatherer`` finds for ``text``: this checkout's (``gather(text, topics)`` returns
    a ``Gathered``) or an older one's (``gather(text, traces, topics)`` returns the list)."""
    if "traces" in inspect.signature(gatherer.gather).parameters:
        return list(gatherer.gather(text, [], topics))
    return list(gatherer.gather(text, topics).evidence)


def _question_names(question: str) -> list[str]:
    try:
        from factjudge.retrieval.wiki.names import title_candidates
    except ImportError:
        from factjudge.retrieval.wiki.base import title_candidates  # type: ignore[attr-defined,no-redef]
    return title_candidates([question])


def retrieval_part(args: argparse.Namespace) -> None:
    """What each fact of the ChatGPT biographies would be judged on, one line a biography."""
    import factjudge

    out = args.runs / f"retrieval-{args.tag}.jsonl"
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as sink:
        for bio in list(bios())[: args.limit]:
            gatherer = _gatherer(bio["input"], " ".join(text for text, _ in bio["facts"]))
            topics = _question_names(bio["input"])
            facts = [{"text": text, "human": supported,
                      "passages": [{"title": ev.title, "about_topic": mentions(ev, bio["topic"])}
                                   for ev in gathered(gatherer, text, topics)]}
                     for text, supported in bio["facts"]]
            sink.write(json.dumps({"id": bio["id"], "topic": bio["topic"], "input": bio["input"],
                                   "facts": facts}, ensure_ascii=False) + "\n")
    print(f"factjudge from {Path(factjudge.__file__).parent}: {out}")


def _retrieval_table(path: Path) -> None:
    """Facts with a passage, and those resting on a passage about neither the topic nor their subject."""
    from factjudge.retrieval.wiki.names import Names, fold
    from factjudge.retrieval.wiki.topic import Subjects

    counts = dict.fromkeys(("bios", "facts", "with", "topic_facts", "topic_unrelated", "other_facts",
                            "other_unrelated", "bios_unrelated"), 0)
    for line in path.read_text(encoding="utf-8").splitlines():
        bio = json.loads(line)
        subjects = Subjects.of(bio["input"], " ".join(f["text"] for f in bio["facts"]))
        counts["bios"] += 1
        unrelated_here = 0
        for fact in bio["facts"]:
            counts["facts"] += 1
            item = Names.of(fact["text"])
            lead = item.leading()
            # As the reading decides: about another name when the fact opens with a sure one that is
            # not the topic; about the topic otherwise.
            other = lead is not None and lead.sure and not subjects.mentions_topic(item)
            own = {fold(t) for t in (subjects.spelt_out(lead) if other and lead else ())}
            bad = [not p["about_topic"] and fold(p["title"] or "") not in own for p in fact["passages"]]
            counts["with"] += bool(fact["passages"])
            key = "other" if other else "topic"
            counts[f"{key}_facts"] += 1
            counts[f"{key}_unrelated"] += any(bad)
            unrelated_here += any(bad)
        counts["bios_unrelated"] += unrelated_here > 0
    n = max(counts["facts"], 1)
    print(f"\n{path.name}: {counts['bios']} ChatGPT biographies, {counts['facts']} S/NS facts")
    print(f"  with a passage (judged): {counts['with']} ({counts['with'] / n:.1%}); without (unverified, "
          f"no call): {counts['facts'] - counts['with']} ({1 - counts['with'] / n:.1%})")
    print(f"  about the topic: {counts['topic_facts']}; resting on a passage that does not mention it: "
          f"{counts['topic_unrelated']} ({counts['topic_unrelated'] / max(counts['topic_facts'], 1):.1%})")
    print(f"  opening with another name: {counts['other_facts']}; resting on a passage of neither that name "
          f"nor the topic: {counts['other_unrelated']} "
          f"({counts['other_unrelated'] / max(counts['other_facts'], 1):.1%})")
    print(f"  biographies with a fact on an unrelated passage: {counts['bios_unrelated']} of "
          f"{counts['bios']}")


def _covered_topics() -> set[str]:
    from factjudge.retrieval.wiki import open_wiki

    wiki: Any = open_wiki("packaged")
    return {bio["topic"] for bio in bios(("ChatGPT", "InstructGPT", "PerplexityAI"))
            if wiki.titles_for([bio["topic"]])}


def judge_part(args: argparse.Namespace) -> None:
    """Each chosen biography's facts checked by the default set-up; one line a biography (resumable)."""
    from factjudge.checking.checker import Checker
    from factjudge.checking.model_pool import build_model
    from factjudge.config import CheckConfig

    covered = _covered_topics()
    if args.bios == "covered":
        chosen = [b for b in bios(("ChatGPT", "InstructGPT", "PerplexityAI")) if b["topic"] in covered]
    else:
        chosen = [b for b in bios() if b["topic"] not in covered][: args.limit or 8]
    out = args.runs / f"judge-{args.tag}.jsonl"
    out.parent.mkdir(parents=True, exist_ok=True)
    done = {json.loads(line)["id"] for line in out.read_text(encoding="utf-8").splitlines()} \
        if out.is_file() else set()
    config = CheckConfig(model=args.model, wiki="packaged")
    checker = Checker(config, build_model(config))
    started = time.perf_counter()
    for bio in chosen:
        if bio["id"] in done:
            continue
        facts = [text for text, _ in bio["facts"]]
        result = checker.check(bio["input"], " ".join(facts), segments=facts, judge_all=True)
        rows = [{"human": supported, "label": v.label, "error_score": v.error_score,
                 "passages": len(v.evidence), "about_topic": [mentions(e, bio["topic"]) for e in v.evidence]}
                for (_, supported), v in zip(bio["facts"], result.segment_verdicts, strict=True)]
        with out.open("a", encoding="utf-8") as sink:
            sink.write(json.dumps({"id": bio["id"], "topic": bio["topic"], "system": bio["system"],
                                   "covered": bio["topic"] in covered, "strategy": result.strategy,
                                   "calls": result.usage.calls, "facts": rows}) + "\n")
        print(f"{bio['id']} {bio['topic']}: {len(rows)} facts, {result.usage.calls} calls "
              f"({time.perf_counter() - started:.0f} s)", flush=True)


def table_part(args: argparse.Namespace) -> None:
    """The README's figures from the retrieval and judge runs."""
    for path in sorted(args.runs.glob("retrieval-*.jsonl")):
        _retrieval_table(path)
    for path in sorted(args.runs.glob("judge-*.jsonl")):
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        facts = [f for r in rows for f in r["facts"]]
        if not facts:
            continue
        unverified = sum(f["label"] == "unverified" for f in facts)
        unrelated = sum(bool(f["about_topic"]) and not all(f["about_topic"]) for f in facts)
        print(f"\n{path.name}: {len(rows)} biographies, {len(facts)} facts; unverified {unverified} "
              f"({unverified / len(facts):.1%}); on a passage not about the topic {unrelated} "
              f"({unrelated / len(facts):.1%}); model calls {sum(r['calls'] for r in rows)}")
        covered = [r for r in rows if r["covered"]]
        if not covered:
            continue
        print("| biography | system | facts | human FActScore | estimated | unverified |")
        print("| --- | --- | ---: | ---: | ---: | ---: |")
        errors, human_all, est_all = [], [], []
        for r in covered:
            human = sum(f["human"] for f in r["facts"]) / len(r["facts"])
            estimate = sum(f["label"] == "true" for f in r["facts"]) / len(r["facts"])
            errors.append(abs(estimate - human))
            human_all.append(human)
            est_all.append(estimate)
            open_ = sum(f["label"] == "unverified" for f in r["facts"])
            print(f"| {r['topic']} | {r['system']} | {len(r['facts'])} | {human:.1%} | {estimate:.1%} | "
                  f"{open_} |")
        mean_h, mean_e = sum(human_all) / len(human_all), sum(est_all) / len(est_all)
        print(f"mean over {len(covered)} biographies: human {mean_h:.1%}, estimated {mean_e:.1%}, "
              f"|estimate - human| of the means {abs(mean_e - mean_h):.1%}, mean per biography "
              f"{sum(errors) / len(errors):.1%}")


def main() -> None:
    """Run one part."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=("retrieval", "judge", "table"), required=True)
    parser.add_argument("--bios", choices=("covered", "sample"), default="covered")
    parser.add_argument("--limit", type=int,
                        help="biographies: of --bios sample (default 8), of --part retrieval (default all)")
    parser.add_argument("--model", default="local", help="the judge of --part judge")
    parser.add_argument("--tag", default="after", help="names the judge run's file (before, after …)")
    parser.add_argument("--runs", type=Path, default=ROOT / "runs" / "wiki_topic")
    args = parser.parse_args()
    {"retrieval": retrieval_part, "judge": judge_part, "table": table_part}[args.part](args)


if __name__ == "__main__":
    main()
