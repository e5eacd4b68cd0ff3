// The melds recorded during the hand being scored (its claims and kongs in the ledger), to prefill
// whose discard each claimed meld took, and the server's warnings when the melds entered disagree
// with them (POST …/hands/score answers `warnings`, companion/melds.py).
import { element } from "./dom.js";
import { t, windShort } from "./i18n.js";
import { playerAt } from "./seats.js";
import { store } from "./store.js";
import { meldType } from "./tiles.js";

/**
 * The melds recorded in hand `handNo` (effective ledger entries, in order): {claimer, meld, from}
 * with meld "pung", "kong" or "concealed_kong"; an added kong makes one of the declarer's pungs a kong.
 * @param {object[]} entries
 * @param {number} handNo
 */
export function recordedMelds(entries, handNo) {
  const out = [];
  for (const e of entries) {
    if ((e.kind !== "claim" && e.kind !== "kong") || e.hand_no !== handNo) continue;
    if (e.kind === "claim") out.push({ claimer: e.claimer, meld: e.meld, from: e.from });
    else if (e.type === "added_kong") {
      const pung = out.find((m) => m.claimer === e.declarer && m.meld === "pung");
      if (pung) pung.meld = "kong";
      else out.push({ claimer: e.declarer, meld: "kong", from: e.from || null });
    } else out.push({ claimer: e.declarer, meld: e.type === "kong" ? "kong" : "concealed_kong", from: e.from || null });
  }
  return out;
}

/** The melds recorded in the hand being scored (none when no win is on screen). */
function recordedNow() {
  const win = store.get("win"), view = store.get("view");
  return win && view ? recordedMelds(view.ledger.entries, win.handNo) : [];
}

/**
 * Whose discard the claimed meld group `g` took by the ledger: the winner's recorded melds of its
 * kind (pung or kong) go, in order, to the draft's meld groups of that kind whose source the table
 * did not choose (after those it chose took theirs); null when none is left for `g`.
 * @param {object} d the draft
 * @param {object} g a group with role "meld"
 * @param {string} winner
 * @param {(d: object, g: object) => string[]} codesOf the group's tile codes
 */
export function recordedFrom(d, g, winner, codesOf) {
  const kind = meldType(codesOf(d, g));
  if (kind !== "pung" && kind !== "kong") return null;
  const pool = recordedNow().filter((m) => m.claimer === winner && m.meld === kind && m.from).map((m) => m.from);
  const same = d.groups.filter((x) => x.role === "meld" && meldType(codesOf(d, x)) === kind);
  const chosen = (x) => x.from && x.from !== winner;
  for (const x of same.filter(chosen)) {
    const at = pool.indexOf(x.from);
    if (at >= 0) pool.splice(at, 1);
  }
  const at = same.filter((x) => !chosen(x)).indexOf(g);
  return at >= 0 && at < pool.length ? pool[at] : null;
}

/** Tiles in notation as the table reads them: "1z1z1z" → "111z" (text that is not notation stays). */
function compact(tiles) {
  const groups = String(tiles || "").match(/\d+[mpszf]/g);
  if (!groups || groups.join("") !== tiles) return tiles || "";
  const codes = groups.flatMap((g) => [...g.slice(0, -1)].map((n) => n + g.slice(-1)));
  let out = "";
  codes.forEach((c, i) => {
    out += c[0];
    if (i === codes.length - 1 || codes[i + 1][1] !== c[1]) out += c[1];
  });
  return out;
}

/** The scoring answer's meld warnings, each naming the meld and the recorded source (null when none). */
export function meldWarnings(warnings, state) {
  if (!warnings || !warnings.length) return null;
  const seat = (w) => (w ? `${windShort(w)} ${playerAt(state, w)}` : "—");
  return element("div", { class: "meld-warnings", id: "meld-warnings", role: "alert" },
    element("h4", {}, t("meld_check")),
    warnings.map((w) => element("p", { class: "warn-line" }, w.meld
      ? t("meld_disagrees", { who: seat(w.winner), tiles: compact(w.meld.tiles), from: seat(w.meld.from), meld: t(w.recorded.meld), rec: seat(w.recorded.from) })
      : t("meld_not_entered", { who: seat(w.winner), meld: t(w.recorded.meld), rec: seat(w.recorded.from) }))));
}
