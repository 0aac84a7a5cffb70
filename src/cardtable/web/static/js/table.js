// The table while a game is played: the turn bar, the board with its piles and cards
// (drawn by the game's module: skipbo.js, skyjo.js), the score panel, the log; and what
// happens to the board after each drawing (it is fitted to the screen, changed cards are
// marked, the card just played flies to where it landed).
import { h, toast } from "./dom.js";
import { gameInfo } from "./gamelist.js";
import { t } from "./i18n.js";
import { icon } from "./icons.js";
import { closeHelp, helpDialog, openHelp, summaryDialog } from "./dialogs.js";
import { fitBoard } from "./layout.js";
import { fly } from "./play.js";
import { reasonSentence } from "./roomtext.js";
import { scorePanel } from "./scores.js";
import { setSound, soundOn } from "./sound.js";
import * as skipbo from "./skipbo.js";
import * as skyjo from "./skyjo.js";
import { lineText } from "./words.js";
import { chatPanel, hostTablePanel, timerBadge } from "./tablelife.js";
import { coachLine, coachWaiting } from "./coach.js";

export const GAMES = { skipbo, skyjo };

// Narrower windows (px) show the other players compact when there are several.
const COMPACT_BELOW = 600;

export { closeHelp, openHelp };

// Whether it is the player's own turn in a game still going on.
export function myTurnNow(ctx) {
  return Boolean(ctx.view && ctx.view.result === null && ctx.seat !== null && GAMES[ctx.room.game].current(ctx.view) === ctx.seat);
}

export function tablePage(r) {
  const ctx = r.ctx;
  const view = ctx.view;
  const gameName = ctx.room.game;
  const game = GAMES[gameName];
  const me = ctx.seat;
  const name = r.name;
  const turn = game.current(view);
  const over = view.result !== null;
  const online = ctx.status === "online";
  // Offline, a move could not be sent: the table offers none until the socket is back.
  const myTurn = !over && me !== null && turn === me && !ctx.pending && online;
  let actions = [];
  const moves = gameInfo(gameName)?.moves; // the server's table: action code -> move
  if (myTurn && moves) {
    actions = game.legalActions(view).map((code) => ({ code, ...game.actionFor(moves[code], me, view) }));
  }
  r.picker.set(actions, game.preferred(view), ctx.pending);
  const presence = (seat) => {
    const s = ctx.room.seats[seat];
    if (!s || s.kind === "bot") return null;
    if (s.away) return h("span", { class: "away", title: t("web.table.away") }, " ", t("web.table.away_short"));
    return s.connected ? null : h("span", { class: "offline", title: t("web.lobby.offline") }, " ", icon("offline"), h("span", { class: "sr-only" }, t("web.lobby.offline")));
  };
  const rctx = {
    me, name, presence, interactive: !over && me !== null,
    actionsHaveEndTurn: actions.some((a) => a.source === "endturn"),
    // On a phone, with more than one other player, the others are compact (a line each:
    // name, turn, what counts); a tap on one opens its piles or grid, another closes it.
    compact: window.innerWidth < COMPACT_BELOW && game.seatCount(view) > 2,
    expanded: (seat) => ctx.expanded.has(seat),
    toggle: (seat) => {
      if (ctx.expanded.has(seat)) ctx.expanded.delete(seat);
      else ctx.expanded.add(seat);
      r.draw();
    },
  };
  let banner;
  if (over) banner = t("web.table.game_over");
  else if (turn === me && !online) banner = t("web.table.offline_turn");
  else if (turn === me) banner = `${t("web.table.your_turn")} — ${game.prompt(view)}`;
  else if (coachWaiting(r)) banner = t("web.coach.waiting");
  else banner = t("web.table.turn_of", { name: name(turn) });
  const hint = myTurn && ctx.hint && ctx.hint.version === r.conn.version && ctx.hint.moves.length ? ctx.hint.moves[0] : null;
  if (hint) {
    const value = ctx.hint.measure === "win_chance" ? Math.round(100 * hint.value) : hint.value; // t() writes it the language's way
    banner = ctx.hint.measure === "win_chance" ? t("web.table.hint_skipbo", { value }) : t("web.table.hint_skyjo", { count: value });
  }
  const turnbar = h("div", { class: `turnbar${turn === me && !over ? " mine" : ""}`, role: "status", "aria-live": "polite", id: "turnbar" },
    h("span", { class: "round" }, t("web.table.round", { round: view.round })),
    h("span", { class: "banner" }, banner, hint ? hintReason(hint, name) : null),
    timerBadge(r),
    myTurn ? h("button", {
      type: "button", id: "hint", class: "hintbutton", disabled: ctx.hinting, title: t("web.table.hint_title"),
      "aria-describedby": hintCosts(r) ? "hint-cost" : null,
      onclick: () => askHint(r),
    }, ctx.hinting ? t("web.table.hint_thinking") : t("web.table.hint")) : null,
    myTurn && hintCosts(r) ? h("small", { id: "hint-cost", class: "hintcost" }, t("web.table.hint_unrates")) : null,
    over && ctx.finalClosed ? h("button", { type: "button", id: "show-scores", onclick: () => { ctx.finalClosed = false; r.draw(); } }, t("web.summary.show")) : null,
    h("button", {
      type: "button", id: "sound", class: "soundbutton", "aria-pressed": soundOn() ? "true" : "false", title: t("web.table.sound_title"),
      onclick: () => { setSound(!soundOn()); r.draw(); },
    }, icon("sound"), h("span", { class: "sr-only" }, t("web.table.sound"))),
    h("button", { type: "button", id: "keys-help", class: "keysbutton", "aria-label": t("web.keys.title"), title: t("web.keys.title"),
      onclick: () => openHelp(r) }, "?"));
  const boardEl = game.render(view, rctx);
  if (ctx.pending) boardEl.classList.add("waiting");
  r.picker.decorate(boardEl);
  if (hint) {
    // Light up where the suggested move starts and ends (the server sent its JSON form).
    const where = game.actionFor(hint.move, me, view);
    for (const id of [where.source, where.target]) {
      if (id === null) continue;
      for (const el of boardEl.querySelectorAll(`[data-id="${CSS.escape(id)}"]`)) el.classList.add("hinted");
    }
  }
  const side = h("aside", { class: "side" },
    scorePanel(view, game, name),
    h("details", { class: "log", open: window.innerWidth > 900 },
      h("summary", {}, t("web.table.log")),
      h("ol", { class: "loglist", "aria-label": t("web.table.log") },
        // Worded as drawn: a change of language words every line again.
        [...game.openingLines(view), ...ctx.log].slice(-60).reverse().map((l) => h("li", { class: `${l.seat === me ? "mine" : ""}${l.timeout ? " timeout" : ""}` }, lineText(l, name, me))))),
    chatPanel(r),
    hostTablePanel(r),
    h("p", { class: "sidebuttons" },
      h("a", { href: `#/rules/${gameName}`, target: "_blank", class: "button" }, t("web.nav.rules")),
      " ",
      h("a", { href: "#/", class: "button" }, t("web.nav.leave"))));
  const out = h("section", { class: `tablepage ${gameName}${online ? "" : " disconnected"}` }, turnbar, coachLine(r), h("div", { class: "tablewrap" }, boardEl, side));
  const dialog = ctx.help ? helpDialog(r) : summaryDialog(r, view, game);
  if (dialog) out.append(dialog);
  return out;
}

