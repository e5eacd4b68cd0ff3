// The page's state as a small event-emitting store. Modules read it with get(), change it with
// set({key: value, ...}) and react with subscribe([keys], listener): every set() calls, in the
// order they subscribed, the listeners of the keys it names (a key set again counts as changed).
//
// Keys: lang ("en" | "zh"), variants (GET /api/variants), token (the open table's link token),
// view (GET /api/tables/<token>), readOnly (a watch link), screen ("home" | "table" | "win" |
// "error"), win (the win being recorded: a working object owned by the win screens).

/**
 * @param {Record<string, unknown>} initial
 */
export function createStore(initial) {
  const state = { ...initial };
  /** @type {{keys: string[], listener: (state: object) => void}[]} */
  const subscribers = [];
  return {
    /** @param {string} key */
    get(key) {
      return state[key];
    },
    /** @param {Record<string, unknown>} patch */
    set(patch) {
      Object.assign(state, patch);
      const changed = Object.keys(patch);
      for (const { keys, listener } of [...subscribers]) {
        if (keys.some((k) => changed.includes(k))) listener(state);
      }
    },
    /**
     * @param {string[]} keys
     * @param {(state: object) => void} listener
     * @returns {() => void} unsubscribe
     */
    subscribe(keys, listener) {
      const entry = { keys, listener };
      subscribers.push(entry);
      return () => subscribers.splice(subscribers.indexOf(entry), 1);
    },
  };
}

function initialLang() {
  const saved = localStorage.getItem("mjc.lang");
  if (saved) return saved;
  return (navigator.language || "").toLowerCase().startsWith("zh") ? "zh" : "en";
}

export const store = createStore({
  lang: initialLang(),
  variants: [],
  token: null,
  view: null,
  readOnly: false,
  screen: null,
  win: null,
});
