// A win: the screen that records one (or, on one discard, several winners) or corrects a recorded
// hand. Steps: 1 photo (win-photo.js), 2 check the tiles (win-review.js), 3 how it was won (here:
// winner, self-draw or whose discard, the rule set's win flags), 4 the result (win-result.js),
// then confirm. The win lives in the store (win-state.js); the screen redraws when it is set.
// Several winners (or a recorded hand with several) get a tab each. A correction shows the hand's
// payments as recorded and as corrected side by side. The preview and the write are made on the
// ledger version the win was started on: when another device recorded something since that changes
// it, the page says what changed, moves the win onto the new hand and scores it again (stale.js).
import { api, isStale, newKey, write } from "./api.js";
import { byId, element, onEvent, replaceChildren, showError, toast } from "./dom.js";
import { t, windShort } from "./i18n.js";
import { viewAfterWrite } from "./ledger.js";
import { SEATS, playerAt, seatPicker } from "./seats.js";
import { store } from "./store.js";
import { buildWinner, draftFromRecorded, newDraft } from "./win-draft.js";
import { stopCamera } from "./win-photo.js";
import { catchUp, moveWin, showChanges } from "./stale.js";
import { renderCompare, renderResult } from "./win-result.js";
import { renderGroups, renderPhoto, typedTilesSettled } from "./win-review.js";
import { currentDraft, currentWin, dropSavedWin, markEdited, redrawWin, ruleFacts, saveWin, savedWin } from "./win-state.js";

const STEPS = ["capture", "review", "ask", "result"];

function clearPhotoInput() {
  /** @type {HTMLInputElement} */ (byId("photo-input")).value = "";
  showError("capture-error", "");
  showError("review-error", "");
  byId("photo-retry").hidden = true;
}

/** The win screen is a step in the browser's history: Back returns to the table. */
function enterWinHistory() {
  if (location.hash !== "#win") history.pushState({ win: true }, "", location.pathname + "#win");
}

/** Leave the win screen for the table (cancelled or recorded): the kept draft is dropped. */
function leaveWin(patch) {
  stopCamera();
  dropSavedWin();
  store.set({ win: null, screen: "table", ...patch });
  if (location.hash === "#win") history.replaceState(null, "", location.pathname);
}

/** Record a new win for the table's current hand (the draft kept for this hand, if any, resumes). */
export function startWin() {
  const { state, version } = store.get("view").ledger, kept = savedWin();
  clearPhotoInput();
  showChanges("win-notice", []);
  enterWinHistory();
  if (kept && kept.mode === "new" && kept.handNo === state.hand_no) {
    store.set({ screen: "win", win: kept });
    return;
  }
  store.set({
    screen: "win",
    win: { mode: "new", eventId: null, handNo: state.hand_no, state, drafts: [newDraft()], cur: 0, result: null, step: "capture",
      baseVersion: version },
  });
}

/**
 * After a reload on the win screen ("#win"): the win kept on this device, if any, is shown again;
 * without one the table is shown. Returns whether a win was resumed.
 */
export function resumeWin() {
  const kept = location.hash === "#win" ? savedWin() : null;
  if (!kept) {
    if (location.hash === "#win") history.replaceState(null, "", location.pathname);
    return false;
  }
  store.set({ screen: "win", win: kept });
  return true;
}

/** Correct a recorded win (a ledger entry): its hands, read back by the server, at step 3. */
export async function startCorrection(entry) {
  showError("table-error", "");
  let drafts;
  try {
    drafts = await Promise.all(entry.winners.map((w) => draftFromRecorded(w, ruleFacts().winFlags)));
  } catch (e) {
    showError("table-error", e.message);
    return;
  }
  clearPhotoInput();
  showChanges("win-notice", []);
  enterWinHistory();
  store.set({
    screen: "win",
    win: { mode: "correct", eventId: entry.id, handNo: entry.hand_no, state: entry.state, drafts, cur: 0, result: null, step: "ask",
      baseVersion: store.get("view").ledger.version, before: entry.payments },
  });
}

/**
 * One tab per winner (when there are several): the winner's wind and name, the shown one marked,
 * and a button that takes the winner out of the hand (a new win or a correction alike).
 */
function renderTabs() {
  const win = currentWin(), tabs = byId("winner-tabs");
  const shown = win.drafts.length > 1;
  tabs.hidden = !shown;
  replaceChildren(tabs, !shown ? [] : win.drafts.map((d, n) => {
    const who = d.winner ? `${windShort(d.winner)} ${playerAt(win.state, d.winner)}` : t("winner_tab", { n: n + 1 });
    return element("span", { class: n === win.cur ? "tab on" : "tab" },
      element("button", { type: "button", class: n === win.cur ? "on" : "", dataset: { draft: n } },
        d.winner ? [element("b", {}, windShort(d.winner)), " ", playerAt(win.state, d.winner)] : who),
      element("button", { type: "button", class: "drop-winner", dataset: { drop: n }, "aria-label": t("remove_winner", { who }), title: t("remove_winner", { who }) }, "×"));
  }));
}

