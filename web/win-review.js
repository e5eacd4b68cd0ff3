// A win, step 2: check the tiles. The photo with a box per tile (coloured by confidence), the
// groups with their roles, fixing a tile (alternatives, the winning tile, remove, any tile),
// adding tiles by picking them or by typing (read by the server: 123m, 一萬 東, tile glyphs).
import { readTiles } from "./api.js";
import { byId, element, onEvent, replaceChildren, showError, svgElement } from "./dom.js";
import { t, windShort } from "./i18n.js";
import { SEATS, playerAt } from "./seats.js";
import { closeSheet, openSheet } from "./sheets.js";
import { ALL_CODES, SUITS, isFlower, isTileCode, meldType, tileFace } from "./tiles.js";
import {
  addGroup, addTile, chooseIndicator, codesOf, ignorable, ignoreOthers, keepWinningInHand, liveTiles, meldFrom, setRole,
} from "./win-draft.js";
import { currentDraft, currentWin, markEdited, redrawWin, ruleFacts } from "./win-state.js";

/** The typed entry being read by the server (scoring waits for it). */
let typing = Promise.resolve();

/** Resolves once the typed tiles sent to the server are in the draft. */
export function typedTilesSettled() {
  return typing;
}

/**
 * Box colour: blue for a tile the table changed or added; green for a tile the recogniser marks
 * `sure` (its calibrated confidence is one at which readings are right >= 99.5 % of the time);
 * otherwise amber (check it) from 0.6 confidence, red (doubtful) below.
 */
function confidenceColour(tile) {
  if (tile.manual || tile.code !== tile.orig) return "#1c7ed6";
  if (tile.sure) return "#2f9e44";
  return tile.confidence >= 0.6 ? "#f08c00" : "#e03131";
}

/** The indexes of the tiles in ignored groups. */
function ignoredTiles(d) {
  return new Set(d.groups.filter((g) => g.role === "ignore").flatMap((g) => g.tiles));
}

/** The indexes of the tiles the crop keeps in view: groups in use and indicator candidates. */
function framedTiles(d) {
  return new Set(d.groups.filter((g) => g.role !== "ignore" || (g.hand === false && g.reason === "indicator"))
    .flatMap((g) => g.tiles));
}

/**
 * The photo cropped to the tiles in use and the indicator candidates (plus a margin; all tiles
 * when there are none) so every box is big enough to tap; boxes of ignored groups are dimmed.
 */
export function renderPhoto() {
  const d = currentDraft();
  byId("photo-wrap").hidden = !d.imgUrl;
  // a poor reading (the recogniser says why, or found no tiles): "Try again" takes another photo
  const poor = !!d.imgUrl && (!!d.reason || !d.tiles.length);
  byId("recog-poor").hidden = !poor;
  byId("recog-reason").textContent = d.reason || t("no_tiles_read");
  if (!d.imgUrl) return;
  const ignored = ignoredTiles(d), framed = framedTiles(d);
  const shown = d.tiles.filter((x) => x.quad && !x.removed);
  const used = shown.filter((x) => framed.has(d.tiles.indexOf(x)));
  const points = (used.length ? used : shown).flatMap((x) => x.quad);
  let [x0, y0, x1, y1] = [0, 0, d.width, d.height];
  if (points.length) {
    x0 = Math.min(...points.map((p) => p[0]));
    x1 = Math.max(...points.map((p) => p[0]));
    y0 = Math.min(...points.map((p) => p[1]));
    y1 = Math.max(...points.map((p) => p[1]));
    const m = 0.08 * Math.max(x1 - x0, y1 - y0);
    [x0, y0, x1, y1] = [Math.max(0, x0 - m), Math.max(0, y0 - m), Math.min(d.width, x1 + m), Math.min(d.height, y1 + m)];
  }
  const svg = byId("photo-overlay");
  svg.setAttribute("viewBox", `${x0.toFixed(1)} ${y0.toFixed(1)} ${(x1 - x0).toFixed(1)} ${(y1 - y0).toFixed(1)}`);
  const sw = Math.max(1.5, (x1 - x0) / 320);
  replaceChildren(svg, svgElement("image", { href: d.imgUrl, x: 0, y: 0, width: d.width, height: d.height }));
  d.tiles.forEach((tile, i) => {
    if (!tile.quad || tile.removed) return;
    const colour = confidenceColour(tile);
    const box = svgElement("g", { class: ignored.has(i) ? "box ignored" : "box", "data-tile": i },
      svgElement("polygon", { points: tile.quad.map((p) => p.join(",")).join(" "),
        fill: i === d.winning ? "rgba(255,212,59,.35)" : "rgba(255,255,255,.01)", stroke: colour, "stroke-width": sw }));
    if (tile.code !== tile.orig) {
      const [x, y] = tile.quad[0];
      box.append(svgElement("text", { x: x + sw, y: y - sw * 1.5, fill: colour, "font-size": sw * 9, "font-weight": 700, text: tile.code }));
    }
    svg.append(box);
  });
}

