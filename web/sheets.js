// Sheets (the modal): open and close it, a yes/no confirmation, and the table's events recorded
// through it: a kong, a claim, a drawn hand, undoing the last event. Each sheet renders its body,
// then wires it; a recorded event's changes are merged into the store's view (the table
// re-renders) with a notice. Each write is made on the ledger version the sheet was opened on: when
// another device recorded something since that changes it, the server refuses it and the table
// shows what changed (stale.js).
import { isStale, write } from "./api.js";
import { byId, element, onEvent, replaceChildren, showErrorIn, toast } from "./dom.js";
import { t } from "./i18n.js";
import { viewAfterWrite } from "./ledger.js";
import { seatPicker, wireSeatPicker } from "./seats.js";
import { catchUp, showChanges } from "./stale.js";
import { store } from "./store.js";

/** Open the sheet with a title and a body. */
export function openSheet(title, body) {
  byId("sheet-title").textContent = title;
  replaceChildren(byId("sheet-body"), body);
  byId("sheet").hidden = false;
}

/** Close the sheet and drop its body. */
export function closeSheet() {
  byId("sheet").hidden = true;
  replaceChildren(byId("sheet-body"));
}

const errorLine = () => element("p", { class: "error", hidden: true });
const question = (label, ...content) => element("div", { class: "q" }, element("span", { class: "q-label" }, label), ...content);
const bigButton = (id, label) => element("button", { type: "button", class: "primary big", id }, label);

/** The ledger version the page shows (what a sheet's write is made on). */
const shownVersion = () => store.get("view").ledger.version;

/**
 * POST an event of the open table, made on ledger version `base`, with a new idempotency key; its
 * answer's changes make the new view. Refused as stale: the table is fetched again and shows what
 * changed (nothing recorded; resolves to null).
 */
async function record(path, body, notice, base) {
  let answer;
  try {
    answer = await write(`/api/tables/${store.get("token")}/${path}`, { ...body, base_version: base });
  } catch (e) {
    if (!isStale(e)) throw e;
    const { lines } = await catchUp(e);
    showChanges("table-notice", lines, t("stale_again"));
    return null;
  }
  const view = await viewAfterWrite(answer);
  store.set({ view });
  if (notice) toast(notice);
  return view;
}

/**
 * Ask `text` with a yes button (#sheet-yes) that runs `action`; the sheet closes when it
 * succeeds and shows the server's message when it fails.
 */
export function confirmSheet(title, text, yes, action) {
  const err = errorLine(), button = bigButton("sheet-yes", yes);
  openSheet(title, element("div", {}, element("p", {}, text), err, button));
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      await action();
      closeSheet();
    } catch (e) {
      showErrorIn(err, e.message);
      button.disabled = false;
    }
  });
}

/** Undo the ledger entry `entry` (described as `what`) after asking. */
export function undoSheet(entry, what) {
  const base = shownVersion();
  confirmSheet(t("act_undo"), t("confirm_undo", { what }), t("yes_undo"),
    () => record("undo", { event_id: entry.id }, t("undone", { what }), base));
}

/** Record a drawn hand; `needsLastDrawer`: the rule set gives the deal to who drew the last tile. */
export function drawSheet(state, needsLastDrawer) {
  const body = {}, err = errorLine(), button = bigButton("sheet-yes", t("yes_draw")), base = shownVersion();
  const picker = needsLastDrawer ? seatPicker("last-drawer", state) : null;
  openSheet(t("act_draw"), element("div", {}, element("p", {}, t("confirm_draw", { n: state.hand_no })),
    picker ? question(t("last_drawer"), picker) : null, err, button));
  if (picker) wireSeatPicker(picker, (w) => { body.last_drawer = w; });
  button.addEventListener("click", async () => {
    if (needsLastDrawer && !body.last_drawer) {
      showErrorIn(err, t("need_last_drawer"));
      return;
    }
    button.disabled = true;
    try {
      await record("draws", body, t("recorded"), base);
      closeSheet();
    } catch (e) {
      showErrorIn(err, e.message);
      button.disabled = false;
    }
  });
}

