// The tablet page: create a table, record kongs / claims / draws / wins, fix the photo reading,
// score, confirm, undo, correct, and follow the ledger. Plain JS, no build step, no CDN.
"use strict";

const SEATS = ["E", "S", "W", "N"];
const COLORS = ["#d9480f", "#1c7ed6", "#2b8a3e", "#9c36b5"];
const INDICATOR_OF = { ningbo: "baida", yuxi: "bloom", nanning: "fish" };
// facts of the win a photo cannot show that only some rule sets ask about (engine/contract.py "win")
const EXTRA_FLAGS = { yuxi: ["double_kong", "ten_old_men"] };
const S = {
  lang: localStorage.getItem("mjc.lang") || ((navigator.language || "").toLowerCase().startsWith("zh") ? "zh" : "en"),
  variants: [], token: null, view: null, readOnly: false, poll: null, win: null, screen: null,
};

// ------------------------------------------------------------------ small helpers
const $ = (id) => document.getElementById(id);
function t(key, vars) {
  let s = (I18N[S.lang] && I18N[S.lang][key]) ?? I18N.en[key] ?? key;
  for (const [k, v] of Object.entries(vars || {})) s = s.split(`{${k}}`).join(v);
  return s;
}
function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) if (kid !== null && kid !== undefined && kid !== false)
    el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  return el;
}
const SVGNS = "http://www.w3.org/2000/svg";
function s(tag, attrs, ...kids) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "text") el.textContent = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v);
  }
  for (const kid of kids.flat()) if (kid) el.append(kid);
  return el;
}
function fill(el, ...kids) {
  el.replaceChildren(...kids.flat(2).filter((k) => k !== null && k !== undefined && k !== false));
  return el;
}
function showError(id, msg) { const el = $(id); el.textContent = msg || ""; el.hidden = !msg; }
function toast(msg) {
  const el = $("toast"); el.textContent = msg; el.hidden = false;
  clearTimeout(toast.timer); toast.timer = setTimeout(() => { el.hidden = true; }, 2600);
}
function errorText(err) {
  // the server's message says what is wrong and what to do; in Chinese, a translated lead for known codes
  const lead = S.lang === "zh" && I18N.zh["err_" + err.code];
  return (lead ? lead + " — " : "") + err.message + (err.field ? ` [${err.field}]` : "");
}
class ApiErr extends Error { constructor(msg, body, status) { super(msg); this.body = body; this.status = status; } }
async function api(method, url, body) {
  let resp;
  try {
    resp = await fetch(url, { method, headers: body !== undefined ? { "Content-Type": "application/json" } : {},
      body: body !== undefined ? JSON.stringify(body) : undefined });
  } catch (e) { throw new ApiErr(t("err_network"), null, 0); }
  let data = null;
  try { data = await resp.json(); } catch (e) { /* not JSON */ }
  if (!resp.ok || (data && data.ok === false)) {
    const err = data && data.error;
    throw new ApiErr(err ? errorText(err) : t("err_generic", { m: resp.status }), data, resp.status);
  }
  return data;
}
const windName = (w) => t("wind_" + w);
const windShort = (w) => t("wind_short_" + w);
const signed = (n) => (n > 0 ? "+" : "") + n;
function label(obj) { return S.lang === "zh" ? (obj.label_zh || obj.label) : (obj.label || obj.label_zh); }

// ------------------------------------------------------------------ tiles
const HONOUR = { en: ["E", "S", "W", "N", "Wh", "G", "R"], zh: ["东", "南", "西", "北", "白", "发", "中"] };
const FLOWER = { en: ["Pl", "Or", "Ch", "Bm", "Sp", "Su", "Au", "Wi"], zh: ["梅", "兰", "菊", "竹", "春", "夏", "秋", "冬"] };
const SUITCH = { en: { m: "char", p: "dot", s: "bam" }, zh: { m: "万", p: "筒", s: "条" } };
const ALL_CODES = [..."mps"].flatMap((su) => [1, 2, 3, 4, 5, 6, 7, 8, 9].map((r) => r + su))
  .concat([1, 2, 3, 4, 5, 6, 7].map((r) => r + "z"), [1, 2, 3, 4, 5, 6, 7, 8].map((r) => r + "f"));
function tileFace(code, extra) {
  if (!/^[1-9][mpszf]$/.test(code || "")) {
    return h("span", { class: `tile unknown ${extra || ""}`, title: code, dataset: { code } }, h("b", {}, code === "back" ? "▒" : "?"));
  }
  const r = +code[0], su = code[1];
  let big, small = "";
  if (su === "z") big = HONOUR[S.lang][r - 1];
  else if (su === "f") { big = FLOWER[S.lang][r - 1]; small = "" + r; }
  else { big = String(r); small = SUITCH[S.lang][su]; }
  const z = su === "z" ? (r <= 4 ? " wind" : r === 5 ? " white" : r === 6 ? " green" : " red") : "";
  return h("span", { class: `tile s-${su}${z} ${extra || ""}`, title: code, dataset: { code } }, h("b", {}, big), small ? h("i", {}, small) : null);
}
function parseNotation(text) {
  const clean = text.replace(/[\s,]+/g, "");
  if (!clean) return [];
  if (!/^(\d+[mpszf])+$/i.test(clean)) throw new Error(text);
  const out = [];
  for (const [, digits, suit] of clean.toLowerCase().matchAll(/(\d+)([mpszf])/g))
    for (const d of digits) {
      const n = +d, max = suit === "z" ? 7 : suit === "f" ? 8 : 9;
      if (n < 1 || n > max) throw new Error(d + suit);
      out.push(d + suit);
    }
  return out;
}
function meldType(codes) {
  if (codes.length < 3 || codes.length > 4 || codes.some((c) => c[1] === "f")) return null;
  const sorted = [...codes].sort((a, b) => (a[1] + a[0]).localeCompare(b[1] + b[0]));
  if (sorted.every((c) => c === sorted[0])) return codes.length === 4 ? "kong" : "pung";
  if (codes.length === 3 && "mps".includes(sorted[0][1]) && sorted.every((c) => c[1] === sorted[0][1])
    && +sorted[1][0] === +sorted[0][0] + 1 && +sorted[2][0] === +sorted[0][0] + 2) return "chow";
  return null;
}
const notation = (codes) => codes.join("");

// ------------------------------------------------------------------ i18n
function applyI18n() {
  document.documentElement.lang = S.lang === "zh" ? "zh-Hans" : "en";
  document.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
  $("lang-toggle").textContent = S.lang === "zh" ? "English" : "中文";
  document.title = t("app_title");
}
$("lang-toggle").addEventListener("click", () => {
  S.lang = S.lang === "zh" ? "en" : "zh";
  localStorage.setItem("mjc.lang", S.lang);
  applyI18n();
  rerender();
});
function rerender() {
  if (S.screen === "home") renderHome();
  if (S.screen === "table" && S.view) renderTable();
  if (S.screen === "win" && S.win) renderWin();
}
function show(screen) {
  S.screen = screen;
  for (const el of document.querySelectorAll(".screen")) el.hidden = el.id !== "screen-" + screen;
  window.scrollTo(0, 0);
}