function renderWin() {
  const win = currentWin(), d = currentDraft();
  byId("win-title").textContent = win.mode === "correct" ? t("correct_title", { n: win.handNo })
    : t("win_title") + " · " + t("hand_no", { n: win.handNo });
  const at = STEPS.indexOf(win.step);
  byId("step-capture").hidden = at > 0 && d.groups.length > 0;
  byId("step-review").hidden = at < 1;
  byId("step-ask").hidden = at < 1;
  byId("step-result").hidden = at < 3;
  byId("camera-btn").hidden = !(window.isSecureContext && navigator.mediaDevices && navigator.mediaDevices.getUserMedia);
  renderTabs();
  byId("compare-card").hidden = win.mode !== "correct";
  if (win.mode === "correct") renderCompare(win.before, win.result ? win.result.payments_by_player : null);
  if (at >= 1) {
    renderPhoto();
    renderGroups();
    renderAsk();
  }
  byId("win-bar").hidden = at < 1;
  byId("score-btn").hidden = at >= 3;
  byId("confirm-btn").hidden = at < 3;
  byId("another-winner").hidden = at < 3 || !d.by || d.by === "self" || win.drafts.length >= 3;
  if (at >= 3) renderResult(win.result, win.state);
  saveWin();
}

/** Step 3: who won, self-draw or whose discard, and the rule set's win flags. */
function renderAsk() {
  const d = currentDraft(), state = currentWin().state;
  const winner = seatPicker("winner", state, { value: d.winner });
  winner.id = "q-winner";
  byId("q-winner").replaceWith(winner);
  const choice = (value, ...content) =>
    element("button", { type: "button", class: d.by === value ? "on" : "", dataset: { seat: value } }, ...content);
  replaceChildren(byId("q-from"), choice("self", t("self_draw")),
    SEATS.filter((w) => w !== d.winner).map((w) => choice(w, element("b", {}, windShort(w)), " ", playerAt(state, w))));
  replaceChildren(byId("q-flags"), ruleFacts().winFlags.map((flag) => {
    const box = element("input", { type: "checkbox", id: "flag-" + flag, dataset: { flag } });
    box.checked = !!d.flags[flag];
    return element("label", { class: "flag" }, box, " ", t("flag_" + flag));
  }));
}

/**
 * Score the win (the server's preview) on the ledger version it was started on; a new result gets
 * a new idempotency key (kept for every try to confirm it). A stale preview is handled as a stale
 * confirmation (`again`: once).
 */
async function score(again = true) {
  showError("score-error", "");
  await typedTilesSettled();
  const win = currentWin();
  let winners;
  try {
    winners = win.drafts.map(buildWinner);
  } catch (e) {
    showError("score-error", e.message);
    return;
  }
  // a correction is scored the same way, under the corrected hand's own state and claims
  const body = { winners, base_version: win.baseVersion, ...(win.mode === "correct" ? { correct: win.eventId } : {}) };
  try {
    win.result = await api("POST", `/api/tables/${store.get("token")}/hands/score`, body);
    win.winners = winners;
    win.key = newKey();
    win.step = "result";
    redrawWin();
    byId("step-result").scrollIntoView({ behavior: "smooth", block: "start" });
  } catch (e) {
    if (isStale(e) && again) await onStale(e);
    else showError("score-error", e.message);
  }
}

/**
 * Another device changed the ledger under the win: say what changed, and score the win again on
 * the new ledger — a new win moved onto the next hand with the same players, a correction of a
 * hand still in effect as it is. A correction whose hand was changed there goes back to the table.
 */
async function onStale(e) {
  const win = currentWin();
  let view, lines;
  try {
    ({ view, lines } = await catchUp(e));
  } catch (failed) {
    showError("score-error", failed.message);
    return;
  }
  if (win.mode === "correct" && !view.ledger.entries.some((x) => x.id === win.eventId)) {
    store.set({ win: null, screen: "table" });
    showChanges("table-notice", lines, t("stale_correct_gone"));
    return;
  }
  if (win.mode === "new") moveWin(win, view.ledger.state);
  win.baseVersion = view.ledger.version;
  win.result = null;
  win.step = "ask";
  redrawWin();
  showChanges("win-notice", lines, t("stale_rescored", { n: win.handNo }));
  byId("win-notice").scrollIntoView({ block: "start" });
  await score(false);
}

