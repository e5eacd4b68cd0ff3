// A write's answer carries what it changed in the ledger (the server's `changes`), not the whole
// ledger: merge it into the view the page holds, or fetch the table again when the page's ledger
// is not the one the write was applied to (another device recorded something in between).
import { api } from "./api.js";
import { store } from "./store.js";

/**
 * The ledger `ledger` with the write's `changes` applied: the entries from `entries_from` on and
 * the chart points after the start point's `entries_from` replaced, each log row put in place by
 * id (new ones appended), the state, claims, balances, undoable event and version taken as they are.
 * @param {object} ledger the ledger at version `changes.from_version`
 * @param {object} changes the write's `changes`
 */
export function mergeChanges(ledger, changes) {
  const log = [...ledger.log];
  for (const row of changes.log) {
    const at = log.findIndex((l) => l.id === row.id);
    if (at >= 0) log[at] = row;
    else log.push(row);
  }
  return {
    state: changes.state,
    claims: changes.claims,
    balances: changes.balances,
    entries: ledger.entries.slice(0, changes.entries_from).concat(changes.entries),
    log,
    timeline: ledger.timeline.slice(0, changes.entries_from + 1).concat(changes.timeline),
    version: changes.version,
    last_undoable: changes.last_undoable,
  };
}

/**
 * The table view after a write answered `answer`: merged when the page held the ledger the write
 * changed, fetched again otherwise.
 * @param {{changes: object}} answer
 */
export async function viewAfterWrite(answer) {
  const view = store.get("view"), changes = answer.changes;
  if (view && view.ledger.version === changes.from_version) {
    return { ...view, ledger: mergeChanges(view.ledger, changes) };
  }
  return api("GET", `/api/tables/${store.get("token")}`);
}
