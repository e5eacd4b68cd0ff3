// The live camera on the photo step: the tablet's own camera (getUserMedia: HTTPS or localhost)
// or the table camera the server reads (`mjc serve --camera`). Either way the preview shows the
// tiles the server finds, boxed; a few downscaled frames a second are read, one request at a time
// (a busy server's 503 waits its Retry-After), and when the reading is steady (camera-steady.js)
// the full-size frame is captured and goes on like a chosen photo. "Capture" captures at once.
// Without a camera or without HTTPS the page says why and keeps the file picker / camera app.
import { errorText } from "./api.js";
import { byId, element, replaceChildren, showError, svgElement } from "./dom.js";
import { ct } from "./camera-text.js";
import { STEADY, frameMotion, isSteady, readingKey } from "./camera-steady.js";
import { store } from "./store.js";

/** The shortest time between two frames sent for reading (ms): at most about three a second. */
const FRAME_PERIOD_MS = 330;
/** The long side of a frame sent for reading (px). */
const FRAME_SIDE = 960;
/** The grey copy a frame's motion is measured on (px). */
const GREY_W = 32, GREY_H = 24;

/** @type {((blob: Blob) => void) | null} what a captured photo is given to (win-photo.js) */
let onCapture = null;
/** @type {{mode: "device" | "table", stream: MediaStream | null, stopped: boolean, history: object[], grey: Float32Array | null, stillUrl: string} | null} */
let session = null;
/** the table whose camera was asked about, and the answer */
let tableCamera = { token: null, available: false };

const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));

/** Whether this page may open the tablet's camera (a secure page with getUserMedia). */
export function deviceCameraPossible() {
  return Boolean(window.isSecureContext && navigator.mediaDevices && navigator.mediaDevices.getUserMedia);
}

/** Stop whichever camera runs and hide the preview. */
export function stopCamera() {
  if (session) {
    session.stopped = true;
    if (session.stream) session.stream.getTracks().forEach((track) => track.stop());
    if (session.stillUrl) URL.revokeObjectURL(session.stillUrl);
    session = null;
  }
  /** @type {HTMLVideoElement} */ (byId("camera-video")).srcObject = null;
  byId("camera-box").hidden = true;
}

function openSession(mode, stream = null) {
  stopCamera();
  session = { mode, stream, stopped: false, history: [], grey: null, stillUrl: "" };
  byId("camera-video").hidden = mode !== "device";
  byId("camera-still").hidden = mode !== "table";
  replaceChildren(byId("camera-overlay"));
  byId("camera-box").hidden = false;
  status(ct("looking"));
  return session;
}

function status(text) {
  byId("camera-status").textContent = text;
}

async function startDevice() {
  showError("capture-error", "");
  let stream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({
      video: { facingMode: "environment", width: { ideal: 1920 }, height: { ideal: 1440 } }, audio: false,
    });
  } catch (e) {
    const missing = e && (e.name === "NotFoundError" || e.name === "OverconstrainedError");
    showError("capture-error", missing ? ct("no_camera") : e && e.name === "NotAllowedError" ? ct("camera_denied") : String(e.message || e));
    return;
  }
  const s = openSession("device", stream);
  const video = /** @type {HTMLVideoElement} */ (byId("camera-video"));
  video.srcObject = stream;
  await video.play().catch(() => {});
  while (!s.stopped && !video.videoWidth) await sleep(50);
  run(s);
}

function startTable() {
  showError("capture-error", "");
  const s = openSession("table");
  refreshStill(s);
  run(s);
}

function tableUrl(path) {
  return `/api/tables/${store.get("token")}/camera${path}`;
}