// ------------------------------------------------------------------ home: create a table
function recentTables() { try { return JSON.parse(localStorage.getItem("mjc.tables") || "[]"); } catch (e) { return []; } }
async function openHome() {
  show("home");
  if (!S.variants.length) {
    try { S.variants = (await api("GET", "/api/variants")).variants; } catch (e) { showError("create-error", e.message); }
  }
  renderHome();
}
function renderHome() {
  if (window.innerWidth < 760 && !renderHome.once) $("f-options-box").open = false;
  renderHome.once = true;
  const sel = $("f-variant"), prev = sel.value;
  sel.replaceChildren(...S.variants.map((v) => h("option", { value: v.name }, S.lang === "zh" ? `${v.title_zh} (${v.title})` : `${v.title} (${v.title_zh})`)));
  if (prev) sel.value = prev;
  if (!S.variants.length) showError("create-error", t("no_variants"));
  if (!$("f-players").children.length) {
    for (let i = 0; i < 4; i++) {
      $("f-players").append(h("div", { class: "player-row" },
        h("input", { id: `f-player-${i}`, maxlength: 40, required: true, "aria-label": `seat ${i + 1}` }),
        h("label", { class: "radio" }, h("input", { type: "radio", name: "dealer", value: i, checked: i === 0 }), h("span", { class: "deals-first" }))));
    }
  }
  $("f-players").querySelectorAll(".player-row").forEach((row, i) => {
    row.querySelector("input").placeholder = t("player_n", { n: i + 1 });
    row.querySelector(".deals-first").textContent = t("deals_first");
  });
  renderOptions();
  const recent = recentTables();
  $("recent-box").hidden = !recent.length;
  fill($("recent"), ...recent.slice(0, 8).map((r) => h("li", {},
    h("a", { href: `/t/${r.token}` }, r.name || r.variant), " ", h("span", { class: "muted" }, r.players.join(" · "), " · ", r.created.slice(0, 10)))));
}
function renderOptions() {
  const v = S.variants.find((x) => x.name === $("f-variant").value);
  const box = $("f-options");
  const prevVals = {};
  box.querySelectorAll("[data-opt]").forEach((el) => { prevVals[el.dataset.opt + "|" + el.dataset.variant] = el.type === "checkbox" ? el.checked : el.value; });
  fill(box, );
  if (!v) return;
  for (const o of v.options) {
    const key = o.name + "|" + v.name;
    let input;
    const common = { "data-opt": o.name, "data-variant": v.name, id: "opt-" + o.name };
    if (typeof o.default === "boolean") {
      input = h("input", { type: "checkbox", ...common });
      input.checked = key in prevVals ? prevVals[key] : o.default;
    } else if (o.choices) {
      input = h("select", common, o.choices.map((c) => h("option", { value: JSON.stringify(c) }, String(c))));
      input.value = key in prevVals ? prevVals[key] : JSON.stringify(o.default);
    } else if (typeof o.default === "number") {
      input = h("input", { type: "number", step: Number.isInteger(o.default) ? 1 : "any", ...common });
      input.value = key in prevVals ? prevVals[key] : o.default;
    } else if (typeof o.default === "string") {
      input = h("input", common); input.value = key in prevVals ? prevVals[key] : o.default;
    } else {
      input = h("textarea", { rows: 2, ...common }); input.value = key in prevVals ? prevVals[key] : JSON.stringify(o.default);
    }
    input.dataset.kind = typeof o.default === "boolean" ? "bool" : o.choices ? "choice" : typeof o.default === "number" ? "number" : typeof o.default === "string" ? "string" : "json";
    box.append(h("div", { class: "option" },
      h("label", { for: "opt-" + o.name, class: "opt-name" }, o.name.replace(/_/g, " ")), input,
      h("p", { class: "opt-desc" }, h("span", { class: "default" }, t("default_is", { v: JSON.stringify(o.default) })), " ", o.description)));
  }
}
$("f-variant").addEventListener("change", renderOptions);
window.addEventListener("resize", () => { if (S.screen === "table" && S.view) renderChart(); });
$("create-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  showError("create-error", "");
  const players = [0, 1, 2, 3].map((i) => $(`f-player-${i}`).value.trim());
  if (players.some((p) => !p)) { showError("create-error", t("names_needed")); return; }
  const options = {};
  for (const el of $("f-options").querySelectorAll("[data-opt]")) {
    const k = el.dataset.kind;
    try {
      options[el.dataset.opt] = k === "bool" ? el.checked : k === "number" ? Number(el.value) : k === "string" ? el.value
        : JSON.parse(el.value);
    } catch (e) { showError("create-error", t("options_json_bad", { name: el.dataset.opt })); return; }
  }
  const body = {
    name: $("f-name").value.trim(), variant: $("f-variant").value, options, players,
    first_dealer: +(document.querySelector("input[name=dealer]:checked") || { value: 0 }).value,
    start_points: Math.max(0, parseInt($("f-start").value || "0", 10) || 0),
  };
  $("create-btn").disabled = true;
  try {
    const view = await api("POST", "/api/tables", body);
    const recent = recentTables().filter((r) => r.token !== view.table.token);
    recent.unshift({ token: view.table.token, name: body.name, variant: body.variant, players, created: new Date().toISOString() });
    localStorage.setItem("mjc.tables", JSON.stringify(recent.slice(0, 20)));
    history.pushState({}, "", `/t/${view.table.token}`);
    openTable(view.table.token, false, view);
  } catch (e) { showError("create-error", e.message); }
  finally { $("create-btn").disabled = false; }
});

