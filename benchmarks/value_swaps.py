"""Build the value-swap dev set: true sentences from Wikipedia leads, false ones with one value swapped.

    python benchmarks/value_swaps.py            # writes benchmarks/data/value_swaps.jsonl (seed 32)
    python benchmarks/value_swaps.py --per-language 70 --seed 32
    python benchmarks/value_swaps.py --in-lead  # benchmarks/data/value_swaps_in_lead.jsonl
    python benchmarks/value_swaps.py --articles 300 --per-language 2 --out /tmp/s.jsonl  # a quick run

From the packaged lead summaries (the ``wiki`` extra; files found and hash-checked by
``factjudge.retrieval.wiki.packaged``, the package itself never imported), per language (en, es,
fr): articles in a seeded order, one sentence of each lead that holds a value of a kind that can
be swapped, kept as a true item; the same sentence with that value replaced by a value of the same
kind from another article is the false item. Kinds: a year for a year, a full date for a date, a
number for a number with the same unit (differing by at least a third), a person for a person, a
place for a place (names typed by the article they title: its topic is people, or geography).
A replacement never occurs in the source article's lead, so the false item is false by what the
lead says. With ``--in-lead`` the replacement is a value of the same kind that the same lead states
in another sentence: the passage the judge reads names it, as "Its capital is Ottawa and its
largest cities are Toronto…" names Toronto (the failure a Yes/No judge that follows word overlap
makes). Each item carries the question a user would have asked (about the article's topic),
the value it states, the original value, the kind and the value's offsets in the item.
"""

from __future__ import annotations

import argparse
import json
import random
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "data" / "value_swaps.jsonl"
IN_LEAD = ROOT / "benchmarks" / "data" / "value_swaps_in_lead.jsonl"
LANGS = {"en": "en", "es": "es", "fr": "fr"}
ASK = {"en": "Tell me about {}.", "es": "Háblame de {}.", "fr": "Parle-moi de {}."}
# The packaged summaries' topic names for people and for geography, per language.
PEOPLE = {"People", "Personas", "Personnalités"}
GEOGRAPHY = {"Geography", "Geografía", "Géographie"}
MIN_CHARS, MAX_CHARS = 40, 260


def fold(text: str) -> str:
    """Case and accents ignored."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def articles(lang: str) -> dict[str, dict[str, Any]]:
    """title → {title, extract, description, topic} of one language's packaged summaries."""
    from factjudge.retrieval.wiki.packaged import data_files, verified_digest

    files = data_files()
    verified_digest(files)
    return json.loads(files[lang].read_text(encoding="utf-8"))


def swap_key(span: Any, typed: dict[str, str]) -> str | None:
    """The pool a value is swapped within: year, date, number:UNIT, person, place; None: not swapped."""
    from factjudge.text.value_match import amounts

    if span.kind in ("year", "date"):
        return span.kind
    if span.kind == "number":
        found = amounts(span.text)
        return f"number:{found[0][1]}" if found and found[0][0] >= 2 else None
    return typed.get(fold(span.text))


def candidates(lang: str, data: dict[str, dict[str, Any]], limit: int | None = None
               ) -> Iterator[dict[str, Any]]:
    """Every (article, sentence, swappable value) of a language's leads (of its first ``limit`` articles)."""
    from factjudge.text.segmenter import split_sentences
    from factjudge.text.values import value_spans

    typed = {fold(a["title"]): "person" for a in data.values() if a.get("topic") in PEOPLE}
    typed.update({fold(a["title"]): "place" for a in data.values() if a.get("topic") in GEOGRAPHY})
    for title, article in list(data.items())[:limit]:
        for sentence in split_sentences(article.get("extract") or ""):
            if not MIN_CHARS <= len(sentence) <= MAX_CHARS or "\n" in sentence:
                continue
            for span in value_spans(sentence, question=ASK[lang].format(title), lang=lang):
                key = swap_key(span, typed)
                if key:
                    yield {"title": title, "sentence": sentence, "span": span, "key": key,
                           "lead": article.get("extract") or ""}


