"""What a long RAG context costs a check apart from the model: an instant scripted model, a context of
100 KB and 1 MB, a five-sentence answer, read in windows (the default) and in focus.

    python benchmarks/long_context.py            # prints seconds of CPU, wall seconds and calls per check

A check lays a long context out in windows and builds their BM25 index once (``retrieval.budget``),
whatever the number of sentences judged; before, both were rebuilt per sentence (549 s of CPU for a
1 MB context). The model replies at once, so every second printed is factjudge's own work.
"""

from __future__ import annotations

import argparse
import math
import time

from factjudge.checking.checker import Checker
from factjudge.config import CheckConfig
from factjudge.llm.base import Completion, Message, TokenLogprob
from factjudge.llm.registry import LOCAL_DEFAULT
from factjudge.llm.scripted import ScriptedChatModel
from factjudge.records import Evidence

ANSWER = ("The museum opened in 1998. It stands on the south bank. Its main hall is 40 metres long. "
          "The bridge was built in 1875. The market square hosts a fair every June.")


def _yes(messages: list[Message]) -> Completion:
    """An instant judge that says Yes (P(No) 0.1) and reads nothing."""
    top = {"Yes": math.log(0.9), "No": math.log(0.1)}
    return Completion(text="Yes", logprobs=(TokenLogprob("Yes", top["Yes"], top),), model=LOCAL_DEFAULT)


def context_of(size: int) -> list[Evidence]:
    """Passages of town descriptions, about ``size`` bytes in all."""
    passages, total, n = [], 0, 0
    while total < size:
        text = (f"Town {n} has a library, a market square and a bridge over the canal built in "
                f"{1800 + n % 200}. Its museum opened in {1900 + n % 120} and its hall is {n % 90} metres "
                "long.")
        passages.append(Evidence("context", text, title=f"Town {n}"))
        total += len(text.encode())
        n += 1
    return passages


def main() -> None:
    """Time one check per context size and reading."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="100000,1000000", help="context sizes in bytes")
    args = parser.parse_args()
    print("| context | reading | CPU s | wall s | model calls |")
    print("|---|---|---|---|---|")
    for size in map(int, args.sizes.split(",")):
        context = context_of(size)
        for reading, focus in (("windows (default)", False), ("focus", True)):
            model = ScriptedChatModel(_yes, name=LOCAL_DEFAULT)
            config = CheckConfig(strategy="supported", focus=focus, values=0, max_calls=1000)
            cpu, wall = time.process_time(), time.perf_counter()
            Checker(config, model).check("Tell me about the museum.", ANSWER, context=context)
            print(f"| {size / 1e6:g} MB | {reading} | {time.process_time() - cpu:.1f} | "
                  f"{time.perf_counter() - wall:.1f} | {len(model.calls)} |", flush=True)


if __name__ == "__main__":
    main()