// ------------------------------------------------------------------ the table
async function openTable(token, readOnly, view) {
  S.token = token; S.readOnly = readOnly;
  try { S.view = view || await api("GET", `/api/tables/${token}`); }
  catch (e) { show("error"); $("fatal-text").textContent = e.message; return; }
  S.readOnly = S.view.table.read_only;
  show("table"); renderTable(); startPolling();
}
function startPolling() {
  clearInterval(S.poll);
  S.poll = setInterval(async () => {
    if (document.hidden || !S.token) return;
    try {
      const r = await api("GET", `/api/tables/${S.token}/ledger?since=${S.view.ledger.version}`);
      if (r.changed) { S.view = await api("GET", `/api/tables/${S.token}`); if (S.screen === "table") renderTable(); }
    } catch (e) { /* offline for a moment: keep the last view */ }
  }, S.readOnly ? 3000 : 6000);
}
function playerName(idx) { return S.view.table.players[idx]; }
function nameAt(state, wind) { return playerName(state.seats[wind]); }
function renderTable() {
  const { table, ledger } = S.view;
  const st = ledger.state;
  const vname = S.lang === "zh" ? table.variant.title_zh : table.variant.title;
  $("t-title").textContent = table.name || vname;
  fill($("t-sub"), 
    h("span", { class: "pill round" }, t("round", { w: windName(st.round_wind) })), " ",
    h("span", { class: "pill" }, t("hand_no", { n: st.hand_no })), " ",
    st.dealer_streak ? h("span", { class: "pill" }, t("streak", { n: st.dealer_streak })) : null, " ",
    table.name ? h("span", { class: "muted" }, vname) : null,
    S.readOnly ? h("span", { class: "pill live" }, "● " + t("live")) : null);
  // the four seats as they sit round the table (play runs counter-clockwise), the round wind in the middle
  const cards = [0, 1, 2, 3].map((i) => {
    const wind = st.winds[i], bal = ledger.balances[i];
    return h("div", { class: `seat pos-${i}${wind === "E" ? " dealer" : ""}`, id: `seat-${i}`, style: `--pc:${COLORS[i]}` },
      h("div", { class: "seat-top" }, h("div", { class: "wind", title: windName(wind) }, windShort(wind)),
        h("div", { class: "who" }, h("div", { class: "name" }, table.players[i]),
          h("div", { class: "muted role" }, windName(wind), wind === "E" ? " · " + t("dealer") : ""))),
      h("div", { class: `bal ${bal > table.start_points ? "pos" : bal < table.start_points ? "neg" : ""}`, id: `bal-${i}` }, String(bal)));
  });
  const claims = [];
  for (const [c, row] of Object.entries(ledger.claims || {}))
    for (const [v, n] of Object.entries(row)) claims.push(`${nameAt(st, c)} ← ${nameAt(st, v)} ×${n}`);
  const centre = h("div", { class: "centre" }, h("div", { class: "round-wind" }, windShort(st.round_wind)),
    h("div", { class: "muted" }, t("round", { w: windName(st.round_wind) })), h("div", { class: "muted" }, t("hand_no", { n: st.hand_no })),
    st.dealer_streak ? h("div", { class: "streak" }, t("streak", { n: st.dealer_streak })) : null);
  fill($("seats"), cards, centre, claims.length ? h("p", { class: "claims muted", id: "claims" }, t("claims_now", { list: claims.join(", ") })) : null);
  $("actions").hidden = S.readOnly;
  $("readonly-banner").hidden = !S.readOnly;
  $("share-btn").hidden = S.readOnly;
  $("act-undo").disabled = !ledger.last_undoable;
  $("share-url").value = location.origin + table.links.watch;
  $("export-csv").href = `/api/tables/${S.token}/export.csv`;
  $("export-json").href = `/api/tables/${S.token}/export.json`;
  renderChart(); renderLedger();
}
function describeEntry(e) {
  const st = e.state;
  if (e.kind === "hand" && e.outcome === "draw") return t("ev_draw");
  if (e.kind === "hand") {
    return e.result.results.map((r) => {
      const w = e.winners.find((x) => x.winner === r.winner) || {};
      const how = (w.win || {}).by === "discard" ? t("ev_discard", { who: nameAt(st, w.win.from) }) : t("ev_self_draw");
      return `${t("ev_win", { who: nameAt(st, r.winner) })} · ${r.value} · ${how}`;
    }).join("; ");
  }
  if (e.kind === "kong") return t("ev_kong", { who: nameAt(st, e.declarer), kind: t(e.type) }) + (e.from ? ` ← ${nameAt(st, e.from)}` : "");
  if (e.kind === "claim") return t("ev_claim", { who: nameAt(st, e.claimer), meld: t(e.meld), from: nameAt(st, e.from) });
  return e.kind;
}
function renderLedger() {
  const { ledger, table } = S.view;
  const list = $("ledger");
  fill(list, ledger.entries.length ? null : h("li", { class: "muted empty" }, t("no_events")), ...[...ledger.entries].reverse().map((e) => h("li", { class: `entry k-${e.kind}`, dataset: { id: e.id } },
    h("div", { class: "entry-head" },
      h("span", { class: "pill" }, `#${e.hand_no}`), " ",
      h("span", { class: "muted" }, t("round", { w: windName(e.state.round_wind) })), " ",
      h("span", { class: "what" }, describeEntry(e)),
      e.corrected ? h("span", { class: "pill tag" }, t("corrected")) : null,
      !S.readOnly && e.kind === "hand" && e.outcome === "win"
        ? h("button", { type: "button", class: "small ghost", onclick: () => startCorrection(e) }, t("correct")) : null),
    h("div", { class: "entry-pay" }, e.payments.map((p, i) => p ? h("span", { class: `chg ${p > 0 ? "pos" : "neg"}` }, `${table.players[i]} ${signed(p)}`) : null)))));
  // the full record: every event, with undone and corrected ones struck through (nothing is deleted)
  const hist = ledger.log.filter((l) => l.status !== "active");
  if (hist.length) {
    const kindName = (l) => ({ hand: t("hand_ev"), kong: t("act_kong"), claim: t("act_claim"), undo: t("act_undo"), correct: t("correct") }[l.kind] || l.kind);
    const statusName = { undone: t("undone_tag"), corrected: t("corrected"), undo: "" };
    list.append(h("li", { class: "history" }, h("details", {}, h("summary", {}, t("history", { n: ledger.log.length })),
      h("ul", {}, ledger.log.map((l) => h("li", { class: `st-${l.status}` },
        `${l.seq}. ${kindName(l)} #${l.hand_no ?? ""}`, l.target ? ` → ${ledger.log.find((x) => x.id === l.target)?.seq ?? ""}.` : "",
        statusName[l.status] ? h("span", { class: "pill tag" }, statusName[l.status]) : null, " ",
        h("span", { class: "muted" }, l.created_at.slice(11, 16))))))));
  }
}
function renderChart() {
  const { ledger, table } = S.view;
  const pts = ledger.timeline;
  const W = Math.max(300, Math.min(960, $("chart").clientWidth || 640)), H = W < 500 ? 170 : 220, P = 34;
  const all = pts.flatMap((p) => p.balances);
  let lo = Math.min(...all, table.start_points), hi = Math.max(...all, table.start_points);
  if (lo === hi) { lo -= 1; hi += 1; }
  const x = (i) => P + (pts.length > 1 ? (i * (W - 2 * P)) / (pts.length - 1) : (W - 2 * P) / 2);
  const y = (v) => H - P + 10 - ((v - lo) * (H - 2 * P)) / (hi - lo);
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": t("balances_chart") });
  svg.append(s("line", { x1: P, x2: W - P, y1: y(table.start_points), y2: y(table.start_points), class: "zero" }));
  svg.append(s("text", { x: 4, y: y(hi) + 4, class: "axis", text: String(hi) }), s("text", { x: 4, y: y(lo) + 4, class: "axis", text: String(lo) }));
  for (let p = 0; p < 4; p++) {
    const d = pts.map((pt, i) => `${x(i).toFixed(1)},${y(pt.balances[p]).toFixed(1)}`).join(" ");
    svg.append(s("polyline", { points: d, fill: "none", stroke: COLORS[p], "stroke-width": 3, "stroke-linejoin": "round" }));
    const last = pts[pts.length - 1];
    svg.append(s("circle", { cx: x(pts.length - 1), cy: y(last.balances[p]), r: 4, fill: COLORS[p] }));
  }
  const legend = h("div", { class: "legend" }, table.players.map((n, i) => h("span", { style: `--pc:${COLORS[i]}` }, n)));
  fill($("chart"), svg, legend);
}

