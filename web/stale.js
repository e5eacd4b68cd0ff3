// Another device wrote to the table first. A write made on an older ledger version is refused by
// the server (409 `stale`, listing the events recorded since); the page then fetches the table
// again, says in plain words what changed, and a win being recorded moves onto the new hand with
// the same players (their winds may have changed) to be scored again before it can be confirmed.
import { api } from "./api.js";
import { byId, element, replaceChildren } from "./dom.js";
import { t } from "./i18n.js";
import { SEATS } from "./seats.js";
import { store } from "./store.js";
import { describeEntry } from "./table.js";

/** A recorded event as the ledger lists it (what describeEntry reads). */
function asEntry(ev) {
  return { ...ev.data, id: ev.id, kind: ev.kind === "correct" ? "hand" : ev.kind };
}

/**
 * One line per event recorded since the page's version (oldest first), in the page's language:
 * what was recorded, corrected or undone. `before`: the view the page held (it knows the entries
 * an undo took back).
 * @param {{events: object[], omitted: number}} stale the 409 answer's `stale`
 * @param {object | null} before
 */
export function describeStale(stale, before) {
  const known = new Map((before ? before.ledger.entries : []).map((e) => [e.id, e]));
  for (const ev of stale.events) known.set(ev.id, asEntry(ev));
  const lines = stale.events.map((ev) => {
    const entry = asEntry(ev), n = entry.hand_no ?? "";
    if (ev.kind === "undo") {
      const target = known.get(ev.target);
      return t("chg_undo", { what: target ? `#${target.hand_no} ${describeEntry(target)}` : t("chg_unknown") });
    }
    if (ev.kind === "correct") return t("chg_correct", { n, what: describeEntry(entry) });
    if (["hand", "kong", "claim"].includes(ev.kind)) return t("chg_recorded", { n, what: describeEntry(entry) });
    return t("chg_other", { what: ev.kind });
  });
  if (stale.omitted) lines.unshift(t("chg_more", { n: stale.omitted }));
  if (!lines.length) lines.push(t("chg_reload"));
  return lines;
}

/**
 * After the stale refusal `e`: what changed, in words, and the table fetched again into the store.
 * @param {import("./api.js").ApiError} e
 * @returns {Promise<{view: object, lines: string[]}>}
 */
export async function catchUp(e) {
  const lines = describeStale(e.body.stale, store.get("view"));
  const view = await api("GET", `/api/tables/${store.get("token")}`);
  store.set({ view });
  return { view, lines };
}

/**
 * Show the notice box `id`: what changed on another device (`lines`) and what to do now (`then`);
 * its OK button hides it. Empty `lines` hide it.
 * @param {string} id
 * @param {string[]} lines
 * @param {string} [then]
 */
export function showChanges(id, lines, then) {
  const box = byId(id);
  box.hidden = !lines.length;
  if (!lines.length) return;
  const ok = element("button", { type: "button", class: "ghost" }, t("dismiss"));
  ok.addEventListener("click", () => {
    box.hidden = true;
  });
  replaceChildren(box, element("strong", {}, t("stale_title")),
    element("ul", {}, lines.map((line) => element("li", {}, line))), then ? element("p", {}, then) : null, ok);
}

/** The wind of the player who sat at `wind` under `from`, under `to` (anything else unchanged). */
function sameSeat(wind, from, to) {
  return SEATS.includes(wind) ? to.winds[from.seats[wind]] : wind;
}

/**
 * Move the win being recorded onto the hand state `to`: each winner, discarder and claimed meld's
 * source stays the same player; the result is dropped (it is scored again).
 * @param {object} win the store's win (win-state.js)
 * @param {object} to the new hand's state
 */
export function moveWin(win, to) {
  const from = win.state;
  for (const d of win.drafts) {
    d.winner = sameSeat(d.winner, from, to);
    d.by = sameSeat(d.by, from, to);
    for (const g of d.groups) g.from = sameSeat(g.from, from, to);
  }
  win.state = to;
  win.handNo = to.hand_no;
  win.result = null;
  win.step = "ask";
}
