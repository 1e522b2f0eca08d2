"""Is the right article found? Article hit@1 of Wikipedia reading, before and after entity linking.

    python benchmarks/linking.py                       # this checkout, and the code of --before beside it
    python benchmarks/linking.py --before 16a9e94 --per-kind 40

Three sets, no model call (reading is retrieval):
- **the linking set**, built here from the packaged summaries themselves (en, es, fr; ``--per-kind``
  articles of each kind, drawn with a fixed seed): each article asked about by another name than its
  title: a person's surname ("Who was Cervantes?"), the words before "of" ("the Great Wall"), the
  title without its disambiguation ("Mercury", the answer saying what it is), a person's given name and
  surname where no name of theirs writes the two together ("Wolfgang Mozart", "Lev Trotski"), a request
  opening the question ("Describe the …", "Háblame de …", "Parle-moi de …"), the whole question in lower case,
  and, where the same title has an English article too, an answer in Spanish or French (the article
  must be the answer's language's); plus names of nobody the summaries know ("unverified when
  absent": no article may be read). The answer is the lead's first sentence with its subject said
  by that name. Common nouns are asked about in lower case, as their leads say them: singular with
  its article ("What should I know about the cat?", "¿Qué sabemos sobre el parto?", "Que sait-on sur
  l'oignon ?", kind "noun"), plural ("Why are ants important?", kind "nouns"); and nouns the leads
  write after an article that no article of any language is titled by ("absent noun": no article may
  be linked; a question naming nothing known is searched, as before).
- **Mu-SHROOM val** (en, es, fr): the article the annotators checked (``wikipedia_url``) against
  the article read for the answer's first sentence, over the answers whose article the summaries hold.
- **FELM world knowledge**: the Wikipedia pages among an answer's references against the article read
  for its first segment, over the answers one of whose pages the summaries hold.

``--before REV`` runs the same sets with the code of git revision REV (a temporary worktree), so
the table shows before and after from one command.

Verdicts over these subjects (the swap sets, true sentences in other words, FELM, FacTool) are
``world_table.py``'s, which prints this table beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from read_values import _jsonl
from wiki_evidence import _title

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
LANGS = ("en", "es", "fr")
# Question wordings per language: (kind, template); {name} is how the subject is said.
QUESTIONS = {
    "en": {"surname": "Who was {name}?", "head": "Tell me about the {name}.", "base": "What is {name}?",
           "request": "Describe the {name}.", "lower": "what is the {name}?", "absent": "Who is {name}?"},
    "es": {"surname": "¿Quién fue {name}?", "head": "Háblame de {name}.", "base": "¿Qué es {name}?",
           "request": "Háblame de {name}.", "lower": "¿qué es {name}?", "absent": "¿Quién es {name}?",
           "language": "¿Qué es {name}?"},
    "fr": {"surname": "Qui était {name} ?", "head": "Parle-moi de {name}.", "base": "Qu'est-ce que {name} ?",
           "request": "Parle-moi de {name}.", "lower": "qu'est-ce que {name} ?", "absent": "Qui est {name} ?",
           "language": "Qu'est-ce que {name} ?"},
}
_COPULA = re.compile(r"\s(?:is|was|are|were|es|fue|son|era|est|fut|était|sont)\s")
_LIFESPAN = re.compile(r"\((?:c\. ?)?\d{3,4} ?[–-] ?(?:c\. ?)?\d{2,4}\)|\(born \d{4}\)")
_PEOPLE = {"People", "Personas", "Personnalités"}
_ARTICLE = re.compile(r"(?:the|a|an|el|la|los|las|le|les|l')\s", re.IGNORECASE)
_PLAIN = re.compile(r"^[A-Z][a-z]+$")
# A common noun asked about in lower case, with the article its lead gives it ("the cat", "el parto",
# "l'oignon"), or in the plural ("ants", "los gatos", "les oignons"); and a noun no article is titled by.
NOUNS = {
    "en": {"noun": "What should I know about {name}?", "nouns": "Why are {name} important?",
           "absent noun": "What should I know about {name}?"},
    "es": {"noun": "¿Qué sabemos sobre {name}?", "nouns": "¿Por qué son importantes {name}?",
           "absent noun": "¿Qué sabemos sobre {name}?"},
    "fr": {"noun": "Que sait-on sur {name} ?", "nouns": "Pourquoi les {name} sont-ils importants ?",
           "absent noun": "Que sait-on sur {name} ?"},
}
# The article a lead's subject opens with, and the plural one (French says "les" in the question).
_NOUN_HEAD = re.compile(r"^(the|an?|el|la|un|una|le|une|l['’])\s*([^\W\d_]+)$", re.IGNORECASE)
_PLURAL_ARTICLE = {"el": "los ", "un": "los ", "la": "las ", "una": "las "}
_SAID = {"en": " is the subject of many books.", "es": " es tema de muchos libros.",
         "fr": " fait l'objet de nombreux livres."}


@dataclass(frozen=True)
class Case:
    """One linking question: what is asked and answered, the article expected (None: none), its language."""

    set: str
    kind: str
    lang: str
    question: str
    answer: str
    gold: tuple[str, ...]
    gold_lang: str | None = None


def _summaries() -> dict[str, dict[str, dict]]:
    from factjudge.retrieval.wiki.packaged import data_files

    return {lang: json.loads(path.read_text(encoding="utf-8")) for lang, path in data_files().items()}


def _first_sentence(lead: str) -> tuple[str, str] | None:
    """The subject the lead's first sentence names, and the rest of that sentence from its verb on."""
    verb = _COPULA.search(lead[:300])
    if verb is None:
        return None
    end = re.search(r"[.!?](?:\s|$)", lead[verb.start():])
    rest = lead[verb.start(): verb.start() + end.end()].strip() if end else lead[verb.start():].strip()
    return lead[: verb.start()], " " + rest