const KONG_TYPES = [["kong", "kong_exposed"], ["concealed_kong", "kong_concealed"], ["added_kong", "kong_added_t"]];

/** Record a kong: its kind, who declared it and, for an exposed kong, whose discard it took. */
export function kongSheet(state) {
  const kong = { type: "kong", declarer: null, from: null }, base = shownVersion();
  const err = errorLine(), button = bigButton("kong-record", t("record"));
  const fromBox = element("div", { class: "q" });
  const renderFrom = () => {
    replaceChildren(fromBox, element("span", { class: "q-label" }, t("discarder")),
      seatPicker("kong-from", state, { exclude: [kong.declarer].filter(Boolean), value: kong.from }));
    fromBox.hidden = kong.type === "concealed_kong";
  };
  const types = element("div", { class: "seg", dataset: { name: "kong-type" } }, KONG_TYPES.map(([type, label]) =>
    element("button", { type: "button", class: type === kong.type ? "on" : "", dataset: { type } }, t(label))));
  const declarer = seatPicker("kong-declarer", state);
  renderFrom();
  openSheet(t("kong_title"), element("div", {}, question(t("kong_type"), types), question(t("declarer"), declarer),
    fromBox, err, button));

  onEvent(types, "click", "button[data-type]", (b) => {
    kong.type = b.dataset.type;
    if (kong.type === "concealed_kong") kong.from = null;
    types.querySelectorAll("button").forEach((x) => x.classList.toggle("on", x === b));
    renderFrom();
  });
  wireSeatPicker(declarer, (w) => {
    kong.declarer = w;
    if (kong.from === w) kong.from = null;
    renderFrom();
  });
  wireSeatPicker(fromBox, (w) => { kong.from = w; });
  button.addEventListener("click", async () => {
    const fromNeeded = kong.type === "kong";
    const missing = !kong.declarer ? t("need_declarer") : fromNeeded && !kong.from ? t("need_discarder") : "";
    if (missing) {
      showErrorIn(err, missing);
      return;
    }
    button.disabled = true; // one write per tap
    try {
      const from = kong.type === "concealed_kong" ? null : kong.from;
      await record("kongs", { type: kong.type, declarer: kong.declarer, from }, t("recorded"), base);
      closeSheet();
    } catch (e) {
      showErrorIn(err, e.message);
      button.disabled = false;
    }
  });
}

/** Record a claimed pung: who claimed and whose discard. */
export function claimSheet(state) {
  const claim = { claimer: null, from: null, meld: "pung" }, base = shownVersion();
  const err = errorLine(), button = bigButton("claim-record", t("record"));
  const claimer = seatPicker("claimer", state), from = seatPicker("claim-from", state);
  openSheet(t("claim_title"), element("div", {}, question(t("claimer"), claimer), question(t("discarder"), from), err, button));
  wireSeatPicker(claimer, (w) => { claim.claimer = w; });
  wireSeatPicker(from, (w) => { claim.from = w; });
  button.addEventListener("click", async () => {
    const missing = !claim.claimer ? t("need_claimer") : !claim.from ? t("need_discarder")
      : claim.claimer === claim.from ? t("need_other") : "";
    if (missing) {
      showErrorIn(err, missing);
      return;
    }
    button.disabled = true; // one write per tap
    try {
      await record("claims", claim, t("recorded"), base);
      closeSheet();
    } catch (e) {
      showErrorIn(err, e.message);
      button.disabled = false;
    }
  });
}

/** Wire the sheet's close button and the backdrop (once, at start-up). */
export function wireSheets() {
  byId("sheet-close").addEventListener("click", closeSheet);
  byId("sheet").addEventListener("click", (ev) => {
    if (ev.target === byId("sheet")) closeSheet();
  });
}
