// Start-up and routing: "/" is home (create a table), "/t/<token>" a table, "/w/<token>" its
// watch link. Each screen module wires its own handlers once; the store shows the screen it is
// set to (before the screens re-render for it) and keeps the language.
import { byId, showScreen } from "./dom.js";
import { applyStaticText } from "./i18n.js";
import { openHome, wireHome } from "./home.js";
import { wireSheets } from "./sheets.js";
import { store } from "./store.js";
import { closeTable, openTable, wireTable } from "./table.js";
import { wirePhoto } from "./win-photo.js";
import { wireReview } from "./win-review.js";
import { wireWin } from "./win.js";

function route() {
  const match = location.pathname.match(/^\/(t|w)\/([A-Za-z0-9_-]+)$/);
  if (match) openTable(match[2]);
  else {
    closeTable();
    openHome();
  }
}

store.subscribe(["screen"], (state) => showScreen(state.screen));
store.subscribe(["lang"], (state) => {
  localStorage.setItem("mjc.lang", state.lang);
  applyStaticText();
});
wireSheets();
wireHome();
wireTable();
wireReview();
wirePhoto();
wireWin();
byId("lang-toggle").addEventListener("click", () => store.set({ lang: store.get("lang") === "zh" ? "en" : "zh" }));
window.addEventListener("popstate", route);
applyStaticText();
route();