/**
 * Record the scored win (or the correction) on the version it was scored on. The photo and the
 * tiles as confirmed go with a new win; a correction keeps the recorded ones unless a new photo was
 * taken. Refused as stale: what changed is shown and the win is scored again (onStale).
 */
async function confirm() {
  const win = currentWin(), token = store.get("token");
  const body = { winners: win.winners, base_version: win.baseVersion };
  const first = win.drafts[0];
  if (first.photoId !== null && first.photoId !== undefined) body.photo_id = first.photoId;
  if (win.mode === "new" || win.drafts.some((d) => d.photoId !== null && d.photoId !== undefined)) {
    body.tiles = win.drafts.map((d) => d.tiles.filter((x) => !x.removed).map((x) => ({ code: x.code, read: x.orig || null })));
  }
  const url = win.mode === "correct" ? `/api/tables/${token}/hands/${win.eventId}/correct` : `/api/tables/${token}/hands`;
  const button = /** @type {HTMLButtonElement} */ (byId("confirm-btn"));
  button.disabled = true;
  try {
    const view = await viewAfterWrite(await write(url, body, win.key));
    leaveWin({ view });
    toast(t("recorded"));
  } catch (e) {
    if (isStale(e)) await onStale(e);
    else {
      showError("score-error", e.message);
      // unreachable server: the result and its key stay, so Confirm again cannot record it twice
      if (e.status !== 0) {
        win.step = "ask";
        redrawWin();
      }
    }
  } finally {
    button.disabled = false;
  }
}

/** Another winner on the same discard: a new draft, from the same discarder, from step 1. */
function addWinner() {
  const win = currentWin(), from = currentDraft().by;
  win.drafts.push({ ...newDraft(), by: from });
  win.cur = win.drafts.length - 1;
  win.step = "capture";
  win.result = null;
  clearPhotoInput();
  redrawWin();
}

/**
 * Take winner n out of the hand (its tab goes; a correction records the winners left): the result
 * shown is stale, so the table scores again.
 */
function removeWinner(n) {
  const win = currentWin();
  if (win.drafts.length < 2) return;
  win.drafts.splice(n, 1);
  win.cur = Math.min(win.cur > n ? win.cur - 1 : win.cur, win.drafts.length - 1);
  win.result = null;
  if (win.step === "result") win.step = "ask";
  if (win.step === "capture" && currentDraft().groups.length) win.step = "ask";
  redrawWin();
}

/** Drop the draft's photo and tiles (keeping who won, how and the flags) and go back to step 1. */
function retake() {
  const win = currentWin(), old = currentDraft();
  win.drafts[win.cur] = { ...newDraft(), winner: old.winner, by: old.by, flags: old.flags };
  win.step = "capture";
  win.result = null;
  clearPhotoInput();
  redrawWin();
}

/** Wire the win screen and its step 3 (once, at start-up). */
export function wireWin() {
  byId("win-cancel").addEventListener("click", () => leaveWin({}));
  window.addEventListener("popstate", stopCamera);
  byId("manual-btn").addEventListener("click", () => {
    currentWin().step = "review";
    redrawWin();
    byId("notation-input").focus();
  });
  byId("retake-btn").addEventListener("click", retake);
  onEvent(byId("winner-tabs"), "click", "button[data-draft]", (b) => {
    const win = currentWin();
    win.cur = +b.dataset.draft;
    if (win.step === "capture" && currentDraft().groups.length) win.step = "ask";
    redrawWin();
  });
  onEvent(byId("winner-tabs"), "click", "button[data-drop]", (b) => removeWinner(+b.dataset.drop));
  byId("photo-try-again").addEventListener("click", retake);
  const ask = byId("step-ask");
  onEvent(ask, "click", "#q-winner button[data-seat]", (b) => {
    const d = currentDraft();
    markEdited();
    d.winner = b.dataset.seat;
    if (d.by === d.winner) d.by = null;
    renderAsk();
    renderGroups();
    renderTabs();
  });
  onEvent(ask, "click", "#q-from button[data-seat]", (b) => {
    markEdited();
    currentDraft().by = b.dataset.seat;
    renderAsk();
  });
  onEvent(ask, "change", "#q-flags input[data-flag]", (box) => {
    markEdited();
    currentDraft().flags[box.dataset.flag] = /** @type {HTMLInputElement} */ (box).checked;
  });
  byId("score-btn").addEventListener("click", score);
  byId("another-winner").addEventListener("click", addWinner);
  byId("confirm-btn").addEventListener("click", confirm);
  store.subscribe(["win", "lang"], (state) => {
    if (state.screen === "win" && state.win) renderWin();
  });
}
