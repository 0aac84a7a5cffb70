// The single-page app: hash routes for home, room (lobby and table), replay, rules,
// account, public lobby, leaderboards and players' profiles.
import { accountName, loadAccount, renderAccount } from "./account.js";
import { api, playerName, rememberName, rememberSeat } from "./api.js";
import { h, listen, patch, retranslateToast, toast, unpressed } from "./dom.js";
import { formatNames, has, language, loadLanguage, missingKeys, preferredLanguage, t } from "./i18n.js";
import { icon } from "./icons.js";
import { fitBoard } from "./layout.js";
import { openLesson, renderLearnList } from "./learn.js";
import { renderLeaderboard } from "./leaderboard.js";
import { optionFields } from "./options.js";
import { renderProfile } from "./profile.js";
import { renderPublicLobby } from "./publiclobby.js";
import { errorText, openRoom, seatName } from "./room.js";
import * as skipbo from "./skipbo.js";
import * as skyjo from "./skyjo.js";
import { describe, lineText } from "./words.js";

const GAMES = { skipbo, skyjo };
const app = document.getElementById("app");
window.cardtable = { bots: {}, conn: null, missing: missingKeys, games: null, limits: { name: 24 }, t,
  js: new URL("./", import.meta.url).href }; // where the modules are (versioned): tests import them from there
// A room code's length (the server's cardtable.server.tokens.CODE_LENGTH).
const ROOM_CODE_LENGTH = 6;
let current = null; // the open room, if any
let gamesInfo = null;

async function games() {
  if (!gamesInfo) {
    const res = await api("/api/web/games");
    gamesInfo = res.ok ? res.data.games : [];
    for (const g of gamesInfo) window.cardtable.bots[g.game] = g.bots;
    window.cardtable.games = gamesInfo;
    if (res.ok && res.data.limits) window.cardtable.limits = res.data.limits;
  }
  return gamesInfo;
}

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

// --- home ---------------------------------------------------------------------------
const homeState = { game: localStorage.getItem("cardtable.game") || "skyjo", values: {}, seats: {}, code: "", public: false, coach: false };

