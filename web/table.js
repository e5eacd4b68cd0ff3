// The table: the four seats with their balances, the actions, the balance chart and the ledger.
// It renders whenever the store's view changes while it is shown; a watch link polls for news.
import { api, errorText } from "./api.js";
import { byId, element, onEvent, replaceChildren, svgElement, toast } from "./dom.js";
import { localTime, signed, t, windName, windShort } from "./i18n.js";
import { refreshRecent } from "./recent.js";
import { PLAYER_COLORS, playerAt } from "./seats.js";
import { describeSettings, rulesLabel, settingsSheet } from "./settings.js";
import { claimSheet, drawSheet, kongSheet, undoSheet } from "./sheets.js";
import { store } from "./store.js";
import { resumeWin, startCorrection, startWin } from "./win.js";

let pollTimer = 0;

/** Open the table `token` (a control or a watch token), with its view if already fetched. */
export async function openTable(token, view) {
  try {
    view = view || (await api("GET", `/api/tables/${token}`));
  } catch (e) {
    store.set({ token, screen: "error" });
    byId("fatal-text").textContent = e.message;
    return;
  }
  store.set({ token, view, readOnly: view.table.read_only, screen: "table" });
  if (!view.table.read_only) resumeWin();
  startPolling();
}

/** Stop following a table (back home). */
export function closeTable() {
  clearInterval(pollTimer);
  store.set({ token: null });
}

/** Ask every few seconds whether the ledger changed (another tablet, a phone) and fetch it if so. */
function startPolling() {
  clearInterval(pollTimer);
  pollTimer = setInterval(async () => {
    const token = store.get("token");
    if (document.hidden || !token) return;
    try {
      const news = await api("GET", `/api/tables/${token}/ledger?since=${store.get("view").ledger.version}`);
      if (news.changed) store.set({ view: await api("GET", `/api/tables/${token}`) });
    } catch {
      // offline for a moment: keep the last view
    }
  }, store.get("readOnly") ? 3000 : 6000);
}

function renderTable() {
  const { table, ledger } = store.get("view");
  const state = ledger.state, readOnly = store.get("readOnly");
  const title = store.get("lang") === "zh" ? table.variant.title_zh : table.variant.title;
  byId("t-title").textContent = table.name || title;
  replaceChildren(byId("t-sub"),
    element("span", { class: "pill round" }, t("round", { w: windName(state.round_wind) })), " ",
    element("span", { class: "pill" }, t("hand_no", { n: state.hand_no })), " ",
    state.dealer_streak ? element("span", { class: "pill" }, t("streak", { n: state.dealer_streak })) : null, " ",
    table.name ? element("span", { class: "muted" }, title) : null,
    readOnly ? element("span", { class: "pill live" }, "● " + t("live")) : null);
  renderSeats(table, ledger);
  byId("actions").hidden = readOnly;
  byId("readonly-banner").hidden = !readOnly;
  byId("share-btn").hidden = readOnly;
  /** @type {HTMLButtonElement} */ (byId("act-undo")).disabled = !ledger.last_undoable;
  /** @type {HTMLInputElement} */ (byId("share-url")).value = location.origin + table.links.watch;
  const token = store.get("token");
  /** @type {HTMLAnchorElement} */ (byId("export-csv")).href = `/api/tables/${token}/export.csv?lang=${store.get("lang")}`;
  /** @type {HTMLAnchorElement} */ (byId("export-json")).href = `/api/tables/${token}/export.json`;
  renderChart();
  renderLedger();
}

/** The four seats as they sit round the table (play runs counter-clockwise; each player in the
 * physical seat they sit in now, `state.seating`), the round wind in the middle, and this hand's claims. */
