// Home: create a table (name, rule set, players and first dealer, starting points, the rule
// set's documented house rules) and the tables this device has opened.
import { api } from "./api.js";
import { byId, element, replaceChildren, showError } from "./dom.js";
import { optionInput, optionKind, readOption, ruleHelp, ruleName, valueWords } from "./house-rules.js";
import { localTime, t } from "./i18n.js";
import { recentTables, rememberTable } from "./recent.js";
import { store } from "./store.js";
import { openTable } from "./table.js";

let optionsFolded = false;

/** Show the home screen, loading the rule sets the first time. */
export async function openHome() {
  store.set({ screen: "home" });
  if (!store.get("variants").length) {
    try {
      store.set({ variants: (await api("GET", "/api/variants")).variants });
    } catch (e) {
      showError("create-error", e.message);
    }
  }
  renderHome();
}

function renderHome() {
  // on a phone the house rules start folded (once: the table may unfold them)
  if (window.innerWidth < 760 && !optionsFolded) /** @type {HTMLDetailsElement} */ (byId("f-options-box")).open = false;
  optionsFolded = true;
  const variants = store.get("variants"), zh = store.get("lang") === "zh";
  const select = /** @type {HTMLSelectElement} */ (byId("f-variant")), previous = select.value;
  select.replaceChildren(...variants.map((v) =>
    element("option", { value: v.name }, zh ? `${v.title_zh} (${v.title})` : `${v.title} (${v.title_zh})`)));
  if (previous) select.value = previous;
  if (!variants.length) showError("create-error", t("no_variants"));
  renderPlayers();
  renderOptions();
  const recent = recentTables();
  byId("recent-box").hidden = !recent.length;
  replaceChildren(byId("recent"), ...recent.slice(0, 8).map((r) => element("li", {},
    element("a", { href: `/t/${r.token}` }, r.name || ruleSetTitle(r.variant)), " ",
    element("span", { class: "muted" }, r.players.join(" · "), " · ", localTime(r.created, true)))));
}

/** A rule set's title in the page's language ("Ningbo", "宁波麻将"), else its name. */
function ruleSetTitle(name) {
  const v = store.get("variants").find((x) => x.name === name);
  if (!v) return name;
  return store.get("lang") === "zh" ? v.title_zh || v.title : v.title;
}

function renderPlayers() {
  const box = byId("f-players");
  if (!box.children.length) {
    for (let i = 0; i < 4; i++) {
      box.append(element("div", { class: "player-row" },
        element("input", { id: `f-player-${i}`, maxlength: 40, required: true, "aria-label": `seat ${i + 1}` }),
        element("label", { class: "radio" },
          element("input", { type: "radio", name: "dealer", value: i, checked: i === 0 }),
          element("span", { class: "deals-first" }))));
    }
  }
  box.querySelectorAll(".player-row").forEach((row, i) => {
    /** @type {HTMLInputElement} */ (row.querySelector("input")).placeholder = t("player_n", { n: i + 1 });
    row.querySelector(".deals-first").textContent = t("deals_first");
  });
}

/** The chosen rule set's options, each with its default and description; values typed for a
 * rule set survive re-rendering (a language switch, switching rule sets back and forth). */
function renderOptions() {
  const variant = store.get("variants").find((v) => v.name === /** @type {HTMLSelectElement} */ (byId("f-variant")).value);
  const box = byId("f-options");
  const previous = {};
  box.querySelectorAll("[data-opt]").forEach((el) => {
    const input = /** @type {HTMLElement} */ (el), of = store.get("variants").find((v) => v.name === input.dataset.variant);
    const option = of && of.options.find((o) => o.name === input.dataset.opt);
    try {
      if (option) previous[input.dataset.opt + "|" + input.dataset.variant] = readOption(option, input);
    } catch {
      // a value that does not read back (a number out of range) starts again from the default
    }
  });
  replaceChildren(box);
  if (!variant) return;
  for (const o of variant.options) {
    const attrs = { "data-opt": o.name, "data-variant": variant.name, id: "opt-" + o.name };
    const input = optionInput(o, optionKind(o), attrs, previous[o.name + "|" + variant.name]);
    box.append(element("div", { class: "option" },
      element("label", { for: "opt-" + o.name, class: "opt-name" }, ruleName(o)), input,
      element("p", { class: "opt-desc" },
        element("span", { class: "default" }, t("default_is", { v: valueWords(o, o.default) })), " ", ruleHelp(o))));
  }
}

/** The options as entered, or null (with the error shown) when one does not read (what to fix). */
function readOptions(variant) {
  const options = {};
  for (const el of byId("f-options").querySelectorAll("[data-opt]")) {
    const input = /** @type {HTMLElement} */ (el);
    try {
      options[input.dataset.opt] = readOption(variant.options.find((o) => o.name === input.dataset.opt), input);
    } catch (e) {
      showError("create-error", e.message);
      return null;
    }
  }
  return options;
}

async function createTable() {
  showError("create-error", "");
  const players = [0, 1, 2, 3].map((i) => /** @type {HTMLInputElement} */ (byId(`f-player-${i}`)).value.trim());
  if (players.some((p) => !p)) {
    showError("create-error", t("names_needed"));
    return;
  }
  const variant = store.get("variants").find((v) => v.name === /** @type {HTMLSelectElement} */ (byId("f-variant")).value);
  const options = variant ? readOptions(variant) : {};
  if (!options) return;
  const dealer = /** @type {HTMLInputElement | null} */ (document.querySelector("input[name=dealer]:checked"));
  const body = {
    name: /** @type {HTMLInputElement} */ (byId("f-name")).value.trim(),
    variant: /** @type {HTMLSelectElement} */ (byId("f-variant")).value,
    options,
    players,
    first_dealer: +(dealer ? dealer.value : 0),
    start_points: Math.max(0, parseInt(/** @type {HTMLInputElement} */ (byId("f-start")).value || "0", 10) || 0),
  };
  const button = /** @type {HTMLButtonElement} */ (byId("create-btn"));
  button.disabled = true;
  try {
    const view = await api("POST", "/api/tables", body);
    const token = view.table.token;
    rememberTable({ token, name: body.name, variant: body.variant, players, created: new Date().toISOString() });
    history.pushState({}, "", `/t/${token}`);
    openTable(token, view);
  } catch (e) {
    showError("create-error", e.message);
  } finally {
    button.disabled = false;
  }
}

/** Wire the home screen (once, at start-up). */
export function wireHome() {
  byId("f-variant").addEventListener("change", renderOptions);
  byId("create-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    createTable();
  });
  store.subscribe(["lang"], (state) => {
    if (state.screen === "home") renderHome();
  });
}