def linking_set(per_kind: int, seed: int = 0) -> list[Case]:
    """The linking set, drawn from the packaged summaries with ``seed``."""
    summaries = _summaries()
    rng = random.Random(seed)
    cases: list[Case] = []
    for lang in LANGS:
        entries = sorted(summaries[lang].values(), key=lambda e: e["title"])
        others = {t for code, found in summaries.items() if code != lang for t in found}
        by_kind: dict[str, list[tuple[str, dict, str]]] = defaultdict(list)
        for entry in entries:
            title, lead = entry["title"], entry.get("extract") or ""
            if _first_sentence(lead) is None:
                continue
            words = title.split()
            person = entry.get("topic") in _PEOPLE or bool(_LIFESPAN.search(entry.get("description") or ""))
            if person and 2 <= len(words) <= 3 and all(_PLAIN.match(w) for w in words):
                by_kind["surname"].append((words[-1], entry, title))
            for joiner in (" of ", " de ", " du "):
                head = title.split(joiner)[0]
                # As people shorten a name: "the Great Wall", never "the The Lord" or "Camillo Benso, Count".
                if joiner in title and len(head.split()) >= 2 and not re.search(r"[(,]", title) \
                        and not _ARTICLE.match(title):
                    by_kind["head"].append((head, entry, title))
                    break
            if title.endswith(")") and " (" in title:
                by_kind["base"].append((title.split(" (")[0], entry, title))
            if "(" not in title:
                by_kind["request"].append((title, entry, title))
                if len(words) >= 2:
                    by_kind["lower"].append((title.lower(), entry, title))
                if lang != "en" and title in summaries["en"] and title in others:
                    by_kind["language"].append((title, entry, title))
        for kind, found in sorted(by_kind.items()):
            if kind not in QUESTIONS[lang]:
                continue
            for name, entry, title in rng.sample(found, min(per_kind, len(found))):
                _, rest = _first_sentence(entry["extract"])  # type: ignore[misc]
                said = name if kind != "lower" else name[:1].upper() + name[1:]
                answer = (said + rest) if kind != "lower" else (said + rest).lower()
                cases.append(Case("linking", kind, lang, QUESTIONS[lang][kind].format(name=name), answer,
                                  (title,), lang if kind == "language" else None))
        # Drawn apart, so that the other kinds draw the same articles as before these kinds were added.
        cases += _noun_cases(lang, entries, summaries, per_kind, random.Random(f"nouns {seed} {lang}"))
        cases += _given_cases(lang, entries, summaries, per_kind, random.Random(f"given {seed} {lang}"))
        # Names of nobody the summaries know: a first name and a surname of two different people.
        people = [e["title"].split() for e in entries if _LIFESPAN.search(e.get("description") or "")
                  and len(e["title"].split()) == 2 and all(_PLAIN.match(w) for w in e["title"].split())]
        firsts, lasts = sorted({p[0] for p in people}), sorted({p[1] for p in people})
        known = {t.casefold() for found in summaries.values() for t in found}
        absent = 0
        while absent < per_kind:
            name = f"{rng.choice(firsts)} {rng.choice(lasts)}"
            if name.casefold() in known:
                continue
            answer = {"en": f"{name} is a retired actor born in 1951.",
                      "es": f"{name} es un actor retirado nacido en 1951.",
                      "fr": f"{name} est un acteur retraité né en 1951."}[lang]
            asked = QUESTIONS[lang]["absent"].format(name=name)
            cases.append(Case("linking", "absent", lang, asked, answer, ()))
            absent += 1
    return cases


