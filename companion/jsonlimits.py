"""JSON read under limits, for the HTTP API's bodies and ``mjc score`` / ``mjc waits``.

Python's :func:`json.loads` takes ``NaN``, ``Infinity``, ``1e999`` (as infinity), integers of
thousands of digits (then fails converting them), lone surrogates (``"\\ud800"``, which no UTF-8
answer can hold afterwards) and nesting as deep as its recursion allows. :func:`loads` refuses
each of them with :class:`JsonLimitError` naming where in the document it sits (``players[1]``,
``options.base_score``), so nothing read here can fail to be written back as valid JSON:

* nesting deeper than :data:`MAX_DEPTH`;
* a string (or an object key) longer than :data:`MAX_STRING` characters, or holding a lone surrogate;
* ``NaN``, ``Infinity``, ``-Infinity``, or a number that overflows to infinity;
* an integer beyond :data:`MAX_INT` either way (JavaScript's safe integers, which the page reads).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

CONTRACT_BYTES = 8 * 1024
"""The largest scoring-contract document (``/api/score``, ``/api/waits``, ``/api/notation``,
``mjc score``, ``mjc waits``) in bytes; a three-winner hand takes about 1.5 KB."""
MAX_DEPTH = 32
"""The deepest nesting of arrays and objects a body may have (a won hand needs 6)."""
MAX_STRING = 4096
"""The longest string or object key, in characters (a hand's tiles take a few dozen)."""
MAX_INT = 2**53 - 1
"""The largest integer magnitude: JavaScript's ``Number.MAX_SAFE_INTEGER``."""

_SURROGATE = re.compile("[\ud800-\udfff]")
_INT_DIGITS = len(str(MAX_INT))


class JsonLimitError(ValueError):
    """A JSON text that is malformed or over a limit: the message says which and what to do;
    ``field`` is the JSON path of the culprit (``""`` for the whole document)."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class _Refused:
    """A number :func:`loads` refuses, kept in place until the walk names its path."""

    def __init__(self, text: str, why: str) -> None:
        self.text = text
        self.why = why


def _parse_int(text: str) -> int | _Refused:
    digits = text.lstrip("-")
    if len(digits) > _INT_DIGITS or int(text) > MAX_INT or int(text) < -MAX_INT:
        shown = text if len(text) <= 24 else f"{text[:12]}… ({len(digits)} digits)"
        return _Refused(shown, f"integers must lie within ±{MAX_INT}")
    return int(text)


def _parse_float(text: str) -> float | _Refused:
    value = float(text)
    if not math.isfinite(value):
        return _Refused(text[:24], "the number is too large (it overflows to infinity)")
    return value


def _parse_constant(text: str) -> _Refused:
    return _Refused(text, "NaN and Infinity are not JSON numbers")


def loads(text: str | bytes) -> Any:
    """``text`` parsed as JSON within the limits above; raises :class:`JsonLimitError`."""
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8-sig")
        value = json.loads(text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant)
    except UnicodeDecodeError:
        raise JsonLimitError("the body is not UTF-8 text; send JSON encoded as UTF-8") from None
    except json.JSONDecodeError as err:
        raise JsonLimitError(f"not valid JSON at line {err.lineno} column {err.colno}: {err.msg}") from None
    except RecursionError:
        raise JsonLimitError(f"the JSON is nested too deeply (at most {MAX_DEPTH} levels)") from None
    check(value)
    return value


def check(value: Any) -> None:
    """Walk ``value`` (iteratively) and raise :class:`JsonLimitError` at the first thing over a limit."""
    stack: list[tuple[Any, str, int]] = [(value, "", 0)]
    while stack:
        node, path, depth = stack.pop()
        if isinstance(node, (dict, list)) and depth >= MAX_DEPTH:
            raise JsonLimitError(f"the JSON is nested too deeply (at most {MAX_DEPTH} levels)", path)
        if isinstance(node, dict):
            for key, item in reversed(node.items()):
                _check_string(key, path, "a key")
                stack.append((item, f"{path}.{key}" if path else key, depth + 1))
        elif isinstance(node, list):
            stack.extend((node[i], f"{path}[{i}]", depth + 1) for i in reversed(range(len(node))))
        elif isinstance(node, str):
            _check_string(node, path, "the string")
        elif isinstance(node, _Refused):
            raise JsonLimitError(f"field '{path or '(body)'}': {node.why}, got {node.text}", path)


def _check_string(text: str, path: str, what: str) -> None:
    if len(text) > MAX_STRING:
        raise JsonLimitError(f"field '{path or '(body)'}': {what} is {len(text)} characters, over {MAX_STRING}", path)
    if _SURROGATE.search(text):
        raise JsonLimitError(
            f"field '{path or '(body)'}': {what} holds a lone UTF-16 surrogate (\\ud800-\\udfff), "
            "which is not text; send valid Unicode",
            path,
        )
