"""Test doubles for apps that use factjudge, and for factjudge's own tests and benchmarks.

``openai_server.OpenAIServer``: a real OpenAI-compatible server on 127.0.0.1, scripted or
answering from a function, that can inject faults (429s, hangs, truncated or malformed replies);
``live.serve_in_thread``: an ASGI app (the service) under uvicorn on a free loopback port. With
``factjudge.llm.scripted.ScriptedChatModel`` they let a RAG app test its verification offline.
"""