def _given_cases(lang: str, entries: list[dict], summaries: dict[str, dict[str, dict]], per_kind: int,
                 rng: random.Random) -> list[Case]:
    """People called by a given name and their surname where no name of theirs writes the two together
    (kind "given"): the first and last words of a title of three ("Wolfgang Mozart" of *Wolfgang Amadeus
    Mozart*), or the first word of the name the lead gives and the title's last ("Lev Trotski" of *León
    Trotski*, "Lev Davídovich Bronstein, más conocido como León Trotski")."""
    from factjudge.retrieval.wiki.linking import Entry, is_person

    known = {t.casefold() for found in summaries.values() for t in found}
    found: list[tuple[str, str, str]] = []  # the name said, the rest of the lead's first sentence, the title
    for entry in entries:
        title, lead = entry["title"], entry.get("extract") or ""
        words, opening = title.split(), _first_sentence(lead)
        person = is_person(Entry(title, lang, entry.get("description") or "", entry.get("topic") or "", lead))
        if not person or opening is None or not all(_PLAIN.match(w) for w in words):
            continue
        given = (opening[0].split() or [""])[0]
        if len(words) == 3:
            name = f"{words[0]} {words[2]}"
        elif len(words) == 2 and _PLAIN.match(given) and given != words[0]:
            name = f"{given} {words[1]}"
        else:
            continue
        if name.casefold() not in known:
            found.append((name, opening[1], title))
    asked = QUESTIONS[lang]["surname"]
    return [Case("linking", "given", lang, asked.format(name=name), name + rest, (title,))
            for name, rest, title in rng.sample(found, min(per_kind, len(found)))]