async function renderHome() {
  const list = await games();
  const info = list.find((g) => g.game === homeState.game) || list[0];
  const game = info.game;
  if (!homeState.values[game]) homeState.values[game] = Object.fromEntries(info.options.map((o) => [o.name, o.default]));
  if (!homeState.seats[game]) homeState.seats[game] = [];
  const values = homeState.values[game];
  const players = playerCount(info);
  const seatKinds = homeState.seats[game];
  const nameInput = h("input", { id: "your-name", required: true, maxlength: window.cardtable.limits.name, value: playerName(), autocomplete: "nickname", oninput: (e) => rememberName(e.target.value) });
  const seatList = h("ol", { class: "seats" }, h("li", { class: "seat me" }, h("span", { class: "seatname" }, t("web.home.seat_you"))));
  for (let seat = 1; seat < players; seat++) {
    const chosen = seatKinds[seat] || info.default_bot;
    const select = h("select", { id: `seat-${seat}`, "aria-label": t("web.lobby.seat_kind", { n: seat + 1 }) },
      h("option", { value: "human", selected: chosen === "human" }, t("web.home.human")),
      info.bots.map((bot) => h("option", { value: bot, selected: chosen === bot }, t(`web.bot.${bot}`))));
    // A person in a seat or none: whether the coach may be chosen (redrawn).
    listen(select, "change", (e) => { seatKinds[seat] = e.currentTarget.value; unpressed(renderHome); });
    seatList.append(h("li", { class: "seat" }, h("span", { class: "seatname" }, t("web.seat.n", { n: seat + 1 })), select));
  }
  const picker = h("div", { class: "gamepick", role: "radiogroup", "aria-label": t("web.home.pick_game") },
    list.map((g) => h("label", { class: `gamecard ${g.game}${g.game === game ? " chosen" : ""}` },
      h("input", { type: "radio", name: "game", value: g.game, checked: g.game === game,
        onchange: () => { homeState.game = g.game; localStorage.setItem("cardtable.game", g.game); renderHome(); } }),
      h("strong", {}, g.title),
      h("span", { class: "muted" }, t(`web.home.about_${g.game}`)))));
  const form = h("form", { class: "panel create", id: "create-form", onsubmit: (e) => { e.preventDefault(); create(info, e.currentTarget.elements["your-name"].value); } },
    h("h2", {}, t("web.home.create")),
    picker,
    h("label", { for: "your-name", class: "num" }, h("span", {}, t("web.home.your_name")), nameInput),
    h("fieldset", {}, h("legend", {}, t("web.home.options")), optionFields(info, values, {
      onValue: (option, value) => { values[option] = value; if (option === "players") unpressed(renderHome); },
    })),
    h("fieldset", {}, h("legend", {}, t("web.home.seats")), seatList),
    h("p", {}, h("label", { class: "check", for: "create-public" },
      h("input", { type: "checkbox", id: "create-public", checked: homeState.public, onchange: (e) => { homeState.public = e.currentTarget.checked; } }),
      " ", t("web.tableopt.public"))),
    coachChoice(info, players),
    h("p", {}, h("button", { type: "submit", class: "primary big", id: "create" }, t("web.home.create_button"))));
  const codeInput = h("input", { id: "join-code", maxlength: ROOM_CODE_LENGTH, value: homeState.code, oninput: (e) => { homeState.code = e.currentTarget.value; }, autocomplete: "off", autocapitalize: "characters", "aria-label": t("web.home.code") });
  const joinForm = h("form", { class: "panel joinbox", onsubmit: (e) => {
    e.preventDefault();
    const code = e.currentTarget.elements["join-code"].value.trim().toUpperCase();
    if (code) location.hash = `#/room/${encodeURIComponent(code)}`;
  } },
  h("h2", {}, t("web.home.join")),
  h("p", { class: "muted" }, t("web.home.join_help")),
  h("div", { class: "sharerow" }, codeInput, h("button", { type: "submit", id: "join-go" }, t("web.home.join_button"))));
  // Patched when the home page is already shown (a change of the player count redraws
  // it): the button being clicked as a field loses the focus stays, so the click lands.
  const fresh = h("div", { class: "home" },
    h("section", { class: "hero" }, h("h1", {}, t("web.home.title")), h("p", {}, t("web.home.tagline"))),
    form,
    h("div", { class: "homeside" }, joinForm,
      h("section", { class: "panel learnbox" }, h("h2", {}, t("lesson.ui.title")), h("p", { class: "muted" }, t("lesson.ui.intro")),
        h("p", {}, h("a", { href: "#/learn/skyjo", class: "button" }, t("lesson.ui.lesson_skyjo")), " ",
          h("a", { href: "#/learn/skipbo", class: "button" }, t("lesson.ui.lesson_skipbo")))),
      h("section", { class: "panel" }, h("h2", {}, t("web.nav.rules")),
        h("p", {}, h("a", { href: "#/rules/skyjo" }, t("web.rules.skyjo_title"))),
        h("p", {}, h("a", { href: "#/rules/skipbo" }, t("web.rules.skipbo_title"))))));
  if (document.body.dataset.page === "home" && app.firstElementChild && app.firstElementChild.classList.contains("home")) patch(app, fresh);
  else app.replaceChildren(fresh);
  document.body.dataset.page = "home";
}

// The practice coach (docs/protocol.md, "The practice coach"): for one person against
// bots, so it is offered only while every other seat is a bot.
function coachChoice(info, players) {
  const allowed = againstBots(info, players);
  return h("p", {}, h("label", { class: "check", for: "create-coach" },
    h("input", {
      type: "checkbox", id: "create-coach", checked: allowed && homeState.coach, disabled: !allowed,
      "aria-describedby": allowed ? null : "create-coach-hint",
      onchange: (e) => { homeState.coach = e.currentTarget.checked; },
    }),
    " ", t("web.tableopt.coach")),
  allowed ? null : h("span", { class: "muted small", id: "create-coach-hint" }, " ", t("web.home.coach_bots_only")));
}

function againstBots(info, players) {
  for (let seat = 1; seat < players; seat++) {
    if ((homeState.seats[info.game][seat] || info.default_bot) === "human") return false;
  }
  return true;
}

// The player count chosen, within the game's range.
function playerCount(info) {
  const chosen = Number(homeState.values[info.game].players) || 2;
  return Math.max(2, Math.min(chosen, info.options.find((o) => o.name === "players").max));
}