function renderSeats(table, ledger) {
  const state = ledger.state, seating = state.seating || [0, 1, 2, 3];
  const cards = [0, 1, 2, 3].map((i) => {
    const wind = state.winds[i], balance = ledger.balances[i];
    const trend = balance > table.start_points ? "pos" : balance < table.start_points ? "neg" : "";
    return element("div", { class: `seat pos-${seating.indexOf(i)}${wind === "E" ? " dealer" : ""}`, id: `seat-${i}`, style: `--pc:${PLAYER_COLORS[i]}` },
      element("div", { class: "seat-top" }, element("div", { class: "wind", title: windName(wind) }, windShort(wind)),
        element("div", { class: "who" }, element("div", { class: "name" }, table.players[i]),
          element("div", { class: "muted role" }, windName(wind), wind === "E" ? " · " + t("dealer") : ""))),
      element("div", { class: `bal ${trend}`, id: `bal-${i}` }, String(balance)));
  });
  const claims = [];
  for (const [claimer, row] of Object.entries(ledger.claims || {})) {
    for (const [from, n] of Object.entries(row)) claims.push(`${playerAt(state, claimer)} ← ${playerAt(state, from)} ×${n}`);
  }
  const centre = element("div", { class: "centre" }, element("div", { class: "round-wind" }, windShort(state.round_wind)),
    element("div", { class: "muted" }, t("round", { w: windName(state.round_wind) })),
    element("div", { class: "muted" }, t("hand_no", { n: state.hand_no })),
    state.dealer_streak ? element("div", { class: "streak" }, t("streak", { n: state.dealer_streak })) : null);
  replaceChildren(byId("seats"), cards, centre,
    claims.length ? element("p", { class: "claims muted", id: "claims" }, t("claims_now", { list: claims.join(", ") })) : null);
}

/** One line for a ledger entry: who won, for how much, how; a draw; a kong; a claim. */
export function describeEntry(entry) {
  const state = entry.state;
  if (entry.kind === "hand" && entry.outcome === "draw") return t("ev_draw");
  if (entry.kind === "hand") {
    return entry.result.results.map((r) => {
      if (r.ok === false) return `${t("ev_refused", { who: playerAt(state, r.winner) })} (${errorText(r.error)})`;
      const win = (entry.winners.find((w) => w.winner === r.winner) || {}).win || {};
      const how = win.by === "discard" ? t("ev_discard", { who: playerAt(state, win.from) }) : t("ev_self_draw");
      return `${t("ev_win", { who: playerAt(state, r.winner) })} · ${r.value} · ${how}`;
    }).join("; ");
  }
  if (entry.kind === "kong") {
    return t("ev_kong", { who: playerAt(state, entry.declarer), kind: t(entry.type) })
      + (entry.from ? ` ← ${playerAt(state, entry.from)}` : "");
  }
  if (entry.kind === "claim") {
    return t("ev_claim", { who: playerAt(state, entry.claimer), meld: t(entry.meld), from: playerAt(state, entry.from) });
  }
  if (entry.kind === "settings") return describeSettings(entry);
  return entry.kind;
}

function renderLedger() {
  const { ledger, table } = store.get("view");
  const readOnly = store.get("readOnly");
  const entries = [...ledger.entries].reverse().map((e) => element("li", { class: `entry k-${e.kind}`, dataset: { id: e.id } },
    element("div", { class: "entry-head" },
      element("span", { class: "pill" }, `#${e.hand_no}`), " ",
      element("span", { class: "muted" }, t("round", { w: windName(e.state.round_wind) })), " ",
      element("span", { class: "what" }, describeEntry(e)),
      element("span", { class: "muted time" }, localTime(e.created_at)),
      e.corrected ? element("span", { class: "pill tag" }, t("corrected")) : null,
      e.kind === "hand" && rulesLabel(e, ledger.entries) ? element("span", { class: "pill tag rules" }, rulesLabel(e, ledger.entries)) : null,
      !readOnly && e.kind === "hand" && e.outcome === "win"
        ? element("button", { type: "button", class: "small ghost", dataset: { correct: e.id } }, t("correct")) : null),
    element("div", { class: "entry-pay" }, e.payments.map((p, i) =>
      p ? element("span", { class: `chg ${p > 0 ? "pos" : "neg"}` }, `${table.players[i]} ${signed(p)}`) : null))));
  const list = byId("ledger");
  replaceChildren(list, ledger.entries.length ? null : element("li", { class: "muted empty" }, t("no_events")), ...entries);
  if (ledger.log.some((l) => l.status !== "active")) list.append(renderHistory(ledger.log));
}

