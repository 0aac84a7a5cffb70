// A room: the lobby before the start, the table while playing, the summaries after.
// This module holds a room's state and its connection, and draws its page; each part is
// drawn by its own module (lobby.js, table.js, scores.js, dialogs.js), and input.js ties
// pointer, keys and focus to the state. Those modules get `r`, the room: its state
// (`r.ctx`), `r.draw()`, `r.send(message)`, `r.name(seat)`, `r.isHost()`, `r.connect()`.
import { api, dropSeatToken, forgetSeat, seatFor } from "./api.js";
import { Connection } from "./conn.js";
import { announce, h, isPressed, patch, toast, unpressed } from "./dom.js";
import { t } from "./i18n.js";
import { whileShown } from "./page.js";
import { attachInput, focusDialog, makePicker, rememberFocus, settleFocus } from "./input.js";
import { lobbyError, lobbyEvent, lobbyPage } from "./lobby.js";
import { errorText, seatName } from "./roomtext.js";
import { GAMES, myTurnNow, rememberBoard, settleBoard, tablePage } from "./table.js";
import { showTurn } from "./turnalert.js";
import { attachTableLife, markMoveLines, tableLifeMessage } from "./tablelife.js";
import { coachAfterEvent, coachMessage } from "./coach.js";
import { describe, lineText } from "./words.js";

export { errorText, KNOWN_ERRORS, seatName } from "./roomtext.js";

const LOG_LIMIT = 300;

// #/room/{code} and #/room/{code}/watch (page.js). `room` is the open room (`r` below)
// while the page is shown: its state and its connection.
export function roomPage(code, watch) {
  const page = {
    room: null,
    title: () => code,
    mount(app, signal) { page.room = openRoom(code, app, watch, signal); },
    redraw: () => page.room.draw(),
    leave: () => page.room.close(),
  };
  return page;
}

function openRoom(code, outer, watch, signal) {
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
    coach: null, // the coach's last line (coach.js)
    help: false, // the list of keyboard shortcuts is open
    finalClosed: false, // the final scores were closed to look at the table
    review: null,
    reviewing: false,
    verdict: null, // the last "rated" message: was the finished game rated (dialogs.js)
    flight: null, // [from id, to id] of the move just made, flown at the next drawing
    drafts: {}, // lobby, host: option name -> what is typed but not yet accepted by the server
    configuring: [], // lobby, host: the {option, value} changes sent and not yet answered, in order
    optionError: null, // lobby, host: {option, text} of the last refused change (text() words it)
    redrawing: false, // the page is being replaced: its fields' blur is not the user's
    joinName: null, // lobby, spectator: the name typed in the join form (a redraw keeps it)
    expanded: new Set(), // table, phone: the other players' seats opened from their compact line
  };
  const r = {
    code,
    ctx,
    conn: null,
    board: null, // the table's board at the last drawing
    shownDialog: null, // the summary dialog at the last drawing
    drawnPage: null, // "lobby" or "table" at the last drawing
    picker: null,
    draw,
    connect,
    name: (seat) => seatName(ctx.room, seat, ctx.seat),
    isHost: () => Boolean(ctx.mine && ctx.mine.host_token),
    send: (message) => Boolean(r.conn && r.conn.send(message)),
  };
  r.picker = makePicker(r);
  attachTableLife(r);

  function connect() {
    if (r.conn) r.conn.close();
    r.conn = new Connection(code, ctx.mine && ctx.mine.token, { message: onMessage, status: onStatus });
    r.conn.connect();
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
    const res = await api(`/api/rooms/${code}/games/${ctx.gameNo}`, { signal });
    if (!res.ok || ctx.log.length) return;
    ctx.log = res.data.moves.flatMap((m) => describe(gameName, m.outcome)).slice(-LOG_LIMIT);
    draw();
  }

  function onMessage(m) {
    if (tableLifeMessage(r, m) || coachMessage(r, m)) { draw(); return; }
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
        if (fresh) { ctx.log = []; ctx.summary = null; ctx.review = null; ctx.reviewing = false; ctx.finalClosed = false; ctx.unrated = false; }
        if (ctx.view && !ctx.log.length) whileShown(fetchLog());
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
      case "removed": // the host freed this browser's seat before the game
        ctx.seat = null;
        dropSeatToken(code);
        ctx.mine = seatFor(code);
        toast(() => t("web.lobby.removed"), "info");
        break;
      case "rated": // was the finished game rated, and each rated seat's change
        ctx.verdict = m;
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
        if (!lobbyError(r, m)) toast(() => errorText(m));
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
      lobbyEvent(r, m.room);
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
    coachAfterEvent(ctx, m);
    const before = ctx.view;
    ctx.view = m.view;
    ctx.gameNo = m.game_no;
    ctx.pending = false;
    const gameName = ctx.room.game;
    const lines = markMoveLines(r, describe(gameName, m.outcome), m.outcome.seat);
    ctx.log.push(...lines);
    if (ctx.log.length > LOG_LIMIT) ctx.log.splice(0, ctx.log.length - LOG_LIMIT);
    if (lines.length && m.outcome.seat !== ctx.seat) announce(lines.map((l) => lineText(l, r.name, ctx.seat)).join(". "));
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

  function page() {
    if (ctx.gone === "no_room") {
      return h("section", { class: "panel" }, h("h1", {}, t("web.room.gone_title")), h("p", {}, t("web.room.gone", { code })),
        h("p", {}, h("a", { href: `#/replay/${code}/1`, class: "button" }, t("web.replay.open")), " ", h("a", { href: "#/", class: "button" }, t("web.nav.home"))));
    }
    if (!ctx.room) return h("p", { class: "loading" }, t("web.room.connecting"));
    if (!ctx.view) return lobbyPage(r);
    return tablePage(r);
  }

  function draw() {
    // The lobby waits for a press to end (see unpressed); the table never waits (a drag).
    if (!ctx.view && isPressed()) { unpressed(draw); return; }
    const scrollY = window.scrollY;
    const focus = rememberFocus();
    const board = rememberBoard(r.board);
    // Chromium blurs (and so "changes") a focused field as the redraw takes it out of the
    // page: that is not the user leaving it, and the lobby ignores it (see lobby.js).
    const fresh = page();
    ctx.redrawing = true;
    try { patch(root, fresh); } finally { ctx.redrawing = false; }
    document.body.dataset.page = ctx.view ? "table" : ctx.room ? "lobby" : "room";
    showTurn(myTurnNow(ctx));
    r.board = root.querySelector(".board");
    if (r.board) settleBoard(r.board, board, ctx.flight);
    ctx.flight = null;
    settleFocus(r, root, focus);
    // The same page keeps its scroll; a new one (the lobby becomes the table) starts at
    // the top, where the table is laid out to fit.
    window.scrollTo(0, document.body.dataset.page === r.drawnPage ? scrollY : 0);
    r.drawnPage = document.body.dataset.page;
    focusDialog(r, root);
  }

  attachInput(r, root);
  connect();
  r.close = () => { showTurn(false); r.timer.stop(); r.chat.close(); if (r.conn) r.conn.close(); };
  return r;
}
