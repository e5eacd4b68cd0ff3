"""A table's hand photos: uploaded with the table (stored, then read by the recogniser) and served
back for the recorded hand."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from ..errors import ApiError
from .request import store, table_for
from .uploads import read_photo, recognize

MAX_ID = 2**63 - 1
"""The largest row id SQLite and PostgreSQL (``BIGINT``) store; a larger photo id names no photo (404)."""

bp = Blueprint("photos", __name__, url_prefix="/api/tables/<token>/photos")


@bp.post("")
def upload_photo(token: str) -> tuple[Response, int]:
    """Store the photo with the table and answer its reading with ``photo_id`` (201)."""
    ref = table_for(token, write=True)
    data = read_photo()
    reading = recognize(data)
    photo_id = store().save_photo(ref.table.id, data, reading)
    return jsonify({"ok": True, "photo_id": photo_id, **reading}), 201


@bp.get("/<int:photo_id>")
def get_photo(token: str, photo_id: int) -> Response:
    """The stored photo (PNG or JPEG, by its first bytes); private, cacheable for a day."""
    ref = table_for(token)
    found = store().photo(ref.table.id, photo_id) if photo_id <= MAX_ID else None
    data = found[0] if found is not None else None
    if data is None:
        raise ApiError(404, "no_such_photo", "this table has no such photo")
    mime = "image/png" if data[:4] == b"\x89PNG" else "image/jpeg"
    return Response(data, mimetype=mime, headers={"Cache-Control": "private, max-age=86400"})
