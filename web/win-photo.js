// A win, step 1: the photo. Shrink it in the browser (EXIF orientation kept), upload it with a
// progress bar, and turn the server's reading into the draft; or capture from the live camera (camera.js).
import { uploadPhoto } from "./api.js";
import { stopCamera, wireCamera } from "./camera.js";
import { byId, showError } from "./dom.js";
import { t } from "./i18n.js";
import { store } from "./store.js";
import { draftFromRecognition, liveTiles } from "./win-draft.js";
import { currentDraft, currentWin, redrawWin, ruleFacts } from "./win-state.js";

export { stopCamera };

/** The last photo sent (shrunk), so "Try again" can send it again after a failed upload. */
/** @type {Blob | null} */
let lastPhoto = null;

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

/** A failed reading: the message, and "Try again" (sending the same photo) when there is one. */
function failed(message) {
  progress(null);
  showError("capture-error", message);
  byId("photo-retry").hidden = !lastPhoto;
}

/**
 * Whether a reading that just arrived still belongs on screen: not when the table cancelled,
 * retook or moved to another winner meanwhile, nor when it typed or picked tiles meanwhile
 * (a late reading never overwrites them: they are kept and the table is told).
 */
function stillWanted(win, draft) {
  if (currentWin() !== win || currentDraft() !== draft) return false;
  if (draft.groups.some((g) => liveTiles(draft, g).length)) {
    showError("review-error", t("photo_late"));
    return false;
  }
  return true;
}

/** Read a photo into the draft on screen (keeping who won, how, and the flags) and go to step 2. */
async function handlePhoto(fileOrBlob, shrunk = false) {
  showError("capture-error", "");
  byId("photo-retry").hidden = true;
  const win = currentWin(), keep = currentDraft();
  progress(-1, t("shrinking"));
  let blob;
  try {
    blob = shrunk ? fileOrBlob : await downscale(fileOrBlob);
  } catch {
    lastPhoto = null;
    failed(t("photo_too_big"));
    return;
  }
  lastPhoto = blob;
  try {
    const rec = await uploadPhoto(`/api/tables/${store.get("token")}/photos`, blob, {
      onProgress: (p) => progress(p, t("uploading", { p })),
      onSent: () => progress(-1, t("recognising")),
    });
    progress(null);
    if (!stillWanted(win, keep)) return;
    const d = draftFromRecognition(rec, URL.createObjectURL(blob), ruleFacts().indicator);
    d.winner = keep.winner;
    d.by = keep.by;
    d.flags = keep.flags;
    win.drafts[win.cur] = d;
    win.step = "review";
    redrawWin();
  } catch (e) {
    if (currentWin() === win && currentDraft() === keep) failed(e.message);
    else progress(null);
  }
}

/** Wire step 1 (once, at start-up). */
export function wirePhoto() {
  byId("photo-input").addEventListener("change", (ev) => {
    const input = /** @type {HTMLInputElement} */ (ev.target), file = input.files && input.files[0];
    // emptied at once, so choosing the same file again is a change too
    input.value = "";
    if (file) handlePhoto(file);
  });
  byId("photo-retry").addEventListener("click", () => {
    if (lastPhoto) handlePhoto(lastPhoto, true);
  });
  wireCamera(handlePhoto);
}