/** One-tap role chips: the rule set's roles for group n, the group's own one on. */
function roleChips(g, n) {
  return element("div", { class: "role-chips", role: "group", "aria-label": t("group", { n: n + 1 }) },
    ruleFacts().roles.map((r) => element("button", {
      type: "button", class: g.role === r ? "role-chip on" : "role-chip", "aria-pressed": String(g.role === r), dataset: { group: n, role: r },
    }, t("role_" + r))));
}

function groupControls(d, g, n) {
  const controls = [roleChips(g, n)];
  if (g.role === "meld" && d.winner) {
    const state = currentWin().state;
    const from = element("select", { class: "from", dataset: { group: n } }, SEATS.filter((x) => x !== d.winner).map((x) =>
      element("option", { value: x }, `${t("from_whom")} ${windShort(x)} ${playerAt(state, x)}`)));
    from.value = meldFrom(d, g, d.winner);
    controls.push(from);
  }
  if (g.role === "meld" && meldType(codesOf(d, g)) === "kong") {
    const added = element("input", { type: "checkbox", class: "added", dataset: { group: n } });
    added.checked = g.added;
    controls.push(element("label", { class: "inline" }, added, " ", t("kong_added")));
  }
  return controls;
}

/**
 * Above the groups: the question which candidate is the rule set's indicator (when several could
 * be), and "Ignore all others" while a group the recogniser left out of the hand is in use on the
 * page's guess (not on a role the table set by hand).
 */
function groupsBar(d) {
  const inUse = d.groups.some((g) => ignorable(d, g));
  if (!d.ask && !inUse) return null;
  return element("div", { class: "groups-bar" },
    d.ask ? element("p", { class: "ask", id: "ask-indicator" }, t("ask_indicator", { role: t("role_" + d.ask) })) : null,
    inUse ? element("button", { type: "button", id: "ignore-others" }, t("ignore_others")) : null);
}

/**
 * Why the recogniser left a group out of the hand (an indicator candidate is only a tile near the
 * hand where the rule set has no indicator), and (when asked) the chip that picks it as the indicator.
 */
function groupWhy(d, g, n) {
  if (g.hand !== false || !g.reason) return null;
  const reason = g.reason === "indicator" && !ruleFacts().indicator ? "near_hand" : g.reason;
  const why = element("p", { class: "group-why" }, t("not_hand", { why: t("why_" + reason) }));
  if (!(d.ask && g.reason === "indicator")) return why;
  return element("div", {}, why, element("button", { type: "button", class: "this-indicator", dataset: { group: n } },
    t("this_is", { role: t("role_" + d.ask) })));
}

/** Where a group is listed: the hand's groups first, then indicator candidates, then the others. */
function listRank(g) {
  return g.hand !== false ? 0 : g.reason === "indicator" ? 1 : 2;
}

/**
 * Each group (the hand's first): its role (and for a meld whose discard, whether a kong was
 * added), why it is not the hand, its tiles.
 */
