"""The live camera in headless Chromium with a fake camera: a Y4M video made here from the real tile
photo plays as the tablet's camera (``--use-file-for-fake-video-capture``). The photo step shows
the preview with the tiles boxed, captures by itself once the reading is steady, and the photo
lands in the review step with its tiles. Chromium allows the camera on http://127.0.0.1, so the
plain server serves. Also the table camera (``mjc serve --camera``) with a video file."""

from __future__ import annotations

import shutil
import tempfile
import threading
from pathlib import Path

import cv2
import pytest

from .conftest import CHROMEDRIVER, CHROMIUM, DATA, FLAGS, SHOTS, _Reading, photo_reading, set_viewport, shot
from .test_companion_e2e import click, create_table, js_errors, open_home, visible

pytestmark = pytest.mark.e2e

SHOT = Path("/tmp/r3-camera-shot.png")


def write_y4m(path: Path, photo: Path, frames: int = 4, fps: int = 10) -> Path:
    """A Y4M (YUV 4:2:0) video of ``photo``, ``frames`` identical frames: a camera held still."""
    image = cv2.imread(str(photo))
    h, w = image.shape[:2]
    yuv = cv2.cvtColor(image, cv2.COLOR_BGR2YUV_I420).tobytes()
    with path.open("wb") as fh:
        fh.write(f"YUV4MPEG2 W{w} H{h} F{fps}:1 Ip A1:1 C420jpeg\n".encode())
        for _ in range(frames):
            fh.write(b"FRAME\n" + yuv)
    return path


@pytest.fixture(scope="module")
def https_server(tmp_path_factory):
    """The companion as ``mjc serve --https`` serves it (stand-in recogniser): (https base URL,
    the base64 SHA-256 of its certificate's public key, which the browser is told to trust, the
    plain base URL)."""
    import base64
    import hashlib

    from cryptography.hazmat.primitives import serialization
    from waitress import create_server

    from companion.app import create_app
    from companion.server import add_https, server_options
    from companion.tls import load_cert

    folder = tmp_path_factory.mktemp("https")
    app = create_app(folder, recognizer=lambda data: _Reading(photo_reading()))
    options = server_options(app.config["MAX_CONTENT_LENGTH"], threads=4)
    plain = create_server(app, host="127.0.0.1", port=0, **options)
    secure = add_https(app, plain, str(folder), "127.0.0.1", 0, ["localhost"], options)
    assert secure is not None
    spki = (
        load_cert(folder / "tls" / "server.crt")
        .public_key()
        .public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    )
    thread = threading.Thread(target=plain.run, daemon=True)
    thread.start()
    yield (
        f"https://localhost:{secure.effective_port}",
        base64.b64encode(hashlib.sha256(spki).digest()).decode(),
        f"http://localhost:{plain.effective_port}",
    )
    secure.close()
    plain.close()


