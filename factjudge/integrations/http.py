"""The HTTP service: POST /v1/check, GET /v1/info, GET /healthz, a web page at /.

Every check goes through ``Verifier.verify`` (and so ``api.check``), in a bounded
thread pool: ``max_concurrency`` checks run at once, the others wait for a slot.
A request that cannot finish within ``timeout`` seconds gets a 504 JSON error, and its
check runs under a deadline that ends just before then, so it stops (an endpoint's call, the
local model between two evaluation batches, a fetch) and frees its slot instead of holding
it for as long as a slow model or server cares to take. A request that needs more than one
check may cost (``max_items``, ``max_calls``) gets a 413.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import AsyncIterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from factjudge.checking.plan import plan_check
from factjudge.checking.verifier import Verifier
from factjudge.config import GRANULARITIES, CheckConfig
from factjudge.errors import FactJudgeError, InputError, ModelError, ParseError, SourceUnusable, TooMuchWork
from factjudge.integrations.http_guard import Guard, error_payload, lone_surrogate
from factjudge.integrations.http_models import CheckRequest, CheckResponse, ErrorBody, response_body
from factjudge.integrations.limits import DEFAULT_MAX_BODY, DEFAULT_MAX_CONCURRENCY, DEFAULT_TIMEOUT
from factjudge.judges.strategies import STRATEGIES
from factjudge.llm.base import ChatModel
from factjudge.llm.deadline import DeadlinePassed
from factjudge.llm.registry import model_info
from factjudge.records import CheckResult
from factjudge.version import package_version

log = logging.getLogger(__name__)

STATIC = {"index.html": "text/html; charset=utf-8", "app.js": "text/javascript; charset=utf-8",
          "style.css": "text/css; charset=utf-8"}
# The page may talk to this service and nothing else.
PAGE_HEADERS = {"Content-Security-Policy": "default-src 'self'; img-src 'self' data:; base-uri 'none'; "
                "form-action 'self'; frame-ancestors 'none'",
                "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"}
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody, "description": description} for status, description in {
        400: "the input cannot be checked, or the Host header is not this service's",
        401: "missing or invalid API key",
        413: "request body too large, or more items or model calls than one check may cost",
        415: "the body is not declared JSON",
        422: "malformed request", 500: "an evidence source the service is set up with cannot be opened",
        502: "the model or a link failed",
        503: "no free slot in time", 504: "the check timed out"}.items()
}
CODES = {400: "invalid_input", 404: "not_found", 405: "method_not_allowed", 413: "too_much_work",
         422: "invalid_request", 502: "upstream_error", 503: "busy", 504: "timeout"}
# The check's deadline ends this share of a request's time before the request's own, so that the
# check has stopped, and freed its slot, by the time the client is answered.
DEADLINE_MARGIN = 0.05
# Seconds a 503 tells its client to wait before trying again.
RETRY_AFTER = 1


class ApiError(Exception):
    """An error the service answers with its status and a JSON body."""

    def __init__(self, status: int, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code or CODES.get(status, "error")


def _json_error(status: int, code: str, message: str) -> JSONResponse:
    # A 503 says when to come back (the busy slot or connection is usually free within a second or two).
    headers = {"Retry-After": str(RETRY_AFTER)} if status == 503 else None
    return JSONResponse(error_payload(status, code, message), status_code=status, headers=headers)


def _finished(slot: asyncio.Semaphore, future: asyncio.Future[CheckResult]) -> None:
    """Free the check's slot; an error of a check whose client was already answered goes to the log."""
    slot.release()
    if not future.cancelled() and (exc := future.exception()) is not None:
        log.debug("check ended after its request: %s", exc)


def _error_status(exc: FactJudgeError) -> int:
    """The caller's mistakes are 400, a request over a check's caps 413; a source this service was set
    up with that cannot be opened is its operator's (500); a model, parse or link failure is the
    upstream's (502)."""
    if isinstance(exc, SourceUnusable):
        return 500
    if isinstance(exc, TooMuchWork):
        return 413
    return 400 if isinstance(exc, InputError) else 502


