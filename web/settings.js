// The table's settings sheet: rename a player, swap two players' seats, change the house rules.
// Each change is one event (POST /api/tables/<token>/settings), undone like any other; a swap and
// a house-rule change take effect from the next hand (the server says which: `hand_no`). The
// house-rule controls are the rule set's options with their ranges, filled with the latest rules.
import { api, isStale, write } from "./api.js";
import { byId, element, onEvent, replaceChildren, showErrorIn, toast } from "./dom.js";
import { optionInput, optionKind, readOption, ruleHelp, ruleName, valueWords } from "./house-rules.js";
import { t } from "./i18n.js";
import { store } from "./store.js";

/**
 * Send one change, made on the ledger version on screen (a change refused as stale: the table is
 * fetched again and the error says another device wrote first); the table (names, rules) is
 * fetched again. Resolves to the recorded event.
 */
async function change(body) {
  const token = store.get("token");
  const base = store.get("view").ledger.version;
  let answer;
  try {
    answer = await write(`/api/tables/${token}/settings`, { ...body, base_version: base });
  } catch (e) {
    if (isStale(e)) store.set({ view: await api("GET", `/api/tables/${token}`) });
    throw e;
  }
  store.set({ view: await api("GET", `/api/tables/${token}`) });
  return answer.event;
}

const section = (title, ...content) => element("section", { class: "settings-part" }, element("h3", {}, title), ...content);
const errorLine = () => element("p", { class: "error", role: "alert", hidden: true });

/**
 * One row per player: their name, editable; "Save names" records the changed ones as one change
 * (checked on the names the table ends with, so two players may exchange names in one save).
 */
function namesPart(players) {
  const err = errorLine();
  const inputs = players.map((name, i) => element("input", { id: `set-name-${i}`, maxlength: 40, value: name, "aria-label": t("player_n", { n: i + 1 }) }));
  const save = element("button", { type: "button", class: "primary", id: "set-names" }, t("save_names"));
  save.addEventListener("click", async () => {
    showErrorIn(err, "");
    const wanted = inputs.map((input) => input.value.trim());
    if (wanted.some((n) => !n)) {
      showErrorIn(err, t("names_needed"));
      return;
    }
    save.disabled = true;
    try {
      const now = store.get("view").table.players;
      const given = wanted.map((name, player) => ({ player, name })).filter((r) => r.name !== now[r.player]);
      if (given.length === 1) await change({ rename: given[0] });
      else if (given.length) await change({ renames: given });
      toast(given.length ? t("names_saved") : t("nothing_changed"));
      settingsSheet();
    } catch (e) {
      showErrorIn(err, e.message);
      save.disabled = false;
    }
  });
  return section(t("set_names"), element("div", { class: "player-grid" }, inputs), save, err);
}

/** Two taps choose two players; "Swap seats" exchanges them from the next hand. */
function swapPart(players, handNo) {
  const err = errorLine(), chosen = [];
  const picker = element("div", { class: "seg", id: "swap-players" }, players.map((name, i) =>
    element("button", { type: "button", dataset: { player: i } }, name)));
  const go = element("button", { type: "button", class: "primary", id: "set-swap", disabled: true }, t("swap_seats"));
  onEvent(picker, "click", "button[data-player]", (b) => {
    const p = +b.dataset.player, at = chosen.indexOf(p);
    if (at >= 0) chosen.splice(at, 1);
    else chosen.push(p);
    if (chosen.length > 2) chosen.shift();
    picker.querySelectorAll("button").forEach((x) => x.classList.toggle("on", chosen.includes(+x.dataset.player)));
    go.disabled = chosen.length !== 2;
  });
  go.addEventListener("click", async () => {
    go.disabled = true;
    try {
      const ev = await change({ swap: { players: [...chosen] } });
      toast(t("swapped", { a: players[chosen[0]], b: players[chosen[1]], n: ev.data.hand_no }));
      settingsSheet();
    } catch (e) {
      showErrorIn(err, e.message);
      go.disabled = false;
    }
  });
  return section(t("set_seats"), element("p", { class: "hint" }, t("swap_hint", { n: handNo })), picker, go, err);
}

