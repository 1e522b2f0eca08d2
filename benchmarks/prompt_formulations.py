"""How the wording of a one-decision prompt moves the embedded model: the comparison behind
`judge_supported.txt` and the world-knowledge figures of the README.

    python benchmarks/prompt_formulations.py --part grounded --n 60
    python benchmarks/prompt_formulations.py --part world --n 30

``grounded``: random BEGIN dev and Q² memnet pairs (seed 7), each formulation asked once per
pair; the graded score is P(no) / (P(yes) + P(no)) at the first reply position. Prints ROC AUC
for detecting the inconsistent pairs and the balanced accuracy of the model's own word (argmax).
``world``: every segment of random FELM world-knowledge answers (seed 3), judged alone with no
evidence. The shipped `supported` judge is the "tagged" formulation in the package's prompt file.
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Callable
from pathlib import Path

from factjudge.eval import metrics
from factjudge.eval.datasets import Example, load_dataset
from factjudge.llm.base import ChatModel, GenerationParams
from factjudge.llm.registry import make_model
from factjudge.prompts import fence, load_prompt, render_passages
from factjudge.records import Evidence

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
RULE = ("A response that adds facts the knowledge does not contain, or contradicts it, is not supported. "
        "Answer with only Yes or No.")
GROUNDED: dict[str, tuple[str, tuple[str, str]]] = {
    "direct": ("Knowledge: {k}\nResponse: {r}\nIs everything stated in the Response supported by the "
               "Knowledge? Answer with only Yes or No.", ("Yes", "No")),
    "tagged": ("You check whether a response is supported by a knowledge passage.\n<knowledge>\n{k}\n"
               "</knowledge>\n<response>\n{r}\n</response>\nIs every fact stated in the response supported "
               f"by the knowledge? {RULE}", ("Yes", "No")),
    "tagged+question": ("You check whether a response is supported by a knowledge passage.\n<question>\n{q}\n"
                        "</question>\n<knowledge>\n{k}\n</knowledge>\n<response>\n{r}\n</response>\nIs every "
                        f"fact stated in the response supported by the knowledge? {RULE}", ("Yes", "No")),
    "true/false": ("Knowledge:\n{k}\n\nStatement:\n{r}\n\nBased only on the knowledge, is the statement "
                   "true? Answer with only True or False.", ("True", "False")),
}
WORLD: dict[str, tuple[str, tuple[str, str]]] = {
    "plain": ("Is the following statement factually correct?\nStatement: {r}\nAnswer with only True or "
              "False.", ("True", "False")),
    "with question": ("Here is a question and one sentence from an answer to it.\nQuestion: {q}\nSentence: "
                      "{r}\nIs the sentence factually correct? Answer with only True or False.",
                      ("True", "False")),
    "yes/no with question": ("A chatbot was asked a question and wrote an answer. Check one sentence of the "
                             "answer.\n<question>\n{q}\n</question>\n<sentence>\n{r}\n</sentence>\nIs every "
                             "fact stated in the sentence correct? Answer with only Yes or No.",
                             ("Yes", "No")),
}


def error_score(model: ChatModel, content: str, words: tuple[str, str]) -> float:
    """P(no) / (P(yes) + P(no)) at the first reply position."""
    reply = model.complete([{"role": "user", "content": content}],
                           GenerationParams(max_tokens=1, logprobs=True, top_logprobs=20))
    top = reply.logprobs[0].top if reply.logprobs else {}

    def p(word: str) -> float:
        return sum(math.exp(lp) for token, lp in top.items() if token.strip().lower() == word.lower())

    yes, no = p(words[0]), p(words[1])
    return no / (yes + no) if yes + no else 0.5


def report(name: str, consistent: list[bool], scores: list[float]) -> str:
    """ROC AUC (inconsistent positive) and the balanced accuracy of the argmax word."""
    auc = metrics.roc_auc(consistent, scores)
    said = metrics.balanced_accuracy([not c for c in consistent], [s >= 0.5 for s in scores])
    return (f"{name}: ROC AUC {100 * (auc or 0):.1f}, "
            f"balanced accuracy of the model's word {100 * (said or 0):.1f}")


def run(items: list[tuple[Example, str, bool]], formulations: dict[str, tuple[str, tuple[str, str]]],
        model: ChatModel, render: Callable[[str, Example, str], str]) -> None:
    """Score every item with every formulation and print one line per formulation."""
    for name, (template, words) in formulations.items():
        scores = [error_score(model, render(template, ex, text), words) for ex, text, _ in items]
        print(report(name, [ok for *_, ok in items], scores), flush=True)


def main() -> None:
    """Parse flags and run one part."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--part", choices=("grounded", "world"), default="grounded")
    parser.add_argument("--n", type=int, default=60, help="pairs per TRUE set, or FELM answers")
    parser.add_argument("--model", default="local")
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args()
    model = make_model(args.model, cache_path=None)
    if args.part == "grounded":
        rng = random.Random(7)
        for path in ("begin_dev_wow.tsv", "q2_memnet"):
            pairs = rng.sample(load_dataset(args.data / path), args.n)
            print(f"\n{path} ({args.n} random pairs)")
            items = [(ex, ex.answer, bool(ex.response_label)) for ex in pairs]
            run(items, GROUNDED, model, lambda t, ex, text: t.format(k=ex.grounding, r=text, q=ex.question))
            shipped = load_prompt("judge_supported")
            scores = [error_score(model, shipped.render(
                passages=fence("passages", render_passages([Evidence("context", ex.grounding)])),
                statement=fence("statement", text)), ("Yes", "No")) for ex, text, _ in items]
            print(report("judge_supported.txt (shipped)", [ok for *_, ok in items], scores))
    else:
        answers = random.Random(3).sample(load_dataset(args.data / "felm_wk.jsonl"), args.n)
        items = [(ex, seg, bool(label)) for ex in answers
                 for seg, label in zip(ex.segments, ex.segment_labels, strict=True)]
        print(f"\nfelm_wk ({args.n} random answers, {len(items)} segments, no evidence)")
        run(items, WORLD, model, lambda t, ex, text: t.format(q=ex.question, r=text))


if __name__ == "__main__":
    main()
