// The win being recorded, kept in the store under "win": {mode ("new" | "correct"), eventId,
// handNo, state (the hand's seats and winds), drafts (one per winner), cur (the draft shown),
// step ("capture" | "review" | "ask" | "result"), result, winners}. The win screens change it in
// place and redraw the part they changed, or call redrawWin() to redraw the whole screen.
import { byId } from "./dom.js";
import { store } from "./store.js";

/** The win being recorded (null when none). */
export function currentWin() {
  return store.get("win");
}

/** The draft on screen. */
export function currentDraft() {
  const win = currentWin();
  return win.drafts[win.cur];
}

/** The rule set's facts the page asks about: indicator, win_flags, roles, tile_codes (GET /api/variants). */
export function ruleFacts() {
  const { indicator, win_flags: winFlags, roles, tile_codes: tileCodes } = store.get("view").table.variant;
  return { indicator, winFlags, roles, tileCodes };
}

/** Where the win being recorded at table `token` is kept on this device (it survives a reload). */
const savedKey = (token) => `mjc.win.${token}`;

/**
 * Keep the win on this device: its drafts without the scored result (the table scores again) and
 * without the photo's object URL (a reload shows the photo the server stored).
 */
export function saveWin() {
  const win = currentWin(), token = store.get("token");
  if (!win || !token) return;
  const drafts = win.drafts.map((d) => ({ ...d, imgUrl: null }));
  const kept = { ...win, drafts, result: null, winners: null, step: win.step === "result" ? "ask" : win.step };
  try {
    localStorage.setItem(savedKey(token), JSON.stringify(kept));
  } catch {
    // storage full or off: the draft just does not survive a reload
  }
}

/** The win kept for the open table (null when none), its photos from the server. */
export function savedWin() {
  const token = store.get("token");
  let win = null;
  try {
    win = JSON.parse(localStorage.getItem(savedKey(token)) || "null");
  } catch {
    return null;
  }
  if (!win || !Array.isArray(win.drafts) || !win.drafts.length) return null;
  for (const d of win.drafts) d.imgUrl = d.photoId !== null && d.photoId !== undefined ? `/api/tables/${token}/photos/${d.photoId}` : null;
  return win;
}

/** Forget the kept win (cancelled or recorded). */
export function dropSavedWin() {
  localStorage.removeItem(savedKey(store.get("token")));
}

/** Redraw the whole win screen (the store tells the win screens that the win changed). */
export function redrawWin() {
  store.set({ win: currentWin() });
}

/** Any change after scoring makes the shown result stale: hide it; the table scores again. */
export function markEdited() {
  const win = currentWin();
  queueMicrotask(saveWin);
  if (win && win.step === "result") {
    win.step = "ask";
    win.result = null;
    byId("step-result").hidden = true;
    byId("confirm-btn").hidden = true;
    byId("another-winner").hidden = true;
    byId("score-btn").hidden = false;
  }
}