def _noun_cases(lang: str, entries: list[dict], summaries: dict[str, dict[str, dict]], per_kind: int,
                rng: random.Random) -> list[Case]:
    """Common nouns asked about in lower case: an article titled by one word its lead writes in lower
    case after an article ("The cat is …" → "What should I know about the cat?"), singular and plural;
    and nouns the leads write so that no article of any language is titled by ("absent noun")."""
    from factjudge.text.fold import fold

    titles = {fold(re.sub(r"\s*\(.*\)$", "", t)) for found in summaries.values() for key, e in found.items()
              for t in (key, e.get("title") or key)}
    by_kind: dict[str, list[tuple[str, dict, str]]] = defaultdict(list)
    for entry in entries:
        title, lead = entry["title"], entry.get("extract") or ""
        first = _first_sentence(lead)
        if first is None or not re.fullmatch(r"[^\W\d_]+", title) or entry.get("topic") in _PEOPLE:
            continue
        head = _NOUN_HEAD.match(re.sub(r"\s*\([^()]*\)", "", first[0]).split(",")[0].strip())
        if head is None or fold(head.group(2)) != fold(title) or not head.group(2).islower():
            continue
        article, noun = head.group(1).lower(), head.group(2)
        by_kind["noun"].append((article + ("" if article[-1] in "'’" else " ") + noun, entry, title))
        plural = next((w for w in re.findall(r"[^\W\d_]+", lead) if w.islower() and w != noun
                       and fold(w) in {fold(noun) + "s", fold(noun) + "es", fold(noun) + "x"}), None)
        if plural and (lang != "es" or article in _PLURAL_ARTICLE):
            by_kind["nouns"].append((_PLURAL_ARTICLE.get(article, "") + plural, entry, title))
    cases: list[Case] = []
    for kind, found in sorted(by_kind.items()):
        for name, entry, title in rng.sample(found, min(per_kind, len(found))):
            head, rest = _first_sentence(entry["extract"])  # type: ignore[misc]
            said = re.sub(r"\s*\([^()]*\)", "", head).split(",")[0].strip()  # "The cat (Felis catus), …"
            cases.append(Case("linking", kind, lang, NOUNS[lang][kind].format(name=name), said + rest,
                              (title,)))
    # Nouns the leads write after an article, which no article of any language is titled by, whatever
    # the number: "What should I know about the harbour?" reads no article.
    counts: dict[tuple[str, str], int] = defaultdict(int)
    pattern = {"en": r"\b(the) ([a-z]{5,})\b", "es": r"\b(el|la) ([a-záéíóúñ]{5,})\b",
               "fr": r"\b(le|la) ([a-zàâçéèêëîïôûù]{5,})\b"}[lang]
    for entry in entries:
        for found in set(re.findall(pattern, entry.get("extract") or "")):
            counts[found] += 1
    title_words = {w for t in titles for w in t.split()}
    absent = sorted(pair for pair, n in counts.items() if n >= 5 and not any(
        form in titles or form in title_words for form in _forms(fold(pair[1]))))
    for article, noun in rng.sample(absent, min(per_kind, len(absent))):
        name = f"{article} {noun}"
        cases.append(Case("linking", "absent noun", lang, NOUNS[lang]["absent noun"].format(name=name),
                          name[:1].upper() + name[1:] + _SAID[lang], ()))
    return cases


def _forms(word: str) -> set[str]:
    """A folded noun, its plurals and its singulars, however en/es/fr write them."""
    forms = {word, word + "s", word + "es", word + "x"}
    for end, rest in (("ies", "y"), ("aux", "al"), ("es", ""), ("s", ""), ("x", "")):
        if word.endswith(end):
            forms.add(word[: -len(end)] + rest)
    return forms


def gold_sets() -> list[Case]:
    """Mu-SHROOM val (en, es, fr) and FELM world knowledge, where the summaries hold a gold article."""
    from factjudge.text.segmenter import split_sentences

    held = {lang: set(found) for lang, found in _summaries().items()}
    cases: list[Case] = []
    for lang in LANGS:
        for row in _jsonl(DATA / "mushroom_val" / f"mushroom.{lang}-val.v2.extra.jsonl"):
            found = _title(row.get("wikipedia_url") or "")
            if found and found[1] in held.get(found[0], set()):
                first = (split_sentences(row["model_output_text"]) or [row["model_output_text"]])[0]
                cases.append(Case("mushroom", "gold", lang, row["model_input"], first, (found[1],)))
    for row in _jsonl(DATA / "felm_all.jsonl"):
        if row.get("domain") != "wk":
            continue
        titles = tuple(t for lang, t in filter(None, map(_title, row.get("ref") or []))
                       if lang == "en" and t in held["en"])
        if titles:
            cases.append(Case("felm", "gold", "en", row["prompt"], row["segmented_response"][0], titles))
    return cases


def run(cases: list[Case]) -> list[dict]:
    """Read each case's answer as one item; what article (and language) it was read in."""
    from factjudge.retrieval.wiki import open_wiki
    from factjudge.retrieval.wiki.topic import Subjects

    wiki = open_wiki("packaged")
    out = []
    for case in cases:
        reading = wiki.read(case.answer, 3, subjects=Subjects.of(case.question, case.answer))
        url = reading.evidence[0].url if reading.evidence else None
        lang = urlsplit(url).netloc.split(".")[0] if url else None
        if case.gold:
            hit = reading.article in case.gold and (case.gold_lang is None or lang == case.gold_lang)
        elif case.kind == "absent noun":
            hit = reading.article is None  # a question naming nothing known is searched, as before linking
        else:
            hit = reading.article is None and not reading.evidence
        out.append({"set": case.set, "kind": case.kind, "lang": case.lang, "hit": hit,
                    "article": reading.article, "gold": list(case.gold), "question": case.question})
    return out


