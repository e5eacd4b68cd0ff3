// A win, step 4: the result. Each winner's value, scoring items and multipliers, the wild, fish
// or bloom tiles the rule set reports, the payments as arrows between the seats and per player;
// for a correction, each player's payment as recorded and as corrected, side by side.
import { errorText } from "./api.js";
import { byId, element, replaceChildren, svgElement } from "./dom.js";
import { localLabel, localNote, signed, t, windShort } from "./i18n.js";
import { SEATS, playerAt } from "./seats.js";
import { store } from "./store.js";
import { tileFace } from "./tiles.js";
import { meldWarnings } from "./win-claims.js";

const smallTiles = (codes) => element("span", { class: "tiles-inline" }, (codes || []).map((c) => tileFace(c, "small")));

/** One wild tile in the hand and what it stood for (or the object as the server sent it). */
function wildRow(x) {
  const from = x.tile || x.wild || x.from, to = x.stands_for || x.as || x.to;
  if (from && to) return element("div", { class: "wild-row" }, tileFace(from, "small"), ` ${t("stands_for")} `, tileFace(to, "small"));
  return element("div", { class: "muted" }, JSON.stringify(x));
}

const WILD_KEYS_SHOWN = ["indicator", "tiles", "kinds", "in_hand", "substitutions", "used"];

function wildsBlock(wilds) {
  const rows = [];
  if (Array.isArray(wilds)) {
    wilds.forEach((x) => rows.push(typeof x === "object" ? wildRow(x) : element("div", {}, tileFace(String(x), "small"))));
  } else if (typeof wilds === "object") {
    const kinds = wilds.kinds || wilds.tiles;
    if (wilds.indicator) {
      rows.push(element("div", {}, t("indicator"), " ", tileFace(wilds.indicator, "small"), " → ", t("wild_kinds"), " ", smallTiles(kinds)));
    } else if (kinds) rows.push(element("div", {}, smallTiles(kinds)));
    for (const x of wilds.in_hand || wilds.substitutions || wilds.used || []) {
      rows.push(typeof x === "object" ? wildRow(x) : element("div", {}, String(x)));
    }
    for (const [k, v] of Object.entries(wilds)) {
      if (!WILD_KEYS_SHOWN.includes(k) && typeof v !== "object") rows.push(element("div", { class: "muted" }, `${k}: ${v}`));
    }
  }
  return element("div", { class: "extra wilds" }, element("h4", {}, t("wilds")), rows);
}

/** The wilds, fish and bloom blocks of one winner's result, where the rule set reports them. */
function extrasBlock(r, state) {
  const out = [];
  if (r.wilds !== undefined && r.wilds !== null) out.push(wildsBlock(r.wilds));
  if (r.fish) {
    const f = r.fish;
    out.push(element("div", { class: "extra fish" }, element("h4", {}, t("fish"), " · ", f.eligible ? t("eligible") : t("not_eligible")),
      element("div", {}, smallTiles(f.tiles)),
      (f.matches || []).map((m) => element("div", {}, tileFace(m.tile, "small"), " → ",
        t("matched", { seat: `${windShort(m.seat)} ${playerAt(state, m.seat)}` }))),
      f.reason ? element("div", { class: "muted" }, f.reason) : null));
  }
  if (r.bloom) {
    const b = r.bloom;
    out.push(element("div", { class: "extra bloom" }, element("h4", {}, t("bloom"), " · ", b.eligible ? t("eligible") : t("not_eligible")),
      element("div", {}, smallTiles(b.tiles)),
      b.used ? element("div", {}, "✓ ", typeof b.used === "string" ? tileFace(b.used, "small") : JSON.stringify(b.used)) : null,
      b.reason ? element("div", { class: "muted" }, b.reason) : null));
  }
  return out;
}

/**
 * `text` cut to about `px` pixels of 13 px bold type, with "…" when cut (an SVG box cannot
 * ellipsise by itself): CJK characters count about 13 px, others about 8.
 */
function fitText(text, px) {
  let width = 0, out = "";
  for (const ch of text) {
    width += /[\u2e80-\uffff]/.test(ch) ? 13 : 8;
    if (width > px) return out.trimEnd() + "…";
    out += ch;
  }
  return out;
}