// ------------------------------------------------------------------ sheets (modal)
function openSheet(title, body) {
  $("sheet-title").textContent = title;
  fill($("sheet-body"), body);
  $("sheet").hidden = false;
}
function closeSheet() { $("sheet").hidden = true; fill($("sheet-body"), ); }
$("sheet-close").addEventListener("click", closeSheet);
$("sheet").addEventListener("click", (ev) => { if (ev.target === $("sheet")) closeSheet(); });
function seatButtons(name, state, { exclude = [], onpick, value } = {}) {
  const box = h("div", { class: "seg", dataset: { name } });
  for (const w of SEATS) {
    if (exclude.includes(w)) continue;
    const b = h("button", { type: "button", class: value === w ? "on" : "", dataset: { seat: w } },
      h("b", {}, windShort(w)), " ", nameAt(state, w));
    b.addEventListener("click", () => { box.querySelectorAll("button").forEach((x) => x.classList.remove("on")); b.classList.add("on"); onpick(w); });
    box.append(b);
  }
  return box;
}
function confirmSheet(title, text, yes, action) {
  const err = h("p", { class: "error", hidden: true });
  const btn = h("button", { type: "button", class: "primary big", id: "sheet-yes" }, yes);
  btn.addEventListener("click", async () => {
    btn.disabled = true;
    try { await action(); closeSheet(); } catch (e) { err.textContent = e.message; err.hidden = false; btn.disabled = false; }
  });
  openSheet(title, h("div", {}, h("p", {}, text), err, btn));
}
async function post(url, body, okMsg) {
  const view = await api("POST", url, body);
  S.view = view; renderTable(); if (okMsg) toast(okMsg);
  return view;
}
$("act-undo").addEventListener("click", () => {
  const l = S.view.ledger, e = l.entries.find((x) => x.id === l.last_undoable);
  if (!e) { toast(t("nothing_to_undo")); return; }
  const what = `#${e.hand_no} ${describeEntry(e)}`;
  confirmSheet(t("act_undo"), t("confirm_undo", { what }), t("yes_undo"),
    () => post(`/api/tables/${S.token}/undo`, { event_id: e.id }, t("undone", { what })));
});
$("act-draw").addEventListener("click", () => {
  const st = S.view.ledger.state, body = {};
  const needsLast = (S.view.table.variant.draw_needs || []).includes("last_drawer");
  const err = h("p", { class: "error", hidden: true });
  const btn = h("button", { type: "button", class: "primary big", id: "sheet-yes" }, t("yes_draw"));
  btn.addEventListener("click", async () => {
    if (needsLast && !body.last_drawer) { err.textContent = t("need_last_drawer"); err.hidden = false; return; }
    btn.disabled = true;
    try { await post(`/api/tables/${S.token}/draws`, body, t("recorded")); closeSheet(); }
    catch (e) { err.textContent = e.message; err.hidden = false; btn.disabled = false; }
  });
  openSheet(t("act_draw"), h("div", {}, h("p", {}, t("confirm_draw", { n: st.hand_no })),
    needsLast ? h("div", { class: "q" }, h("span", { class: "q-label" }, t("last_drawer")),
      seatButtons("last-drawer", st, { onpick: (w) => { body.last_drawer = w; } })) : null,
    err, btn));
});
$("act-kong").addEventListener("click", () => {
  const st = S.view.ledger.state, v = { type: "kong", declarer: null, from: null };
  const err = h("p", { class: "error", hidden: true });
  const fromBox = h("div", { class: "q" });
  const drawFrom = () => {
    fromBox.replaceChildren(h("span", { class: "q-label" }, t("discarder")),
      seatButtons("kong-from", st, { exclude: [v.declarer].filter(Boolean), value: v.from, onpick: (w) => { v.from = w; } }));
    fromBox.hidden = v.type === "concealed_kong";
  };
  const types = h("div", { class: "seg", dataset: { name: "kong-type" } }, [["kong", "kong_exposed"], ["concealed_kong", "kong_concealed"], ["added_kong", "kong_added_t"]]
    .map(([k, l]) => h("button", { type: "button", class: k === v.type ? "on" : "", dataset: { type: k }, onclick: (ev) => {
      v.type = k; if (k === "concealed_kong") v.from = null;
      types.querySelectorAll("button").forEach((b) => b.classList.toggle("on", b.dataset.type === k)); drawFrom(); } }, t(l))));
  const rec = h("button", { type: "button", class: "primary big", id: "kong-record" }, t("record"));
  rec.addEventListener("click", async () => {
    const missing = !v.declarer ? t("need_declarer") : v.type !== "concealed_kong" && v.type !== "added_kong" && !v.from ? t("need_discarder") : "";
    if (missing) { err.textContent = missing; err.hidden = false; return; }
    try {
      await post(`/api/tables/${S.token}/kongs`, { type: v.type, declarer: v.declarer, from: v.type === "concealed_kong" ? null : v.from }, t("recorded"));
      closeSheet();
    } catch (e) { err.textContent = e.message; err.hidden = false; }
  });
  drawFrom();
  openSheet(t("kong_title"), h("div", {},
    h("div", { class: "q" }, h("span", { class: "q-label" }, t("kong_type")), types),
    h("div", { class: "q" }, h("span", { class: "q-label" }, t("declarer")), seatButtons("kong-declarer", st, { onpick: (w) => { v.declarer = w; if (v.from === w) v.from = null; drawFrom(); } })),
    fromBox, err, rec));
});
$("act-claim").addEventListener("click", () => {
  const st = S.view.ledger.state, v = { claimer: null, from: null, meld: "pung" };
  const err = h("p", { class: "error", hidden: true });
  const rec = h("button", { type: "button", class: "primary big", id: "claim-record" }, t("record"));
  rec.addEventListener("click", async () => {
    const missing = !v.claimer ? t("need_claimer") : !v.from ? t("need_discarder") : v.claimer === v.from ? t("need_other") : "";
    if (missing) { err.textContent = missing; err.hidden = false; return; }
    try { await post(`/api/tables/${S.token}/claims`, v, t("recorded")); closeSheet(); }
    catch (e) { err.textContent = e.message; err.hidden = false; }
  });
  openSheet(t("claim_title"), h("div", {},
    h("div", { class: "q" }, h("span", { class: "q-label" }, t("claimer")), seatButtons("claimer", st, { onpick: (w) => { v.claimer = w; } })),
    h("div", { class: "q" }, h("span", { class: "q-label" }, t("discarder")), seatButtons("claim-from", st, { onpick: (w) => { v.from = w; } })),
    err, rec));
});
$("share-btn").addEventListener("click", () => { $("share-box").hidden = !$("share-box").hidden; });
$("share-copy").addEventListener("click", async () => {
  try { await navigator.clipboard.writeText($("share-url").value); toast(t("copied")); }
  catch (e) { $("share-url").select(); document.execCommand && document.execCommand("copy"); toast(t("copied")); }
});

