// A win draft: the tiles of one winner's hand as read from a photo, typed or picked, split into
// groups with a role each (the rule set's roles: hand, meld, concealed_kong, its indicator tiles,
// ignore) and, from a photo, whether the recogniser took the group for the hand and why; the
// winning tile, who won and how; and the winner object it becomes for the server.
// Pure data: no DOM.
import { readTiles } from "./api.js";
import { t } from "./i18n.js";
import { seatAfter } from "./seats.js";
import { isFlower, isTileCode, meldType, notation } from "./tiles.js";
import { recordedFrom } from "./win-claims.js";

/** An empty draft: no photo, no tiles, no answers yet. */
export function newDraft() {
  return {
    photoId: null, imgUrl: null, width: 0, height: 0, reason: null, tiles: [], groups: [], winning: null,
    winner: null, by: null, flags: {}, ask: null,
  };
}

/** The indexes of a group's tiles that were not removed. */
export function liveTiles(d, g) {
  return g.tiles.filter((i) => !d.tiles[i].removed);
}

/** The codes of a group's tiles that were not removed. */
export function codesOf(d, g) {
  return liveTiles(d, g).map((i) => d.tiles[i].code);
}

/**
 * The codes a group scores with: face-down tiles ("back") of a kong stand for the face-up ones
 * (other backs are dropped); an unread tile stops scoring with a message naming group n.
 */
function usableCodes(d, g, n) {
  let codes = codesOf(d, g);
  const faces = codes.filter(isTileCode);
  if (codes.includes("back") && faces.length && faces.every((c) => c === faces[0])) {
    codes = codes.map((c) => (c === "back" ? faces[0] : c));
  } else codes = codes.filter((c) => c !== "back");
  if (codes.some((c) => !isTileCode(c))) throw new Error(t("unread_tile", { n: n + 1 }));
  return codes;
}

/**
 * The groups the recogniser marked as not the hand ("hand": false) default to Ignore, each keeping
 * its reason. Of its indicator candidates (reason "indicator") the only one becomes the rule set's
 * indicator; when there are several, none does and the draft asks the table to tap the one that
 * is (`d.ask`). Returns the groups left to guess.
 * @param {object} d the draft
 * @param {string | null} indicator the rule set's indicator role or null
 */
function leaveOutOthers(d, indicator) {
  const others = d.groups.filter((g) => g.hand === false);
  for (const g of others) g.role = "ignore";
  const candidates = others.filter((g) => g.reason === "indicator");
  if (indicator && candidates.length === 1) candidates[0].role = indicator;
  d.ask = indicator && candidates.length > 1 ? indicator : null;
  return d.groups.filter((g) => g.hand !== false);
}

/** The group with the most tiles left. */
function biggest(d, groups) {
  return groups.reduce((a, b) => (liveTiles(d, b).length > liveTiles(d, a).length ? b : a));
}

/**
 * A reading the recogniser did not judge (an older one): a group off the biggest group's row that
 * is no meld, no kong and no flowers is taken as an indicator candidate, not the hand.
 */
function judgeByRows(d) {
  const big = biggest(d, d.groups);
  for (const g of d.groups) {
    const codes = codesOf(d, g);
    if (g.row !== big.row && !meldType(codes) && !codes.includes("back") && !codes.every(isFlower)) {
      g.hand = false;
      g.reason = "indicator";
    }
  }
}

/**
 * Guess each photographed group's role. Groups the recogniser left out of the hand are ignored
 * (leaveOutOthers; an unjudged reading is judged by rows first). Of the rest, the biggest group is
 * the hand; a group with face-down tiles a concealed kong; flowers go with the hand; a
 * chow/pung/kong is a claimed meld, other tiles the hand's. The winning tile: a lone tile set
 * apart after the hand on its row, else the hand's last non-flower tile.
 * @param {object} d the draft
 * @param {string | null} indicator the rule set's indicator role ("baida", "bloom", "fish") or null
 */
function guessRoles(d, indicator) {
  if (!d.groups.length) return;
  if (d.groups.every((g) => g.hand === null)) judgeByRows(d);
  const mine = leaveOutOthers(d, indicator);
  if (!mine.length) return;
  const big = biggest(d, mine);
  for (const g of mine) {
    const codes = codesOf(d, g);
    if (g !== big && codes.includes("back")) g.role = "concealed_kong";
    else if (g === big || codes.every(isFlower)) g.role = "hand";
    else g.role = meldType(codes) ? "meld" : "hand";
  }
  const hands = mine.filter((g) => g.role === "hand" && g.row === big.row);
  const after = hands.filter((g) => g.index > big.index && liveTiles(d, g).length === 1);
  const pick = after.length ? liveTiles(d, after[after.length - 1])[0]
    : liveTiles(d, big).filter((i) => !isFlower(d.tiles[i].code)).pop();
  d.winning = pick ?? null;
}

