// When the live camera captures by itself: the rule, as pure functions (no DOM), so that it can
// be tested on its own. A reading is steady when the last `frames` readings found the same tiles
// (the same multiset of tile codes, at least `minTiles` of them, backs not counted) and the picture
// barely moved between them: the mean brightness change of a small grey copy of the frame from one
// reading to the next is at most `maxMotion` (0 still, 1 black to white).

/** The rule's defaults: three readings in a row, at least eight tiles, under 4 % motion. */
export const STEADY = Object.freeze({ frames: 3, minTiles: 8, maxMotion: 0.04 });

/**
 * The tiles a reading found, as one comparable key: their codes sorted (backs left out).
 * @param {{tiles?: {code: string}[]}} reading
 * @returns {{key: string, count: number}}
 */
export function readingKey(reading) {
  const codes = (reading.tiles || []).map((x) => x.code).filter((c) => c && c !== "back").sort();
  return { key: codes.join(" "), count: codes.length };
}

/**
 * How much the picture changed between two grey copies of a frame (equal lengths, values 0..1):
 * their mean absolute difference; 1 (everything moved) when there is no earlier copy.
 * @param {ArrayLike<number> | null} before
 * @param {ArrayLike<number>} after
 */
export function frameMotion(before, after) {
  if (!before || before.length !== after.length || after.length === 0) return 1;
  let sum = 0;
  for (let i = 0; i < after.length; i++) sum += Math.abs(after[i] - before[i]);
  return sum / after.length;
}

/**
 * Whether the camera should capture now. `history` holds one entry per reading, oldest first:
 * the reading's key and tile count (readingKey) and the motion from the frame before it.
 * @param {{key: string, count: number, motion: number}[]} history
 * @param {{frames: number, minTiles: number, maxMotion: number}} [rule]
 */
export function isSteady(history, rule = STEADY) {
  if (history.length < rule.frames) return false;
  const last = history.slice(-rule.frames);
  const first = last[0];
  if (first.count < rule.minTiles) return false;
  if (!last.every((h) => h.key === first.key)) return false;
  return last.slice(1).every((h) => h.motion <= rule.maxMotion);
}
