// Talking to the companion: JSON requests, the photo upload, typed tiles read by the server.
// A refused request throws ApiError whose message is the server's (what is wrong and what to
// do), led in Chinese by a translation of its code, and naming the field it concerns.
import { errorLead, errorMessage, t } from "./i18n.js";

export class ApiError extends Error {
  /**
   * @param {string} message
   * @param {object | null} body the server's JSON answer, if any
   * @param {number} status the HTTP status (0: the server could not be reached)
   */
  constructor(message, body, status) {
    super(message);
    this.body = body;
    this.status = status;
  }
}

/** The text shown for a server error {code, message, field}. */
export function errorText(err) {
  const lead = errorLead(err.code), message = err.message || errorMessage(err.code) || err.code;
  return (lead && lead !== message ? lead + " — " : "") + message + (err.field ? ` [${err.field}]` : "");
}

/**
 * A JSON request; resolves to the answer, throws ApiError when the server refuses it (an HTTP
 * error or `ok: false`) or cannot be reached.
 * @param {"GET" | "POST"} method
 * @param {string} url
 * @param {unknown} [body]
 */
export async function api(method, url, body) {
  let resp;
  try {
    resp = await fetch(url, {
      method,
      headers: body !== undefined ? { "Content-Type": "application/json" } : {},
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  } catch {
    throw new ApiError(t("err_network"), null, 0);
  }
  let data = null;
  try {
    data = await resp.json();
  } catch {
    // not JSON: reported by status below
  }
  if (!resp.ok || (data && data.ok === false)) {
    const err = data && data.error;
    throw new ApiError(err ? errorText(err) : t("err_generic", { m: resp.status }), data, resp.status);
  }
  return data;
}

/**
 * The tile codes ("1m", "7z", "3f"…) in typed text, read by the server exactly as the engine
 * reads them: compact notation (123m 55p), Chinese names (一萬 東 中) and Unicode tile glyphs.
 * Throws ApiError with the server's message when the text is not tiles.
 * @param {string} text
 * @returns {Promise<string[]>}
 */
export async function readTiles(text) {
  return (await api("POST", "/api/notation", { tiles: text })).tiles;
}

/**
 * Upload a photo as multipart `photo`; `onProgress(percent)` while it goes up, `onSent()` once
 * the server has it all. Resolves to the recognition; rejects with the server's message.
 * @param {string} url
 * @param {Blob} blob
 * @param {{onProgress: (percent: number) => void, onSent: () => void}} callbacks
 */
export function uploadPhoto(url, blob, { onProgress, onSent }) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.upload.onprogress = (ev) => {
      if (ev.lengthComputable) onProgress(Math.round((ev.loaded / ev.total) * 100));
    };
    xhr.upload.onload = onSent;
    xhr.onerror = () => reject(new Error(t("err_network")));
    xhr.onload = () => {
      let data = null;
      try {
        data = JSON.parse(xhr.responseText);
      } catch {
        // not JSON: reported by status below
      }
      if (xhr.status >= 200 && xhr.status < 300 && data && data.ok) resolve(data);
      else reject(new Error(data && data.error ? errorText(data.error) : t("err_generic", { m: xhr.status })));
    };
    const form = new FormData();
    form.append("photo", blob, "hand.jpg");
    xhr.send(form);
  });
}
