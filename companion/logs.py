"""Table tokens never reach the log: every record of the companion's and the server's loggers
(and, under ``mjc serve``, every handler's) has them replaced by ``<token>``.

A token is the path segment after ``/t/``, ``/w/`` or ``/api/tables/``, or any other 24-character
URL-safe run with a capital letter or a digit (what :func:`secrets.token_urlsafe` ``(18)`` makes),
in the message and in a traceback alike.
"""

from __future__ import annotations

import logging
import re

TOKEN_LOGGERS = ("companion", "companion.app", "companion.ledger", "waitress", "waitress.queue", "werkzeug")
"""The loggers whose records are redacted wherever they are handled."""

_IN_PATH = re.compile(r"(/(?:t|w|api/tables)/)[A-Za-z0-9_-]+")
_BARE = re.compile(r"(?<![A-Za-z0-9_-])(?=[A-Za-z0-9_-]*[A-Z0-9])[A-Za-z0-9_-]{24}(?![A-Za-z0-9_-])")


def redact(text: str) -> str:
    """``text`` with every table token replaced by ``<token>``."""
    return _BARE.sub("<token>", _IN_PATH.sub(r"\1<token>", text))


class RedactTokens(logging.Filter):
    """A filter that rewrites a record's message and traceback with :func:`redact`."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg, record.args = redact(record.getMessage()), None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


REDACT = RedactTokens()


def redact_loggers(*, handlers: bool = False) -> None:
    """Put the filter on :data:`TOKEN_LOGGERS` (records logged on them) and, with ``handlers``, on
    the root logger's handlers (records of any logger that reach them)."""
    for name in TOKEN_LOGGERS:
        logger = logging.getLogger(name)
        if REDACT not in logger.filters:
            logger.addFilter(REDACT)
    if handlers:
        for handler in logging.getLogger().handlers:
            if REDACT not in handler.filters:
                handler.addFilter(REDACT)
