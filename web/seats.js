// Seats: the four winds (East deals), each player's colour, who sits where, a seat picker.
import { element, onEvent } from "./dom.js";
import { windShort } from "./i18n.js";
import { store } from "./store.js";

/** The seat winds in play order. */
export const SEATS = ["E", "S", "W", "N"];

/** Each player's colour, by player index (seat cards, chart lines). */
export const PLAYER_COLORS = ["#d9480f", "#1c7ed6", "#2b8a3e", "#9c36b5"];

/** The name of the player at `wind` in a hand's `state` (its `seats` map wind → player index). */
export function playerAt(state, wind) {
  return store.get("view").table.players[state.seats[wind]];
}

/** The seat `steps` places after `wind` in play order (1: the next player, 3: the previous one). */
export function seatAfter(wind, steps) {
  return SEATS[(SEATS.indexOf(wind) + steps) % 4];
}

/**
 * A row of seat buttons (wind and player), data-name = `name`, each with data-seat; `value` is
 * shown selected, seats in `exclude` are left out.
 */
export function seatPicker(name, state, { exclude = [], value = null } = {}) {
  return element("div", { class: "seg", dataset: { name } },
    SEATS.filter((w) => !exclude.includes(w)).map((w) =>
      element("button", { type: "button", class: value === w ? "on" : "", dataset: { seat: w } },
        element("b", {}, windShort(w)), " ", playerAt(state, w))));
}

/** Wire a seat picker: a tap selects the seat (and only it) and calls `onPick(wind)`. */
export function wireSeatPicker(picker, onPick) {
  onEvent(picker, "click", "button[data-seat]", (button) => {
    picker.querySelectorAll("button").forEach((b) => b.classList.remove("on"));
    button.classList.add("on");
    onPick(button.dataset.seat);
  });
  return picker;
}