/** A draft from the server's reading of a photo (its tiles, groups and which are the hand), roles guessed. */
export function draftFromRecognition(rec, imgUrl, indicator) {
  const d = newDraft();
  d.photoId = rec.photo_id ?? null;
  d.imgUrl = imgUrl;
  d.width = rec.width;
  d.height = rec.height;
  d.reason = rec.reason;
  d.tiles = rec.tiles.map((x) => ({ ...x, orig: x.code, removed: false }));
  const groups = rec.groups && rec.groups.length ? rec.groups : [{ index: 0, row: 0, tiles: d.tiles.map((_, i) => i) }];
  d.groups = groups.map((g, k) => ({
    index: g.index ?? k, row: g.row ?? 0, tiles: [...g.tiles], role: "hand", from: null, added: false,
    hand: typeof g.hand === "boolean" ? g.hand : null, reason: g.reason ?? null,
  }));
  guessRoles(d, indicator);
  return d;
}

/**
 * Whether "Ignore all others" would put group `g` to Ignore: the recogniser left it out of the
 * hand, it is in use, and its role is still the page's guess (a role the table set by hand, such
 * as the indicator it chose, is kept).
 */
export function ignorable(d, g) {
  return g.hand === false && !g.chosen && g.role !== "ignore" && liveTiles(d, g).length > 0;
}

/**
 * One tap: every group the recogniser left out of the hand that is still on the page's guessed
 * role goes back to Ignore; groups whose role the table set by hand (a role chip, the indicator
 * chosen) keep it. The question which is the indicator is dropped; the winning tile stays in the hand.
 */
export function ignoreOthers(d) {
  for (const g of d.groups) if (ignorable(d, g)) g.role = "ignore";
  d.ask = null;
  keepWinningInHand(d);
}

/** The table sets group `g`'s role by hand (a chip): "Ignore all others" leaves it so. */
export function setRole(d, g, role) {
  g.role = role;
  g.chosen = true;
}

/** The indicator candidate `g` is the rule set's indicator (`role`); the question is answered. */
export function chooseIndicator(d, g, role) {
  setRole(d, g, role);
  d.ask = null;
}

/** When the winning tile left the hand (its group's role changed), the hand's last tile wins. */
export function keepWinningInHand(d) {
  const home = d.groups.find((g) => g.tiles.includes(d.winning));
  if (d.winning === null || !home || home.role === "hand") return;
  const hands = d.groups.filter((x) => x.role === "hand"
    && liveTiles(d, x).some((i) => isTileCode(d.tiles[i].code) && !isFlower(d.tiles[i].code)));
  const last = hands.length ? liveTiles(d, hands[hands.length - 1]).filter((i) => !isFlower(d.tiles[i].code)) : [];
  d.winning = last.length ? last[last.length - 1] : null;
}

/** Add a group of typed or picked tiles with `role`; returns the group. */
export function addGroup(d, codes, role) {
  const g = { index: d.groups.length, row: 99, tiles: [], role: role || "hand", from: null, added: false };
  for (const code of codes) g.tiles.push(addTile(d, code));
  d.groups.push(g);
  return g;
}

/** Add one typed or picked tile to the draft (in no group yet); returns its index. */
export function addTile(d, code) {
  d.tiles.push({ code, confidence: 1, alternatives: [], removed: false, manual: true });
  return d.tiles.length - 1;
}

/**
 * A draft from a recorded winner (to correct it): the hand strings the server sent are read back
 * by the server; every win flag the rule set asks (`winFlags`) keeps its recorded answer.
 * @param {object} w a winner as recorded (the score contract's winner object)
 * @param {string[]} winFlags
 */