/** Four seats round a square (East at the bottom, play runs counter-clockwise), arrows payer → winner. */
function paymentArrows(result, state) {
  const W = 420, H = 300, pos = { E: [210, 270], S: [380, 150], W: [210, 30], N: [40, 150] };
  const svg = svgElement("svg", { viewBox: `0 0 ${W} ${H}`, class: "arrows", role: "img" },
    svgElement("defs", {}, svgElement("marker", { id: "ah", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" },
      svgElement("path", { d: "M0,0 L10,5 L0,10 z", fill: "#c92a2a" }))));
  const lines = [];
  for (const r of result.results) {
    for (const [payer, amount] of Object.entries(r.payments)) if (amount < 0 && payer !== r.winner) lines.push([payer, r.winner, -amount]);
  }
  lines.forEach(([a, b, amount], k) => {
    const [x1, y1] = pos[a], [x2, y2] = pos[b];
    const dx = x2 - x1, dy = y2 - y1, len = Math.hypot(dx, dy), ux = dx / len, uy = dy / len;
    // two arrows between the same seats in opposite directions are drawn apart
    const off = 8 * (k % 2 ? 1 : -1) * (lines.filter(([p, q]) => p === b && q === a).length ? 1 : 0);
    const sx = x1 + ux * 42 - uy * off, sy = y1 + uy * 28 + ux * off, ex = x2 - ux * 42 - uy * off, ey = y2 - uy * 28 + ux * off;
    svg.append(svgElement("line", { x1: sx, y1: sy, x2: ex, y2: ey, class: "pay", "marker-end": "url(#ah)" }));
    svg.append(svgElement("text", { x: (sx + ex) / 2 - uy * 12, y: (sy + ey) / 2 + ux * 12 + 5, class: "amt", "text-anchor": "middle", text: String(amount) }));
  });
  for (const w of SEATS) {
    const [x, y] = pos[w];
    svg.append(svgElement("rect", { x: x - 40, y: y - 22, width: 80, height: 44, rx: 10, class: `node${result.payments[w] > 0 ? " win" : ""}` }));
    svg.append(svgElement("text", { x, y: y - 4, "text-anchor": "middle", class: "node-w", text: fitText(`${windShort(w)} ${playerAt(state, w)}`, 74) }));
    svg.append(svgElement("text", { x, y: y + 15, "text-anchor": "middle", class: "node-a", text: signed(result.payments[w] || 0) }));
  }
  return svg;
}

function winnerBlock(r, state) {
  // one of several winners the rules refuse (Yuxi scores each independently): paid nothing, and why
  if (r.ok === false) {
    return element("div", { class: "result-one refused" },
      element("h3", {}, t("ev_refused", { who: `${windShort(r.winner)} ${playerAt(state, r.winner)}` })),
      element("p", { class: "error" }, errorText(r.error)));
  }
  return element("div", { class: "result-one" },
    element("h3", {}, `${windShort(r.winner)} ${playerAt(state, r.winner)} — ${t("value")} `, element("span", { class: "value", id: "result-value" }, String(r.value))),
    element("table", { class: "items" }, element("tbody", {}, (r.items || []).map((it) =>
      element("tr", {}, element("td", {}, localLabel(it)), element("td", { class: "num" }, String(it.value)))))),
    (r.multipliers || []).length ? element("div", {}, element("h4", {}, t("multipliers")), element("ul", { class: "mults" }, r.multipliers.map((m) =>
      element("li", {}, `${localLabel(m)} ×${m.factor}`, m.payer ? ` (${t("for_payer", { seat: playerAt(state, m.payer) })})` : "")))) : null,
    extrasBlock(r, state),
    (r.notes || []).length ? element("div", { class: "muted notes" },
      r.notes.map((n) => localNote(n, (w) => `${windShort(w)} ${playerAt(state, w)}`)).join(" · ")) : null);
}

/** Show a scored win (the answer of POST …/hands/score) for the hand in `state`. */
export function renderResult(scored, state) {
  const players = store.get("view").table.players;
  replaceChildren(byId("result"), meldWarnings(scored.warnings, state), ...scored.result.results.map((r) => winnerBlock(r, state)),
    element("h4", {}, t("payments")), paymentArrows(scored.result, state),
    element("div", { class: "entry-pay" }, scored.payments_by_player.map((p, i) =>
      element("span", { class: `chg ${p > 0 ? "pos" : p < 0 ? "neg" : ""}` }, `${players[i]} ${signed(p)}`))));
}

/**
 * A correction's payments per player: as recorded (`before`) and as corrected (`after`, null until
 * scored), side by side; the rows that change are marked.
 * @param {number[]} before
 * @param {number[] | null} after
 */
export function renderCompare(before, after) {
  const players = store.get("view").table.players;
  replaceChildren(byId("compare"), element("table", { class: "compare" },
    element("thead", {}, element("tr", {}, element("th", {}, ""), element("th", {}, t("cmp_before")), element("th", {}, t("cmp_after")))),
    element("tbody", {}, players.map((name, i) => {
      const changed = after !== null && after[i] !== before[i];
      return element("tr", { class: changed ? "changed" : "", dataset: { player: i } }, element("td", { class: "who" }, name),
        element("td", { class: "num before" }, signed(before[i])),
        element("td", { class: "num after" }, after === null ? "—" : signed(after[i])));
    }))));
}
