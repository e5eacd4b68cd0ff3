"""The table camera (``mjc serve --camera``): a video file made here from the real tile photo stands
in for the device. The feed's thread, its frames and JPEGs, stopping, a camera that cannot be
opened, and the page's endpoints (a frame, its reading by the real recogniser, the refusals)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.app import create_app
from companion.camera import CAMERA_KEY, PREVIEW_SIDE, CameraError, CameraFeed, parse_source
from companion.server import add_camera

from .helpers import E2E_PHOTO, FakeReading, err, make_video, new_table
from .helpers import VIDEO_FRAMES as FRAMES
from .helpers import VIDEO_SIZE as SIZE


@pytest.fixture(scope="module")
def video(tmp_path_factory) -> Path:
    return make_video(tmp_path_factory.mktemp("camera") / "table.avi")


@pytest.fixture()
def feed(video) -> Iterator[CameraFeed]:
    running = CameraFeed(str(video)).start()
    yield running
    running.stop()


def wait_for(cond, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.02)


@pytest.mark.parametrize(
    ("text", "source"), [("0", 0), (" 2 ", 2), ("table.avi", "table.avi"), ("rtsp://cam/1", "rtsp://cam/1")]
)
def test_a_source_is_a_device_number_or_a_path(text, source):
    assert parse_source(text) == source


def test_the_thread_reads_the_frames_and_plays_a_file_again_at_its_end(feed):
    first = feed.latest()
    assert first is not None and first.image.shape == (SIZE[1], SIZE[0], 3)
    wait_for(lambda: (f := feed.latest()) is not None and f.seq > FRAMES + 2)  # past the end: played again
    marks = set()
    seen_seq = 0
    end = time.monotonic() + 3
    while len(marks) < FRAMES and time.monotonic() < end:
        frame = feed.latest()
        assert frame is not None and frame.seq >= seen_seq
        seen_seq = frame.seq
        marks.add(int(frame.image[5, 5].mean() + 20) // 40)
        time.sleep(0.01)
    assert marks == set(range(FRAMES))  # every frame of the file came through
    assert "file" in feed.describe() and "1200×900" in feed.describe()


def test_a_frame_is_a_preview_jpeg_or_the_full_frame(feed):
    seq, preview = feed.jpeg()
    image = cv2.imdecode(np.frombuffer(preview, np.uint8), cv2.IMREAD_COLOR)
    assert max(image.shape[:2]) == PREVIEW_SIDE and image.shape[1] / image.shape[0] == pytest.approx(4 / 3, abs=0.01)
    _, full = feed.jpeg(full=True)
    assert cv2.imdecode(np.frombuffer(full, np.uint8), cv2.IMREAD_COLOR).shape[:2] == (SIZE[1], SIZE[0])
    assert seq >= 1


def test_stop_ends_the_thread_and_releases_the_camera(video):
    running = CameraFeed(str(video)).start()
    assert running.running
    running.stop()
    assert not running.running
    running.stop()  # twice is fine


@pytest.mark.parametrize("source", ["/nonexistent/table.avi", "not-a-camera.mp4"])
def test_a_camera_that_cannot_be_opened_is_one_clear_line(source, tmp_path, capsys):
    with pytest.raises(CameraError, match="cannot open the camera"):
        CameraFeed(source).start()
    app = create_app(tmp_path / "d", recognizer=lambda data: FakeReading())
    assert add_camera(app, source) is None
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and "cannot open the camera" in out[0] and "serving without the table camera" in out[0]
    assert CAMERA_KEY not in app.extensions


@pytest.fixture()
def camera_client(tmp_path, video) -> Iterator[tuple]:
    """A client of an app with the table camera and the real recogniser; a table's two tokens."""
    app = create_app(tmp_path / "d")
    running = add_camera(app, str(video))
    assert running is not None
    client = app.test_client()
    table = new_table(client)["table"]
    yield client, table["token"], table["watch_token"]
    running.stop()


def test_the_page_gets_frames_and_their_reading_by_the_real_recogniser(camera_client):
    client, token, _ = camera_client
    state = client.get(f"/api/tables/{token}/camera").json
    assert state["available"] is True and (state["width"], state["height"]) == SIZE
    frame = client.get(f"/api/tables/{token}/camera/frame.jpg")
    assert frame.status_code == 200 and frame.mimetype == "image/jpeg" and frame.data[:2] == b"\xff\xd8"
    assert int(frame.headers["X-Frame-Seq"]) >= 1 and frame.headers["Cache-Control"] == "no-store"
    full = client.get(f"/api/tables/{token}/camera/frame.jpg?full=1")
    assert cv2.imdecode(np.frombuffer(full.data, np.uint8), cv2.IMREAD_COLOR).shape[:2] == (SIZE[1], SIZE[0])
    reading = client.post(f"/api/tables/{token}/camera/reading")
    body = reading.json
    assert reading.status_code == 200 and body["ok"] is True and body["seq"] >= 1
    assert max(body["width"], body["height"]) == PREVIEW_SIDE
    # every tile of the photo is found where it lies (the photo's truth, scaled to the preview)
    truth = json.loads((E2E_PHOTO.parent / "hand_photo.json").read_text())
    k = PREVIEW_SIDE / SIZE[0]
    centres = [np.mean(t["quad"], axis=0) for t in body["tiles"]]
    assert len(centres) == len(truth["tiles"]) == 14
    for t in truth["tiles"]:
        c = np.mean(t["quad"], axis=0) * k
        assert min(np.linalg.norm(c - f) for f in centres) < 15


def test_the_watch_link_and_a_server_without_camera_are_refused(camera_client, client):
    camera, _, watch = camera_client
    assert camera.get(f"/api/tables/{watch}/camera/frame.jpg").status_code == 403
    assert err(camera.post(f"/api/tables/{watch}/camera/reading"))["code"] == "read_only"
    token = new_table(client)["table"]["token"]
    assert client.get(f"/api/tables/{token}/camera").json == {"ok": True, "available": False}
    missing = client.get(f"/api/tables/{token}/camera/frame.jpg")
    assert missing.status_code == 404 and err(missing)["code"] == "no_camera"
    assert err(client.post(f"/api/tables/{token}/camera/reading"))["code"] == "no_camera"
