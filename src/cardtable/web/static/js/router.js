// The hash routes, each to its page (page.js): one page shown at a time, with one
// AbortController per navigation, aborted as the user leaves, so that nothing the page
// asked for can draw over the page the user went to.
import { accountPage } from "./account.js";
import { homePage } from "./home.js";
import { learnListPage, lessonPage } from "./learn.js";
import { leaderboardPage } from "./leaderboard.js";
import { whileShown } from "./page.js";
import { profilePage } from "./profile.js";
import { publicLobbyPage } from "./publiclobby.js";
import { replayPage } from "./replay.js";
import { roomPage } from "./room.js";
import { rulesPage } from "./rules.js";

// The route's first part -> its page, made from the parts after it. A route that makes
// no page (a part missing, a game unknown) shows the home page; an unknown lesson, the
// list of lessons.
const ROUTES = {
  room: ([code, mode]) => code && roomPage(code.toUpperCase(), mode === "watch"),
  replay: ([code, number]) => code && replayPage(code.toUpperCase(), Number(number || 1)),
  account: () => accountPage(showRoute),
  lobby: () => publicLobbyPage(),
  leaderboard: ([ladder]) => leaderboardPage(ladder),
  learn: ([game]) => (game ? lessonPage(game) : null) || learnListPage(),
  player: ([name]) => name && profilePage(name),
  rules: ([game]) => game && rulesPage(game),
};

let shown = null; // {page, controller} of the page on screen
let app = null;
let beforeEach = () => {};

// The page on screen (its state: a room's connection, a lesson's answer).
export function shownPage() {
  return shown ? shown.page : null;
}

// Show the pages in `main`, following the hash; `onNavigate` runs before each page (the
// navigation bar, drawn by app.js).
export function startRouter(main, onNavigate) {
  app = main;
  beforeEach = onNavigate;
  window.addEventListener("hashchange", showRoute);
  showRoute();
}

function leaveShown() {
  if (!shown) return;
  shown.controller.abort();
  if (shown.page.leave) shown.page.leave();
  shown = null;
}

function pageFor(hash) {
  const [head, ...rest] = hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  const make = Object.hasOwn(ROUTES, head) ? ROUTES[head] : null;
  return (make && make(rest)) || homePage();
}

function retitle(page) {
  const title = page.title();
  document.title = title ? `${title} · cardtable` : "cardtable";
}

function show(page) {
  const controller = new AbortController();
  shown = { page, controller };
  retitle(page);
  // What the page awaits may end in the abort of the user leaving: no error.
  whileShown(page.mount(app, controller.signal));
}

function showRoute() {
  leaveShown();
  beforeEach();
  show(pageFor(location.hash));
  app.focus({ preventScroll: true });
}

// The language changed: the page shown says it again in the new one (pages without a
// redraw of their own are mounted afresh).
export function redrawShown() {
  if (!shown) return;
  if (!shown.page.redraw) { showRoute(); return; }
  shown.page.redraw();
  retitle(shown.page);
}