// ------------------------------------------------------------------ a win: drafts
function newDraft() {
  return { photoId: null, imgUrl: null, width: 0, height: 0, reason: null, tiles: [], groups: [], winning: null,
    winner: null, by: null, flags: {} };
}
function variantName() { return S.view.table.variant.name; }
function liveTiles(d, g) { return g.tiles.filter((i) => !d.tiles[i].removed); }
function codesOf(d, g) { return liveTiles(d, g).map((i) => d.tiles[i].code); }
const isTile = (c) => /^[1-9][mpszf]$/.test(c);
function usableCodes(d, g, n) {
  // face-down tiles ("back") of a kong stand for the face-up ones; an unread tile stops scoring
  let codes = codesOf(d, g);
  const faces = codes.filter(isTile);
  if (codes.includes("back") && faces.length && faces.every((c) => c === faces[0])) codes = codes.map((c) => (c === "back" ? faces[0] : c));
  else codes = codes.filter((c) => c !== "back");
  if (codes.some((c) => !isTile(c))) throw new Error(t("unread_tile", { n: n + 1 }));
  return codes;
}
function defaultRoles(d) {
  if (!d.groups.length) return;
  const big = d.groups.reduce((a, b) => (liveTiles(d, b).length > liveTiles(d, a).length ? b : a));
  const ind = INDICATOR_OF[variantName()] || null;
  for (const g of d.groups) {
    const codes = codesOf(d, g);
    if (g !== big && codes.includes("back")) g.role = "ckong";
    else if (g === big || codes.every((c) => c[1] === "f")) g.role = "hand";
    else if (g.row === big.row) g.role = meldType(codes) ? "meld" : "hand";
    else if (meldType(codes)) g.role = "meld";
    else g.role = ind || "hand";
  }
  const hands = d.groups.filter((g) => g.role === "hand" && g.row === big.row);
  const after = hands.filter((g) => g.index > big.index && liveTiles(d, g).length === 1);
  const pick = after.length ? liveTiles(d, after[after.length - 1])[0] : liveTiles(d, big).filter((i) => d.tiles[i].code[1] !== "f").pop();
  d.winning = pick ?? null;
}
function draftFromRecognition(rec, imgUrl) {
  const d = newDraft();
  d.photoId = rec.photo_id ?? null; d.imgUrl = imgUrl; d.width = rec.width; d.height = rec.height; d.reason = rec.reason;
  d.tiles = rec.tiles.map((x) => ({ ...x, orig: x.code, removed: false }));
  const groups = rec.groups && rec.groups.length ? rec.groups : [{ index: 0, row: 0, tiles: d.tiles.map((_, i) => i) }];
  d.groups = groups.map((g, k) => ({ index: g.index ?? k, row: g.row ?? 0, tiles: [...g.tiles], role: "hand", from: null, added: false }));
  defaultRoles(d);
  return d;
}
function addGroup(d, codes, role) {
  const g = { index: d.groups.length, row: 99, tiles: [], role: role || "hand", from: null, added: false };
  for (const c of codes) { d.tiles.push({ code: c, confidence: 1, alternatives: [], removed: false, manual: true }); g.tiles.push(d.tiles.length - 1); }
  d.groups.push(g);
  return g;
}
function draftFromRecorded(w) {
  const d = newDraft();
  const concealed = parseNotation(w.hand.concealed);
  const hg = addGroup(d, concealed, "hand");
  const wi = hg.tiles.slice().reverse().find((i) => d.tiles[i].code === w.hand.winning_tile);
  d.winning = wi ?? null;
  for (const m of w.hand.melds || []) {
    const g = addGroup(d, parseNotation(m.tiles), m.type === "concealed_kong" ? "ckong" : "meld");
    g.from = m.from || null; g.added = m.type === "added_kong";
  }
  if (w.hand.flowers) addGroup(d, parseNotation(w.hand.flowers), "hand");
  const ind = w.indicators || {};
  if (ind.baida) addGroup(d, [ind.baida], "baida");
  if (ind.bloom && ind.bloom.length) addGroup(d, ind.bloom, "bloom");
  if (ind.fish && ind.fish.length) addGroup(d, ind.fish, "fish");
  d.winner = w.winner;
  d.by = (w.win || {}).by === "discard" ? w.win.from : "self";
  d.flags = { after_kong: !!(w.win || {}).after_kong, robbed_kong: !!(w.win || {}).robbed_kong, last_tile: !!(w.win || {}).last_tile, first_turn: !!(w.win || {}).first_turn };
  return d;
}
function meldFrom(d, g, winner) {
  if (g.from && g.from !== winner) return g.from;
  const wi = SEATS.indexOf(winner);
  const codes = codesOf(d, g);
  if (meldType(codes) === "chow") return SEATS[(wi + 3) % 4];
  const live = liveTiles(d, g), k = live.findIndex((i) => d.tiles[i].rotated);
  if (k < 0 || k === 0) return SEATS[(wi + 3) % 4];
  if (k === live.length - 1) return SEATS[(wi + 1) % 4];
  return SEATS[(wi + 2) % 4];
}
function buildWinner(d) {
  if (!d.winner) throw new Error(t("need_winner"));
  if (!d.by) throw new Error(t("need_how"));
  const hand = [], flowers = [], melds = [], ind = { baida: null, bloom: [], fish: [] };
  d.groups.forEach((g, n) => {
    if (g.role === "ignore") return;
    const codes = usableCodes(d, g, n);
    if (!codes.length) return;
    if (g.role === "hand") {
      for (const c of codes) (c[1] === "f" ? flowers : hand).push(c);
    } else if (g.role === "meld" || g.role === "ckong") {
      const mt = meldType(codes);
      if (!mt || (g.role === "ckong" && mt !== "kong")) throw new Error(t("bad_meld", { n: n + 1 }));
      const type = g.role === "ckong" ? "concealed_kong" : mt === "kong" && g.added ? "added_kong" : mt;
      const m = { type, tiles: notation(codes) };
      if (type !== "concealed_kong") m.from = meldFrom(d, g, d.winner);
      melds.push(m);
    } else if (g.role === "baida") ind.baida = codes[0];
    else ind[g.role].push(...codes);
  });
  if (!hand.length) throw new Error(t("need_tiles"));
  const wt = d.winning !== null && d.tiles[d.winning] && !d.tiles[d.winning].removed ? d.tiles[d.winning].code : null;
  if (!wt || !hand.includes(wt)) throw new Error(t("need_winning"));
  const win = { by: d.by === "self" ? "self_draw" : "discard" };
  if (d.by !== "self") win.from = d.by;
  for (const [k, v] of Object.entries(d.flags)) if (v) win[k] = true;
  const out = { winner: d.winner, win, hand: { concealed: notation(hand), winning_tile: wt, melds } };
  if (flowers.length) out.hand.flowers = notation(flowers);
  const indicators = {};
  if (ind.baida) indicators.baida = ind.baida;
  if (ind.bloom.length) indicators.bloom = ind.bloom;
  if (ind.fish.length) indicators.fish = ind.fish;
  if (Object.keys(indicators).length) out.indicators = indicators;
  return out;
}

