"""What the companion's API tests share: the players, a winning hand, a stand-in recogniser, and
small helpers to create a table and read an error answer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
E2E_PHOTO = ROOT / "tests" / "e2e" / "data" / "hand_photo.jpg"
PLAYERS = ["Alice", "Bob", "Chen", "Dora"]
VIDEO_FRAMES = 6
VIDEO_SIZE = (1200, 900)
"""The table camera's stand-in video (:func:`make_video`): its frames and their size (the photo's)."""
WIN_S = {"winner": "S", "win": {"by": "self_draw"}, "hand": {"concealed": "123m456p789s11222z", "winning_tile": "2z"}}


class FakeReading:
    """A recognition for API tests where the classifier is not the point."""

    def __init__(self, codes: tuple[str, ...] = ("1m", "2m", "3m")) -> None:
        self.codes = codes

    def to_dict(self) -> dict[str, Any]:
        tiles = [
            {
                "code": c,
                "quad": [[10 * i, 0], [10 * i + 9, 0], [10 * i + 9, 12], [10 * i, 12]],
                "confidence": 0.9,
                "alternatives": [[c, 0.9], ["9m", 0.05], ["9p", 0.05]],
                "rotated": False,
                "row": 0,
                "group": 0,
            }
            for i, c in enumerate(self.codes)
        ]
        groups = [
            {
                "index": 0,
                "row": 0,
                "tiles": list(range(len(tiles))),
                "codes": "".join(self.codes),
                "hand": True,
                "reason": "hand_row",
                "note": "the hand: the longest aligned row of same-sized tiles nearest the camera",
            }
        ]
        return {
            "tiles": tiles,
            "groups": groups,
            "width": 100,
            "height": 20,
            "timings_ms": {"total": 1},
            "reason": None,
        }


def new_table(client: Any, variant: str = "ningxia", **extra: Any) -> dict[str, Any]:
    """Create a table of :data:`PLAYERS` (Alice deals first) and answer its view."""
    body = {"variant": variant, "players": PLAYERS, "first_dealer": 0, **extra}
    resp = client.post("/api/tables", json=body)
    assert resp.status_code == 201, resp.json
    view: dict[str, Any] = resp.json
    return view


def answer(resp: Any) -> dict[str, Any]:
    """A JSON answer's body."""
    assert resp.is_json, resp.data[:200]
    body: dict[str, Any] = resp.json
    return body


def err(resp: Any) -> dict[str, Any]:
    """The ``error`` of an error answer, checked to be the API's JSON shape without a stack trace."""
    assert resp.is_json, resp.data[:200]
    body = resp.json
    assert body["ok"] is False and "Traceback" not in json.dumps(body)
    error: dict[str, Any] = body["error"]
    return error


def make_video(path: Path, frames: int = VIDEO_FRAMES, fps: int = 20) -> Path:
    """A short MJPEG video of the real tile photo, each frame marked with its number (top left)."""
    import cv2

    photo = cv2.imread(str(E2E_PHOTO))
    assert photo.shape[1::-1] == VIDEO_SIZE
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, VIDEO_SIZE)
    assert writer.isOpened()
    for i in range(frames):
        frame = photo.copy()
        frame[:20, :20] = 40 * i
        writer.write(frame)
    writer.release()
    return path
