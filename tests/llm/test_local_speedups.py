"""The local backend's speed-ups (prefix reuse, one-pass decisions) change no verdict and no score."""

from __future__ import annotations

from pathlib import Path

import pytest

from factjudge.checking.api import check
from factjudge.config import CheckConfig
from factjudge.llm.base import GenerationParams
from factjudge.llm.local import LocalChatModel, smollm2_path
from factjudge.llm.model_file import QWEN_1_5B, ensure_model_file
from factjudge.llm.registry import LOCAL_DEFAULT
from factjudge.records import Evidence

pytestmark = pytest.mark.local_model

QUESTION = "When did the Golden Gate Bridge open, and how long is it?"
ANSWER = ("The Golden Gate Bridge opened in 1937. Its main span is about 4,200 metres long. "
          "I think it is the most beautiful bridge in the world!")
CONTEXT = ("The Golden Gate Bridge is a suspension bridge spanning the Golden Gate strait at the entrance "
           "to San Francisco Bay. It opened to traffic in May 1937. Its main span is 1,280 metres long.")
FACTS = ("Paris is the capital of France. Mount Everest is in Peru. "
         "Water boils at 100 degrees Celsius at sea level.")


def _ask(text: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": f"{text}\nAnswer True or False."}]


@pytest.fixture(scope="module")
def smollm2() -> LocalChatModel:
    pytest.importorskip("llama_cpp")
    return LocalChatModel(smollm2_path(), name="local:smollm2-135m")


def test_prompts_are_cut_after_lines_and_shared_lines_are_evaluated_once(smollm2: LocalChatModel) -> None:
    state = smollm2.load()
    tokens = smollm2.prompt_tokens(_ask("Is Paris in France?"))
    ends = state.chunk_ends(tokens)
    assert ends[-1] == len(tokens) and ends == sorted(set(ends))
    assert all("\n" in state.piece(tokens[e - 1]) for e in ends[:-1])  # cut after lines only
    state.forget()
    params = GenerationParams(max_tokens=1, choices=("True", "False"), logprobs=True)
    before = smollm2.stats.reused_tokens
    first = smollm2.complete(_ask("Is Paris in France?"), params)
    second = smollm2.complete(_ask("Is Rome in France?"), params)
    reused = smollm2.stats.reused_tokens - before
    assert 0 < reused < second.prompt_tokens  # the system prompt's lines, not the question's
    state.forget()
    again = smollm2.complete(_ask("Is Rome in France?"), params)
    assert again.text == second.text and first.text in ("True", "False")
    assert again.logprobs and second.logprobs
    assert again.logprobs[0].logprob == pytest.approx(second.logprobs[0].logprob, abs=1e-6)


def test_a_decision_is_one_forward_pass_matching_decoding_with_the_grammar(smollm2: LocalChatModel) -> None:
    slow = LocalChatModel(smollm2.model_path, name=smollm2.name, speedups=False)
    params = GenerationParams(max_tokens=3, choices=("True", "False"), logprobs=True, top_logprobs=3)
    one_pass = smollm2.stats.one_pass
    fast_reply = smollm2.complete(_ask("Is the Moon made of cheese?"), params)
    slow_reply = slow.complete(_ask("Is the Moon made of cheese?"), params)
    assert smollm2.stats.one_pass == one_pass + 1 and slow.stats.one_pass == 0
    assert slow.stats.generated_tokens >= 1
    assert fast_reply.text == slow_reply.text
    assert fast_reply.logprobs and slow_reply.logprobs
    assert fast_reply.logprobs[0].top.keys() == slow_reply.logprobs[0].top.keys()


def test_choices_that_share_a_first_token_fall_back_to_decoding(smollm2: LocalChatModel) -> None:
    assert smollm2.load().choice_tokens(("Yes", "Yeah")) is None
    params = GenerationParams(max_tokens=4, choices=("Yes", "Yeah"))
    reply = smollm2.complete(_ask("Is Paris in France?"), params)
    assert reply.text in ("Yes", "Yeah")


@pytest.mark.slow
def test_the_embedded_judge_gives_the_same_verdicts_and_scores_with_and_without_speedups() -> None:
    pytest.importorskip("llama_cpp")
    path = ensure_model_file(QWEN_1_5B)
    # `fact` on its own belief; no hurry: claim extraction took over 120 s on a loaded two-core machine.
    config = CheckConfig(model="local", use_cache=False, wiki="none", deadline=3600)
    outcomes, replies = [], []
    for speedups in (True, False):
        model = LocalChatModel(path, name=LOCAL_DEFAULT, speedups=speedups)
        grounded = check(QUESTION, ANSWER, config, model=model, context=[Evidence("context", CONTEXT)])
        open_world = check("Three facts?", FACTS, config, model=model)
        verdicts = [*grounded.segment_verdicts, *open_world.segment_verdicts]
        outcomes.append([(v.label, v.error_score) for v in verdicts])
        by_claim = config.replace(granularity="claim")
        claims = check("Three facts?", FACTS, by_claim, model=model)
        replies.append([t.reply for t in claims.traces if t.step == "extract"])
        assert (grounded.strategy, open_world.strategy) == ("supported", "fact")
        assert (model.stats.one_pass > 0) == speedups and (model.stats.reused_tokens > 0) == speedups
    fast, slow = outcomes
    assert replies[0] == replies[1] and replies[0][0].startswith("Segment 1:\n")  # claim extraction's
    assert [label for label, _ in fast] == [label for label, _ in slow]
    assert [label for label, _ in fast][:3] == ["true", "false", "not_checkable"]
    for (_, a), (_, b) in zip(fast, slow, strict=True):
        assert (a is None) == (b is None)
        if a is not None and b is not None:
            assert a == pytest.approx(b, abs=1e-4)


def test_a_new_process_reads_the_shared_instructions_back_from_disk(tmp_path: Path) -> None:
    pytest.importorskip("llama_cpp")
    params = GenerationParams(max_tokens=1, choices=("True", "False"), logprobs=True)
    long_ask = [{"role": "system", "content": "You judge statements about geography. " * 12},
                {"role": "user", "content": "Is Paris in France? Answer True or False."}]
    other = [long_ask[0], {"role": "user", "content": "Is Rome in Spain? Answer True or False."}]
    writer = LocalChatModel(smollm2_path(), name="local:smollm2-135m", prefix_dir=tmp_path)
    writer.complete(long_ask, params)
    writer.complete(other, params)  # the shared system prompt is saved here
    saved = list(tmp_path.rglob("*.kv"))
    assert len(saved) == 1
    reader = LocalChatModel(smollm2_path(), name="local:smollm2-135m", prefix_dir=tmp_path)
    fresh = LocalChatModel(smollm2_path(), name="local:smollm2-135m", speedups=False)
    restored, expected = reader.complete(other, params), fresh.complete(other, params)
    assert reader.stats.restored_tokens > 64 and fresh.stats.reused_tokens == 0
    assert restored.text == expected.text and restored.logprobs and expected.logprobs
    assert restored.logprobs[0].logprob == pytest.approx(expected.logprobs[0].logprob, abs=1e-6)
    # A damaged file is dropped, never handed to llama.cpp.
    saved[0].write_bytes(saved[0].read_bytes()[:1000])
    again = LocalChatModel(smollm2_path(), name="local:smollm2-135m", prefix_dir=tmp_path)
    assert again.complete(other, params).text == expected.text
    assert again.stats.restored_tokens == 0 and not saved[0].exists()


def test_a_prefix_shared_with_an_earlier_prompt_is_saved_and_read_back(tmp_path: Path) -> None:
    pytest.importorskip("llama_cpp")
    params = GenerationParams(max_tokens=1, choices=("True", "False"), logprobs=True)
    extract = {"role": "system", "content": "You split answers into claims about geography. " * 12}
    judge = {"role": "system", "content": "You judge one statement. Answer True or False."}

    def user(text: str) -> dict[str, str]:
        return {"role": "user", "content": f"{text} That is what the answer says about the city."}

    model = LocalChatModel(smollm2_path(), name="local:smollm2-135m", prefix_dir=tmp_path)
    # Extraction, a judge call, extraction again: the two extraction prompts are never consecutive.
    model.complete([extract, user("Paris is in France.")], params)
    model.complete([judge, user("Paris is in France.")], params)
    model.complete([extract, user("Rome is in Italy.")], params)
    assert len(list(tmp_path.rglob("*.kv"))) == 1 and model.stats.restored_tokens == 0
    model.complete([judge, user("Rome is in Italy.")], params)
    third = [extract, user("Oslo is in Norway.")]
    restored = model.complete(third, params)
    # In this process the prefix comes back from memory; the file serves the next process.
    assert model.stats.recalled_tokens > 64
    fresh = LocalChatModel(smollm2_path(), name="local:smollm2-135m", speedups=False).complete(third, params)
    assert restored.text == fresh.text and restored.logprobs and fresh.logprobs
    assert restored.logprobs[0].logprob == pytest.approx(fresh.logprobs[0].logprob, abs=1e-6)


def test_grammar_decoding_that_tests_one_token_a_step_gives_the_same_reply(smollm2: LocalChatModel) -> None:
    grammar = 'root ::= "Segment 1:\\n" claim{1,3}\nclaim ::= "Claim " [1-9] ". " [^\\n]+ "\\n"\n'
    ask = [{"role": "user", "content": "List two facts about Paris as claims."}]
    params = GenerationParams(max_tokens=40, grammar=grammar, logprobs=True)
    slow = LocalChatModel(smollm2.model_path, name=smollm2.name, speedups=False)
    checks = smollm2.stats.grammar_full_checks
    fast_reply, slow_reply = smollm2.complete(ask, params), slow.complete(ask, params)
    assert fast_reply.text.startswith("Segment 1:\nClaim 1. ")
    assert fast_reply.text == slow_reply.text and fast_reply.completion_tokens == slow_reply.completion_tokens
    # The slow path tests the whole vocabulary at every step (the end of reply too); the fast
    # one only where the best token is refused.
    assert slow.stats.grammar_full_checks - slow_reply.completion_tokens in (0, 1)
    assert smollm2.stats.grammar_full_checks - checks < fast_reply.completion_tokens
    assert fast_reply.logprobs and slow_reply.logprobs
    assert [t.logprob for t in fast_reply.logprobs] == pytest.approx([t.logprob for t in slow_reply.logprobs])


def test_a_prompt_resumes_from_one_kept_in_memory_with_the_same_scores(smollm2: LocalChatModel) -> None:
    params = GenerationParams(max_tokens=1, choices=("True", "False"), logprobs=True)
    passages = "Passages: " + "The Golden Gate Bridge opened to traffic in May 1937 in San Francisco. " * 6
    judge = {"role": "system", "content": "You judge one statement against the passages."}
    reader = {"role": "system", "content": "You read one value from the passages."}

    def user(statement: str) -> dict[str, str]:
        return {"role": "user", "content": f"{passages}\n{statement}\nAnswer True or False."}

    # A judge call, a value reading, then the judge again on the same passages: the last prompt in the
    # context is the reading's, so the judge's passages come back from memory.
    smollm2.complete([judge, user("It opened in 1937.")], params)
    smollm2.complete([reader, user("It opened in ___.")], params)
    recalled = smollm2.stats.recalled_tokens
    resumed = smollm2.complete([judge, user("It opened in 1938.")], params)
    assert smollm2.stats.recalled_tokens - recalled > 64
    fresh = LocalChatModel(smollm2.model_path, name=smollm2.name, speedups=False)
    expected = fresh.complete([judge, user("It opened in 1938.")], params)
    assert resumed.text == expected.text and resumed.logprobs and expected.logprobs
    assert resumed.logprobs[0].logprob == pytest.approx(expected.logprobs[0].logprob, abs=1e-6)


def test_a_new_check_on_other_passages_reads_the_instructions_back_from_a_longer_saved_prefix(
        tmp_path: Path) -> None:
    pytest.importorskip("llama_cpp")
    params = GenerationParams(max_tokens=1, choices=("True", "False"), logprobs=True)
    instructions = {"role": "system", "content": "You judge one statement against the passages. " * 10}

    def ask(passage: str, statement: str) -> list[dict[str, str]]:
        return [instructions, {"role": "user", "content": f"Passages:\n{passage}\n" * 3 + statement}]

    # One check: two statements on the same passage, so what is saved is the instructions and passage.
    writer = LocalChatModel(smollm2_path(), name="local:smollm2-135m", prefix_dir=tmp_path)
    bridge = "The Golden Gate Bridge opened to traffic in May 1937 in San Francisco."
    writer.complete(ask(bridge, "It opened in 1937."), params)
    writer.complete(ask(bridge, "It opened in 1964."), params)
    assert len(list(tmp_path.rglob("*.kv"))) == 1 and list(tmp_path.rglob("*.link"))
    # The next process checks another passage: only the instructions are shared, and come from disk.
    other = ask("The Eiffel Tower was finished in 1889 in Paris.", "It was finished in 1920.")
    reader = LocalChatModel(smollm2_path(), name="local:smollm2-135m", prefix_dir=tmp_path)
    restored = reader.complete(other, params)
    fresh = LocalChatModel(smollm2_path(), name="local:smollm2-135m").complete(other, params)  # no store
    assert reader.stats.restored_tokens > 64
    assert restored.text == fresh.text and restored.logprobs and fresh.logprobs
    assert restored.logprobs[0].logprob == pytest.approx(fresh.logprobs[0].logprob, abs=1e-6)
