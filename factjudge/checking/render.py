"""Human-readable terminal output of a CheckResult."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from factjudge.judges.strategies import strategy_named
from factjudge.records import CheckResult, Segment, Verdict
from factjudge.retrieval.wiki.reading import coverage_line
from factjudge.text.printable import printable
from factjudge.text.segmenter import split_sentences
from factjudge.text.tokenize import tokenize

MARKS = {
    "true": ("[green]✔ true[/]", "green"),
    "false": ("[red]✘ false[/]", "red"),
    "unverified": ("[yellow]? unverified[/]", "yellow"),
    "not_checkable": ("[dim]· not checkable[/]", "dim"),
    "unparseable": ("[yellow]? unparseable[/]", "yellow"),
}


def _mark(verdict: Verdict) -> str:
    """The label's mark; a close call (``Verdict.uncertain``) is marked in yellow, whatever the label."""
    mark, _ = MARKS[verdict.label]
    if verdict.uncertain:
        sign = "✔" if verdict.label == "true" else "✘"
        return f"[yellow]{sign} {verdict.label} (uncertain)[/]"
    return mark


def _score(verdict: Verdict) -> str:
    """The error score and the cut that made the label (false from …)."""
    if verdict.error_score is None:
        return ""
    cut = "" if verdict.cut is None else f", false from {verdict.cut:.2f}"
    return f" [dim](error score {verdict.error_score:.2f}{cut})[/]"


def print_result(result: CheckResult, console: Console | None = None) -> None:
    """Print each segment with its verdict, its claims under it, and a one-line summary."""
    console = console or Console(highlight=False)
    if result.model_note:
        console.print(f"[yellow]{escape(result.model_note)}[/]")
    claim_verdicts = {v.target_id: v for v in result.claim_verdicts}
    reads = strategy_named(result.strategy).reads_passages
    for seg, verdict in zip(result.segments, result.segment_verdicts, strict=False):
        text = _highlight(result, seg)
        console.print(f"{_mark(verdict)} [bold][{seg.id}][/] {text}{_score(verdict)}")
        claims = [c for c in result.claims if c.segment_id == seg.id]
        for claim in claims:
            cv = claim_verdicts.get(claim.id)
            cmark = _mark(cv) if cv else MARKS["not_checkable"][0]
            console.print(f"    {cmark} {escape(printable(claim.text))}{_score(cv) if cv else ''}")
            if cv and cv.label != "not_checkable":
                _print_grounds(console, cv, claim.text, reads, indent="        ")
        if not claims and verdict.label != "not_checkable":
            _print_grounds(console, verdict, seg.text, reads, indent="    ")
    if result.coverage is not None:  # which Wikipedia was read, and what it had an article for
        console.print(f"[dim]{escape(printable(coverage_line(result.coverage)))}[/]")
    counts = {label: sum(v.label == label for v in result.segment_verdicts) for label in MARKS}
    score = "n/a" if result.score is None else f"{result.score:.0%} of judged items true"
    usage = result.usage
    console.print(
        f"[bold]answer: {MARKS[result.label][0]}[/]  {score}; segments: {counts['true']} true, "
        f"{counts['false']} false, {counts['unverified']} unverified, {counts['not_checkable']} not "
        f"checkable, {counts['unparseable']} unparseable; {result.strategy}/{result.granularity} by "
        f"{_judge(result)}; "
        f"{usage.calls} calls ({usage.cached_calls} cached), "
        f"{usage.prompt_tokens + usage.completion_tokens} tokens"
    )


def _highlight(result: CheckResult, seg: Segment) -> str:
    """The segment's text with the wrong words the judge quoted underlined in red."""
    inside = [s for s in result.spans if seg.start <= s.start and s.end <= seg.end]
    if not inside:
        return escape(printable(seg.text))
    parts, at = [], seg.start
    for span in inside:
        parts.append(escape(printable(result.answer[at : span.start])))
        parts.append(f"[bold red underline]{escape(printable(result.answer[span.start : span.end]))}[/]")
        at = span.end
    parts.append(escape(printable(result.answer[at : seg.end])))
    return "".join(parts)


def _judge(result: CheckResult) -> str:
    """Who judged: the model, or the model-free scorer when no model was asked."""
    if not strategy_named(result.strategy).uses_model and not result.traces:
        return f"the {result.strategy} scorer (no model call)"
    return result.model


def _print_grounds(console: Console, verdict: Verdict, text: str, reads: bool, indent: str) -> None:
    """The rule that made the label, and the passage it rests on (or that there was none, and why)."""
    if verdict.rationale:  # the rule that made the label, for every label and strategy
        console.print(f"{indent}[dim]{escape(printable(verdict.rationale))}[/]")
    if verdict.evidence_note:  # evidence asked for that did not come: said beside what did
        console.print(f"{indent}[yellow]evidence: {escape(printable(verdict.evidence_note))}[/]")
    if verdict.evidence:
        ev = verdict.evidence[0]
        where = printable(" · ".join(dict.fromkeys(x for x in (ev.source, ev.title, ev.url) if x)))
        more = f" (+{len(verdict.evidence) - 1} more)" if len(verdict.evidence) > 1 else ""
        excerpt = escape(printable(passage_excerpt(ev.text, text)))
        console.print(f"{indent}[dim]evidence: {escape(where)}{more}: “{excerpt}”[/]")
    elif verdict.label in ("true", "false"):
        console.print(f"{indent}[dim]{'no passage found' if reads else 'no evidence'}: the model's own "
                      "belief, checked against no source[/]")


def passage_excerpt(passage: str, item: str, width: int = 220) -> str:
    """The sentence of ``passage`` that shares most words with ``item``, cut to ``width`` characters."""
    wanted = set(tokenize(item, stopwords=True))
    sentences = split_sentences(passage) or [passage]
    best = max(sentences, key=lambda s: len(wanted & set(tokenize(s, stopwords=True))))
    best = " ".join(best.split())
    return best if len(best) <= width else best[: width - 1].rstrip() + "…"