def replacement(case: dict[str, Any], pool: list[dict[str, Any]], rng: random.Random,
                in_lead: bool = False) -> dict[str, Any] | None:
    """A value of the same pool from another article that the source lead does not state, or with
    ``in_lead`` one its lead states in another sentence (the passage names it: "Toronto" for Ottawa)."""
    from factjudge.text.value_match import amounts, times

    lead = fold(case["lead"])
    stated = case["span"].text
    for other in rng.sample(pool, min(len(pool), 40)):
        text = other["span"].text
        if fold(text) == fold(stated) or fold(text) in fold(case["sentence"]):
            continue
        if (other["title"] == case["title"]) != in_lead or (fold(text) in lead) != in_lead:
            continue
        if case["key"].startswith("number:"):
            a, b = amounts(stated)[0][0], amounts(text)[0][0]
            if not (b > 1.34 * a or a > 1.34 * b):
                continue
        if case["key"] in ("year", "date"):
            said, other_time = times(stated), times(text)
            if not said or not other_time or abs(said[0][0] - other_time[0][0]) < 3:
                continue
        return other
    return None


def build(per_language: int, seed: int, in_lead: bool = False, articles_read: int | None = None
          ) -> list[dict[str, Any]]:
    """The swap set: ``per_language`` true/false pairs per language, kinds mixed, deterministic; with
    ``in_lead``, each false value taken from another sentence of the same lead; ``articles_read``: the
    values of only the first articles of each language (all by default)."""
    rows: list[dict[str, Any]] = []
    for lang in LANGS:
        rng = random.Random(f"{seed}-{lang}")
        data = articles(lang)
        found = list(candidates(lang, data, articles_read))
        pools: dict[str, list[dict[str, Any]]] = {}
        for case in found:
            pools.setdefault(case["key"], []).append(case)
        by_article: dict[str, list[dict[str, Any]]] = {}
        for case in found:
            by_article.setdefault(case["title"], []).append(case)
        order = sorted(by_article)
        rng.shuffle(order)
        kinds = ("year", "date", "number", "person", "place")
        quota = {kind: per_language // len(kinds) + (i < per_language % len(kinds))
                 for i, kind in enumerate(kinds)}
        for title in order:
            if not any(quota.values()):
                break
            options = [c for c in by_article[title] if quota[c["key"].split(":")[0]] > 0]
            if not options:
                continue
            case = rng.choice(options)
            pool = ([c for c in by_article[title] if c["key"] == case["key"]] if in_lead
                    else pools[case["key"]])
            other = replacement(case, pool, rng, in_lead)
            if other is None:
                continue
            quota[case["key"].split(":")[0]] -= 1
            span, new = case["span"], other["span"].text
            false_item = case["sentence"][: span.start] + new + case["sentence"][span.end :]
            pair = len(rows) // 2
            common = {"lang": lang, "title": title, "question": ASK[lang].format(title),
                      "kind": case["key"].split(":")[0], "original": span.text}
            rows.append({"id": f"swap-{lang}-{pair}-true", "pair": pair, **common, "item": case["sentence"],
                         "label": True, "stated": span.text, "start": span.start, "end": span.end})
            rows.append({"id": f"swap-{lang}-{pair}-false", "pair": pair, **common, "item": false_item,
                         "label": False, "stated": new, "start": span.start, "end": span.start + len(new),
                         "swapped_from": other["title"]})
    return rows


def main() -> None:
    """Build the set and write it, one item a line."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--per-language", type=int, default=70, help="true/false pairs per language")
    parser.add_argument("--seed", type=int, default=32)
    parser.add_argument("--in-lead", action="store_true",
                        help="a value the same lead states elsewhere (writes value_swaps_in_lead.jsonl)")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--articles", type=int, help="read only the first N articles of each language")
    args = parser.parse_args()
    args.out = args.out or (IN_LEAD if args.in_lead else OUT)
    rows = build(args.per_language, args.seed, args.in_lead, args.articles)
    args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    counts: dict[tuple[str, str], int] = {}
    for row in rows:
        if row["label"]:
            counts[(row["lang"], row["kind"])] = counts.get((row["lang"], row["kind"]), 0) + 1
    print(f"{len(rows)} items ({len(rows) // 2} pairs) written to {args.out}")
    for (lang, kind), n in sorted(counts.items()):
        print(f"  {lang} {kind}: {n} pairs")


if __name__ == "__main__":
    main()