// Read from the home page's state, not from the form as last drawn: a change of the
// player count made by this very click is drawn only after it.
async function create(info, rawName) {
  const players = playerCount(info);
  const name = rawName.trim();
  if (!name) { toast(() => t("web.error.bad_name")); return; }
  rememberName(name);
  const options = {};
  for (const o of info.options) {
    const value = homeState.values[info.game][o.name];
    if (value !== o.default) options[o.name] = value;
  }
  options.players = players;
  const seats = [{ kind: "human" }];
  for (let seat = 1; seat < players; seat++) {
    const kind = homeState.seats[info.game][seat] || info.default_bot;
    seats.push(kind === "human" ? { kind: "human" } : { kind: "bot", bot: kind });
  }
  const body = { game: info.game, options, seats, name };
  if (homeState.public) body.table = { public: true };
  if (homeState.coach && againstBots(info, players)) body.table = { ...body.table, coach: true };
  const res = await api("/api/rooms", { method: "POST", body });
  if (!res.ok) { toast(() => errorText(res.data)); return; }
  rememberSeat(res.data.code, { seat: res.data.seat, token: res.data.token, host_token: res.data.host_token, name });
  location.hash = `#/room/${res.data.code}`;
}

// --- rules --------------------------------------------------------------------------
function renderRules(game) {
  if (!GAMES[game]) { location.hash = "#/"; return; }
  const article = h("article", { class: "panel rules", lang: language() }, h("h1", {}, t(`web.rules.${game}_title`)));
  for (let i = 1; has(`web.rules.${game}.${i}.title`); i++) {
    article.append(h("h2", {}, t(`web.rules.${game}.${i}.title`)));
    for (const para of t(`web.rules.${game}.${i}.text`).split("\n")) article.append(h("p", {}, para));
  }
  article.append(h("p", { class: "muted" }, t("web.rules.note")));
  app.replaceChildren(article);
  document.body.dataset.page = "rules";
}

