// The public lobby (#/lobby, docs/players.md#the-public-lobby): the public rooms that
// wait for players, one click to take a free seat, and the public games under way, one
// click to watch. Polled: the list is one indexed query any node answers, so a page
// asks every `poll_seconds` (5) while it is shown and visible, and backs off (doubling,
// up to a minute) while the server refuses or does not answer.
import { api, playerName, rememberName, rememberSeat } from "./api.js";
import { h, toast } from "./dom.js";
import { t } from "./i18n.js";
import { profileLink } from "./profile.js";
import { errorText } from "./roomtext.js";

const MAX_WAIT = 60;

function seatText(seat) {
  if (seat.kind === "bot") {
    const bot = t(`web.bot.${seat.bot}`);
    return seat.rating == null ? bot : t("web.publobby.rated", { name: bot, rating: seat.rating });
  }
  if (!seat.taken) return t("web.publobby.free_seat");
  const text = seat.rating == null ? seat.name : t("web.publobby.rated", { name: seat.name, rating: seat.rating });
  // A seat an account claimed links to its profile (the account's name, if it differs).
  return seat.profile ? h("a", { href: profileLink(seat.profile), title: seat.profile }, text) : text;
}

// One click: take the first free seat with the remembered name (none yet: the room's
// own join form asks for it), then open the table.
async function join(code) {
  const name = playerName().trim();
  if (!name) { location.hash = `#/room/${code}`; return; }
  const res = await api(`/api/rooms/${code}/join`, { method: "POST", body: { name } });
  if (!res.ok) { toast(() => errorText(res.data)); return; }
  rememberSeat(code, { seat: res.data.seat, token: res.data.token, name });
  location.hash = `#/room/${code}`;
}

// "Play now": a free seat in the open public room rated closest, else a new public room
// this browser hosts (the room's lobby then shows the wait and, after it, the bots).
async function playNow(game, raw) {
  const name = raw.trim();
  if (!name) { toast(() => t("web.error.bad_name")); return; }
  rememberName(name);
  const res = await api("/api/quickmatch", { method: "POST", body: { game, name } });
  if (!res.ok) { toast(() => errorText(res.data)); return; }
  const d = res.data;
  const quick = d.host_token ? { bot: d.bot, wait: d.wait_seconds, since: Date.now() } : undefined;
  rememberSeat(d.code, { seat: d.seat, token: d.token, host_token: d.host_token, name, quick });
  location.hash = `#/room/${d.code}`;
}

function playNowForm() {
  const input = h("input", { id: "quick-name", required: true, maxlength: window.cardtable.limits.name, value: playerName(), autocomplete: "nickname" });
  const games = window.cardtable.games || [];
  return h("form", { class: "quickmatch", id: "quick-form", onsubmit: (e) => e.preventDefault() },
    h("label", { for: "quick-name" }, t("web.home.your_name")), " ", input, " ",
    games.map((g) => h("button", { type: "button", class: "primary", id: `play-now-${g.game}`, onclick: () => playNow(g.game, input.value) },
      t("web.quick.play_now", { game: g.title }))));
}

function roomItem(room, playing) {
  const players = t("web.publobby.players", { count: room.seats.length });
  const free = playing ? null : h("span", { class: "free" }, t("web.publobby.seats_free", { count: room.seats_free }));
  const action = playing
    ? h("a", { class: "button", href: `#/room/${room.code}/watch`, dataset: { watch: room.code } }, t("web.publobby.watch"))
    : h("button", { type: "button", class: "primary", dataset: { join: room.code }, onclick: () => join(room.code) }, t("web.publobby.join"));
  return h("li", { class: "publicroom", dataset: { code: room.code, game: room.game } },
    h("strong", {}, room.title), " · ", players, free ? " · " : null, free,
    h("ul", { class: "seated" }, room.seats.map((s) => h("li", { class: s.taken || s.kind === "bot" ? null : "muted" }, seatText(s)))),
    action);
}

function list(id, rooms, playing, empty) {
  if (!rooms.length) return h("p", { class: "muted", id }, empty);
  return h("ul", { class: "publicrooms", id }, rooms.map((room) => roomItem(room, playing)));
}

export function renderPublicLobby(app) {
  let timer = null;
  let wait = 5;
  let stopped = false;
  const status = h("p", { class: "muted small", id: "lobby-status", role: "status" });
  const openBox = h("div");
  const playingBox = h("div");
  app.replaceChildren(h("section", { class: "panel publiclobby" },
    h("h1", {}, t("web.publobby.title")),
    h("p", { class: "muted" }, t("web.publobby.help")),
    playNowForm(),
    h("h2", {}, t("web.publobby.open")), openBox,
    h("h2", {}, t("web.publobby.playing")), playingBox, status));
  document.body.dataset.page = "lobby";

  async function poll() {
    timer = null;
    if (stopped) return;
    if (document.hidden) { timer = setTimeout(poll, 1000); return; }
    const res = await api("/api/lobby");
    if (stopped) return;
    if (res.ok) {
      wait = res.data.poll_seconds || 5;
      openBox.replaceChildren(list("lobby-open", res.data.open, false, t("web.publobby.none_open")));
      playingBox.replaceChildren(list("lobby-playing", res.data.playing, true, t("web.publobby.none_playing")));
      status.textContent = "";
      document.body.dataset.lobbyPolls = String(Number(document.body.dataset.lobbyPolls || 0) + 1);
    } else {
      wait = Math.min(MAX_WAIT, Math.max(wait * 2, Number(res.data?.retry_after) || 0));
      status.textContent = t("web.publobby.retrying", { seconds: wait });
    }
    timer = setTimeout(poll, wait * 1000);
  }
  const stop = () => { stopped = true; if (timer) clearTimeout(timer); window.removeEventListener("hashchange", stop); };
  window.addEventListener("hashchange", stop);
  poll();
}