/** Keep the table camera's preview image fresh (one frame at a time) while the session lasts. */
async function refreshStill(s) {
  while (!s.stopped) {
    const started = performance.now();
    try {
      const resp = await fetch(tableUrl("/frame.jpg"), { cache: "no-store" });
      if (resp.ok && !s.stopped) {
        const url = URL.createObjectURL(await resp.blob());
        const img = /** @type {HTMLImageElement} */ (byId("camera-still"));
        await new Promise((ok) => {
          img.onload = ok;
          img.onerror = ok;
          img.src = url;
        });
        if (s.stillUrl) URL.revokeObjectURL(s.stillUrl);
        s.stillUrl = url;
      }
    } catch {
      // the next round tries again
    }
    await sleep(Math.max(0, 200 - (performance.now() - started)));
  }
}

/** The element the session shows (the video, or the table camera's latest frame) and its size. */
function source(s) {
  if (s.mode === "device") {
    const v = /** @type {HTMLVideoElement} */ (byId("camera-video"));
    return { el: v, w: v.videoWidth, h: v.videoHeight };
  }
  const img = /** @type {HTMLImageElement} */ (byId("camera-still"));
  return { el: img, w: img.naturalWidth, h: img.naturalHeight };
}

/** A grey copy of what the session shows, for the motion measure (null before a frame is there). */
function greyCopy(s) {
  const { el, w, h } = source(s);
  if (!w || !h) return null;
  const canvas = document.createElement("canvas");
  canvas.width = GREY_W;
  canvas.height = GREY_H;
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  ctx.drawImage(el, 0, 0, GREY_W, GREY_H);
  const px = ctx.getImageData(0, 0, GREY_W, GREY_H).data, grey = new Float32Array(GREY_W * GREY_H);
  for (let i = 0; i < grey.length; i++) grey[i] = (0.299 * px[4 * i] + 0.587 * px[4 * i + 1] + 0.114 * px[4 * i + 2]) / 255;
  return grey;
}

/** The frame on screen as a JPEG, its long side at most `side` px (null: no frame yet). */
function frameBlob(s, side) {
  const { el, w, h } = source(s);
  if (!w || !h) return Promise.resolve(null);
  const k = Math.min(1, side / Math.max(w, h));
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(w * k);
  canvas.height = Math.round(h * k);
  canvas.getContext("2d").drawImage(el, 0, 0, canvas.width, canvas.height);
  return new Promise((ok) => canvas.toBlob(ok, "image/jpeg", side > FRAME_SIDE ? 0.92 : 0.8));
}

/**
 * The server's reading of the frame on screen: {reading} or {wait: seconds} (busy, starting) or
 * {error: text}. One request at a time: the caller awaits it.
 */
async function readFrame(s) {
  let resp;
  try {
    if (s.mode === "table") resp = await fetch(tableUrl("/reading"), { method: "POST" });
    else {
      const blob = await frameBlob(s, FRAME_SIDE);
      if (!blob) return { wait: 0.2 };
      const form = new FormData();
      form.append("photo", blob, "frame.jpg");
      resp = await fetch("/api/recognize", { method: "POST", body: form });
    }
  } catch {
    return { wait: 2 };
  }
  const data = await resp.json().catch(() => null);
  if (resp.status === 503 || resp.status === 429) return { wait: Number(resp.headers.get("Retry-After")) || 2 };
  if (!resp.ok || !data || data.ok === false) return { error: data && data.error ? errorText(data.error) : String(resp.status), status: resp.status };
  return { reading: data };
}

/** Read frames, draw their boxes and capture when steady, until the session stops. */
async function run(s) {
  while (!s.stopped) {
    const started = performance.now();
    const grey = greyCopy(s);
    const answer = grey ? await readFrame(s) : { wait: 0.2 };
    if (s.stopped) return;
    if (answer.wait !== undefined) {
      if (answer.wait >= 1) status(ct("busy_wait", { s: answer.wait }));
      await sleep(answer.wait * 1000);
      continue;
    }
    if (answer.error) {
      if (s.mode === "table" && answer.status === 404) {
        stopCamera();
        showError("capture-error", ct("camera_gone", { m: answer.error }));
        return;
      }
      status(answer.error);
    } else {
      const seen = readingKey(answer.reading);
      s.history.push({ ...seen, motion: frameMotion(s.grey, grey) });
      s.history = s.history.slice(-STEADY.frames);
      s.grey = grey;
      drawBoxes(answer.reading);
      if (isSteady(s.history)) {
        status(ct("capturing"));
        await capture(s);
        return;
      }
      status(describe(s.history));
    }
    await sleep(Math.max(0, FRAME_PERIOD_MS - (performance.now() - started)));
  }
}

