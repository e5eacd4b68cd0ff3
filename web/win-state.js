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

/** Redraw the whole win screen (the store tells the win screens that the win changed). */
export function redrawWin() {
  store.set({ win: currentWin() });
}

/** Any change after scoring makes the shown result stale: hide it; the table scores again. */
export function markEdited() {
  const win = currentWin();
  if (win && win.step === "result") {
    win.step = "ask";
    win.result = null;
    byId("step-result").hidden = true;
    byId("confirm-btn").hidden = true;
    byId("another-winner").hidden = true;
    byId("score-btn").hidden = false;
  }
}