/** The full record: every event, with undone and corrected ones struck through (nothing is deleted). */
function renderHistory(log) {
  const kindNames = { hand: t("hand_ev"), kong: t("act_kong"), claim: t("act_claim"), undo: t("act_undo"), correct: t("correct"), settings: t("act_settings") };
  const statusNames = { undone: t("undone_tag"), corrected: t("corrected"), undo: "" };
  return element("li", { class: "history" }, element("details", {}, element("summary", {}, t("history", { n: log.length })),
    element("ul", {}, log.map((l) => element("li", { class: `st-${l.status}` },
      `${l.seq}. ${kindNames[l.kind] || l.kind} #${l.hand_no ?? ""}`,
      l.target ? ` → ${log.find((x) => x.id === l.target)?.seq ?? ""}.` : "",
      statusNames[l.status] ? element("span", { class: "pill tag" }, statusNames[l.status]) : null, " ",
      element("span", { class: "muted" }, localTime(l.created_at)))))));
}

/** How each player's line is drawn, so equal balances stay apart: dash pattern and point marker. */
const LINE_STYLES = [{ dash: "", marker: "circle" }, { dash: "9 5", marker: "square" }, { dash: "2 4", marker: "triangle" }, { dash: "12 4 2 4", marker: "diamond" }];