/** The status line for the readings so far (the last one's tiles, and how steady they are). */
function describe(history) {
  const last = history[history.length - 1];
  if (!last.count) return ct("looking");
  if (last.count < STEADY.minTiles) return ct("few_tiles", { n: last.count });
  if (last.motion > STEADY.maxMotion && history.length > 1) return ct("moving", { n: last.count });
  let same = 0;
  for (let i = history.length - 1; i >= 0 && history[i].key === last.key; i--) same++;
  return ct("hold_still", { n: last.count, k: same, m: STEADY.frames });
}

/** Draw the reading's tiles over the preview, in the reading's own coordinates. */
function drawBoxes(reading) {
  const svg = byId("camera-overlay");
  svg.setAttribute("viewBox", `0 0 ${reading.width} ${reading.height}`);
  const sw = Math.max(2, reading.width / 160);
  replaceChildren(svg, (reading.tiles || []).filter((x) => x.quad).map((x) =>
    svgElement("polygon", {
      class: "live-box", points: x.quad.map((p) => p.join(",")).join(" "), fill: "none", "stroke-width": sw,
      stroke: x.code === "back" ? "#868e96" : x.sure === false ? "#f08c00" : "#2f9e44", "data-code": x.code,
    })));
}

/** Take the full-size frame, stop the camera and hand the photo on. */
async function capture(s) {
  let blob = null;
  if (s.mode === "device") blob = await frameBlob(s, 4096);
  else {
    const resp = await fetch(tableUrl("/frame.jpg?full=1"), { cache: "no-store" }).catch(() => null);
    blob = resp && resp.ok ? await resp.blob() : null;
  }
  stopCamera();
  if (blob && onCapture) onCapture(blob);
}

/** Explain, on the photo step, why the live camera is not offered, and ask the server about its camera;
 * stop the camera once the photo step is left. */
function renderCapture() {
  const win = store.get("win"), token = store.get("token");
  if (store.get("screen") !== "win" || !win || win.step !== "capture") {
    if (session) stopCamera(); // the table left the photo step (typed tiles, cancel, another screen)
    return;
  }
  const why = byId("camera-why");
  why.hidden = deviceCameraPossible();
  if (!why.hidden) {
    const lang = store.get("lang") === "zh" ? "?lang=zh" : "";
    replaceChildren(why, ct("needs_https"), " ", element("a", { href: `/https/t/${token}${lang}`, id: "https-link" }, ct("https_setup")));
  }
  byId("table-camera-btn").textContent = ct("table_camera");
  byId("camera-stop").textContent = ct("stop_camera");
  byId("table-camera-btn").hidden = !(tableCamera.token === token && tableCamera.available);
  if (tableCamera.token !== token) {
    tableCamera = { token, available: false };
    fetch(tableUrl(""), { cache: "no-store" })
      .then((r) => r.json())
      .then((data) => {
        tableCamera = { token, available: Boolean(data && data.available) };
        byId("table-camera-btn").hidden = !tableCamera.available;
      })
      .catch(() => {});
  }
}

/** Wire the camera controls once; `capture(blob)` receives a captured photo. */
export function wireCamera(capture) {
  onCapture = capture;
  byId("camera-btn").addEventListener("click", startDevice);
  byId("table-camera-btn").addEventListener("click", startTable);
  byId("camera-stop").addEventListener("click", stopCamera);
  byId("camera-shoot").addEventListener("click", () => {
    if (!session) return;
    status(ct("capturing"));
    capture(session);
  });
  store.subscribe(["screen", "win", "lang"], renderCapture);
}