export async function draftFromRecorded(w, winFlags) {
  const hand = w.hand, melds = hand.melds || [], ind = w.indicators || {}, win = w.win || {};
  const [concealed, flowers, ...meldCodes] = await Promise.all([
    readTiles(hand.concealed), hand.flowers ? readTiles(hand.flowers) : [], ...melds.map((m) => readTiles(m.tiles))]);
  const d = newDraft();
  const handGroup = addGroup(d, concealed, "hand");
  d.winning = handGroup.tiles.slice().reverse().find((i) => d.tiles[i].code === hand.winning_tile) ?? null;
  melds.forEach((m, k) => {
    const g = addGroup(d, meldCodes[k], m.type === "concealed_kong" ? "concealed_kong" : "meld");
    g.from = m.from || null;
    g.added = m.type === "added_kong";
  });
  if (flowers.length) addGroup(d, flowers, "hand");
  if (ind.baida) addGroup(d, [ind.baida], "baida");
  if (ind.bloom && ind.bloom.length) addGroup(d, ind.bloom, "bloom");
  if (ind.fish && ind.fish.length) addGroup(d, ind.fish, "fish");
  d.winner = w.winner;
  d.by = win.by === "discard" ? win.from : "self";
  d.flags = Object.fromEntries(winFlags.map((f) => [f, !!win[f]]));
  return d;
}

/**
 * Whose discard a claimed meld took: the seat chosen on the page, else the seat the ledger recorded
 * for it this hand (a claim or kong, win-claims.js), else a chow's from the player
 * before the winner, else the seat shown by the lying (rotated) tile: first or none → the player
 * before, last → the player after, middle → the player opposite.
 */
export function meldFrom(d, g, winner) {
  if (g.from && g.from !== winner) return g.from;
  const recorded = recordedFrom(d, g, winner, codesOf);
  if (recorded && recorded !== winner) return recorded;
  if (meldType(codesOf(d, g)) === "chow") return seatAfter(winner, 3);
  const live = liveTiles(d, g), k = live.findIndex((i) => d.tiles[i].rotated);
  if (k <= 0) return seatAfter(winner, 3);
  if (k === live.length - 1) return seatAfter(winner, 1);
  return seatAfter(winner, 2);
}

/** The draft's groups sorted into hand tiles, flowers, melds and indicator tiles. */
function sortGroups(d) {
  const hand = [], flowers = [], melds = [], ind = { baida: null, bloom: [], fish: [] };
  d.groups.forEach((g, n) => {
    if (g.role === "ignore") return;
    const codes = usableCodes(d, g, n);
    if (!codes.length) return;
    if (g.role === "hand") {
      for (const c of codes) (isFlower(c) ? flowers : hand).push(c);
    } else if (g.role === "meld" || g.role === "concealed_kong") {
      const shape = meldType(codes);
      if (!shape || (g.role === "concealed_kong" && shape !== "kong")) throw new Error(t("bad_meld", { n: n + 1 }));
      const type = g.role === "concealed_kong" ? "concealed_kong" : shape === "kong" && g.added ? "added_kong" : shape;
      const meld = { type, tiles: notation(codes) };
      if (type !== "concealed_kong") meld.from = meldFrom(d, g, d.winner);
      melds.push(meld);
    } else if (g.role === "baida") ind.baida = codes[0];
    else ind[g.role].push(...codes);
  });
  return { hand, flowers, melds, ind };
}

/**
 * The winner object of the score contract, or an Error saying what the table still has to do
 * (choose the winner, how it was won, add tiles, mark the winning tile, fix a group).
 */
export function buildWinner(d) {
  if (!d.winner) throw new Error(t("need_winner"));
  if (!d.by) throw new Error(t("need_how"));
  const { hand, flowers, melds, ind } = sortGroups(d);
  if (!hand.length) throw new Error(t("need_tiles"));
  const winning = d.winning !== null && d.tiles[d.winning] && !d.tiles[d.winning].removed ? d.tiles[d.winning].code : null;
  if (!winning || !hand.includes(winning)) throw new Error(t("need_winning"));
  const win = { by: d.by === "self" ? "self_draw" : "discard" };
  if (d.by !== "self") win.from = d.by;
  for (const [k, v] of Object.entries(d.flags)) if (v) win[k] = true;
  const out = { winner: d.winner, win, hand: { concealed: notation(hand), winning_tile: winning, melds } };
  if (flowers.length) out.hand.flowers = notation(flowers);
  const indicators = {};
  if (ind.baida) indicators.baida = ind.baida;
  if (ind.bloom.length) indicators.bloom = ind.bloom;
  if (ind.fish.length) indicators.fish = ind.fish;
  if (Object.keys(indicators).length) out.indicators = indicators;
  return out;
}
