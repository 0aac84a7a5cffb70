// A room: the lobby before the start, the table while playing, the summaries after.
import { api, forgetSeat, playerName, rememberName, rememberSeat, seatFor } from "./api.js";
import { Connection } from "./conn.js";
import { announce, h, isPressed, listen, patch, toast, unpressed } from "./dom.js";
import { formatNumber, has, language, t } from "./i18n.js";
import { optionFields, optionLabel } from "./options.js";
import { attachKeys, landFocus } from "./keys.js";
import { icon } from "./icons.js";
import { fitBoard } from "./layout.js";
import { fly, Picker } from "./play.js";
import * as skipbo from "./skipbo.js";
import * as skyjo from "./skyjo.js";
import { describe, lineText, moveText, reasonText, refusalText } from "./words.js";

const GAMES = { skipbo, skyjo };

// The tab says whose turn it is: "your turn" in its title and a dot on its icon, for a
// player whose tab is in the background.
function showTurn(mine) {
  const base = document.title.replace(/^● [^·]*· /, "");
  document.title = mine ? `● ${t("web.table.your_turn")} · ${base}` : base;
  const link = document.querySelector("link[rel=icon]");
  if (link) {
    const want = mine ? "favicon-turn.svg" : "favicon.svg";
    if (!link.href.endsWith(want)) link.href = link.href.replace(/favicon(-turn)?\.svg$/, want);
  }
}
const LOG_LIMIT = 300;

export function seatName(room, seat, me) {
  const info = room && room.seats[seat];
  let name;
  if (!info) name = t("web.seat.n", { n: seat + 1 });
  else if (info.kind === "bot") name = t("web.seat.bot", { n: seat + 1, level: t(`web.bot.${info.bot || "greedy"}`) });
  else name = info.name || t("web.seat.free", { n: seat + 1 });
  return seat === me ? t("web.seat.you", { name }) : name;
}

// A server error in the page's language, from its `code` (and the facts the server sends
// besides its English `reason`): a refused move says why from its catalog key, a refused
// option what it allows. Only an error the page does not know shows the English reason.
export function errorText(data) {
  if (!data) return t("web.error.network");
  const code = data.code || data.error || "unknown";
  if (!KNOWN_ERRORS.includes(code)) return data.reason ? `${t("web.error.unknown")} (${data.reason})` : t("web.error.unknown");
  const head = t(`web.error.${code}`);
  if (data.reason_key && has(data.reason_key)) return `${head} (${refusalText(data.reason_key, data.reason_params, data.move)})`;
  if (data.allowed_key && has(data.allowed_key)) return `${head} (${t(data.allowed_key, data.allowed_params || {})})`;
  // A refused move with no key the page knows: its English reason rather than nothing.
  if (code === "illegal_move" && data.reason) return `${head} (${data.reason})`;
  return head;
}

// Every error code the server sends (docs/protocol.md), each with its web.error text.
export const KNOWN_ERRORS = ["already_greeted", "bad_game", "bad_message", "bad_move", "bad_name", "bad_options",
  "bad_request", "bad_seats", "bad_token", "draining", "hello_first", "hello_timeout", "hint_busy", "illegal_move", "network",
  "no_game", "no_hint", "no_review", "no_room", "no_step", "not_a_player", "not_finished", "not_host", "not_in_lobby",
  "not_playing", "not_your_turn", "payload_too_large", "rate_limited", "review_busy", "room_elsewhere", "room_full", "room_moved", "seat_taken",
  "seat_unavailable", "seats_free", "stale_version", "too_many_rooms"];