/**
 * The rule set's options, each with its name, description, default and range in players' words
 * (as on the creation form), filled with the latest rules.
 */
function rulesPart(table) {
  const err = errorLine(), latest = table.next_options || table.options, options = table.variant.options;
  const box = element("div", { id: "set-options" }, options.map((o) => {
    const input = optionInput(o, optionKind(o), { "data-opt": o.name, id: "set-opt-" + o.name }, latest[o.name]);
    const range = typeof o.minimum === "number" ? ` (${o.minimum}–${o.maximum ?? "…"})` : "";
    return element("div", { class: "option" },
      element("label", { for: "set-opt-" + o.name, class: "opt-name" }, ruleName(o)), input,
      element("p", { class: "opt-desc" }, element("span", { class: "default" }, t("default_is", { v: valueWords(o, o.default) }) + range), " ", ruleHelp(o)));
  }));
  const save = element("button", { type: "button", class: "primary", id: "set-rules" }, t("save_rules"));
  save.addEventListener("click", async () => {
    showErrorIn(err, "");
    const changed = {};
    for (const el of box.querySelectorAll("[data-opt]")) {
      const input = /** @type {HTMLElement} */ (el), name = input.dataset.opt;
      let value;
      try {
        value = readOption(options.find((o) => o.name === name), input);
      } catch (e) {
        showErrorIn(err, e.message);
        return;
      }
      if (JSON.stringify(value) !== JSON.stringify(latest[name])) changed[name] = value;
    }
    if (!Object.keys(changed).length) {
      showErrorIn(err, t("nothing_changed"));
      return;
    }
    save.disabled = true;
    try {
      const ev = await change({ options: changed });
      toast(t("rules_saved", { n: ev.data.hand_no }));
      settingsSheet();
    } catch (e) {
      showErrorIn(err, e.message);
      save.disabled = false;
    }
  });
  const waiting = table.next_options ? element("p", { class: "hint" }, t("rules_waiting")) : null;
  return section(t("house_rules"), element("p", { class: "hint" }, t("rules_hint")), waiting, box, save, err);
}

/** Open (or redraw) the settings sheet for the table on screen. */
export function settingsSheet() {
  const { table, ledger } = store.get("view");
  byId("sheet-title").textContent = t("act_settings");
  replaceChildren(byId("sheet-body"), element("div", { id: "settings" },
    namesPart(table.players), swapPart(table.players, ledger.state.hand_no), rulesPart(table)));
  byId("sheet").hidden = false;
}

/** A settings entry of the ledger in words: a rename, a swap or changed house rules. */
export function describeSettings(entry) {
  const players = store.get("view").table.players;
  if (entry.change === "rename") return t("ev_rename", { was: entry.was, name: entry.name });
  if (entry.change === "renames") return entry.renames.map((r) => t("ev_rename", { was: r.was, name: r.name })).join(t("list_sep"));
  if (entry.change === "swap") {
    return t("ev_swap", { a: players[entry.players[0]], b: players[entry.players[1]], n: entry.hand_no });
  }
  const options = store.get("view").table.variant.options;
  const items = Object.entries(entry.changed || {}).map(([k, [was, now]]) => {
    const o = options.find((x) => x.name === k) || { name: k };
    return `${ruleName(o)} ${valueWords(o, was)} → ${valueWords(o, now)}`;
  });
  return t("ev_rules", { n: entry.hand_no, list: items.join(t("list_sep")) });
}

/** Which house rules a hand was played under: a label naming the change, or null for the table's own. */
export function rulesLabel(entry, entries) {
  const marker = entry.state && entry.state.rules;
  if (marker === null || marker === undefined) return null;
  const set = entries.find((e) => e.id === marker);
  return t("rules_of", { n: set ? set.hand_no : "?" });
}