// --- replay -------------------------------------------------------------------------
async function renderReplay(code, number) {
  app.replaceChildren(h("p", { class: "loading" }, t("web.room.connecting")));
  const res = await api(`/api/rooms/${code}/games/${number}`);
  if (!res.ok) {
    app.replaceChildren(h("section", { class: "panel" }, h("h1", {}, t("web.replay.title")), h("p", {}, errorText(res.data)),
      h("a", { href: "#/", class: "button" }, t("web.nav.home"))));
    return;
  }
  const log = res.data;
  const game = GAMES[log.game];
  const room = { seats: log.seats };
  const name = (seat) => seatName(room, seat, null);
  const total = log.moves.length;
  const cache = new Map();
  let step = total;
  let timer = null;
  const stage = h("div", { class: "replaystage" });
  const caption = h("p", { class: "caption", "aria-live": "polite" });
  const range = h("input", { type: "range", min: 0, max: total, value: step, "aria-label": t("web.replay.step_label"), id: "replay-range" });
  const counter = h("span", { class: "counter", id: "replay-counter" });
  async function show(k) {
    step = Math.max(0, Math.min(total, k));
    range.value = String(step);
    counter.textContent = t("web.replay.step", { step, total });
    if (!cache.has(step)) {
      const r = await api(`/api/rooms/${code}/games/${number}/steps/${step}`);
      if (!r.ok) return;
      cache.set(step, r.data.view);
    }
    if (Number(range.value) !== step) return;
    const view = cache.get(step);
    stage.replaceChildren(game.render(view, { me: null, name, presence: () => null, interactive: false }));
    const move = step > 0 ? log.moves[step - 1] : null;
    caption.replaceChildren(...(move
      ? describe(log.game, move.outcome).map((l) => h("span", { class: "line" }, lineText(l, name)))
      : [t("web.replay.deal"), ...game.openingLines(view).map((l) => h("span", { class: "line" }, " ", lineText(l, name)))]));
    // The Skip-Bo board laid out and scaled as at the table, under the caption.
    if (log.game === "skipbo") fitBoard(stage.querySelector(".board"));
    document.body.dataset.replayStep = String(step);
  }
  const play = h("button", { type: "button", id: "replay-play" }, t("web.replay.play"));
  play.addEventListener("click", () => {
    if (timer) { clearInterval(timer); timer = null; play.textContent = t("web.replay.play"); return; }
    if (step >= total) show(0);
    play.textContent = t("web.replay.pause");
    timer = setInterval(() => { if (step >= total) { clearInterval(timer); timer = null; play.textContent = t("web.replay.play"); } else show(step + 1); }, 700);
  });
  range.addEventListener("input", () => show(Number(range.value)));
  const controls = h("div", { class: "replaycontrols" },
    h("button", { type: "button", "aria-label": t("web.replay.first"), onclick: () => show(0) }, icon("first")),
    h("button", { type: "button", "aria-label": t("web.replay.prev"), id: "replay-prev", onclick: () => show(step - 1) }, icon("prev")),
    play,
    h("button", { type: "button", "aria-label": t("web.replay.next"), id: "replay-next", onclick: () => show(step + 1) }, icon("next")),
    h("button", { type: "button", "aria-label": t("web.replay.last"), onclick: () => show(total) }, icon("last")),
    range, counter);
  const result = log.result
    ? h("p", {}, log.result.winners.length ? t("web.summary.winners", { names: formatNames(log.result.winners.map(name)), count: log.result.winners.length }) : t("web.summary.no_winner"))
    : h("p", { class: "muted" }, t("web.replay.unfinished"));
  const section = h("section", { class: `replay ${log.game}` },
    h("h1", {}, t("web.replay.heading", { game: log.game === "skyjo" ? "Skyjo" : "Skip-Bo", code, n: number })),
    result, controls, caption, stage,
    h("p", {}, h("a", { href: `#/room/${code}`, class: "button" }, t("web.replay.back_room")), " ", h("a", { href: "#/", class: "button" }, t("web.nav.home"))));
  section.addEventListener("keydown", (e) => {
    if (e.target === range) return;
    if (e.key === "ArrowRight") { show(step + 1); e.preventDefault(); }
    if (e.key === "ArrowLeft") { show(step - 1); e.preventDefault(); }
  });
  section.tabIndex = -1;
  app.replaceChildren(section);
  document.body.dataset.page = "replay";
  await show(total);
  const stop = () => { if (timer) clearInterval(timer); window.removeEventListener("hashchange", stop); };
  window.addEventListener("hashchange", stop);
}

// --- routing ------------------------------------------------------------------------
function route() {
  if (current) { current.close(); current = null; window.cardtable.conn = null; }
  document.getElementById("net").textContent = "";
  nav();
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  if (parts[0] === "room" && parts[1]) {
    document.title = `${parts[1]} · cardtable`;
    current = openRoom(parts[1].toUpperCase(), app, parts[2] === "watch");
  } else if (parts[0] === "replay" && parts[1]) {
    document.title = `${t("web.replay.title")} · cardtable`;
    renderReplay(parts[1].toUpperCase(), Number(parts[2] || 1));
  } else if (parts[0] === "account") {
    document.title = `${t("web.account.title")} · cardtable`;
    renderAccount(app, route);
  } else if (parts[0] === "lobby") {
    document.title = `${t("web.publobby.title")} · cardtable`;
    renderPublicLobby(app);
  } else if (parts[0] === "leaderboard") {
    document.title = `${t("web.board.title")} · cardtable`;
    renderLeaderboard(app, parts[1]);
  } else if (parts[0] === "learn") {
    document.title = `${t("lesson.ui.title")} · cardtable`;
    if (parts[1]) current = openLesson(parts[1], app);
    else renderLearnList(app);
  } else if (parts[0] === "player" && parts[1]) {
    document.title = `${parts[1]} · cardtable`;
    renderProfile(app, parts[1]);
  } else if (parts[0] === "rules" && parts[1]) {
    document.title = `${t(`web.rules.${parts[1]}_title`)} · cardtable`;
    renderRules(parts[1]);
  } else {
    document.title = "cardtable";
    renderHome();
  }
  app.focus({ preventScroll: true });
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
    if (current) current.redraw();
    else route();
  });
  await Promise.all([games(), loadAccount()]);
  window.addEventListener("hashchange", route);
  route();
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