export function renderGroups() {
  const d = currentDraft();
  const listed = d.groups.map((g, n) => [g, n]).sort(([a, m], [b, n]) => listRank(a) - listRank(b) || m - n);
  replaceChildren(byId("groups"), groupsBar(d), ...listed.map(([g, n]) => {
    const tiles = liveTiles(d, g);
    if (!tiles.length) return null;
    const asked = d.ask && g.hand === false && g.reason === "indicator" ? " asked" : "";
    return element("div", { class: `group r-${g.role}${asked}`, dataset: { group: n } },
      element("div", { class: "group-head" }, element("span", { class: "muted" }, t("group", { n: n + 1 })), ...groupControls(d, g, n)),
      groupWhy(d, g, n),
      element("div", { class: "group-tiles" },
        tiles.map((i) => {
          const tile = d.tiles[i];
          const marks = `${i === d.winning ? "winning" : ""} ${tile.code !== tile.orig && !tile.manual ? "edited" : ""}`;
          const badge = i === d.winning ? element("span", { class: "win-badge" }, "★ " + t("winning_tile")) : null;
          const button = element("button", { type: "button", class: i === d.winning ? "tile-btn is-winning" : "tile-btn", dataset: { tile: i } },
            tileFace(tile.code, marks), badge);
          if (!tile.manual) button.style.setProperty("--cc", confidenceColour(tile));
          return button;
        }),
        element("button", { type: "button", class: "tile-btn add", dataset: { group: n } }, t("add_tile"))));
  }));
}

/** A group's new role (the rule set's indicator answers the question which one is); the winning tile stays in the hand. */
function changeRole(d, g, role) {
  setRole(d, g, role);
  if (role === d.ask) d.ask = null;
  keepWinningInHand(d);
}

/** A change to the groups' roles (one group's, all others ignored, the indicator chosen): redraw both parts. */
function changeGroups(change) {
  markEdited();
  change(currentDraft());
  renderGroups();
  renderPhoto();
}

/** How many of `code` the hand already uses (removed tiles, ignored groups and tile `except` aside). */
function countCode(d, code, except) {
  return d.tiles.filter((x, i) => !x.removed && x.code === code && i !== except
    && d.groups.some((g) => g.role !== "ignore" && g.tiles.includes(i))).length;
}

/**
 * The rule set's tiles by suit (Hefei: ranks 2-8 of the three suits only); a tile already used
 * four times (a flower once) over the groups in use is disabled.
 */
function pickerGrid(except) {
  const d = currentDraft(), inSet = new Set(ruleFacts().tileCodes || ALL_CODES);
  const suits = SUITS.filter((suit) => ALL_CODES.some((c) => c[1] === suit && inSet.has(c)));
  return element("div", { class: "picker" }, suits.map((suit) => element("div", { class: "picker-row" },
    element("div", { class: "picker-suit" }, t("suit_" + suit)),
    element("div", { class: "picker-tiles" }, ALL_CODES.filter((c) => c[1] === suit && inSet.has(c)).map((c) =>
      element("button", { type: "button", class: "tile-btn", dataset: { code: c }, disabled: countCode(d, c, except) >= (suit === "f" ? 1 : 4) },
        tileFace(c)))))));
}

/** Whether tile i is a hand tile that can win: in a group whose role is the hand, read, no flower. */
function canWin(d, i) {
  const code = d.tiles[i].code;
  return isTileCode(code) && !isFlower(code) && d.groups.some((g) => g.role === "hand" && g.tiles.includes(i));
}

/**
 * The fix-tile sheet for tile i: its reading, the alternatives, "this is the winning tile" (only
 * for a hand tile), remove, any tile.
 */
function fixTile(i) {
  const d = currentDraft(), tile = d.tiles[i];
  const alternatives = (tile.alternatives || []).filter((a) => a[0] !== tile.code);
  const body = element("div", {},
    element("div", { class: "fix-current" }, tileFace(tile.code, "large"),
      tile.confidence !== undefined && !tile.manual ? element("span", { class: "muted" }, ` ${(tile.confidence * 100).toFixed(0)}%`) : null),
    alternatives.length ? element("div", { class: "q" }, element("span", { class: "q-label" }, t("alternatives")),
      element("div", { class: "alts" }, alternatives.map(([c, p]) =>
        element("button", { type: "button", class: "tile-btn alt", dataset: { code: c } }, tileFace(c), element("small", {}, `${Math.round(p * 100)}%`))))) : null,
    element("div", { class: "row-wrap" },
      canWin(d, i) ? element("button", { type: "button", id: "mark-winning", class: i === d.winning ? "on" : "" }, "★ " + t("mark_winning")) : null,
      element("button", { type: "button", class: "warn", id: "remove-tile" }, t("remove_tile"))),
    element("div", { class: "q" }, element("span", { class: "q-label" }, t("all_tiles")), pickerGrid(i)));
  openSheet(t("fix_tile"), body);

  const done = () => {
    markEdited();
    closeSheet();
    renderPhoto();
    renderGroups();
  };
  onEvent(body, "click", ".alts button[data-code], .picker button[data-code]", (button) => {
    tile.code = button.dataset.code;
    done();
  });
  onEvent(body, "click", "#mark-winning", () => {
    d.winning = i;
    done();
  });
  onEvent(body, "click", "#remove-tile", () => {
    tile.removed = true;
    if (d.winning === i) d.winning = null;
    done();
  });
}

