// Tiles on the page: the catalogue of codes, a tile's face, and the shape of a group of tiles.
// Codes are the engine's: 1-9 m (characters) p (dots) s (bamboo), 1-7 z (E S W N White Green
// Red), 1-8 f (flowers); "back" is a face-down tile, anything else an unread one.
import { element } from "./dom.js";
import { currentLang } from "./i18n.js";

const HONOUR = { en: ["E", "S", "W", "N", "Wh", "G", "R"], zh: ["东", "南", "西", "北", "白", "发", "中"] };
const FLOWER = { en: ["Pl", "Or", "Ch", "Bm", "Sp", "Su", "Au", "Wi"], zh: ["梅", "兰", "菊", "竹", "春", "夏", "秋", "冬"] };
const SUIT_MARK = { en: { m: "char", p: "dot", s: "bam" }, zh: { m: "万", p: "筒", s: "条" } };
const ranks = (n) => Array.from({ length: n }, (_, i) => i + 1);

/** The suits in picker order. */
export const SUITS = ["m", "p", "s", "z", "f"];

/** Every tile code, suit by suit: 1m…9m, 1p…9p, 1s…9s, 1z…7z, 1f…8f. */
export const ALL_CODES = ["m", "p", "s"]
  .flatMap((suit) => ranks(9).map((r) => r + suit))
  .concat(ranks(7).map((r) => r + "z"), ranks(8).map((r) => r + "f"));

/** Whether `code` names a tile (not "back", not an unread "?"). */
export function isTileCode(code) {
  return /^[1-9][mpszf]$/.test(code || "");
}

/** Whether `code` is a flower. */
export function isFlower(code) {
  return code[1] === "f";
}

/**
 * A tile's face: the rank or honour in large type, the suit below; a face-down tile shows ▒ and
 * an unread one "?". `extraClass` adds classes (winning, edited, small, large).
 */
export function tileFace(code, extraClass) {
  const extra = extraClass || "";
  if (!isTileCode(code)) {
    return element("span", { class: `tile unknown ${extra}`, title: code, dataset: { code } },
      element("b", {}, code === "back" ? "▒" : "?"));
  }
  const lang = currentLang(), rank = +code[0], suit = code[1];
  let big, small = "";
  if (suit === "z") big = HONOUR[lang][rank - 1];
  else if (suit === "f") {
    big = FLOWER[lang][rank - 1];
    small = String(rank);
  } else {
    big = String(rank);
    small = SUIT_MARK[lang][suit];
  }
  const colour = suit !== "z" ? "" : rank <= 4 ? " wind" : rank === 5 ? " white" : rank === 6 ? " green" : " red";
  return element("span", { class: `tile s-${suit}${colour} ${extra}`, title: code, dataset: { code } },
    element("b", {}, big), small ? element("i", {}, small) : null);
}

/**
 * What three or four tiles form: "chow" (three in a row of one suit), "pung" (three alike),
 * "kong" (four alike), or null (anything else, flowers included).
 * @param {string[]} codes
 */
export function meldType(codes) {
  if (codes.length < 3 || codes.length > 4 || codes.some(isFlower)) return null;
  const sorted = [...codes].sort((a, b) => (a[1] + a[0]).localeCompare(b[1] + b[0]));
  if (sorted.every((c) => c === sorted[0])) return codes.length === 4 ? "kong" : "pung";
  const run = codes.length === 3 && "mps".includes(sorted[0][1]) && sorted.every((c) => c[1] === sorted[0][1])
    && +sorted[1][0] === +sorted[0][0] + 1 && +sorted[2][0] === +sorted[0][0] + 2;
  return run ? "chow" : null;
}

/** The codes as one notation string for the server ("1m2m3m": the engine reads it). */
export function notation(codes) {
  return codes.join("");
}
