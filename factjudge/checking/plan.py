"""One plan per check: what will run, decided in one place for every entry point.

The CLI, the Verifier, the LangChain runnable and the HTTP service call ``api.check``, bench
calls ``eval.runner.plan_example``; both plan here, then ``Checker.run`` executes the plan. It
holds the strategy (the model's default, evidence first from Wikipedia when a default judge
has nothing else to read, the switch to a passage-reading judge when the caller gives a
context, grounded or open, FELM's fallbacks, a refusal when a strategy needs evidence and can
have none), the granularity after FELM's no-extraction domains, which evidence is read, and
what the checker does when gathering finds no passage or claim extraction fails. Set-up
names (``eval.grid.setup_name``), ``/v1/info`` and every result's ``plan`` read it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from factjudge.agents.extractor import NO_EXTRACTION_DOMAINS
from factjudge.checking.context import Context, context_passages
from factjudge.config import MAX_ANSWER_CHARS, CheckConfig
from factjudge.errors import InputError
from factjudge.judges.strategies import Strategy, strategy_named
from factjudge.records import Evidence, Planned


@dataclass(frozen=True)
class Plan:
    """One check, decided: its inputs, the strategy that will run and the evidence it reads."""

    config: CheckConfig
    question: str
    answer: str
    strategy: Strategy
    granularity: str
    context: tuple[Evidence, ...] = ()
    refs: tuple[str, ...] = ()
    ref_texts: tuple[str, ...] = ()
    read_refs: bool = False  # the references' text becomes shared passages
    sources: tuple[str, ...] = ()  # evidence gathered per item (kb, wiki, web, llm)
    wiki: str | None = None  # the Wikipedia source ``wiki`` reads (retrieval/wiki spec)
    segments: tuple[str, ...] | None = None  # given segments instead of sentence splitting
    # Judge personal statements too: in TRUE's setting a human label covers the whole text.
    judge_all: bool = False
    fallback: str | None = None  # why ``strategy`` is not the one asked for
    if_extraction_fails: str = "segment"  # the granularity the checker falls back to

    def strategy_for(self, found_evidence: bool) -> Strategy:
        """What judges once the evidence is in: FELM's fallback when no passage was found."""
        return self.strategy if found_evidence else _given_no_evidence(self.strategy)

    def summary(self) -> Planned:
        """What a set-up's name, the result record, the service and the pages say was planned,
        with the fallbacks the checker executes (``if_no_evidence`` None: the check is refused)."""
        return Planned(self.strategy.name, self.granularity, _without_evidence(self.strategy),
                       self.if_extraction_fails)


def validate_answer(answer: str) -> None:
    """Refuse answers that cannot be checked, with a message a person can act on."""
    if not answer or not answer.strip():
        raise InputError("the answer is empty: nothing to check")
    if len(answer) > MAX_ANSWER_CHARS:
        raise InputError(
            f"the answer has {len(answer):,} characters; the limit is {MAX_ANSWER_CHARS:,}"
        )


def plan_check(
    config: CheckConfig,
    question: str,
    answer: str,
    *,
    context: Context | None = None,
    refs: Sequence[str] = (),
    ref_texts: Sequence[str] = (),
    segments: Sequence[str] | None = None,
    judge_all: bool = False,
    model_name: str | None = None,
) -> Plan:
    """Decide what a check of ``answer`` will run; bad input fails here, before any model call.

    With a ``context`` (RAG), strategies whose prompt would not show it switch to one that
    does: judged against the context only when ``config.grounded``, else with the judge's knowledge
    where the context is silent. ``model_name`` is the judging model's, when it is already
    built (its default strategy applies); else the config's model spec decides.
    """
    validate_answer(answer)
    context = context_passages(context)
    strategy = strategy_named(config.strategy_name(model_name))
    if not config.use_refs:
        refs, ref_texts = (), ()
    # Evidence first: a default judge with nothing to read reads Wikipedia where it is at hand.
    nothing_to_read = not (context or refs or ref_texts or config.evidence)
    first = strategy.evidence_first if config.strategy is None and nothing_to_read else None
    wiki = config.wiki_source() if first or "wiki" in config.evidence else None
    evidence_first = bool(first and wiki)
    if first and evidence_first:
        strategy = strategy_named(first)
    if context:
        switched = strategy.with_context if config.grounded else strategy.with_open_context
        strategy = strategy_named(switched or strategy.name)
    asked = strategy.name
    if strategy.without_refs and not refs:
        strategy = strategy_named(strategy.without_refs)
    has_refs = bool(refs or ref_texts)
    sources = (("wiki",) if evidence_first else config.evidence) if strategy.reads_passages else ()
    if not (context or has_refs or sources):  # no evidence can come: fall back, or refuse now
        strategy = _given_no_evidence(strategy)
    fallback = None
    if strategy.name != asked:
        fallback = f"{asked} ran as {strategy.name}: no references, context or evidence source given"
    granularity = config.granularity
    if granularity == "claim" and config.domain in NO_EXTRACTION_DOMAINS:
        granularity = "segment"  # FELM: math and reasoning steps are judged whole
    return Plan(config, question, answer, strategy, granularity, tuple(context), tuple(refs),
                tuple(ref_texts), read_refs=strategy.reads_passages and has_refs, sources=sources,
                wiki=wiki if "wiki" in sources else None,
                segments=None if segments is None else tuple(segments), judge_all=judge_all,
                fallback=fallback)


def _without_evidence(strategy: Strategy) -> str | None:
    """What runs in ``strategy``'s place when no evidence came: its FELM fallback, itself when it
    needs none, None when it needs some (the check is refused)."""
    if strategy.without_evidence:
        return strategy.without_evidence
    return None if strategy.needs_evidence else strategy.name


def _given_no_evidence(strategy: Strategy) -> Strategy:
    """``_without_evidence``'s strategy, or an InputError when ``strategy`` needs evidence."""
    name = _without_evidence(strategy)
    if name is None:
        raise InputError(f"the {strategy.name} strategy judges against evidence and has none: give a "
                         "context, references or an evidence source")
    return strategy_named(name)


def default_strategies(model: str) -> str:
    """What a check with ``model`` (a ``--model`` spec) runs when no strategy is chosen, read from its
    plans, for help text: by itself with and without Wikipedia at hand, with a context, and ``--open``."""
    config = CheckConfig(model=model)

    def runs(changes: dict[str, object], context: tuple[str, ...] = ()) -> str:
        return plan_check(config.replace(**changes), "", "-", context=context).strategy.name

    # "api" names Wikipedia without looking for an installed one: help text opens no file.
    alone, without = runs({"wiki": "api"}), runs({"wiki": "none"})
    read = alone if alone == without else f"{alone} (reading Wikipedia; {without} where none is at hand)"
    with_context, open_context = runs({}, ("-",)), runs({"grounded": False}, ("-",))
    return f"{read}, {with_context} with a context ({open_context} with --open)"
