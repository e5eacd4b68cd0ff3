// A rule set's house rules on the page (the creation form and the settings sheet alike): each
// option's input by the kind of its value, its name, description and values in players' words in
// the page's language (served by /api/variants, companion/house_rules.py), and reading a value back.
// An option served with a `table` (Nanning's payout table) is edited as one number per cell.
import { element } from "./dom.js";
import { localLabel, t } from "./i18n.js";
import { store } from "./store.js";

/** How an option's value is edited and read back: by the type of its documented default. */
export function optionKind(option) {
  if (option.table) return "table";
  if (typeof option.default === "boolean") return "bool";
  if (option.choices) return "choice";
  if (typeof option.default === "number") return "number";
  if (typeof option.default === "string") return "string";
  return "json";
}

/** A house rule's name in players' words, in the page's language (its option name when it has none). */
export function ruleName(option) {
  const zh = store.get("lang") === "zh";
  return (zh ? option.label_zh : option.label) || option.label || option.name.replace(/_/g, " ");
}

/** What a house rule means, in the page's language. */
export function ruleHelp(option) {
  const zh = store.get("lang") === "zh";
  return (zh ? option.help_zh : option.help) || option.help || option.description;
}

/** A table option's changed cells in words ("Seven pairs, Self-draw (each pays) 10"; none: "the guide's table"). */
function tableWords(table, value) {
  const zh = store.get("lang") === "zh";
  const cells = Object.entries(value || {}).flatMap(([row, cs]) => Object.entries(cs || {}).map(([c, n]) => {
    const r = table.rows.find((x) => x.name === row), cell = table.cells.find((x) => x.name === c);
    return `${r ? localLabel(r) : row}${zh ? "," : ", "}${cell ? localLabel(cell) : c} ${n}`;
  }));
  return cells.join(zh ? "、" : "; ") || t("payout_guide");
}

/** A value of a house rule in words ("Yes", "1 tai once", "每局 4 分", a payout table's changes), else as it is. */
export function valueWords(option, value) {
  if (option.table) return tableWords(option.table, value);
  const words = (option.choice_labels || []).find((c) => c.value === value);
  if (words) return store.get("lang") === "zh" ? words.label_zh : words.label;
  return typeof value === "object" ? (Object.keys(value || {}).length ? JSON.stringify(value) : "—") : String(value);
}

/**
 * A table option's editor: one number input per cell of each row, holding the value in force
 * (the guide's amount where `value` does not change it; empty where the row has no such cell).
 */
function tableInput(option, attrs, value) {
  const table = option.table, zh = store.get("lang") === "zh";
  const head = element("tr", {}, element("th", {}, ""), table.cells.map((c) => element("th", { scope: "col" }, localLabel(c))));
  const rows = table.rows.map((r) => element("tr", {}, element("th", { scope: "row" }, localLabel(r)),
    table.cells.map((c) => {
      const now = value?.[r.name]?.[c.name] ?? r.guide[c.name];
      return element("td", {}, element("input", {
        // the range is checked on reading (readTable), so the error names the cell in the page's language
        type: "number", inputmode: "numeric", placeholder: "—",
        value: now ?? "", "aria-label": `${localLabel(r)}${zh ? ":" : ": "}${localLabel(c)}`, dataset: { row: r.name, cell: c.name },
      }));
    })));
  return element("div", { class: "payout-table", role: "group", "aria-label": ruleName(option), ...attrs },
    element("table", {}, element("thead", {}, head), element("tbody", {}, rows)),
    element("p", { class: "hint" }, t("payout_hint", { max: table.maximum.toLocaleString() })));
}

/** An option's input (by its kind), holding `previous` when given, else the option's default. */
export function optionInput(option, kind, attrs, previous) {
  const has = previous !== undefined;
  let input;
  if (kind === "table") {
    input = tableInput(option, attrs, has ? previous : option.default);
  } else if (kind === "bool") {
    input = element("input", { type: "checkbox", ...attrs });
    input.checked = has ? previous : option.default;
  } else if (kind === "choice") {
    input = element("select", attrs, option.choices.map((c) => element("option", { value: JSON.stringify(c) }, valueWords(option, c))));
    input.value = has ? JSON.stringify(previous) : JSON.stringify(option.default);
  } else if (kind === "number") {
    input = element("input", { type: "number", step: Number.isInteger(option.default) ? 1 : "any", min: option.minimum, max: option.maximum, ...attrs });
    input.value = has ? previous : option.default;
  } else if (kind === "string") {
    input = element("input", attrs);
    input.value = has ? previous : option.default;
  } else {
    input = element("textarea", { rows: 2, ...attrs });
    input.value = JSON.stringify(has ? previous : option.default);
  }
  input.dataset.kind = kind;
  return input;
}

/**
 * A table option's value: each cell that differs from the guide's (a cell the guide lacks, when
 * filled); an empty cell is the guide's. Throws an Error naming the row and cell of a number out
 * of the option's range.
 */
function readTable(option, box) {
  const table = option.table, value = {};
  for (const el of box.querySelectorAll("input[data-row]")) {
    const input = /** @type {HTMLInputElement} */ (el), text = input.value.trim();
    const r = table.rows.find((x) => x.name === input.dataset.row), guide = r.guide[input.dataset.cell];
    if (text === "" && input.validity.valid) continue;
    const n = Number(text);
    if (text === "" || !Number.isInteger(n) || n < table.minimum || n > table.maximum) {
      throw new Error(t("payout_bad", { cell: input.getAttribute("aria-label"), min: table.minimum, max: table.maximum.toLocaleString() }));
    }
    if (n !== guide) (value[r.name] ||= {})[input.dataset.cell] = n;
  }
  return value;
}

/**
 * The value of an option's input (`el` carries data-opt and data-kind). Throws an Error saying
 * what to fix: a payout cell out of range, a number out of the option's range, JSON that does not parse.
 */
export function readOption(option, el) {
  const input = /** @type {HTMLInputElement} */ (el), kind = input.dataset.kind;
  if (kind === "table") return readTable(option, el);
  if (kind === "bool") return input.checked;
  if (kind === "string") return input.value;
  if (kind === "number") {
    const n = Number(input.value);
    if (input.value.trim() === "" || !input.validity.valid || Number.isNaN(n)) {
      throw new Error(t("option_range", { name: ruleName(option), min: option.minimum ?? "…", max: option.maximum ?? "…" }));
    }
    return n;
  }
  try {
    return JSON.parse(input.value);
  } catch {
    throw new Error(t("options_json_bad", { name: ruleName(option) }));
  }
}