def _upstream_message(exc: FactJudgeError) -> str:
    """What a client is told of an upstream failure: its kind, never the endpoint or its reply."""
    if isinstance(exc, ModelError):
        what = f"the model endpoint failed: {exc.kind}"
    elif isinstance(exc, ParseError):
        what = "the model's reply could not be read"
    else:
        what = "evidence could not be retrieved"
    return f"{what} (details in the service's log)"


def _validation_message(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "body"
        parts.append(f"{where}: {err.get('msg', 'invalid')}")
    return "; ".join(parts) or "the request body is not valid JSON for this endpoint"


def _static(name: str) -> bytes:
    return resources.files("factjudge.integrations").joinpath("static", name).read_bytes()


class CheckService:
    """The service's state and its two working endpoints: the Verifier, the check pool and its slots."""

    def __init__(self, verifier: Verifier, *, timeout: float, max_body: int, max_concurrency: int) -> None:
        self.verifier = verifier
        self.timeout = timeout
        self.max_body = max_body
        self.max_concurrency = max_concurrency
        self.executor = ThreadPoolExecutor(max_workers=max_concurrency, thread_name_prefix="factjudge-check")
        self._slots: asyncio.Semaphore | None = None  # made in the serving event loop, on first use

    async def info(self) -> dict[str, Any]:
        """The model and settings this service checks with."""
        loop = asyncio.get_running_loop()
        model = await loop.run_in_executor(self.executor, self.verifier.model_for)
        cfg = self.verifier.config
        # What a check runs, as the planner decides it: without a context and with one.
        alone, with_context = (plan_check(cfg, "", "-", context=context, model_name=model.name)
                               for context in ((), ("-",)))
        facts = model_info(model.name)
        return {"model": model.name, "model_note": facts.note, "local": facts.local,
                "strategy": alone.strategy.name, "strategy_with_context": with_context.strategy.name,
                "plan": alone.summary().to_dict(), "plan_with_context": with_context.summary().to_dict(),
                "granularity": cfg.granularity, "domain": cfg.domain, "grounded": cfg.grounded,
                "strategies": list(STRATEGIES),
                "model_free_strategies": [s.name for s in STRATEGIES.values() if not s.uses_model],
                "granularities": list(GRANULARITIES), "max_body": self.max_body, "timeout": self.timeout,
                "threshold": self.verifier.threshold,
                "version": package_version()}

    async def check(self, request: CheckRequest) -> Response:
        """Check an answer; with a context, which of its segments or claims the context does not support."""
        ends = time.monotonic() + self.timeout
        if (where := lone_surrogate(request.model_dump())) is not None:
            raise ApiError(400, f"{where} holds a lone surrogate escape (such as \\ud800), which is not text")
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.max_concurrency)
        slot = self._slots
        try:
            await asyncio.wait_for(slot.acquire(), self.timeout)
        except asyncio.TimeoutError:
            raise ApiError(503, f"the service is busy: no free slot within {self.timeout:g} s; retry later") \
                from None
        run = functools.partial(_verify, self.verifier, request, ends)
        future = asyncio.get_running_loop().run_in_executor(self.executor, run)
        # The slot is held until the work really ends, even after a timeout answered the client; its
        # error is read then (logged), not left to asyncio's "Future exception was never retrieved".
        future.add_done_callback(functools.partial(_finished, slot))
        try:
            result = await asyncio.wait_for(asyncio.shield(future), max(0.0, ends - time.monotonic()))
        except (asyncio.TimeoutError, DeadlinePassed):
            limit = min(self.timeout, self.verifier.config.deadline)
            raise ApiError(504, f"the check did not finish within {limit:g} s") from None
        return JSONResponse(response_body(result))


