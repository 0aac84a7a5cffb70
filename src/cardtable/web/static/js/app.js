// The single-page app starts here: the language, the games and the account loaded,
// the top bar drawn, then the router (router.js) shows the page the address names.
import { accountName, loadAccount } from "./account.js";
import { h, listen, retranslateToast } from "./dom.js";
import { loadGames } from "./gamelist.js";
import { language, loadLanguage, preferredLanguage, t } from "./i18n.js";
import { redrawShown, startRouter } from "./router.js";

function nav() {
  const box = document.getElementById("topnav");
  box.classList.remove("open"); // a page opened from the menu closes it
  box.replaceChildren(
    h("a", { href: "#/" }, t("web.nav.home")),
    h("a", { href: "#/learn", id: "learn-link" }, t("lesson.ui.nav")),
    h("a", { href: "#/rules/skyjo" }, t("web.rules.skyjo_title")),
    h("a", { href: "#/rules/skipbo" }, t("web.rules.skipbo_title")),
    h("a", { href: "#/lobby", id: "lobby-link" }, t("web.nav.lobby")),
    h("a", { href: "#/leaderboard", id: "leaderboard-link" }, t("web.nav.leaderboard")),
    h("a", { href: "#/account", id: "account-link" }, accountName() || t("web.nav.account")));
  menuButton(box);
  document.getElementById("lang-label").textContent = t("web.nav.language");
  document.getElementById("lang").value = language();
}

// On a phone the top bar has room for "Home" only (style.css): the other pages (the
// lessons, the rules, the lobby...) are behind this button, which opens them as a list.
function menuButton(box) {
  let button = document.getElementById("nav-menu");
  if (!button) {
    button = h("button", { type: "button", class: "navmenu", id: "nav-menu", "aria-controls": "topnav" });
    listen(button, "click", () => {
      const open = box.classList.toggle("open");
      button.setAttribute("aria-expanded", String(open));
    });
    box.before(button);
  }
  button.textContent = t("web.nav.menu");
  button.setAttribute("aria-expanded", String(box.classList.contains("open")));
}

async function main() {
  await loadLanguage(preferredLanguage());
  const match = location.pathname.match(/^\/r\/([^/]+)(\/watch)?\/?$/);
  if (match && !location.hash) {
    history.replaceState(null, "", `/#/room/${match[1]}${match[2] ? "/watch" : ""}`);
  }
  document.getElementById("lang").addEventListener("change", async (e) => {
    await loadLanguage(e.target.value, true);
    nav();
    retranslateToast();
    redrawShown();
  });
  // A seat's claim failed (account.js): the page shown says so where it stands.
  window.addEventListener("cardtable:claim-trouble", () => redrawShown());
  await Promise.all([loadGames(), loadAccount()]);
  startRouter(document.getElementById("app"), () => {
    document.getElementById("net").textContent = "";
    nav();
  });
  document.body.dataset.ready = "1";
  installable();
}

// The service worker (/sw.js, scope "/"): the page can be installed on a phone's home
// screen, its versioned files load from the phone, and a table that cannot be reached
// shows the offline page, which returns here when it answers. Only over HTTPS or on
// localhost; without it the page works as before. Each visit asks for the worker again
// (a browser may put its own check off): a new deployment takes over at once.
function installable() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js", { scope: "/" })
    .then((registration) => registration.active && registration.update())
    .catch(() => {});
}

main();
