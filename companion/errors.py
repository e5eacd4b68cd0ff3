"""Errors the HTTP API answers with: a status, a stable code, a message saying what to do, the field.

The body is always ``{"ok": false, "error": {"code", "message", "field"?, "kind"?}}``; ``kind`` is
the engine's ``refused`` (the rules do not pay) or ``invalid`` (malformed input) where the error
came from the engine.
"""

from __future__ import annotations

from typing import Any

from engine.errors import MahjongError
from engine.rules.base import Refusal


class ApiError(Exception):
    """An answer other than success: HTTP ``status``, a stable ``code``, a message, the JSON field;
    ``headers`` the answer carries besides (``Retry-After``, ``Allow``); ``details``: fields the
    body carries beside ``error`` (a stale write's ``stale``: what changed)."""

    def __init__(self, status: int, code: str, message: str, field: str | None = None, kind: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.kind = kind
        self.headers: dict[str, str] = {}
        self.details: dict[str, Any] = {}

    @classmethod
    def from_engine(cls, err: MahjongError) -> ApiError:
        """An engine error: a refusal by the rules answers 422, any other (malformed input) 400."""
        refused = isinstance(err, Refusal)
        return cls(422 if refused else 400, err.code, err.message, err.field, "refused" if refused else "invalid")

    def to_dict(self) -> dict[str, Any]:
        err: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.field:
            err["field"] = self.field
        if self.kind:
            err["kind"] = self.kind
        return {"ok": False, "error": err, **self.details}


def bad(message: str, field: str | None = None, code: str = "bad_input") -> ApiError:
    """Malformed input (400), naming the field."""
    return ApiError(400, code, message, field)
