// The public lobby (#/lobby, docs/players.md#the-public-lobby): the public rooms that
// wait for players, one click to take a free seat, and the public games under way, one
// click to watch. Polled: the list is one indexed query any node answers, so a page
// asks every `poll_seconds` (5) while it is shown and visible, and backs off (doubling,
// up to a minute) while the server refuses or does not answer. One poll loop per page
// shown, whatever the language does; each answer patches the list (rooms kept by their
// code), so the keyboard focus on a Join button stays where it is.
import { api, playerName, rememberName, rememberSeat } from "./api.js";
import { h, patch, toast } from "./dom.js";
import { allGames, nameLimit } from "./gamelist.js";
import { t } from "./i18n.js";
import { pause, whileShown } from "./page.js";
import { seatLabel } from "./players.js";
import { errorText } from "./roomtext.js";

const MAX_WAIT = 60;

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

function playNowForm(state) {
  const input = h("input", { id: "quick-name", required: true, maxlength: nameLimit(), value: state.quickName, autocomplete: "nickname",
    oninput: (e) => { state.quickName = e.currentTarget.value; } });
  return h("form", { class: "quickmatch", id: "quick-form", onsubmit: (e) => e.preventDefault() },
    h("label", { for: "quick-name" }, t("web.home.your_name")), " ", input, " ",
    allGames().map((g) => h("button", { type: "button", class: "primary", id: `play-now-${g.game}`, onclick: () => playNow(g.game, state.quickName) },
      t("web.quick.play_now", { game: g.title }))));
}

function roomItem(room, playing) {
  const players = t("web.publobby.players", { count: room.seats.length });
  const free = playing ? null : h("span", { class: "free" }, t("web.publobby.seats_free", { count: room.seats_free }));
  const action = playing
    ? h("a", { class: "button", href: `#/room/${room.code}/watch`, dataset: { watch: room.code } }, t("web.publobby.watch"))
    : h("button", { type: "button", class: "primary", dataset: { join: room.code }, onclick: () => join(room.code) }, t("web.publobby.join"));
  // The id keys the item to its room: a patch keeps it (and a focused button in it) in
  // place as rooms come and go around it.
  const id = `${playing ? "playing" : "open"}-${room.code}`;
  return h("li", { class: "publicroom", id, dataset: { code: room.code, game: room.game } },
    h("strong", {}, room.title), " · ", players, free ? " · " : null, free,
    h("ul", { class: "seated" }, room.seats.map((s) => h("li", { class: s.taken || s.kind === "bot" ? null : "muted" }, seatLabel(s)))),
    action);
}

function list(id, rooms, playing, empty) {
  if (!rooms.length) return h("p", { class: "muted", id }, empty);
  return h("ul", { class: "publicrooms", id }, rooms.map((room) => roomItem(room, playing)));
}

// #/lobby (page.js).
export function publicLobbyPage() {
  const state = { answer: null, retrying: null, quickName: playerName() };
  let app = null;

  function draw() {
    const answer = state.answer;
    const lists = [
      h("h2", {}, t("web.publobby.open")), answer && list("lobby-open", answer.open, false, t("web.publobby.none_open")),
      h("h2", {}, t("web.publobby.playing")), answer && list("lobby-playing", answer.playing, true, t("web.publobby.none_playing")),
    ];
    const fresh = h("section", { class: "panel publiclobby" },
      h("h1", {}, t("web.publobby.title")),
      h("p", { class: "muted" }, t("web.publobby.help")),
      playNowForm(state),
      ...lists,
      h("p", { class: "muted small", id: "lobby-status", role: "status" },
        state.retrying === null ? "" : t("web.publobby.retrying", { seconds: state.retrying })));
    if (app.firstElementChild?.classList.contains("publiclobby")) patch(app, fresh);
    else app.replaceChildren(fresh);
    document.body.dataset.page = "lobby";
  }

  async function poll(signal) {
    let wait = 5;
    for (;;) {
      if (document.hidden) { await pause(1000, signal); continue; }
      const res = await api("/api/lobby", { signal });
      if (res.ok) {
        wait = res.data.poll_seconds || 5;
        state.answer = res.data;
        state.retrying = null;
      } else {
        wait = Math.min(MAX_WAIT, Math.max(wait * 2, Number(res.data?.retry_after) || 0));
        state.retrying = wait;
      }
      draw();
      await pause(wait * 1000, signal);
    }
  }

  return {
    title: () => t("web.publobby.title"),
    mount(into, signal) {
      app = into;
      draw();
      whileShown(poll(signal));
    },
    redraw: () => draw(),
  };
}
