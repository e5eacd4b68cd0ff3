"""What every write to a table's ledger checks before it is recorded: the ledger version it was made
on and its idempotency key. Both checks run inside :func:`companion.live.record`'s work, with the
live ledger caught up to the file and the table locked, so they hold when several processes share
one ledger.

**Stale writes.** A write carries ``base_version``, the ledger version its page showed. It is
refused with 409 ``stale`` (the answer's ``stale`` says what was recorded since) when an event
recorded after that version changes what the write means:

* every write: anything but this hand's claims and kongs (:data:`INDEPENDENT`) — a won or drawn
  hand, a correction, an undo, or an event of a kind added later (a seat or settings change);
* a won hand (record or preview) and an undo also: a claim or kong (it changes the claims a won
  hand is scored with, and which event an undo takes back).

A version the ledger has not reached (a page ahead of a restored file) is stale too. A write
without ``base_version`` is not checked (older clients, scripts); the page always sends it.

**Idempotency keys.** A write may carry an ``Idempotency-Key`` header (1-200 visible ASCII
characters, unique per user action; a page keeps it across automatic retries of that action). The
key and the request's fingerprint (the route and the validated body) are kept in the event's
``data`` (:data:`companion.live.KEY_FIELD`). The same key again answers 200 with ``replayed:
true`` and the event recorded the first time, recording nothing; the same key with another request
answers 422 ``idempotency_key_reused``. Keys are per table and never expire (they live in the
events). The key is looked up before the stale check: a retry made on the version its first try
changed is still answered with that first event.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from flask import Response, jsonify, request
from pydantic import BaseModel

from ..errors import ApiError, bad
from ..live import KEY_FIELD, AlreadyRecorded, Build, Current, record
from ..store import Event
from .request import TableRef, store

#: events another device may record between a write's base version and the write without changing
#: what the write means (unless it is a won hand or an undo): this hand's claims and kongs
INDEPENDENT = frozenset({"claim", "kong"})
#: the latest events since the base version a 409 ``stale`` answer lists (``omitted`` counts the rest)
STALE_EVENTS = 20
KEY_HEADER = "Idempotency-Key"
KEY_PATTERN = re.compile(r"[\x21-\x7e]{1,200}")


@dataclass(frozen=True)
class WriteCheck:
    """A write's ``base_version``, its idempotency key and the request's fingerprint (with a key)."""

    base_version: int | None
    key: str | None
    fingerprint: str

    @classmethod
    def of(cls, body: BaseModel | None) -> WriteCheck:
        """The checks of the current request, whose validated body is ``body`` (None: no body);
        400 naming the header for a key that is empty, too long or not visible ASCII."""
        key = request.headers.get(KEY_HEADER)
        if key is not None and not KEY_PATTERN.fullmatch(key):
            raise bad(
                f"header '{KEY_HEADER}' must be 1-200 visible ASCII characters (a random id per action), got {key[:40]!r}",
                field=KEY_HEADER,
            )
        base = getattr(body, "base_version", None)
        return cls(base, key, _fingerprint(body) if key is not None else "")

    def guard(self, build: Build, *, strict: bool) -> Build:
        """``build`` behind the checks: an earlier write with this key answers that event (or 422
        for another request), a stale base version 409; the event keeps the key."""

        def guarded(led: Current) -> tuple[str, dict[str, Any], int | None]:
            if self.key is not None:
                earlier = led.keyed(self.key)
                if earlier is not None:
                    if earlier.data[KEY_FIELD].get("request") != self.fingerprint:
                        raise ApiError(
                            422,
                            "idempotency_key_reused",
                            f"this {KEY_HEADER} was used for another request (event {earlier.id}); "
                            "send a new key for each action",
                            KEY_HEADER,
                        )
                    raise AlreadyRecorded(earlier)
            refuse_stale(led, self.base_version, strict=strict)
            kind, data, target = build(led)
            if self.key is not None:
                data = data | {KEY_FIELD: {"key": self.key, "request": self.fingerprint}}
            return kind, data, target

        return guarded


def recorded(ref: TableRef, body: BaseModel | None, build: Build, *, strict: bool = False) -> tuple[Response, int]:
    """Record the event ``build`` computes behind the checks (``strict``: a won hand or an undo);
    201 with the event and what it changed, or 200 ``replayed`` with the event a retry's key names."""
    check = WriteCheck.of(body)
    event, changes = record(store(), ref.table, ref.rules, check.guard(build, strict=strict))
    replayed = event.seq <= changes.from_version
    answer = {"ok": True, "event": event.to_dict(), "changes": changes.to_dict(), "replayed": replayed}
    return jsonify(answer), 200 if replayed else 201


def _fingerprint(body: BaseModel | None) -> str:
    """The request as a key must find it again: its route, path ids and validated body."""
    dumped = body.model_dump(mode="json", by_alias=True, exclude_unset=True) if body is not None else {}
    args = {k: v for k, v in (request.view_args or {}).items() if k != "token"}
    canonical = json.dumps([request.endpoint, args, dumped], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def refuse_stale(led: Current, base: int | None, *, strict: bool) -> None:
    """409 ``stale`` when an event recorded after ``base`` changes the write (see the module's
    docstring; ``strict``: any event does); nothing when ``base`` is None."""
    if base is None:
        return
    since = led.since(base)
    changing = since if strict else [e for e in since if e.kind not in INDEPENDENT]
    if base <= led.version and not changing:
        return
    if base > led.version:
        message = f"the ledger is at version {led.version}, before this page's {base}; reload the table"
    else:
        message = (
            f"the ledger changed since this page showed it (version {base}, now {led.version}): "
            f"{_kinds(changing)} recorded on another device; nothing was recorded: check what changed and try again"
        )
    err = ApiError(409, "stale", message, "base_version")
    err.details["stale"] = stale_info(base, led.version, since)
    raise err


def stale_info(base: int, version: int, since: Sequence[Event]) -> dict[str, Any]:
    """The ``stale`` part of a 409: the versions and the latest events since ``base``."""
    shown = since[-STALE_EVENTS:]
    return {
        "base_version": base,
        "version": version,
        "events": [e.to_dict() for e in shown],
        "omitted": len(since) - len(shown),
    }


def _kinds(events: Sequence[Event]) -> str:
    """``a hand, an undo`` — what the events are, in a few words."""
    words = {"hand": "a hand", "correct": "a correction", "undo": "an undo", "claim": "a claim", "kong": "a kong"}
    named = list(dict.fromkeys(words.get(e.kind, f"a '{e.kind}' event") for e in events))
    return ", ".join(named)