/** A point marker of `shape` at (x, y) in `colour`. */
function marker(shape, x, y, colour) {
  const r = 4.5;
  if (shape === "circle") return svgElement("circle", { cx: x, cy: y, r, fill: colour });
  if (shape === "square") return svgElement("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r, fill: colour });
  const pts = shape === "triangle" ? [[x, y - r - 1], [x + r + 1, y + r], [x - r - 1, y + r]] : [[x, y - r - 1], [x + r + 1, y], [x, y + r + 1], [x - r - 1, y]];
  return svgElement("polygon", { points: pts.map((p) => p.join(",")).join(" "), fill: colour });
}

/** The hand numbers along the x axis: one tick where a hand starts, thinned to fit. */
function handTicks(points, x, W, y0) {
  const hands = points.map((p) => +(/^#(\d+)/.exec(p.label || "") || [])[1] || 0);
  const every = Math.max(1, Math.ceil(points.length / Math.max(4, Math.floor(W / 46))));
  const ticks = [svgElement("text", { x: x(0), y: y0, class: "axis", "text-anchor": "middle", text: "0" })];
  hands.forEach((h, i) => {
    if (h && h !== hands[i - 1] && i % every === 0) ticks.push(svgElement("text", { x: x(i), y: y0, class: "axis", "text-anchor": "middle", text: String(h) }));
  });
  return ticks;
}

/**
 * Each player's balance after every event, one line per player (its own colour, dash pattern and
 * markers, so lines with equal balances stay distinguishable), the starting points marked, the
 * hand numbers along the x axis.
 */
function renderChart() {
  const { ledger, table } = store.get("view");
  const points = ledger.timeline, chart = byId("chart");
  const W = Math.max(300, Math.min(960, chart.clientWidth || 640)), H = W < 500 ? 190 : 240, P = 34;
  const all = points.flatMap((p) => p.balances);
  let lo = Math.min(...all, table.start_points), hi = Math.max(...all, table.start_points);
  if (lo === hi) {
    lo -= 1;
    hi += 1;
  }
  const x = (i) => P + (points.length > 1 ? (i * (W - 2 * P)) / (points.length - 1) : (W - 2 * P) / 2);
  const y = (v) => H - P - 6 - ((v - lo) * (H - 2 * P - 6)) / (hi - lo);
  const svg = svgElement("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": t("balances_chart") });
  svg.append(svgElement("line", { x1: P, x2: W - P, y1: y(table.start_points), y2: y(table.start_points), class: "zero" }));
  svg.append(svgElement("text", { x: 4, y: y(hi) + 4, class: "axis", text: String(hi) }),
    svgElement("text", { x: 4, y: y(lo) + 4, class: "axis", text: String(lo) }),
    ...handTicks(points, x, W, H - 8),
    svgElement("text", { x: W - 4, y: H - 8, class: "axis", "text-anchor": "end", text: t("hand_axis") }));
  const showMarkers = points.length <= 40;
  for (let p = 0; p < 4; p++) {
    const { dash, marker: shape } = LINE_STYLES[p], colour = PLAYER_COLORS[p];
    // equal balances run side by side: each line is drawn 2 px apart from the next
    const yp = (v) => y(v) + (p - 1.5) * 2;
    const line = points.map((pt, i) => `${x(i).toFixed(1)},${yp(pt.balances[p]).toFixed(1)}`).join(" ");
    svg.append(svgElement("polyline", { points: line, fill: "none", stroke: colour, "stroke-width": 3, "stroke-linejoin": "round", "stroke-dasharray": dash, class: `line-${p}` }));
    const at = showMarkers ? points.map((_, i) => i) : [points.length - 1];
    for (const i of at) svg.append(marker(shape, x(i), yp(points[i].balances[p]), colour));
  }
  const key = (i) => svgElement("svg", { width: 34, height: 12, viewBox: "0 0 34 12", class: "key" },
    svgElement("line", { x1: 1, y1: 6, x2: 33, y2: 6, stroke: PLAYER_COLORS[i], "stroke-width": 3, "stroke-dasharray": LINE_STYLES[i].dash }),
    marker(LINE_STYLES[i].marker, 17, 6, PLAYER_COLORS[i]));
  const legend = element("div", { class: "legend" }, table.players.map((n, i) => element("span", { class: "legend-item" }, key(i), element("span", { class: "legend-name" }, n))));
  replaceChildren(chart, svg, legend);
}

function askUndo() {
  const ledger = store.get("view").ledger, entry = ledger.entries.find((e) => e.id === ledger.last_undoable);
  if (!entry) {
    toast(t("nothing_to_undo"));
    return;
  }
  undoSheet(entry, `#${entry.hand_no} ${describeEntry(entry)}`);
}

async function copyWatchLink() {
  const input = /** @type {HTMLInputElement} */ (byId("share-url"));
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select();
    document.execCommand("copy");
  }
  toast(t("copied"));
}

/** Wire the table screen (once, at start-up): actions, sharing, corrections, re-rendering. */
export function wireTable() {
  const view = () => store.get("view");
  byId("act-win").addEventListener("click", () => startWin());
  byId("act-kong").addEventListener("click", () => kongSheet(view().ledger.state));
  byId("act-claim").addEventListener("click", () => claimSheet(view().ledger.state));
  byId("act-draw").addEventListener("click", () =>
    drawSheet(view().ledger.state, (view().table.variant.draw_needs || []).includes("last_drawer")));
  byId("act-undo").addEventListener("click", askUndo);
  byId("act-settings").addEventListener("click", settingsSheet);
  byId("share-btn").addEventListener("click", () => {
    byId("share-box").hidden = !byId("share-box").hidden;
  });
  byId("share-copy").addEventListener("click", copyWatchLink);
  onEvent(byId("ledger"), "click", "button[data-correct]", (button) => {
    const entry = view().ledger.entries.find((e) => String(e.id) === button.dataset.correct);
    if (entry) startCorrection(entry);
  });
  window.addEventListener("resize", () => {
    if (store.get("screen") === "table" && view()) renderChart();
  });
  store.subscribe(["view", "screen", "lang", "readOnly"], (state) => {
    if (state.screen === "table" && state.view) renderTable();
  });
  // the home page's list of tables shows the players' current names (a rename on any device)
  store.subscribe(["view"], (state) => {
    if (state.view) refreshRecent(state.view.table);
  });
}
