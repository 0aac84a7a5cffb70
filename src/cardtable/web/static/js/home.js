// The home page (#/): create a table (the game, its rules, who sits where) or join one
// by its code, and the ways to the lessons and the rules.
import { api, playerName, rememberName, rememberSeat } from "./api.js";
import { h, listen, patch, toast, unpressed } from "./dom.js";
import { allGames, nameLimit } from "./gamelist.js";
import { t } from "./i18n.js";
import { optionFields } from "./options.js";
import { errorText } from "./roomtext.js";

// A room code's length (the server's cardtable.server.tokens.CODE_LENGTH).
const ROOM_CODE_LENGTH = 6;

// What is chosen here outlives the page: coming back finds the form as it was left.
const homeState = { game: localStorage.getItem("cardtable.game") || "skyjo", values: {}, seats: {}, code: "", public: false, coach: false };

function draw(app) {
  const list = allGames();
  const info = list.find((g) => g.game === homeState.game) || list[0];
  const game = info.game;
  if (!homeState.values[game]) homeState.values[game] = Object.fromEntries(info.options.map((o) => [o.name, o.default]));
  if (!homeState.seats[game]) homeState.seats[game] = [];
  const values = homeState.values[game];
  const players = playerCount(info);
  const seatKinds = homeState.seats[game];
  const nameInput = h("input", { id: "your-name", required: true, maxlength: nameLimit(), value: playerName(), autocomplete: "nickname", oninput: (e) => rememberName(e.target.value) });
  const seatList = h("ol", { class: "seats" }, h("li", { class: "seat me" }, h("span", { class: "seatname" }, t("web.home.seat_you"))));
  for (let seat = 1; seat < players; seat++) {
    const chosen = seatKinds[seat] || info.default_bot;
    const select = h("select", { id: `seat-${seat}`, "aria-label": t("web.lobby.seat_kind", { n: seat + 1 }) },
      h("option", { value: "human", selected: chosen === "human" }, t("web.home.human")),
      info.bots.map((bot) => h("option", { value: bot, selected: chosen === bot }, t(`web.bot.${bot}`))));
    // A person in a seat or none: whether the coach may be chosen (redrawn).
    listen(select, "change", (e) => { seatKinds[seat] = e.currentTarget.value; unpressed(() => draw(app)); });
    seatList.append(h("li", { class: "seat" }, h("span", { class: "seatname" }, t("web.seat.n", { n: seat + 1 })), select));
  }
  const picker = h("div", { class: "gamepick", role: "radiogroup", "aria-label": t("web.home.pick_game") },
    list.map((g) => h("label", { class: `gamecard ${g.game}${g.game === game ? " chosen" : ""}` },
      h("input", { type: "radio", name: "game", value: g.game, checked: g.game === game,
        onchange: () => { homeState.game = g.game; localStorage.setItem("cardtable.game", g.game); draw(app); } }),
      h("strong", {}, g.title),
      h("span", { class: "muted" }, t(`web.home.about_${g.game}`)))));
  const form = h("form", { class: "panel create", id: "create-form", onsubmit: (e) => { e.preventDefault(); create(info, e.currentTarget.elements["your-name"].value); } },
    h("h2", {}, t("web.home.create")),
    picker,
    h("label", { for: "your-name", class: "num" }, h("span", {}, t("web.home.your_name")), nameInput),
    h("fieldset", {}, h("legend", {}, t("web.home.options")), optionFields(info, values, {
      onValue: (option, value) => { values[option] = value; if (option === "players") unpressed(() => draw(app)); },
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

// #/ (page.js): drawn from the games the server offers (gamelist.js), nothing to fetch.
export function homePage() {
  let app = null;
  return {
    title: () => "",
    mount(into) { app = into; draw(app); },
    redraw: () => draw(app),
  };
}
