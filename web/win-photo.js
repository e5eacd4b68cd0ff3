// A win, step 1: the photo. Shrink it in the browser (EXIF orientation kept), upload it with a
// progress bar, and turn the server's reading into the draft; or capture from the live camera (camera.js).
import { uploadPhoto } from "./api.js";
import { stopCamera, wireCamera } from "./camera.js";
import { byId, showError } from "./dom.js";
import { t } from "./i18n.js";
import { store } from "./store.js";
import { draftFromRecognition } from "./win-draft.js";
import { currentDraft, currentWin, redrawWin, ruleFacts } from "./win-state.js";

export { stopCamera };

/** The progress bar: a percentage, -1 for "working" (indeterminate), null to hide it. */
function progress(percent, text) {
  byId("progress-box").hidden = percent === null;
  byId("progress-bar").style.width = (percent ?? 0) + "%";
  byId("progress-bar").classList.toggle("indeterminate", percent === -1);
  byId("progress-text").textContent = text || "";
}

/** The photo as a JPEG at most `maxSide` pixels on its long side. */
async function downscale(file, maxSide = 1600) {
  let src;
  try {
    src = await createImageBitmap(file, { imageOrientation: "from-image" });
  } catch {
    src = await new Promise((ok, bad) => {
      const img = new Image();
      img.onload = () => ok(img);
      img.onerror = bad;
      img.src = URL.createObjectURL(file);
    });
  }
  const k = Math.min(1, maxSide / Math.max(src.width, src.height));
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(src.width * k);
  canvas.height = Math.round(src.height * k);
  canvas.getContext("2d").drawImage(src, 0, 0, canvas.width, canvas.height);
  return await new Promise((ok) => canvas.toBlob(ok, "image/jpeg", 0.9));
}

/** Read a photo into the draft on screen (keeping who won, how, and the flags) and go to step 2. */
async function handlePhoto(fileOrBlob) {
  showError("capture-error", "");
  progress(-1, t("shrinking"));
  let blob;
  try {
    blob = await downscale(fileOrBlob);
  } catch {
    progress(null);
    showError("capture-error", t("photo_too_big"));
    return;
  }
  try {
    const rec = await uploadPhoto(`/api/tables/${store.get("token")}/photos`, blob, {
      onProgress: (p) => progress(p, t("uploading", { p })),
      onSent: () => progress(-1, t("recognising")),
    });
    progress(null);
    const keep = currentDraft();
    const d = draftFromRecognition(rec, URL.createObjectURL(blob), ruleFacts().indicator);
    d.winner = keep.winner;
    d.by = keep.by;
    d.flags = keep.flags;
    const win = currentWin();
    win.drafts[win.cur] = d;
    win.step = "review";
    redrawWin();
  } catch (e) {
    progress(null);
    showError("capture-error", e.message);
  }
}

/** Wire step 1 (once, at start-up). */
export function wirePhoto() {
  byId("photo-input").addEventListener("change", (ev) => {
    const input = /** @type {HTMLInputElement} */ (ev.target), file = input.files && input.files[0];
    if (file) handlePhoto(file);
  });
  wireCamera(handlePhoto);
}