/**
 * The picker sheet: tap tiles to add them to `group` (a new hand group when null). An added tile
 * becomes the winning tile only while the hand has none: "+ tile" never moves it.
 */
function pickTiles(group) {
  const d = currentDraft();
  // a new group is made with its first tile: closing the picker without one leaves no empty group
  let g = group;
  const preview = element("div", { class: "group-tiles" });
  const body = element("div", {}, preview, pickerGrid(),
    element("button", { type: "button", class: "primary big", id: "picker-done" }, t("done")));
  openSheet(t("pick_title"), body);

  onEvent(body, "click", ".picker button[data-code]", (button) => {
    const code = button.dataset.code;
    markEdited();
    if (!g) g = addGroup(d, [], "hand");
    const i = addTile(d, code);
    g.tiles.push(i);
    if (g.role === "hand" && !isFlower(code) && !hasWinning(d)) d.winning = i;
    replaceChildren(preview, ...liveTiles(d, g).map((k) => tileFace(d.tiles[k].code)));
    body.querySelector(".picker").replaceWith(pickerGrid());
  });
  onEvent(body, "click", "#picker-done", () => {
    closeSheet();
    const win = currentWin();
    if (win.step === "capture") win.step = "review";
    redrawWin();
  });
}

/** Whether the draft has a winning tile in the hand (not removed, in a hand group). */
function hasWinning(d) {
  return d.winning !== null && !d.tiles[d.winning].removed && canWin(d, d.winning);
}

/** Add the typed tiles as a group: a meld when the hand already has tiles and they form one. */
async function addTypedTiles() {
  const input = /** @type {HTMLInputElement} */ (byId("notation-input"));
  const button = /** @type {HTMLButtonElement} */ (byId("notation-add"));
  button.disabled = true;
  try {
    const codes = await readTiles(input.value);
    const win = currentWin();
    if (!codes.length || !win) return;
    const d = currentDraft();
    markEdited();
    const hasHand = d.groups.some((g) => g.role === "hand" && liveTiles(d, g).length);
    const g = addGroup(d, codes, hasHand && meldType(codes) ? "meld" : "hand");
    if (g.role === "hand" && !hasWinning(d)) d.winning = g.tiles.filter((i) => !isFlower(d.tiles[i].code)).pop() ?? d.winning;
    input.value = "";
    showError("review-error", "");
    renderGroups();
  } catch (e) {
    showError("review-error", `${t("type_tiles")}: ${e.message}`);
  } finally {
    button.disabled = false;
  }
}

/** Wire step 2 (once, at start-up). */
export function wireReview() {
  const groups = byId("groups"), group = (el) => currentDraft().groups[+el.dataset.group];
  onEvent(groups, "click", "button.tile-btn[data-tile]", (b) => fixTile(+b.dataset.tile));
  onEvent(groups, "click", "button.tile-btn.add", (b) => pickTiles(group(b)));
  onEvent(groups, "click", "button.role-chip", (b) => changeGroups((d) => changeRole(d, group(b), b.dataset.role)));
  onEvent(groups, "click", "#ignore-others", () => changeGroups(ignoreOthers));
  onEvent(groups, "click", "button.this-indicator", (b) => changeGroups((d) => chooseIndicator(d, group(b), d.ask)));
  onEvent(groups, "change", "select.from", (s) => {
    markEdited();
    group(s).from = /** @type {HTMLSelectElement} */ (s).value;
  });
  onEvent(groups, "change", "input.added", (c) => {
    markEdited();
    group(c).added = /** @type {HTMLInputElement} */ (c).checked;
  });
  onEvent(byId("photo-overlay"), "click", "g.box", (box) => fixTile(+box.dataset.tile));
  byId("picker-add").addEventListener("click", () => pickTiles(null));
  byId("notation-add").addEventListener("click", () => {
    typing = addTypedTiles();
  });
  byId("notation-input").addEventListener("keydown", (ev) => {
    if (ev.key === "Enter") {
      ev.preventDefault();
      byId("notation-add").click();
    }
  });
}