// ------------------------------------------------------------------ a win: screens
function cur() { return S.win.drafts[S.win.cur]; }
function edited() {
  // any change after scoring makes the shown result stale: score again before confirming
  if (S.win && S.win.step === "result") { S.win.step = "ask"; S.win.result = null; $("step-result").hidden = true; }
}
function startWin(mode, opts) {
  S.win = { mode, eventId: null, handNo: S.view.ledger.state.hand_no, state: S.view.ledger.state, drafts: [newDraft()], cur: 0, result: null, step: "capture", ...opts };
  $("photo-input").value = "";
  show("win"); renderWin();
}
function startCorrection(e) {
  startWin("correct", { eventId: e.id, handNo: e.hand_no, state: e.state, drafts: e.winners.map(draftFromRecorded), step: "ask" });
}
$("act-win").addEventListener("click", () => startWin("new"));
$("win-cancel").addEventListener("click", () => { stopCamera(); S.win = null; show("table"); renderTable(); });
$("manual-btn").addEventListener("click", () => { S.win.step = "review"; renderWin(); $("notation-input").focus(); });
$("retake-btn").addEventListener("click", () => {
  const old = cur();
  S.win.drafts[S.win.cur] = Object.assign(newDraft(), { winner: old.winner, by: old.by, flags: old.flags });
  S.win.step = "capture"; S.win.result = null; $("photo-input").value = "";
  renderWin();
});
function renderWin() {
  const w = S.win, d = cur();
  $("win-title").textContent = w.mode === "correct" ? t("correct_title", { n: w.handNo }) : t("win_title") + " · " + t("hand_no", { n: w.handNo });
  const order = ["capture", "review", "ask", "result"];
  const at = order.indexOf(w.step);
  $("step-capture").hidden = at > 0 && d.groups.length > 0;
  $("step-review").hidden = at < 1;
  $("step-ask").hidden = at < 1;
  $("step-result").hidden = at < 3;
  $("camera-btn").hidden = !(window.isSecureContext && navigator.mediaDevices && navigator.mediaDevices.getUserMedia);
  if (at >= 1) { renderPhoto(); renderGroups(); renderAsk(); }
  if (at >= 3) renderResult();
}
function confColor(tile) {
  if (tile.manual || tile.code !== tile.orig) return "#1c7ed6";
  return tile.confidence >= 0.9 ? "#2f9e44" : tile.confidence >= 0.6 ? "#f08c00" : "#e03131";
}
function renderPhoto() {
  // the photo cropped to the tiles (plus a margin) so every box is big enough to tap
  const d = cur();
  $("photo-wrap").hidden = !d.imgUrl;
  $("recog-reason").hidden = !d.reason; $("recog-reason").textContent = d.reason || "";
  if (!d.imgUrl) return;
  const svg = $("photo-overlay");
  const pts = d.tiles.filter((x) => x.quad && !x.removed).flatMap((x) => x.quad);
  let [x0, y0, x1, y1] = [0, 0, d.width, d.height];
  if (pts.length) {
    x0 = Math.min(...pts.map((p) => p[0])); x1 = Math.max(...pts.map((p) => p[0]));
    y0 = Math.min(...pts.map((p) => p[1])); y1 = Math.max(...pts.map((p) => p[1]));
    const m = 0.08 * Math.max(x1 - x0, y1 - y0);
    x0 = Math.max(0, x0 - m); y0 = Math.max(0, y0 - m); x1 = Math.min(d.width, x1 + m); y1 = Math.min(d.height, y1 + m);
  }
  svg.setAttribute("viewBox", `${x0.toFixed(1)} ${y0.toFixed(1)} ${(x1 - x0).toFixed(1)} ${(y1 - y0).toFixed(1)}`);
  const sw = Math.max(1.5, (x1 - x0) / 320);
  fill(svg, s("image", { href: d.imgUrl, x: 0, y: 0, width: d.width, height: d.height }));
  d.tiles.forEach((tile, i) => {
    if (!tile.quad || tile.removed) return;
    const col = confColor(tile);
    const g = s("g", { class: "box", "data-tile": i, onclick: () => fixTile(i) },
      s("polygon", { points: tile.quad.map((p) => p.join(",")).join(" "), fill: i === d.winning ? "rgba(255,212,59,.35)" : "rgba(255,255,255,.01)", stroke: col, "stroke-width": sw }));
    if (tile.code !== tile.orig) {
      const [x, y] = tile.quad[0];
      g.append(s("text", { x: x + sw, y: y - sw * 1.5, fill: col, "font-size": sw * 9, "font-weight": 700, text: tile.code }));
    }
    svg.append(g);
  });
}
function roleOptions() {
  const ind = INDICATOR_OF[variantName()];
  const roles = ["hand", "meld", "ckong"];
  for (const r of ["baida", "bloom", "fish"]) if (!ind || r === ind) roles.push(r);
  return roles.concat("ignore");
}
function renderGroups() {
  const d = cur(), box = $("groups");
  const roleLabel = { hand: "role_hand", meld: "role_meld", ckong: "role_ckong", baida: "role_baida", bloom: "role_bloom", fish: "role_fish", ignore: "role_ignore" };
  fill(box, ...d.groups.map((g, n) => {
    const tiles = liveTiles(d, g);
    if (!tiles.length && !g.manualEmpty) return null;
    const sel = h("select", { class: "role", "aria-label": t("group", { n: n + 1 }), dataset: { group: n } },
      roleOptions().map((r) => h("option", { value: r }, t(roleLabel[r]))));
    sel.value = g.role;
    sel.addEventListener("change", () => {
      edited();
      g.role = sel.value;
      if (g.role !== "hand" && g.tiles.includes(d.winning)) {  // the winning tile stays in the hand
        const hands = d.groups.filter((x) => x.role === "hand" && liveTiles(d, x).some((i) => isTile(d.tiles[i].code) && d.tiles[i].code[1] !== "f"));
        const last = hands.length ? liveTiles(d, hands[hands.length - 1]).filter((i) => d.tiles[i].code[1] !== "f") : [];
        d.winning = last.length ? last[last.length - 1] : null;
      }
      renderGroups(); renderPhoto();
    });
    const extra = [];
    if (g.role === "meld" && d.winner) {
      const from = meldFrom(d, g, d.winner);
      const fs = h("select", { class: "from", dataset: { group: n } }, SEATS.filter((x) => x !== d.winner).map((x) => h("option", { value: x }, `${t("from_whom")} ${windShort(x)} ${nameAt(S.win.state, x)}`)));
      fs.value = from;
      fs.addEventListener("change", () => { edited(); g.from = fs.value; });
      extra.push(fs);
    }
    if (g.role === "meld" && meldType(codesOf(d, g)) === "kong") {
      const cb = h("input", { type: "checkbox" }); cb.checked = g.added;
      cb.addEventListener("change", () => { edited(); g.added = cb.checked; });
      extra.push(h("label", { class: "inline" }, cb, " ", t("kong_added")));
    }
    return h("div", { class: `group r-${g.role}`, dataset: { group: n } },
      h("div", { class: "group-head" }, h("span", { class: "muted" }, t("group", { n: n + 1 })), sel, ...extra),
      h("div", { class: "group-tiles" },
        tiles.map((i) => {
          const tile = d.tiles[i];
          const face = tileFace(tile.code, `${i === d.winning ? "winning" : ""} ${tile.code !== tile.orig && !tile.manual ? "edited" : ""}`);
          const b = h("button", { type: "button", class: "tile-btn", dataset: { tile: i }, onclick: () => fixTile(i) }, face);
          if (!tile.manual) b.style.setProperty("--cc", confColor(tile));
          return b;
        }),
        h("button", { type: "button", class: "tile-btn add", onclick: () => pickTiles(g) }, t("add_tile"))));
  }));
}
function countCode(d, code, exceptIdx) {
  return d.tiles.filter((x, i) => !x.removed && x.code === code && i !== exceptIdx && d.groups.some((g) => g.role !== "ignore" && g.tiles.includes(i))).length;
}
function pickerGrid(onpick, exceptIdx) {
  const d = cur();
  return h("div", { class: "picker" }, ["m", "p", "s", "z", "f"].map((su) => h("div", { class: "picker-row" },
    h("div", { class: "picker-suit" }, t("suit_" + su)),
    h("div", { class: "picker-tiles" }, ALL_CODES.filter((c) => c[1] === su).map((c) => {
      const max = su === "f" ? 1 : 4;
      const b = h("button", { type: "button", class: "tile-btn", dataset: { code: c }, disabled: countCode(d, c, exceptIdx) >= max }, tileFace(c));
      b.addEventListener("click", () => onpick(c));
      return b;
    })))));
}
function fixTile(i) {
  const d = cur(), tile = d.tiles[i];
  const done = () => { edited(); closeSheet(); renderPhoto(); renderGroups(); };
  const alts = (tile.alternatives || []).filter((a) => a[0] !== tile.code);
  const body = h("div", {},
    h("div", { class: "fix-current" }, tileFace(tile.code, "large"), tile.confidence !== undefined && !tile.manual ? h("span", { class: "muted" }, ` ${(tile.confidence * 100).toFixed(0)}%`) : null),
    alts.length ? h("div", { class: "q" }, h("span", { class: "q-label" }, t("alternatives")),
      h("div", { class: "alts" }, alts.map(([c, p]) => h("button", { type: "button", class: "tile-btn alt", dataset: { code: c }, onclick: () => { tile.code = c; done(); } },
        tileFace(c), h("small", {}, `${Math.round(p * 100)}%`))))) : null,
    h("div", { class: "row-wrap" },
      h("button", { type: "button", id: "mark-winning", class: i === d.winning ? "on" : "", onclick: () => { d.winning = i; done(); } }, "★ " + t("mark_winning")),
      h("button", { type: "button", class: "warn", id: "remove-tile", onclick: () => { tile.removed = true; if (d.winning === i) d.winning = null; done(); } }, t("remove_tile"))),
    h("div", { class: "q" }, h("span", { class: "q-label" }, t("all_tiles")), pickerGrid((c) => { tile.code = c; done(); }, i)));
  openSheet(t("fix_tile"), body);
}
function pickTiles(group) {
  const d = cur();
  const g = group || addGroup(d, [], "hand");
  if (!group) g.manualEmpty = true;
  const preview = h("div", { class: "group-tiles" });
  const refresh = () => {
    fill(preview, ...liveTiles(d, g).map((i) => tileFace(d.tiles[i].code)));
    $("sheet-body").querySelector(".picker").replaceWith(pickerGrid(add));
  };
  const add = (c) => {
    edited();
    d.tiles.push({ code: c, confidence: 1, alternatives: [], removed: false, manual: true });
    g.tiles.push(d.tiles.length - 1);
    if (g.role === "hand" && c[1] !== "f") d.winning = d.tiles.length - 1;
    refresh();
  };
  openSheet(t("pick_title"), h("div", {}, preview, pickerGrid(add),
    h("button", { type: "button", class: "primary big", id: "picker-done", onclick: () => { closeSheet(); if (S.win.step === "capture") S.win.step = "review"; renderWin(); } }, t("done"))));
}
$("picker-add").addEventListener("click", () => pickTiles(null));
$("notation-add").addEventListener("click", () => {
  const d = cur();
  try {
    const codes = parseNotation($("notation-input").value);
    if (!codes.length) return;
    edited();
    const hasHand = d.groups.some((g) => g.role === "hand" && liveTiles(d, g).length);
    const g = addGroup(d, codes, hasHand && meldType(codes) ? "meld" : "hand");
    if (g.role === "hand") d.winning = g.tiles.filter((i) => d.tiles[i].code[1] !== "f").pop() ?? d.winning;
    $("notation-input").value = ""; showError("review-error", "");
    renderGroups();
  } catch (e) { showError("review-error", `${t("type_tiles")}: ${e.message}?`); }
});
$("notation-input").addEventListener("keydown", (ev) => { if (ev.key === "Enter") { ev.preventDefault(); $("notation-add").click(); } });
function renderAsk() {
  const d = cur(), st = S.win.state;
  $("q-winner").replaceWith(Object.assign(seatButtons("winner", st, { value: d.winner, onpick: (w) => {
    edited(); d.winner = w; if (d.by === w) d.by = null; renderAsk(); renderGroups(); } }), { id: "q-winner" }));
  const from = h("div", { class: "seg", id: "q-from", dataset: { name: "from" } });
  const mk = (val, content) => {
    const b = h("button", { type: "button", class: d.by === val ? "on" : "", dataset: { seat: val } }, content);
    b.addEventListener("click", () => { edited(); d.by = val; renderAsk(); });
    return b;
  };
  from.append(mk("self", t("self_draw")));
  for (const w of SEATS) if (w !== d.winner) from.append(mk(w, [h("b", {}, windShort(w)), " ", nameAt(st, w)]));
  $("q-from").replaceWith(from);
  fill($("q-flags"), ...["after_kong", "robbed_kong", "last_tile", "first_turn", ...(EXTRA_FLAGS[variantName()] || [])].map((f) => {
    const cb = h("input", { type: "checkbox", id: "flag-" + f }); cb.checked = !!d.flags[f];
    cb.addEventListener("change", () => { edited(); d.flags[f] = cb.checked; });
    return h("label", { class: "flag" }, cb, " ", t("flag_" + f));
  }));
}
function winnersPayload() { return S.win.drafts.map(buildWinner); }
$("score-btn").addEventListener("click", async () => {
  showError("score-error", "");
  let winners;
  try { winners = winnersPayload(); } catch (e) { showError("score-error", e.message); return; }
  try {
    if (S.win.mode === "correct") S.win.result = await previewCorrection(winners);
    else S.win.result = await api("POST", `/api/tables/${S.token}/hands/score`, { winners });
    S.win.winners = winners; S.win.step = "result"; renderWin();
    $("step-result").scrollIntoView({ behavior: "smooth", block: "start" });
  } catch (e) { showError("score-error", e.message); }
});
async function previewCorrection(winners) {
  // the same engine, under the corrected hand's own state and claims
  return api("POST", `/api/tables/${S.token}/hands/score`, { winners, correct: S.win.eventId });
}
function extrasBlock(r, st) {
  const out = [];
  const tilesRow = (codes) => h("span", { class: "tiles-inline" }, (codes || []).map((c) => tileFace(c, "small")));
  if (r.wilds !== undefined && r.wilds !== null) {
    const w = r.wilds, rows = [];
    if (Array.isArray(w)) w.forEach((x) => rows.push(typeof x === "object" ? wildRow(x) : h("div", {}, tileFace(String(x), "small"))));
    else if (typeof w === "object") {
      if (w.indicator) rows.push(h("div", {}, t("indicator"), " ", tileFace(w.indicator, "small"), " → ", t("wild_kinds"), " ", tilesRow(w.kinds || w.tiles)));
      else if (w.kinds || w.tiles) rows.push(h("div", {}, tilesRow(w.kinds || w.tiles)));
      for (const x of w.in_hand || w.substitutions || w.used || []) rows.push(typeof x === "object" ? wildRow(x) : h("div", {}, String(x)));
      for (const [k, v] of Object.entries(w)) if (!["indicator", "tiles", "kinds", "in_hand", "substitutions", "used"].includes(k) && typeof v !== "object") rows.push(h("div", { class: "muted" }, `${k}: ${v}`));
    }
    out.push(h("div", { class: "extra wilds" }, h("h4", {}, t("wilds")), rows));
  }
  if (r.fish) {
    const f = r.fish;
    out.push(h("div", { class: "extra fish" }, h("h4", {}, t("fish"), " · ", f.eligible ? t("eligible") : t("not_eligible")),
      h("div", {}, tilesRow(f.tiles)),
      (f.matches || []).map((m) => h("div", {}, tileFace(m.tile, "small"), " → ", t("matched", { seat: `${windShort(m.seat)} ${nameAt(st, m.seat)}` }))),
      f.reason ? h("div", { class: "muted" }, f.reason) : null));
  }
  if (r.bloom) {
    const b = r.bloom;
    out.push(h("div", { class: "extra bloom" }, h("h4", {}, t("bloom"), " · ", b.eligible ? t("eligible") : t("not_eligible")),
      h("div", {}, tilesRow(b.tiles)), b.used ? h("div", {}, "✓ ", typeof b.used === "string" ? tileFace(b.used, "small") : JSON.stringify(b.used)) : null,
      b.reason ? h("div", { class: "muted" }, b.reason) : null));
  }
  return out;
}
function wildRow(x) {
  const from = x.tile || x.wild || x.from, to = x.stands_for || x.as || x.to;
  if (from && to) return h("div", { class: "wild-row" }, tileFace(from, "small"), ` ${t("stands_for")} `, tileFace(to, "small"));
  return h("div", { class: "muted" }, JSON.stringify(x));
}
function renderResult() {
  const res = S.win.result, st = S.win.state, players = S.view.table.players;
  const blocks = res.result.results.map((r) => h("div", { class: "result-one" },
    h("h3", {}, `${windShort(r.winner)} ${nameAt(st, r.winner)} — ${t("value")} `, h("span", { class: "value", id: "result-value" }, String(r.value))),
    h("table", { class: "items" }, h("tbody", {}, (r.items || []).map((it) => h("tr", {}, h("td", {}, label(it)), h("td", { class: "num" }, String(it.value)))))),
    (r.multipliers || []).length ? h("div", {}, h("h4", {}, t("multipliers")), h("ul", { class: "mults" }, r.multipliers.map((m) =>
      h("li", {}, `${label(m)} ×${m.factor}`, m.payer ? ` (${t("for_payer", { seat: nameAt(st, m.payer) })})` : "")))) : null,
    extrasBlock(r, st),
    (r.notes || []).length ? h("div", { class: "muted notes" }, r.notes.join(" · ")) : null));
  fill($("result"), ...blocks, h("h4", {}, t("payments")), arrows(res.result, st),
    h("div", { class: "entry-pay" }, res.payments_by_player.map((p, i) => h("span", { class: `chg ${p > 0 ? "pos" : p < 0 ? "neg" : ""}` }, `${players[i]} ${signed(p)}`))));
  const d = cur();
  $("another-winner").hidden = S.win.mode === "correct" || !d.by || d.by === "self" || S.win.drafts.length >= 3;
}
function arrows(result, st) {
  // four seats round a square (East at the bottom, play runs counter-clockwise), arrows payer → winner
  const W = 420, H = 300, pos = { E: [210, 270], S: [380, 150], W: [210, 30], N: [40, 150] };
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "arrows", role: "img" },
    s("defs", {}, s("marker", { id: "ah", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" },
      s("path", { d: "M0,0 L10,5 L0,10 z", fill: "#c92a2a" }))));
  const lines = [];
  for (const r of result.results) for (const [payer, amt] of Object.entries(r.payments)) {
    if (amt >= 0 || payer === r.winner) continue;
    lines.push([payer, r.winner, -amt]);
  }
  lines.forEach(([a, b, amt], k) => {
    const [x1, y1] = pos[a], [x2, y2] = pos[b];
    const dx = x2 - x1, dy = y2 - y1, len = Math.hypot(dx, dy), ux = dx / len, uy = dy / len;
    const off = 8 * ((k % 2) ? 1 : -1) * (lines.filter(([p, q]) => p === b && q === a).length ? 1 : 0);
    const sx = x1 + ux * 42 - uy * off, sy = y1 + uy * 28 + ux * off, ex = x2 - ux * 42 - uy * off, ey = y2 - uy * 28 + ux * off;
    svg.append(s("line", { x1: sx, y1: sy, x2: ex, y2: ey, class: "pay", "marker-end": "url(#ah)" }));
    svg.append(s("text", { x: (sx + ex) / 2 - uy * 12, y: (sy + ey) / 2 + ux * 12 + 5, class: "amt", "text-anchor": "middle", text: String(amt) }));
  });
  for (const w of SEATS) {
    const [x, y] = pos[w];
    svg.append(s("rect", { x: x - 40, y: y - 22, width: 80, height: 44, rx: 10, class: `node${result.payments[w] > 0 ? " win" : ""}` }));
    svg.append(s("text", { x, y: y - 4, "text-anchor": "middle", class: "node-w", text: `${windShort(w)} ${nameAt(st, w)}`.slice(0, 14) }));
    svg.append(s("text", { x, y: y + 15, "text-anchor": "middle", class: "node-a", text: signed(result.payments[w] || 0) }));
  }
  return svg;
}
$("another-winner").addEventListener("click", () => {
  const from = cur().by;
  S.win.drafts.push(Object.assign(newDraft(), { by: from }));
  S.win.cur = S.win.drafts.length - 1; S.win.step = "capture"; S.win.result = null;
  $("photo-input").value = "";
  renderWin();
});
$("confirm-btn").addEventListener("click", async () => {
  const w = S.win;
  const body = { winners: w.winners };
  const d0 = w.drafts[0];
  if (d0.photoId !== null && d0.photoId !== undefined) body.photo_id = d0.photoId;
  body.tiles = w.drafts.map((d) => d.tiles.filter((x) => !x.removed).map((x) => ({ code: x.code, read: x.orig || null })));
  const url = w.mode === "correct" ? `/api/tables/${S.token}/hands/${w.eventId}/correct` : `/api/tables/${S.token}/hands`;
  $("confirm-btn").disabled = true;
  try {
    S.view = await api("POST", url, body);
    S.win = null; show("table"); renderTable(); toast(t("recorded"));
  } catch (e) { showError("score-error", e.message); S.win.step = "ask"; renderWin(); }
  finally { $("confirm-btn").disabled = false; }
});