@pytest.fixture(scope="module")
def camera_browser(https_server):
    """Headless Chromium whose camera plays the tile photo, allowed without asking; it trusts the
    HTTPS server's certificate (as a tablet that installed the authority does)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    folder = Path(tempfile.mkdtemp(prefix="mjc-fakecam-"))
    video = write_y4m(folder / "hand.y4m", DATA / "hand_photo.jpg")
    opts = webdriver.ChromeOptions()
    opts.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        opts.add_argument(flag)
    opts.add_argument(f"--user-data-dir={folder / 'profile'}")
    opts.add_argument("--window-size=1024,768")
    opts.add_argument("--use-fake-ui-for-media-stream")
    opts.add_argument("--use-fake-device-for-media-stream")
    opts.add_argument(f"--use-file-for-fake-video-capture={video}")
    opts.add_argument(f"--ignore-certificate-errors-spki-list={https_server[1]}")
    opts.set_capability("goog:loggingPrefs", {"browser": "SEVERE"})
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=opts)
    driver.set_page_load_timeout(20)
    SHOTS.mkdir(parents=True, exist_ok=True)
    yield driver
    driver.quit()
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def table_camera_server(tmp_path_factory):
    """The companion with a table camera playing a video of the tile photo (stand-in recogniser)."""
    from waitress import create_server

    from companion.app import create_app
    from companion.server import add_camera

    folder = tmp_path_factory.mktemp("tablecam")
    video = folder / "table.avi"
    photo = cv2.imread(str(DATA / "hand_photo.jpg"))
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10, photo.shape[1::-1])
    for _ in range(5):
        writer.write(photo)
    writer.release()
    app = create_app(folder / "d", recognizer=lambda data: _Reading(photo_reading()))
    feed = add_camera(app, str(video))
    server = create_server(app, host="127.0.0.1", port=0, threads=4)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.effective_port}"
    server.close()
    if feed is not None:
        feed.stop()


def _live_boxes(driver) -> int:
    return int(driver.execute_script("return document.querySelectorAll('#camera-overlay polygon.live-box').length"))


def _wait(driver, cond, timeout=30):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(cond)


def _lands_in_review(d) -> None:
    visible(d, "#step-review")
    _wait(d, lambda x: len(x.find_elements("css selector", "#photo-overlay g.box")) == 14)
    assert d.find_element("id", "camera-box").is_displayed() is False
    assert not js_errors(d)


def test_the_live_camera_boxes_the_tiles_and_captures_when_steady(live_server, camera_browser):
    d = camera_browser
    open_home(d, live_server, "en")
    create_table(d, ["Ann", "Bo", "Cy", "Di"])
    click(d, "#act-win")
    assert d.find_element("id", "camera-why").is_displayed() is False  # 127.0.0.1 is a secure page
    click(d, "#camera-btn")
    visible(d, "#camera-video")
    _wait(d, lambda x: _live_boxes(x) == 14)
    # the boxes lie over the video, in the video's own frame
    assert d.execute_script("return document.getElementById('camera-video').videoWidth") == 1200
    d.execute_script("document.getElementById('camera-box').scrollIntoView({block: 'start'})")
    status = d.find_element("id", "camera-status").text
    d.save_screenshot(str(SHOT))
    shot(d, "camera_1_live_boxes", full=False)
    assert "14 tiles" in status or "capturing" in status.lower()
    _lands_in_review(d)  # nobody pressed Capture
    shot(d, "camera_2_captured_review")


def test_the_manual_capture_button_takes_the_photo_at_once(live_server, camera_browser):
    """On a phone, in Chinese: Capture does not wait for the reading to settle."""
    d = camera_browser
    set_viewport(d, 390, 844, True)
    try:
        open_home(d, live_server, "zh")
        create_table(d, ["Ann", "Bo", "Cy", "Di"])
        click(d, "#act-win")
        click(d, "#camera-btn")
        _wait(d, lambda x: x.execute_script("return document.getElementById('camera-video').videoWidth > 0"))
        assert d.find_element("id", "camera-stop").text == "关闭相机"
        d.execute_script("document.getElementById('camera-box').scrollIntoView({block: 'start'})")
        shot(d, "camera_5_phone_zh", full=False)
        click(d, "#camera-shoot")
        _lands_in_review(d)
    finally:
        d.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_without_https_the_page_says_why_and_links_the_setup(live_server, camera_browser):
    d = camera_browser
    open_home(d, live_server, "en")
    token = create_table(d, ["Ann", "Bo", "Cy", "Di"])
    # a LAN address over plain HTTP is no secure page (127.0.0.1 is): the same check, forced here
    d.execute_script("Object.defineProperty(window, 'isSecureContext', {value: false})")
    click(d, "#act-win")
    why = visible(d, "#camera-why")
    assert "HTTPS" in why.text and d.find_element("id", "camera-btn").is_displayed() is False
    link = d.find_element("id", "https-link").get_attribute("href")
    assert link.endswith(f"/https/t/{token}")
    d.get(link)
    assert "mjc serve --https" in d.find_element("id", "https-off").text


def test_the_table_camera_streams_boxes_and_captures(table_camera_server, camera_browser):
    d = camera_browser
    open_home(d, table_camera_server, "en")
    create_table(d, ["Ann", "Bo", "Cy", "Di"])
    click(d, "#act-win")
    click(d, "#table-camera-btn")
    visible(d, "#camera-still")
    _wait(d, lambda x: _live_boxes(x) == 14)
    assert d.execute_script("return document.getElementById('camera-still').naturalWidth") == 960
    shot(d, "camera_3_table_camera", full=False)
    _lands_in_review(d)


def test_over_https_the_page_is_secure_and_the_live_camera_captures(https_server, camera_browser):
    d = camera_browser
    open_home(d, https_server[0], "en")
    create_table(d, ["Ann", "Bo", "Cy", "Di"])
    assert d.execute_script("return location.protocol + window.isSecureContext") == "https:true"
    token = d.current_url.rsplit("/t/", 1)[1]
    click(d, "#act-win")
    click(d, "#camera-btn")
    _wait(d, lambda x: _live_boxes(x) == 14)
    _lands_in_review(d)
    # the set-up page over plain HTTP: the authority to download, the way back to this table
    d.get(f"{https_server[2]}/https/t/{token}")
    assert d.find_element("id", "ca-link").get_attribute("href").endswith("/ca.crt")
    assert "Certificate Trust Settings" in d.page_source
    page = shot(d, "camera_4_https_setup")
    links = [a.text for a in d.find_elements("css selector", ".https-address a")]
    if links:  # this machine has a LAN address: its QR code, read back, is the link beside it
        found = _read_qr(cv2.imread(str(page)))
        assert found == links[0] and found.endswith(f"/t/{token}") and found.startswith("https://")
    assert not js_errors(d)


def _read_qr(image) -> str:
    """The QR code in ``image``, read as a phone's scanner would: OpenCV's classic decoder misses
    about one code in twenty that is plainly legible (measured on this page), so its ArUco-based
    decoder gets a second look."""
    for detector in (cv2.QRCodeDetector(), cv2.QRCodeDetectorAruco()):
        found, _, _ = detector.detectAndDecode(image)
        if found:
            return found
    return ""
