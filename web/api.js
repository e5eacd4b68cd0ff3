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
 * @param {Record<string, string>} [headers] sent besides Content-Type
 */
export async function api(method, url, body, headers = {}) {
  let resp;
  try {
    resp = await fetch(url, {
      method,
      headers: body !== undefined ? { "Content-Type": "application/json", ...headers } : headers,
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

/** A new idempotency key: 128 random bits as hex (getRandomValues works on plain HTTP too). */
export function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Waits before each automatic retry of a write the server could not be reached for (ms). */
const RETRY_WAITS = [400, 1500, 4000];

/**
 * A write to a table's ledger (POST `body`, which carries its `base_version`) with the
 * Idempotency-Key `key`: one key per user action, the same on every automatic retry, so a write
 * whose answer was lost is answered with what it recorded (200, `replayed`), never recorded twice.
 * Retried only when the server could not be reached; throws ApiError like api().
 * @param {string} url
 * @param {object} body
 * @param {string} [key]
 */
export async function write(url, body, key = newKey()) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await api("POST", url, body, { "Idempotency-Key": key });
    } catch (e) {
      if (e.status !== 0 || attempt >= RETRY_WAITS.length) throw e;
      await new Promise((done) => setTimeout(done, RETRY_WAITS[attempt]));
    }
  }
}

/** Did the server refuse a write because the ledger changed under it (409 `stale`)? */
export function isStale(e) {
  return e instanceof ApiError && e.status === 409 && !!e.body && !!e.body.stale;
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
