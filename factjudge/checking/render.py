"""Human-readable terminal output of a CheckResult (every sentence about a verdict comes from ``explain``)."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from factjudge import explain
from factjudge.llm.registry import model_headline
from factjudge.records import CheckResult, Segment, Verdict
from factjudge.text.printable import printable

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
    note = explain.score_note(verdict)
    return f" [dim]({escape(note)})[/]" if note else ""


def print_result(result: CheckResult, console: Console | None = None, *, verbose: bool = False) -> None:
    """Print each segment with its verdict, its claims under it, and a one-line summary; ``verbose``
    adds the whole note about the model, how each item was read and every value asked about."""
    console = console or Console(highlight=False)
    note = result.model_note if verbose else (model_headline(result.model) or result.model_note)
    if note:
        console.print(f"[yellow]{escape(note)}[/]")
    claim_verdicts = {v.target_id: v for v in result.claim_verdicts}
    for seg, verdict in zip(result.segments, result.segment_verdicts, strict=False):
        console.print(f"{_mark(verdict)} [bold][{seg.id}][/] {_highlight(result, seg)}{_score(verdict)}")
        claims = [c for c in result.claims if c.segment_id == seg.id]
        for claim in claims:
            cv = claim_verdicts.get(claim.id)
            cmark = _mark(cv) if cv else MARKS["not_checkable"][0]
            console.print(f"    {cmark} {escape(printable(claim.text))}{_score(cv) if cv else ''}")
            if cv and cv.label != "not_checkable":
                _print_grounds(console, cv, "        ", verbose)
        if not claims and verdict.label != "not_checkable":
            _print_grounds(console, verdict, "    ", verbose)
    if result.coverage is not None:  # which Wikipedia was read, and what it had an article for
        console.print(f"[dim]{escape(printable(explain.coverage(result.coverage)))}[/]")
    if result.read_as:  # words read otherwise than written (a Cyrillic letter folded, a zero-width one gone)
        console.print(f"[yellow]{escape(printable(explain.read_as(result.read_as)))}[/]")
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
    if result.model == "none" and not result.traces:
        return f"the {result.strategy} scorer (no model call)"
    return result.model


def _print_grounds(console: Console, verdict: Verdict, indent: str, verbose: bool) -> None:
    """The rule that made the label, and the passage it rests on (or that there was none, and why)."""
    lines = [("dim", explain.why(verdict))]
    if verbose:
        lines += [("dim", explain.reading(verdict))]
        lines += [("dim", f"value {line}") for line in explain.checks(verdict)]
    if verdict.evidence_note:  # evidence asked for that did not come: said beside what did
        lines.append(("yellow", f"evidence: {verdict.evidence_note}"))
    lines.append(("dim", f"evidence: {explain.rests_on(verdict)}" if verdict.evidence
                  else explain.no_evidence(verdict)))
    for style, line in lines:
        if line:
            console.print(f"{indent}[{style}]{escape(printable(line))}[/]")