def create_app(
    model: ChatModel | None = None,
    config: CheckConfig | None = None,
    *,
    api_key: str | None = None,
    max_body: int = DEFAULT_MAX_BODY,
    timeout: float = DEFAULT_TIMEOUT,
    max_concurrency: int = DEFAULT_MAX_CONCURRENCY,
    allowed_hosts: Sequence[str] = (),
    threshold: float = 0.5,
) -> FastAPI:
    """Build the service: the model ``config`` names (built once, ``Verifier.model_for``) unless injected.

    Requests are answered for Host headers naming localhost or an IP address, and for the
    names in ``allowed_hosts`` ("*": any), so a web page cannot reach the service by DNS rebinding.
    ``timeout`` is a request's, in seconds; the config's ``timeout`` stays one model call's.
    ``threshold`` is what ``successful`` asks for unless a request's ``options.threshold`` says.
    """
    if max_concurrency < 1 or max_body < 1 or timeout <= 0:
        raise InputError("max_concurrency, max_body and timeout must be positive")
    service = CheckService(Verifier(config, model=model, threshold=threshold), timeout=timeout,
                           max_body=max_body, max_concurrency=max_concurrency)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        service.executor.shutdown(wait=False, cancel_futures=True)
        service.verifier.close()

    app = FastAPI(title="factjudge", version=package_version(), lifespan=lifespan,
                  description="Check whether an answer is true, or supported by the context it was "
                  "written from. Errors are JSON: {\"error\": {status, code, message}}.",
                  docs_url=None, redoc_url=None)  # the bundled docs pages load scripts from a CDN
    app.state.verifier = service.verifier
    app.add_exception_handler(ApiError, _api_error)  # type: ignore[arg-type]
    app.add_exception_handler(FactJudgeError, _factjudge_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, _invalid)  # type: ignore[arg-type]
    app.add_exception_handler(StarletteHTTPException, _http_error)  # type: ignore[arg-type]
    app.add_exception_handler(Exception, _unexpected)
    app.get("/healthz", tags=["service"])(healthz)
    app.get("/v1/info", tags=["service"], responses=ERROR_RESPONSES)(service.info)
    app.post("/v1/check", tags=["check"], responses={
        200: {"model": CheckResponse,
              "description": "the CheckResult as JSON (factjudge.records.CheckResult.to_dict) with its "
                             "faithfulness, threshold, successful and reason"},
        **ERROR_RESPONSES})(service.check)
    app.get("/", include_in_schema=False)(page)
    app.get("/static/{name}", include_in_schema=False)(static)
    app.add_middleware(Guard, api_key=api_key, max_body=max_body, allowed_hosts=allowed_hosts)
    return app


async def healthz() -> dict[str, str]:
    """Liveness: the process is up and answering."""
    return {"status": "ok"}


async def page() -> HTMLResponse:
    """The web page."""
    return HTMLResponse(_static("index.html"), headers=PAGE_HEADERS)


async def static(name: str) -> Response:
    """The page's script and style sheet."""
    if name not in STATIC:
        raise ApiError(404, f"no static file {name!r}")
    return Response(_static(name), media_type=STATIC[name], headers=PAGE_HEADERS)


async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
    return _json_error(exc.status, exc.code, str(exc))


async def _factjudge_error(request: Request, exc: FactJudgeError) -> JSONResponse:
    status = _error_status(exc)
    if status in (400, 413):
        return _json_error(status, CODES[status], str(exc))
    if status == 500:  # the operator's fault: the path and its details stay on the server
        log.error("an evidence source cannot be opened: %s", exc)
        return _json_error(500, "source_unavailable", "an evidence source this service is set up with "
                           "cannot be opened (details in the service's log)")
    log.warning("check failed upstream: %s", exc)  # the details stay on the server
    return _json_error(status, CODES[status], _upstream_message(exc))


async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
    return _json_error(422, "invalid_request", _validation_message(exc))


async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
    return _json_error(exc.status_code, CODES.get(exc.status_code, "error"), str(exc.detail))


async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
    log.exception("unexpected error in %s", request.url.path)
    return _json_error(500, "internal_error", f"internal error ({type(exc).__name__}); see the server log")


def _verify(verifier: Verifier, request: CheckRequest, ends: float) -> CheckResult:
    """Run the check under a deadline that ends when its request times out."""
    left = ends - time.monotonic()
    if left <= 0:  # it waited in the pool past its request's time: the client has its 504
        raise DeadlinePassed("the request timed out before its check started", "timed out")
    config = verifier.config.replace(**request.options.config_changes())
    config = config.replace(deadline=min(config.deadline, left * (1 - DEADLINE_MARGIN)))
    return verifier.verify(request.question, request.answer, context=request.context_items(),
                           refs=request.refs, ref_texts=request.ref_texts, config=config,
                           threshold=request.options.threshold)
