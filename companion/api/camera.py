"""The table camera for the tablet (``mjc serve --camera``), under a table's control token.

* ``GET /api/tables/<token>/camera``: whether the server has a camera, and its frame size.
* ``GET /api/tables/<token>/camera/frame.jpg``: the latest frame as JPEG (``?full=1`` at full
  size, for the capture; else the preview size), its number in ``X-Frame-Seq``; never cached.
* ``POST /api/tables/<token>/camera/reading``: the reading of the latest preview frame (the boxes
  the page draws over the preview) with ``seq``; it waits its turn in the recognition queue like
  a photo (503 ``busy`` with ``Retry-After`` when full).

Without a camera the frame and reading answer 404 ``no_camera``; before its first frame, 503
``camera_starting`` with ``Retry-After``. The watch link cannot use the camera (403).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, request

from ..camera import CAMERA_KEY, CameraFeed
from ..errors import ApiError
from .request import table_for
from .uploads import recognize

bp = Blueprint("camera", __name__, url_prefix="/api/tables/<token>/camera")


def _feed() -> CameraFeed | None:
    found: CameraFeed | None = current_app.extensions.get(CAMERA_KEY)
    return found


def _jpeg(full: bool) -> tuple[int, bytes]:
    feed = _feed()
    if feed is None:
        raise ApiError(
            404,
            "no_camera",
            "this server has no table camera; start it with mjc serve --camera 0, or take a photo",
        )
    found = feed.jpeg(full=full)
    if found is None:
        err = ApiError(503, "camera_starting", "the table camera has not given a frame yet; try again in a moment")
        err.headers["Retry-After"] = "1"
        raise err
    return found


@bp.get("")
def camera_state(token: str) -> dict[str, Any]:
    table_for(token, write=True)
    feed = _feed()
    frame = feed.latest() if feed is not None else None
    if feed is None or frame is None:
        return {"ok": True, "available": False}
    h, w = frame.image.shape[:2]
    return {"ok": True, "available": True, "width": w, "height": h, "seq": frame.seq}


@bp.get("/frame.jpg")
def camera_frame(token: str) -> Response:
    table_for(token, write=True)
    seq, data = _jpeg(full=request.args.get("full") == "1")
    return Response(data, mimetype="image/jpeg", headers={"X-Frame-Seq": str(seq), "Cache-Control": "no-store"})


@bp.post("/reading")
def camera_reading(token: str) -> dict[str, Any]:
    table_for(token, write=True)
    seq, data = _jpeg(full=False)
    return {"ok": True, "seq": seq, **recognize(data)}
