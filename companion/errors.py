"""Errors the HTTP API answers with: a status, a stable code, a message saying what to do, the field."""
from __future__ import annotations


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.field = field

    def to_dict(self) -> dict:
        err = {"code": self.code, "message": self.message}
        if self.field:
            err["field"] = self.field
        return {"ok": False, "error": err}


def bad(message: str, field: str | None = None, code: str = "bad_input") -> ApiError:
    return ApiError(400, code, message, field)