function hintReason(hint, name) {
  return h("span", { class: "hintreason", id: "hint-reason", dataset: { parts: JSON.stringify(hint.reason_parts || []) } },
    ...reasonSentence("web.table.hint_reason", hint.reason_parts, hint.reason, name));
}

// At a table whose rules a ladder rates, a hint makes the game unrated (the server
// says the ladder; a coached game is unrated anyway): the page says so before asking.
function hintCosts(r) {
  const room = r.ctx.room || {};
  return Boolean(room.ladder) && !(room.table && room.table.coach) && !r.ctx.unrated;
}

function askHint(r) {
  const ctx = r.ctx;
  if (!ctx.mine || ctx.hinting) return;
  if (r.send({ type: "hint", token: ctx.mine.token, version: r.conn.version })) {
    ctx.hinting = true;
    ctx.hint = null;
  } else {
    toast(() => t("web.net.offline"));
  }
  r.draw();
}

// Where each card and pile of the board is, and which face it shows, before a drawing.
export function rememberBoard(board) {
  const rects = new Map();
  const faces = new Map();
  if (board) {
    for (const el of board.querySelectorAll("[data-id]")) {
      if (!rects.has(el.dataset.id)) rects.set(el.dataset.id, el.getBoundingClientRect());
      faces.set(el.dataset.id, el.dataset.face);
    }
  }
  return { rects, faces };
}

// After a drawing: the board fits the screen, a card whose face changed is marked, and
// the move just made flies from where its card was (`flight`: [from id, to id]).
export function settleBoard(board, before, flight) {
  fitBoard(board);
  for (const el of board.querySelectorAll("[data-id]")) {
    if (before.faces.has(el.dataset.id) && before.faces.get(el.dataset.id) !== el.dataset.face) el.classList.add("changed");
  }
  if (flight) {
    const [from, to] = flight;
    fly(before.rects.get(from), board.querySelector(`[data-id="${CSS.escape(to)}"]`));
  }
}
