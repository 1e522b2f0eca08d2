"""The ``factjudge serve`` command: flags in, the HTTP service running under uvicorn."""

from __future__ import annotations

import argparse
import socket
from typing import Any

from factjudge.environment import service_api_key
from factjudge.errors import InputError
from factjudge.flags import add_config_flags, config_from_flags
from factjudge.integrations.limits import (
    API_KEY_ENV,
    DEFAULT_BODY_TIMEOUT,
    DEFAULT_HEADER_TIMEOUT,
    DEFAULT_KEEP_ALIVE,
    DEFAULT_MAX_BODY,
    DEFAULT_MAX_CONCURRENCY,
    DEFAULT_MAX_CONNECTIONS,
    DEFAULT_TIMEOUT,
)


def add_serve_parser(sub: Any) -> None:
    """Add the ``serve`` sub-command to the CLI's sub-parsers."""
    p = sub.add_parser("serve", help="run the HTTP service and its web page",
                       description="Serve POST /v1/check, GET /healthz, the OpenAPI schema at "
                       "/openapi.json and a web page at /. Set FACTJUDGE_API_KEY (or the variable "
                       "named by --api-key-env) to require an API key.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    # The defaults of every request; --timeout is one model call's, as for check and bench.
    add_config_flags(p)
    p.add_argument("--api-key-env", default=API_KEY_ENV,
                   help=f"environment variable holding the API key (default {API_KEY_ENV})")
    p.add_argument("--max-body", type=int, default=DEFAULT_MAX_BODY, help="largest request body in bytes")
    p.add_argument("--request-timeout", type=float, default=DEFAULT_TIMEOUT,
                   help=f"seconds a request may take before it gets a 504 (default {DEFAULT_TIMEOUT:g})")
    p.add_argument("--max-concurrency", type=int, default=DEFAULT_MAX_CONCURRENCY,
                   help="checks run at once; others wait for a slot")
    p.add_argument("--header-timeout", type=float, default=DEFAULT_HEADER_TIMEOUT,
                   help="seconds a request's line and headers may take to arrive before a 408 closes the "
                   f"connection (default {DEFAULT_HEADER_TIMEOUT:g})")
    p.add_argument("--body-timeout", type=float, default=DEFAULT_BODY_TIMEOUT,
                   help=f"seconds a request's body may take to arrive after its headers (default "
                   f"{DEFAULT_BODY_TIMEOUT:g})")
    p.add_argument("--max-connections", type=int, default=DEFAULT_MAX_CONNECTIONS,
                   help="connections open at once; one more closes the oldest still sending its headers, "
                   f"else gets a 503 (default {DEFAULT_MAX_CONNECTIONS})")
    p.add_argument("--allowed-hosts", default="", metavar="NAMES",
                   help="host names, comma-separated, that requests may address besides localhost, IP "
                   "addresses and --host (e.g. factjudge.example.org behind a proxy; * for any); other "
                   "Host headers are refused, so a web page cannot reach the service by DNS rebinding")
    p.add_argument("--threshold", type=float, default=0.5,
                   help="the share of checked items shown true a result's successful asks for, unless a "
                   "request's options.threshold says (default 0.5)")
    p.add_argument("--log-level", default="info", help="uvicorn log level (default info)")


def build_app(args: argparse.Namespace) -> Any:
    """The service an argument namespace describes (without starting it)."""
    from factjudge.integrations.http import create_app

    config = config_from_flags(args)
    api_key = service_api_key(args.api_key_env)
    hosts = [args.host, *(name.strip() for name in args.allowed_hosts.split(",") if name.strip())]
    return create_app(config=config, api_key=api_key, max_body=args.max_body, timeout=args.request_timeout,
                      max_concurrency=args.max_concurrency, allowed_hosts=hosts, threshold=args.threshold)


def server_settings(args: argparse.Namespace) -> dict[str, Any]:
    """uvicorn's settings for the connection bounds the flags set: headers and bodies timed out, the
    open connections bounded (``connections.bounded_h11``), idle keep-alive connections closed, and
    no more connections accepted at once than the open-file limit leaves room for."""
    from factjudge.integrations.connections import bounded_h11

    bound, backlog = connection_bound(args.max_connections)
    return {"http": bounded_h11(args.header_timeout, args.body_timeout, bound),
            "timeout_keep_alive": DEFAULT_KEEP_ALIVE, "backlog": backlog}


def connection_bound(wanted: int) -> tuple[int, int]:
    """The connections kept open at most (``wanted``, or fewer where the process may not open that many
    files) and how many are accepted in one go (uvicorn's backlog, 2,048 by default: a burst is accepted
    whole before the oldest waiting connections are closed, so it must fit in what is left)."""
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    except (ImportError, OSError, ValueError):
        return wanted, BACKLOG
    if soft == resource.RLIM_INFINITY:
        return wanted, BACKLOG
    room = max(2, soft - FILES_KEPT)
    return max(1, min(wanted, room // 2)), max(1, min(BACKLOG, room // 4))


# Files a service keeps open besides its connections (its model, indexes, logs, Python itself).
FILES_KEPT = 64
BACKLOG = 2048


def _check_limits(args: argparse.Namespace) -> None:
    """Refuse a port out of range or a non-positive limit before anything starts."""
    if not 0 < args.port < 65536:
        raise InputError(f"--port must be between 1 and 65535, not {args.port}")
    for flag, value in (("--max-body", args.max_body), ("--request-timeout", args.request_timeout),
                        ("--max-concurrency", args.max_concurrency),
                        ("--header-timeout", args.header_timeout), ("--body-timeout", args.body_timeout),
                        ("--max-connections", args.max_connections)):
        if not value > 0:  # also refuses NaN
            raise InputError(f"{flag} must be positive, not {value}")


def _check_port_free(host: str, port: int) -> None:
    """Refuse a port another process holds, so "serving on" is never printed for a dead server."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        # uvicorn sets SO_REUSEADDR too: a port in TIME_WAIT is free for it, so it is for the probe.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise InputError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def run_serve(args: argparse.Namespace) -> int:
    """Run the service until interrupted; returns the exit code."""
    try:
        import uvicorn
    except ImportError:
        raise InputError("factjudge serve needs the serve extra: pip install 'factjudge[serve]'") from None
    from factjudge.integrations.access_log import log_config

    _check_limits(args)
    app = build_app(args)
    _check_port_free(args.host, args.port)
    auth = "API key required" if service_api_key(args.api_key_env) else "no API key (open)"
    print(f"factjudge: serving on http://{args.host}:{args.port}/ ({auth})", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, log_config=log_config(),
                **server_settings(args))
    return 0
