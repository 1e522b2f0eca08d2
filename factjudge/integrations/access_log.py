"""uvicorn's access log without query strings: a key sent in a URL must not land in a log file."""

from __future__ import annotations

import copy
import logging
from typing import Any


class NoQueryString(logging.Filter):
    """Cuts the query string off the request path of an access-log record."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Keep the record, its path shortened to before the first ``?``."""
        # uvicorn logs '%s - "%s %s HTTP/%s" %d' with (client, method, path?query, version, status).
        args = record.args
        if isinstance(args, tuple) and len(args) == 5 and isinstance(args[2], str):
            record.args = (args[0], args[1], args[2].split("?", 1)[0], *args[3:])
        return True


def log_config() -> dict[str, Any]:
    """uvicorn's own logging configuration, with the access log's query strings dropped."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["no_query"] = {"()": NoQueryString}
    config["loggers"]["uvicorn.access"]["filters"] = ["no_query"]
    return config