def _table(results: dict[str, list[dict]], kinds: bool = True) -> None:
    """Hit@1 of each reading side by side, per set, language and (``kinds``) way of naming the subject."""
    rows: dict[tuple[str, str, str], dict[str, list[bool]]] = defaultdict(dict)
    for name, found in results.items():
        for r in found:
            keys = ((r["set"], r["kind"], r["lang"]), (r["set"], "all", r["lang"]), (r["set"], "all", "all"))
            for key in keys if kinds else keys[1:]:
                rows[key].setdefault(name, []).append(r["hit"])
    names = list(results)
    print("| set | kind | lang | n | " + " | ".join(f"hit@1 {n}" for n in names) + " |")
    print("|---|---|---|---|" + "---|" * len(names))
    for key in sorted(rows):
        hits = rows[key]
        n = len(hits[names[0]])
        cells = " | ".join(f"{100 * sum(hits[n_]) / max(1, len(hits[n_])):.1f}" for n_ in names)
        print(f"| {key[0]} | {key[1]} | {key[2]} | {n} | {cells} |")


def main() -> None:
    """Build the sets, read them with this code (and ``--before``'s), print hit@1 side by side."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--per-kind", type=int, default=40, help="articles of each kind a language")
    parser.add_argument("--before", default="16a9e94",
                        help="git revision read beside this checkout ('' none)")
    parser.add_argument("--cases", type=Path, help=argparse.SUPPRESS)  # a child run: read these, print JSON
    parser.add_argument("--misses", type=int, default=0, help="print this many misses of this checkout")
    args = parser.parse_args()
    if args.cases:
        cases = [Case(**c) for c in json.loads(args.cases.read_text(encoding="utf-8"))]
        for c in cases:
            object.__setattr__(c, "gold", tuple(c.gold))
        print(json.dumps(run(cases)))
        return
    cases = linking_set(args.per_kind) + gold_sets()
    results = {"after": run(cases)}
    if args.before:
        results = {"before": _run_at(args.before, cases), **results}
    _table(results)
    misses = [r for r in results["after"] if not r["hit"]][: args.misses]
    for r in misses:
        print(f"miss [{r['set']}/{r['kind']}/{r['lang']}] {r['question']!r}: read {r['article']!r}, "
              f"gold {r['gold']}")


@contextmanager
def _code_of(revision: str | None) -> Iterator[tuple[Path, dict[str, str]]]:
    """Where the package of ``revision`` (None: this checkout) is, and the environment that imports it."""
    if not revision:
        yield ROOT, dict(os.environ)
        return
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(tree), revision],
                       check=True)
        try:
            yield tree, {**os.environ, "PYTHONPATH": str(tree)}
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False)


def _bench(run_dir: Path, data: Path, grid: list[str], model: str, revision: str | None = None,
           *extra: str) -> list[dict]:
    """Run (or resume) one bench, with the code of ``revision`` when given; its result lines."""
    command = [sys.executable, "-m", "factjudge.cli", "bench", str(data), "--grid", *grid, "--model", model,
               "--concurrency", "1", "--no-progress", "--run-dir", str(run_dir), "--deadline", "3600", *extra]
    if (run_dir / "manifest.json").exists():
        command.append("--resume")
    with _code_of(revision) as (tree, env):
        done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"bench failed ({' '.join(command)}):\n{done.stderr[-4000:]}")
    return [json.loads(line) for line in (run_dir / "results.jsonl").read_text(encoding="utf-8").splitlines()]


def _run_at(revision: str, cases: list[Case]) -> list[dict]:
    """``run`` with the package as it was at ``revision``, in a temporary worktree."""
    with _code_of(revision) as (tree, env), tempfile.TemporaryDirectory() as tmp:
        listed = Path(tmp) / "cases.json"
        listed.write_text(json.dumps([c.__dict__ for c in cases]), encoding="utf-8")
        done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--cases", str(listed)],
                              cwd=tree, env=env, check=True, capture_output=True, text=True)
        return json.loads(done.stdout.strip().splitlines()[-1])


if __name__ == "__main__":
    main()
