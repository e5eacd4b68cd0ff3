// The tables opened on this device (home's "Tables on this device"), kept in localStorage:
// remembered when created, their players' names refreshed each time the table is opened or its
// view changes (a rename on any device shows on the home page too).
const RECENT_KEY = "mjc.tables";

/** The tables created on this device, newest first ({token, name, variant, players, created}). */
export function recentTables() {
  try {
    const list = JSON.parse(localStorage.getItem(RECENT_KEY) || "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

function keep(list) {
  try {
    localStorage.setItem(RECENT_KEY, JSON.stringify(list.slice(0, 20)));
  } catch {
    // storage full or off: the list just is not kept
  }
}

/** Remember a table just created (first in the list). */
export function rememberTable(entry) {
  keep([entry, ...recentTables().filter((r) => r.token !== entry.token)]);
}

/**
 * The table `table` (a view's, opened with its control link) was seen with these players: its
 * entry in the list, if any, takes their current names. A watch link (no token) changes nothing.
 */
export function refreshRecent(table) {
  if (!table || !table.token) return;
  const list = recentTables(), entry = list.find((r) => r.token === table.token);
  if (!entry || JSON.stringify(entry.players) === JSON.stringify(table.players)) return;
  entry.players = [...table.players];
  keep(list);
}