// ------------------------------------------------------------------ a win: photo
function progress(pct, text) {
  $("progress-box").hidden = pct === null;
  $("progress-bar").style.width = (pct ?? 0) + "%";
  $("progress-bar").classList.toggle("indeterminate", pct === -1);
  $("progress-text").textContent = text || "";
}
async function downscale(file, maxSide = 1600) {
  let src;
  try { src = await createImageBitmap(file, { imageOrientation: "from-image" }); }
  catch (e) {
    src = await new Promise((ok, bad) => { const img = new Image(); img.onload = () => ok(img); img.onerror = bad; img.src = URL.createObjectURL(file); });
  }
  const w0 = src.width, h0 = src.height, k = Math.min(1, maxSide / Math.max(w0, h0));
  const c = document.createElement("canvas");
  c.width = Math.round(w0 * k); c.height = Math.round(h0 * k);
  c.getContext("2d").drawImage(src, 0, 0, c.width, c.height);
  return await new Promise((ok) => c.toBlob(ok, "image/jpeg", 0.9));
}
function upload(blob) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/api/tables/${S.token}/photos`);
    xhr.upload.onprogress = (ev) => { if (ev.lengthComputable) progress(Math.round((ev.loaded / ev.total) * 100), t("uploading", { p: Math.round((ev.loaded / ev.total) * 100) })); };
    xhr.upload.onload = () => progress(-1, t("recognising"));
    xhr.onerror = () => reject(new Error(t("err_network")));
    xhr.onload = () => {
      let data = null; try { data = JSON.parse(xhr.responseText); } catch (e) { /* */ }
      if (xhr.status >= 200 && xhr.status < 300 && data && data.ok) resolve(data);
      else reject(new Error(data && data.error ? errorText(data.error) : t("err_generic", { m: xhr.status })));
    };
    const fd = new FormData(); fd.append("photo", blob, "hand.jpg");
    xhr.send(fd);
  });
}
async function handlePhoto(fileOrBlob) {
  showError("capture-error", "");
  progress(-1, t("shrinking"));
  let blob;
  try { blob = await downscale(fileOrBlob); } catch (e) { progress(null); showError("capture-error", t("photo_too_big")); return; }
  try {
    const rec = await upload(blob);
    progress(null);
    const keep = cur();
    const d = draftFromRecognition(rec, URL.createObjectURL(blob));
    d.winner = keep.winner; d.by = keep.by; d.flags = keep.flags;
    S.win.drafts[S.win.cur] = d;
    S.win.step = "review"; renderWin();
  } catch (e) { progress(null); showError("capture-error", e.message); }
}
$("photo-input").addEventListener("change", (ev) => { const f = ev.target.files && ev.target.files[0]; if (f) handlePhoto(f); });
let stream = null;
function stopCamera() { if (stream) { stream.getTracks().forEach((tr) => tr.stop()); stream = null; } $("camera-box").hidden = true; }
$("camera-btn").addEventListener("click", async () => {
  try {
    stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment", width: { ideal: 1920 } }, audio: false });
    $("camera-video").srcObject = stream; $("camera-box").hidden = false;
  } catch (e) { showError("capture-error", e.message); }
});
$("camera-shoot").addEventListener("click", async () => {
  const v = $("camera-video"), c = document.createElement("canvas");
  c.width = v.videoWidth; c.height = v.videoHeight;
  c.getContext("2d").drawImage(v, 0, 0);
  stopCamera();
  c.toBlob((b) => handlePhoto(b), "image/jpeg", 0.92);
});

// ------------------------------------------------------------------ routing
function route() {
  const m = location.pathname.match(/^\/(t|w)\/([A-Za-z0-9_-]+)$/);
  if (m) openTable(m[2], m[1] === "w");
  else { clearInterval(S.poll); S.token = null; openHome(); }
}
window.addEventListener("popstate", route);
applyI18n();
route();
