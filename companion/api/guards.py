"""What every request passes before a route sees it, and what every answer carries.

Before the route (:func:`check_request`, in this order):

* **Host** (DNS rebinding): the ``Host`` header must name ``localhost``, an IP address, or one of
  the allowed names (the names the server was started with, its host name, ``MJC_ALLOWED_HOSTS``);
  anything else answers 400 ``unknown_host`` and the request goes no further.
* **Rate limits** (:mod:`.ratelimit`): the public API's endpoints per client address, and token
  guesses (a token that names no table) per client address; over the limit answers 429 with
  ``Retry-After``.
* **Body size** by endpoint, before anything is read: :data:`CONTRACT_BODY` for the scoring
  contract and notation, :data:`TABLE_BODY` for table writes, the upload limit for photos,
  :data:`OTHER_BODY` elsewhere; over it answers 413.
* **Content-Type**: a JSON endpoint takes ``application/json`` (a body of another type, e.g. the
  ``text/plain`` a cross-site form can send, answers 415 and changes nothing); a photo endpoint
  takes ``multipart/form-data``. An empty body without a Content-Type is fine where the body is
  optional (draws, undo).

Every answer (:func:`security_headers`): a Content-Security-Policy without inline script or
style (the page needs neither) that no other site may frame, ``Referrer-Policy: no-referrer`` (a
table's link holds its token), ``X-Content-Type-Options: nosniff``, ``X-Frame-Options: DENY``;
API answers are never cached.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Iterable

from flask import Response, current_app, request

from ..errors import ApiError
from ..jsonlimits import CONTRACT_BYTES
from .ratelimit import LIMITER_KEY, Limiter

CONTRACT_BODY = CONTRACT_BYTES
"""The largest body of ``/api/score``, ``/api/waits`` and ``/api/notation`` (bytes; the same as
``mjc score``'s)."""
TABLE_BODY = 64 * 1024
"""The largest JSON body of a table write or a new table (bytes); a won hand with the photo's
confirmed reading takes a few KB."""
OTHER_BODY = 8 * 1024
"""The largest body of any other request (bytes)."""

PHOTO_ENDPOINTS = frozenset({"public.recognize_photo", "photos.upload_photo"})
CONTRACT_ENDPOINTS = frozenset({"public.score", "public.waits", "public.notation"})
PUBLIC_LIMITED = frozenset({"public.score", "public.waits", "public.notation", "public.recognize_photo"})
"""The public endpoints under the per-address rate limit (creating a table is one too)."""

HOSTS_KEY = "mjc_allowed_hosts"
HOSTS_ENV = "MJC_ALLOWED_HOSTS"

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; "
    "media-src 'self' blob: mediastream:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)


def allowed_hosts(names: Iterable[str] = ()) -> frozenset[str]:
    """``localhost`` and ``names`` (lower case, without a trailing dot) with the comma-separated
    names of ``MJC_ALLOWED_HOSTS``; IP addresses are always allowed and need no entry."""
    extra = [n for n in os.environ.get(HOSTS_ENV, "").split(",") if n.strip()]
    return frozenset(_host_name(n) for n in ("localhost", *names, *extra))


def check_request() -> None:
    """The checks above, for the request in flight (a ``before_request`` hook)."""
    _check_host()
    limiter: Limiter = current_app.extensions[LIMITER_KEY]
    endpoint = request.endpoint or ""
    if endpoint in PUBLIC_LIMITED or (endpoint == "tables.create_table"):
        limiter.public(request.remote_addr or "")
    if request.view_args and "token" in request.view_args:
        limiter.guesses_allowed(request.remote_addr or "")
    _check_size(endpoint)
    if request.method == "POST" and request.path.startswith("/api/"):
        _check_content_type(endpoint)


def security_headers(resp: Response) -> Response:
    """The headers every answer carries (an ``after_request`` hook)."""
    headers = resp.headers
    headers.setdefault("Content-Security-Policy", CSP)
    headers.setdefault("Referrer-Policy", "no-referrer")
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("X-Frame-Options", "DENY")
    if request.path.startswith("/api/"):
        headers.setdefault("Cache-Control", "no-store")
    return resp


def _host_name(host: str) -> str:
    """A Host header's name: no port, no brackets, no trailing dot, lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    if host.count(":") == 1:
        host = host.split(":", 1)[0]
    return host.rstrip(".")


def _check_host() -> None:
    name = _host_name(request.host or "")
    try:
        ipaddress.ip_address(name)
        return
    except ValueError:
        pass
    if name in current_app.extensions[HOSTS_KEY]:
        return
    raise ApiError(
        400,
        "unknown_host",
        f"this server does not answer to the name {name!r}; open it by its IP address or localhost, "
        f"or start it with --allow-host {name} (or {HOSTS_ENV}={name})",
    )


def _check_size(endpoint: str) -> None:
    if endpoint in PHOTO_ENDPOINTS:
        return  # the app's upload limit (MAX_CONTENT_LENGTH)
    limit = CONTRACT_BODY if endpoint in CONTRACT_ENDPOINTS else OTHER_BODY
    if request.method == "POST" and endpoint.startswith(("tables.", "hands.")):
        limit = TABLE_BODY
    request.max_content_length = limit
    if request.content_length is not None and request.content_length > limit:
        raise ApiError(
            413,
            "too_large",
            f"the request body is {request.content_length} bytes; this endpoint takes at most {limit} bytes",
        )


def _check_content_type(endpoint: str) -> None:
    has_body = bool(request.content_length) or request.headers.get("Transfer-Encoding", "").lower() == "chunked"
    mimetype = request.mimetype
    if endpoint in PHOTO_ENDPOINTS:
        if mimetype != "multipart/form-data":
            raise ApiError(
                415,
                "unsupported_media_type",
                f"send the photo as multipart/form-data in the field 'photo', not {mimetype or 'no Content-Type'}",
            )
        return
    if not has_body and not mimetype:
        return
    if mimetype != "application/json" and not mimetype.endswith("+json"):
        raise ApiError(
            415,
            "unsupported_media_type",
            f"this endpoint takes JSON: send Content-Type: application/json, not {mimetype or 'no Content-Type'}",
        )