export function openRoom(code, outer, watch = false) {
  const root = h("div", { class: "roomhost" });
  outer.replaceChildren(root);
  const ctx = {
    code,
    mine: watch ? null : seatFor(code),
    seat: null,
    room: null,
    view: null,
    gameNo: null,
    log: [],
    summary: null,
    dismissed: false,
    status: "connecting",
    pending: false,
    gone: null,
    hint: null,
    hinting: false,
    help: false, // the list of keyboard shortcuts is open
    finalClosed: false, // the final scores were closed to look at the table
    review: null,
    reviewing: false,
    drafts: {}, // lobby, host: option name -> what is typed but not yet accepted by the server
    configuring: [], // lobby, host: the {option, value} changes sent and not yet answered, in order
    optionError: null, // lobby, host: {option, text} of the last refused change (text() words it)
    redrawing: false, // the page is being replaced: its fields' blur is not the user's
    joinName: null, // lobby, spectator: the name typed in the join form (a redraw keeps it)
  };
  const picker = new Picker((action) => {
    ctx.pending = true;
    const ok = conn.send({ type: "move", token: ctx.mine.token, version: conn.version, action: action.code });
    if (!ok) { ctx.pending = false; toast(() => t("web.net.offline")); }
    draw();
  });
  picker.onChange = () => { if (board) { picker.decorate(board); landFocus(board, picker); } };
  let board = null;
  let shownDialog = null; // the summary dialog at the last drawing
  let drawnPage = null; // "lobby" or "table" at the last drawing
  let conn = null;
  let movesTable = null;

  api("/api/web/games").then((res) => {
    if (res.ok) movesTable = Object.fromEntries(res.data.games.map((g) => [g.game, g.moves]));
    draw();
  });

  const name = (seat) => seatName(ctx.room, seat, ctx.seat);
  const isHost = () => Boolean(ctx.mine && ctx.mine.host_token);

  function connect() {
    if (conn) conn.close();
    conn = new Connection(code, ctx.mine && ctx.mine.token, { message: onMessage, status: onStatus });
    window.cardtable.conn = conn;
    conn.connect();
  }

  function onStatus(status, why) {
    const was = ctx.status;
    ctx.status = status;
    const net = document.getElementById("net");
    net.textContent = status === "reconnecting" ? t("web.net.reconnecting") : "";
    net.dataset.status = status;
    if (status === "gone") {
      ctx.gone = why;
      if (why === "bad_token") { forgetSeat(code); ctx.mine = null; connect(); return; }
      draw();
    } else if (was !== status && ctx.view) {
      draw(); // offline, the table offers no move; back online, it offers them again
    }
  }

  async function fetchLog() {
    if (!ctx.view || !ctx.gameNo) return;
    const gameName = ctx.room.game;
    const res = await api(`/api/rooms/${code}/games/${ctx.gameNo}`);
    if (!res.ok || ctx.log.length) return;
    ctx.log = res.data.moves.flatMap((m) => describe(gameName, m.outcome)).slice(-LOG_LIMIT);
    draw();
  }

  function onMessage(m) {
    switch (m.type) {
      case "welcome":
        ctx.seat = m.seat;
        ctx.room = m.room;
        break;
      case "sync": {
        ctx.room = m.room;
        const fresh = ctx.gameNo !== m.game_no;
        ctx.gameNo = m.game_no;
        ctx.view = m.view;
        ctx.pending = false;
        if (fresh) { ctx.log = []; ctx.summary = null; ctx.review = null; ctx.reviewing = false; ctx.finalClosed = false; }
        if (ctx.view && !ctx.log.length) fetchLog();
        break;
      }
      case "event":
        onEvent(m);
        break;
      case "presence":
        if (ctx.room) {
          for (const p of m.seats) Object.assign(ctx.room.seats[p.seat], { connected: p.connected, away: p.away });
          ctx.room.spectators = m.spectators;
        }
        break;
      case "review":
        ctx.reviewing = false;
        if (m.game_no === ctx.gameNo) ctx.review = m;
        break;
      case "hint":
        ctx.hinting = false;
        ctx.hint = m;
        if (!m.moves.length) toast(() => t("web.table.hint_none"), "info");
        break;
      case "error":
        ctx.pending = false;
        ctx.hinting = false;
        ctx.reviewing = false;
        if (ctx.configuring.length && CONFIGURE_ERRORS.includes(m.code)) optionRefused(m);
        else toast(() => errorText(m));
        break;
      default:
        return;
    }
    draw();
  }

  function onEvent(m) {
    ctx.hint = null;
    ctx.hinting = false;
    if (m.kind === "room") {
      const wasGame = ctx.view !== null;
      ctx.room = m.room;
      // The server answers in order: the oldest change awaiting an answer is the one applied.
      const first = ctx.configuring[0];
      if (first && m.room.rules[first.option] === first.value) settleChange();
      if (m.room.status !== "lobby") { ctx.drafts = {}; ctx.configuring = []; ctx.optionError = null; }
      if (m.room.status === "lobby" && wasGame) {
        ctx.view = null;
        ctx.log = [];
        ctx.summary = null;
        ctx.review = null;
        ctx.reviewing = false;
        ctx.gameNo = m.room.game_no;
      }
      return;
    }
    if (m.kind === "start") {
      ctx.view = m.view;
      ctx.gameNo = m.game_no;
      ctx.log = [];
      ctx.summary = null;
      ctx.review = null;
      ctx.reviewing = false;
      ctx.dismissed = false;
      ctx.finalClosed = false;
      if (ctx.room) ctx.room.status = "playing";
      announce(t("web.table.started"));
      return;
    }
    const before = ctx.view;
    ctx.view = m.view;
    ctx.gameNo = m.game_no;
    ctx.pending = false;
    const gameName = ctx.room.game;
    const lines = describe(gameName, m.outcome);
    ctx.log.push(...lines);
    if (ctx.log.length > LOG_LIMIT) ctx.log.splice(0, ctx.log.length - LOG_LIMIT);
    if (lines.length && m.outcome.seat !== ctx.seat) announce(lines.map((l) => lineText(l, name)).join(". "));
    const game = GAMES[gameName];
    if (before) {
      const summary = game.roundSummary(before, m.outcome);
      if (summary) {
        ctx.summary = summary;
        ctx.dismissed = false;
      }
      ctx.flight = game.flight(m.outcome.move, m.outcome.seat, before, ctx.seat);
    }
    if (m.view && m.view.result && ctx.room) ctx.room.status = "finished";
  }

  // --- drawing -------------------------------------------------------------------
  function draw() {
    // The lobby waits for a press to end (see unpressed); the table never waits (a drag).
    if (!ctx.view && isPressed()) { unpressed(draw); return; }
    const scrollY = window.scrollY;
    const focusedId = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.id : null;
    const focusedKey = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
    const caret = selection(document.activeElement);
    const rects = new Map();
    const faces = new Map();
    if (board) {
      for (const el of board.querySelectorAll("[data-id]")) {
        if (!rects.has(el.dataset.id)) rects.set(el.dataset.id, el.getBoundingClientRect());
        faces.set(el.dataset.id, el.dataset.face);
      }
    }
    // Chromium blurs (and so "changes") a focused field as the redraw takes it out of the
    // page: that is not the user leaving it, and the lobby ignores it (see optionForm).
    const fresh = page();
    ctx.redrawing = true;
    try { patch(root, fresh); } finally { ctx.redrawing = false; }
    document.body.dataset.version = conn && conn.version !== null ? String(conn.version) : "";
    document.body.dataset.page = ctx.view ? "table" : ctx.room ? "lobby" : "room";
    showTurn(Boolean(ctx.view && ctx.view.result === null && ctx.seat !== null && GAMES[ctx.room.game].current(ctx.view) === ctx.seat));
    document.body.dataset.draws = String(Number(document.body.dataset.draws || 0) + 1); // tests wait on it
    board = root.querySelector(".board");
    if (board) {
      fitBoard(board);
      for (const el of board.querySelectorAll("[data-id]")) {
        if (faces.has(el.dataset.id) && faces.get(el.dataset.id) !== el.dataset.face) el.classList.add("changed");
      }
      if (ctx.flight) {
        const [from, to] = ctx.flight;
        fly(rects.get(from), board.querySelector(`[data-id="${CSS.escape(to)}"]`));
        ctx.flight = null;
      }
    }
    const again = (focusedId && root.querySelector(`[data-id="${CSS.escape(focusedId)}"]`))
      || (focusedKey && root.querySelector(`[data-key="${CSS.escape(focusedKey)}"]`));
    if (again) {
      again.focus({ preventScroll: true });
      if (caret && again.value === caret.value) again.setSelectionRange(caret.start, caret.end, caret.direction);
    }
    // The same page keeps its scroll; a new one (the lobby becomes the table) starts at
    // the top, where the table is laid out to fit.
    window.scrollTo(0, document.body.dataset.page === drawnPage ? scrollY : 0);
    drawnPage = document.body.dataset.page;
    // A dialog that has just opened takes the focus (its first button: continue, rematch).
    const dialog = root.querySelector("#summary");
    if (dialog && !shownDialog) {
      const first = dialog.querySelector(".continue, #rematch, button");
      if (first) first.focus();
    }
    shownDialog = dialog;
    if (board && !ctx.help && !dialog) landFocus(board, picker);
  }

  // Where the caret is in a focused text field, so a redraw puts it back (a message that
  // arrives while someone types must not move their cursor).
  function selection(el) {
    if (!el || typeof el.setSelectionRange !== "function") return null;
    try {
      if (el.selectionStart === null) return null; // a field with no text caret (number)
      return { value: el.value, start: el.selectionStart, end: el.selectionEnd, direction: el.selectionDirection };
    } catch { return null; }
  }

  function page() {
    if (ctx.gone === "no_room") {
      return h("section", { class: "panel" }, h("h1", {}, t("web.room.gone_title")), h("p", {}, t("web.room.gone", { code })),
        h("p", {}, h("a", { href: `#/replay/${code}/1`, class: "button" }, t("web.replay.open")), " ", h("a", { href: "#/", class: "button" }, t("web.nav.home"))));
    }
    if (!ctx.room) return h("p", { class: "loading" }, t("web.room.connecting"));
    if (!ctx.view) return lobby();
    return table();
  }

  // --- lobby ---------------------------------------------------------------------
  function lobby() {
    const room = ctx.room;
    const link = `${location.origin}/r/${room.code}`;
    const free = room.seats.filter((s) => s.kind === "human" && !s.taken);
    const box = h("section", { class: "panel lobby" },
      h("h1", {}, t("web.lobby.title", { game: room.title, code: room.code })),
      h("p", { class: "codeline" }, t("web.lobby.code"), " ", h("strong", { class: "code", id: "room-code" }, room.code)),
      h("div", { class: "share" },
        h("label", { for: "share-link" }, t("web.lobby.share")),
        h("div", { class: "sharerow" },
          h("input", { id: "share-link", readonly: true, value: link }),
          h("button", { type: "button", onclick: () => copy(link) }, t("web.lobby.copy")))));
    const list = h("ol", { class: "seats" });
    room.seats.forEach((s, index) => {
      const status = s.kind === "bot" ? t("web.lobby.bot_ready")
        : s.taken ? (s.connected ? t("web.lobby.online") : t("web.lobby.offline")) : t("web.lobby.waiting");
      const item = h("li", { class: `seat ${s.kind}${index === ctx.seat ? " me" : ""}` },
        h("span", { class: `dot ${s.kind === "bot" || s.connected ? "on" : "off"}`, "aria-hidden": "true" }),
        h("span", { class: "seatname" }, name(index)),
        h("span", { class: "muted" }, status));
      if (isHost() && !s.taken) item.append(seatSelect(index, s));
      list.append(item);
    });
    box.append(h("h2", {}, t("web.lobby.seats")), list);
    box.append(h("h2", { id: "lobby-options-title" }, t("web.lobby.options")),
      isHost() ? optionForm(room) : optionList(room));
    if (ctx.seat === null && free.length) {
      const input = h("input", {
        id: "join-name", required: true, maxlength: window.cardtable.limits.name, value: ctx.joinName ?? playerName(), autocomplete: "nickname",
        dataset: { key: "join-name" }, oninput: (e) => { ctx.joinName = e.currentTarget.value; },
      });
      box.append(h("form", { class: "joinform", onsubmit: (e) => { e.preventDefault(); join(e.currentTarget.elements["join-name"].value); } },
        h("label", { for: "join-name" }, t("web.home.your_name")), input,
        h("button", { type: "submit", class: "primary", id: "join" }, t("web.lobby.join"))));
    } else if (ctx.seat === null) {
      box.append(h("p", {}, t("web.lobby.watching")));
    }
    if (isHost()) {
      box.append(h("p", {}, h("button", {
        type: "button", class: "primary big", id: "start", disabled: free.length > 0,
        onclick: () => conn.send({ type: "start", host_token: ctx.mine.host_token }),
      }, t("web.lobby.start"))));
      if (free.length) box.append(h("p", { class: "muted" }, t("web.lobby.wait_players", { count: free.length })));
    } else if (ctx.seat !== null) {
      box.append(h("p", { class: "muted" }, t("web.lobby.wait_host")));
    }
    if (room.game_no > 1) {
      box.append(h("p", {}, h("a", { href: `#/replay/${room.code}/${room.game_no - 1}` }, t("web.replay.previous"))));
    }
    return box;
  }

  // The host edits the rules with the home page's controls; each accepted change is sent
  // at once, and the room event (or the refusal) that answers it is what the page shows.
  function optionForm(room) {
    const info = gameInfo(room.game);
    if (!info) return optionList(room);
    const values = { ...room.rules, ...ctx.drafts };
    const error = ctx.optionError;
    const busy = ctx.configuring.length > 0;
    return h("fieldset", { class: "lobbyoptions", id: "lobby-options", "aria-labelledby": "lobby-options-title", "aria-busy": busy ? "true" : "false" },
      optionFields(info, values, {
        prefix: "lobby-opt",
        onInput: (option, raw) => { ctx.drafts[option] = raw; },
        onValue: (option, value) => { if (!ctx.redrawing) configureOption(info, option, value); },
        onProblem: (option, text, words) => {
          if (ctx.redrawing) return; // the new copy keeps the text; leaving it judges it
          delete ctx.drafts[option];
          ctx.optionError = { option, text: words || (() => text) };
          announce(text);
          draw();
        },
        errorFor: (option) => (error && error.option === option ? error.text() : null),
        isDirty: (option) => option in ctx.drafts && !ctx.configuring.some((c) => c.option === option),
      }));
  }

  function configureOption(info, option, value) {
    const last = ctx.configuring.filter((c) => c.option === option).pop();
    if (last && last.value === value) return; // already on its way
    ctx.optionError = null;
    if (!last && ctx.room.rules[option] === value) { delete ctx.drafts[option]; draw(); return; }
    const message = { type: "configure", host_token: ctx.mine.host_token, options: { [option]: value } };
    if (option === "players") {
      // Keep the seats that stay (players and bots alike); a new seat gets the home page's
      // default bot, and the host may make it a human seat with its selector.
      message.seats = Array.from({ length: value }, (_, i) => {
        const seat = ctx.room.seats[i];
        if (!seat) return { kind: "bot", bot: info.default_bot };
        return seat.kind === "bot" ? { kind: "bot", bot: seat.bot } : { kind: "human" };
      });
    }
    if (!conn.send(message)) {
      delete ctx.drafts[option];
      toast(() => t("web.net.offline"));
    } else {
      ctx.drafts[option] = value;
      ctx.configuring.push({ option, value });
    }
    draw();
  }

  // The server refused the change: nothing changed, the controls show the room's rules
  // again, and the refusal stays under the option it is about: the one the server names
  // (`field`; not always the one sent: more players can make the stock size too large),
  // else the one sent (a refusal of the seats, an option the page does not show).
  function optionRefused(m) {
    const sent = settleChange().option;
    const info = gameInfo(ctx.room.game);
    const option = m.field && info && info.options.some((o) => o.name === m.field) ? m.field : sent;
    // Worded when drawn: a change of language words the refusal again.
    const text = () => t("web.lobby.option_refused", { option: optionLabel(ctx.room.game, option), reason: errorText(m) });
    ctx.optionError = { option, text };
    announce(text());
  }

  // The oldest change sent has its answer: its field shows the room's rules again, unless
  // a later change of the same option is still on its way, or the host has typed into the
  // field since it was sent (the answer must not wipe what is being typed).
  function settleChange() {
    const done = ctx.configuring.shift();
    const typedSince = ctx.drafts[done.option] !== done.value;
    if (!typedSince && !ctx.configuring.some((c) => c.option === done.option)) delete ctx.drafts[done.option];
    return done;
  }

  function seatSelect(index, s) {
    const select = h("select", { "aria-label": t("web.lobby.seat_kind", { n: index + 1 }), dataset: { key: `seat-${index}` } },
      h("option", { value: "human", selected: s.kind === "human" }, t("web.home.human")),
      (window.cardtable.bots[ctx.room.game] || []).map((bot) =>
        h("option", { value: bot, selected: s.kind === "bot" && s.bot === bot }, t(`web.bot.${bot}`))));
    listen(select, "change", (e) => {
      const chosen = e.currentTarget.value;
      const seats = ctx.room.seats.map((seat, i) => {
        const value = i === index ? chosen : seat.kind === "bot" ? seat.bot : "human";
        return value === "human" ? { kind: "human" } : { kind: "bot", bot: value };
      });
      conn.send({ type: "configure", host_token: ctx.mine.host_token, seats });
    });
    return select;
  }

  async function join(raw) {
    const clean = raw.trim();
    if (!clean) return;
    rememberName(clean);
    const res = await api(`/api/rooms/${code}/join`, { method: "POST", body: { name: clean } });
    if (!res.ok) { toast(() => errorText(res.data)); return; }
    rememberSeat(code, { seat: res.data.seat, token: res.data.token, name: clean });
    ctx.joinName = null;
    ctx.mine = seatFor(code);
    connect();
  }

  function copy(link) {
    if (navigator.clipboard) navigator.clipboard.writeText(link).then(() => toast(() => t("web.lobby.copied"), "info"), () => {});
    else toast(link, "info");
  }

  // --- table ---------------------------------------------------------------------
  function table() {
    const view = ctx.view;
    const gameName = ctx.room.game;
    const game = GAMES[gameName];
    const me = ctx.seat;
    const turn = game.current(view);
    const over = view.result !== null;
    const online = ctx.status === "online";
    // Offline, a move could not be sent: the table offers none until the socket is back.
    const myTurn = !over && me !== null && turn === me && !ctx.pending && online;
    let actions = [];
    if (myTurn && movesTable) {
      actions = game.legalActions(view).map((code) => ({ code, ...game.actionFor(movesTable[gameName][code], me, view) }));
    }
    picker.set(actions, game.preferred(view), ctx.pending);
    const presence = (seat) => {
      const s = ctx.room.seats[seat];
      if (!s || s.kind === "bot") return null;
      if (s.away) return h("span", { class: "away", title: t("web.table.away") }, " ", t("web.table.away_short"));
      return s.connected ? null : h("span", { class: "offline", title: t("web.lobby.offline") }, " ", icon("offline"), h("span", { class: "sr-only" }, t("web.lobby.offline")));
    };
    const rctx = {
      me, name, presence, interactive: !over && me !== null,
      actionsHaveEndTurn: actions.some((a) => a.source === "endturn"),
    };
    let banner;
    if (over) banner = t("web.table.game_over");
    else if (turn === me && !online) banner = t("web.table.offline_turn");
    else if (turn === me) banner = `${t("web.table.your_turn")} — ${game.prompt(view)}`;
    else banner = t("web.table.turn_of", { name: name(turn) });
    const hint = myTurn && ctx.hint && ctx.hint.version === conn.version && ctx.hint.moves.length ? ctx.hint.moves[0] : null;
    if (hint) {
      const value = ctx.hint.measure === "win_chance" ? Math.round(100 * hint.value) : hint.value; // t() writes it the language's way
      banner = t(ctx.hint.measure === "win_chance" ? "web.table.hint_skipbo" : "web.table.hint_skyjo", { value });
    }
    const turnbar = h("div", { class: `turnbar${turn === me && !over ? " mine" : ""}`, role: "status", "aria-live": "polite", id: "turnbar" },
      h("span", { class: "round" }, t("web.table.round", { round: view.round })),
      h("span", { class: "banner" }, banner, hint ? hintReason(hint) : null),
      myTurn ? h("button", {
        type: "button", id: "hint", class: "hintbutton", disabled: ctx.hinting, title: t("web.table.hint_title"),
        onclick: askHint,
      }, ctx.hinting ? t("web.table.hint_thinking") : t("web.table.hint")) : null,
      over && ctx.finalClosed ? h("button", { type: "button", id: "show-scores", onclick: () => { ctx.finalClosed = false; draw(); } }, t("web.summary.show")) : null,
      h("button", { type: "button", id: "keys-help", class: "keysbutton", "aria-label": t("web.keys.title"), title: t("web.keys.title"),
        onclick: openHelp }, "?"));
    const boardEl = game.render(view, rctx);
    if (ctx.pending) boardEl.classList.add("waiting");
    picker.decorate(boardEl);
    if (hint) {
      // Light up where the suggested move starts and ends (the server sent its JSON form).
      const where = game.actionFor(hint.move, me, view);
      for (const id of [where.source, where.target]) {
        if (id === null) continue;
        for (const el of boardEl.querySelectorAll(`[data-id="${CSS.escape(id)}"]`)) el.classList.add("hinted");
      }
    }
    const side = h("aside", { class: "side" },
      scores(view, game),
      h("details", { class: "log", open: window.innerWidth > 900 },
        h("summary", {}, t("web.table.log")),
        h("ol", { class: "loglist", "aria-label": t("web.table.log") },
          // Worded as drawn: a change of language words every line again.
          ctx.log.slice(-60).reverse().map((l) => h("li", { class: l.seat === me ? "mine" : "" }, lineText(l, name))))),
      h("p", { class: "sidebuttons" },
        h("a", { href: `#/rules/${gameName}`, target: "_blank", class: "button" }, t("web.nav.rules")),
        " ",
        h("a", { href: "#/", class: "button" }, t("web.nav.leave"))));
    const out = h("section", { class: `tablepage ${gameName}${online ? "" : " disconnected"}` }, turnbar, h("div", { class: "tablewrap" }, boardEl, side));
    const dialog = ctx.help ? helpDialog() : summaryDialog(view, game);
    if (dialog) out.append(dialog);
    return out;
  }

  // The keyboard shortcuts ("?" opens it, Escape or its button closes it).
  function helpDialog() {
    const row = (keys, what) => h("tr", {}, h("th", { scope: "row" }, keys.map((k) => h("kbd", {}, k))), h("td", {}, t(what)));
    return h("div", { class: "overlay" },
      h("div", { class: "dialog keyshelp", role: "dialog", "aria-modal": "true", "aria-labelledby": "keys-title", id: "keys-dialog" },
        h("h2", { id: "keys-title" }, t("web.keys.title")),
        h("table", { class: "keys" }, h("tbody", {},
          row(["←", "→", "↑", "↓"], "web.keys.arrows"),
          row([t("web.keys.enter"), t("web.keys.space")], "web.keys.select"),
          row([t("web.keys.escape")], "web.keys.cancel"),
          row([t("web.keys.tab")], "web.keys.tab_help"),
          row(["?"], "web.keys.help"))),
        h("p", { class: "dialogbuttons" }, h("button", { type: "button", class: "primary", id: "keys-close", onclick: closeHelp }, t("web.keys.close")))));
  }

  function openHelp() {
    ctx.help = true;
    draw();
    const close = document.getElementById("keys-close");
    if (close) close.focus();
  }

  function closeHelp() {
    ctx.help = false;
    draw();
    const opener = document.getElementById("keys-help");
    if (opener) opener.focus();
  }

  function askHint() {
    if (!ctx.mine || ctx.hinting) return;
    if (conn.send({ type: "hint", token: ctx.mine.token, version: conn.version })) {
      ctx.hinting = true;
      ctx.hint = null;
    } else {
      toast(() => t("web.net.offline"));
    }
    draw();
  }

  function askReview() {
    if (!ctx.mine || ctx.reviewing) return;
    if (conn.send({ type: "review", token: ctx.mine.token })) ctx.reviewing = true;
    else toast(() => t("web.net.offline"));
    draw();
  }

  // The advisor's reason in a translated sentence (`key` with {reason}): worded from its
  // parts in the page's language; a server that sends only the English text gets it
  // marked as English inside the sentence.
  function reasonSentence(key, parts, english) {
    if (parts && parts.length) return [t(key, { reason: reasonText(parts, name) })];
    const [before, after = ""] = t(key, { reason: "\u0001" }).split("\u0001");
    return [before, h("span", { lang: "en" }, english), after];
  }

  function hintReason(hint) {
    return h("span", { class: "hintreason", id: "hint-reason", dataset: { parts: JSON.stringify(hint.reason_parts || []) } },
      ...reasonSentence("web.table.hint_reason", hint.reason_parts, hint.reason));
  }

  function reviewSection(review, gameName) {
    const winChance = review.measure === "win_chance";
    const number = new Intl.NumberFormat(language(), { maximumFractionDigits: 1 });
    const byNumber = new Map(review.moves.map((m) => [m.number, m]));
    const worst = review.worst.map((n) => byNumber.get(n)).filter(Boolean);
    const items = worst.map((m) => h("li", { class: "reviewed" },
      h("div", { class: "played" }, t("web.review.move", { number: m.number, move: moveText(gameName, m.played_move) })),
      h("div", { class: "cost" }, winChance
        ? t("web.review.cost_skipbo", { cost: number.format(100 * m.cost) })
        : t("web.review.cost_skyjo", { count: m.cost })),
      h("div", { class: "better" }, t("web.review.better", { move: moveText(gameName, m.best_move) })),
      h("div", { class: "why muted", dataset: { parts: JSON.stringify(m.reason_parts || []) } },
        ...reasonSentence("web.review.reason", m.reason_parts, m.reason))));
    return h("section", { class: "review", id: "review-list" },
      h("h3", {}, t("web.review.title")),
      h("p", {}, t("web.review.summary", { reviewed: review.reviewed, decisions: review.decisions, best: review.best_moves })),
      h("p", {}, t(items.length ? "web.review.worst" : "web.review.none")),
      items.length ? h("ol", { class: "reviewlist" }, items) : null,
      h("p", { class: "muted small" }, t("web.review.note")));
  }

  // The score panel: every finished round's points (the last ROUNDS_SHOWN of them; the
  // table scrolls sideways for more), then the running total.
  function scores(view, game) {
    const totals = game === skyjo ? view.totals : view.players.map((p) => p.score);
    const showTotals = game === skyjo || view.rules.rounds;
    const rounds = showTotals ? (view.rounds || []) : [];
    const turn = game.current(view);
    const roundHead = (r, i) => h("th", { scope: "col", title: t("web.table.round", { round: i + 1 }) }, t("web.score.round_short", { round: i + 1 }));
    return h("div", { class: "scorepanel" }, h("table", { class: "scores compact", id: "score-panel", "aria-label": t("web.score.title") },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("web.score.player")), rounds.map(roundHead),
        showTotals ? h("th", { scope: "col" }, t("web.score.total")) : null)),
      h("tbody", {}, totals.map((total, seat) => h("tr", { class: seat === turn ? "turn" : "" },
        h("th", { scope: "row" }, seat === turn ? [icon("turn", "turnmark"), " "] : "", name(seat)),
        rounds.map((r) => h("td", { class: (r.winners || []).includes(seat) ? "roundwin" : "" }, formatNumber(r.points[seat]))),
        showTotals ? h("td", { class: "total" }, formatNumber(total)) : null)))));
  }

  function summaryDialog(view, game) {
    const over = view.result !== null;
    const summary = ctx.summary;
    if (!over && (!summary || ctx.dismissed)) return null;
    if (over && ctx.finalClosed) return null;
    if (!over && summary.game === "skipbo" && !view.rules.rounds) return null;
    const title = over ? t("web.summary.match_title") : t("web.summary.round_title", { round: summary.round });
    const body = [];
    if (over) {
      const result = view.result;
      const ranking = result.scores.map((score, seat) => ({ seat, score }));
      const lowWins = game === skyjo;
      ranking.sort((a, b) => (lowWins ? a.score - b.score : b.score - a.score));
      body.push(h("p", { class: "winners" }, result.winners.length
        ? t("web.summary.winners", { names: result.winners.map(name).join(", ") })
        : t("web.summary.no_winner")));
      body.push(h("table", { class: "scores final" },
        h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("web.score.player")), h("th", {}, t(lowWins ? "web.score.total" : "web.score.points")))),
        h("tbody", {}, ranking.map((r, i) => h("tr", { class: result.winners.includes(r.seat) ? "winner" : "" },
          h("td", {}, String(i + 1)), h("th", { scope: "row" }, result.winners.includes(r.seat) ? [icon("star", "winstar"), " "] : "", name(r.seat)), h("td", {}, String(r.score)))))));
    }
    if (summary && summary.game === "skyjo") {
      if (over) body.push(h("h3", {}, t("web.summary.round_title", { round: summary.round })));
      body.push(skyjo.renderRoundSummary(summary, { name }));
    } else if (summary && summary.game === "skipbo" && view.rules.rounds) {
      body.push(skipbo.renderRoundSummary(summary, { name }, view));
    } else if (over && game === skyjo) {
      body.push(skyjo.renderRoundSummary({
        game: "skyjo", round: view.round, closer: null, doubled: false,
        points: view.rounds.length ? view.rounds[view.rounds.length - 1].points : view.totals,
        totals: view.totals, grids: view.grids, status: view.status,
      }, { name }));
    }
    if (over && ctx.review) body.push(reviewSection(ctx.review, ctx.room.game));
    const buttons = h("p", { class: "dialogbuttons" });
    if (over && ctx.seat !== null && ctx.mine && !ctx.review) {
      buttons.append(h("button", { type: "button", id: "review", disabled: ctx.reviewing, onclick: askReview },
        ctx.reviewing ? t("web.review.thinking") : t("web.review.button")), " ");
    }
    if (over) {
      if (isHost()) {
        // Back to the lobby with the same seats: the host may change the options, then starts.
        buttons.append(h("button", { type: "button", class: "primary", id: "rematch", onclick: () => {
          conn.send({ type: "rematch", host_token: ctx.mine.host_token });
        } }, t("web.summary.rematch")));
      } else {
        buttons.append(h("span", { class: "muted" }, t("web.summary.rematch_wait")));
      }
      buttons.append(" ", h("a", { class: "button", href: `#/replay/${code}/${ctx.gameNo}`, id: "replay" }, t("web.replay.open")),
        " ", h("a", { class: "button", href: "#/" }, t("web.nav.new_table")),
        " ", h("button", { type: "button", id: "summary-close", onclick: () => { ctx.finalClosed = true; draw(); } }, t("web.summary.close")));
    } else {
      buttons.append(h("button", { type: "button", class: "primary continue", onclick: () => { ctx.dismissed = true; draw(); } }, t("web.summary.continue")));
    }
    return h("div", { class: "overlay" },
      h("div", { class: `dialog ${over ? "match-summary" : "round-summary"}`, role: "dialog", "aria-modal": "true", "aria-labelledby": "summary-title", id: "summary" },
        h("h2", { id: "summary-title" }, title), body, buttons));
  }

  picker.attach(root);
  attachKeys(root, {
    help: () => { if (!ctx.view) return; if (ctx.help) closeHelp(); else openHelp(); },
    escape: () => {
      if (ctx.help) closeHelp();
      else if (ctx.view && ctx.view.result !== null && !ctx.finalClosed) { ctx.finalClosed = true; draw(); }
      else if (picker.selected) { picker.selected = null; picker.onChange(); }
    },
  });
  connect();
  return {
    close() { showTurn(false); if (conn) conn.close(); },
    redraw: draw,
  };
}

const CONFIGURE_ERRORS = ["bad_options", "bad_seats", "seat_taken", "not_in_lobby", "not_host"];

function gameInfo(game) {
  return (window.cardtable.games || []).find((g) => g.game === game) || null;
}

// The rules as read-only text: what guests and spectators see, updated with each room event.
function optionList(room) {
  const info = gameInfo(room.game);
  const shown = info ? info.options.map((o) => o.name) : Object.keys(room.rules);
  return h("dl", { class: "optionlist", id: "lobby-options" }, shown.filter((key) => key in room.rules).map((key) => {
    const value = room.rules[key];
    const text = value === true ? t("web.opt.yes") : value === false ? t("web.opt.no") : value === null ? t("web.opt.auto") : String(value);
    return h("div", { dataset: { option: key } }, h("dt", {}, optionLabel(room.game, key)), h("dd", {}, text));
  }));
}
