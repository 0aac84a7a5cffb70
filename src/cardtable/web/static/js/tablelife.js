// Table life in a room: the chat (chat.js), the turn countdown (timer.js) and the
// table options (tableopts.js), tied to the room `r` (see room.js) by a few hooks:
// attachTableLife(r) once, tableLifeMessage(r, m) for each server message, and the
// parts the lobby and the table draw (chatPanel, timerBadge, tableOptions).
import { announce, h, toast } from "./dom.js";
import { t } from "./i18n.js";
import { errorText } from "./roomtext.js";
import { TableChat } from "./chat.js";
import { TableOptionsForm } from "./tableopts.js";
import { TurnTimer } from "./timer.js";
import { lineText } from "./words.js";

export function attachTableLife(r) {
  r.chat = new TableChat(r.send, () => r.draw());
  r.timer = new TurnTimer();
  r.tableOpts = new TableOptionsForm((options) => {
    const ctx = r.ctx;
    if (!ctx.mine || !ctx.mine.host_token) return false;
    const ok = r.send({ type: "table", host_token: ctx.mine.host_token, options });
    if (!ok) toast(() => t("web.net.offline"));
    return ok;
  }, () => r.ctx.redrawing);
}

// A server message: true when it was table life's alone (the caller then draws).
// A `sync` gives the clock; a move's log lines are marked when a bot played them for
// a player whose time ran out (see markMoveLines).
export function tableLifeMessage(r, m) {
  if (r.chat.onMessage(m)) return true;
  if (m.type === "clock") {
    r.timer.update(m);
    return true;
  }
  if (m.type === "sync") r.timer.update(m.clock);
  if (m.type === "notice" && m.code === "turn_timeout") {
    const line = TurnTimer.timeoutLine(m.seat, r.ctx.seat);
    r.ctx.log.push(line);
    announce(lineText(line, r.name, r.ctx.seat));
    return true;
  }
  if (m.type === "notice" && m.code === "hinted") {
    // A hint at a rated table: the game is unrated from now on, for everyone.
    const text = t("web.table.hinted", { name: r.name(m.seat) });
    r.ctx.unrated = true;
    toast(text, "info");
    announce(text);
    return true;
  }
  if (m.type === "error" && m.code === "bad_table_options") {
    r.tableOpts.refused(errorText(m));
    announce(errorText(m));
    return true;
  }
  return false;
}

export function markMoveLines(r, lines, seat) {
  return r.timer.markBotLines(lines, seat, r.ctx.seat);
}

export function chatPanel(r) {
  const ctx = r.ctx;
  const table = (ctx.room && ctx.room.table) || {};
  const player = ctx.seat !== null;
  return r.chat.panel({
    name: r.name,
    canWrite: player || Boolean(table.spectator_chat),
  });
}

// The host's table options during the game (time per move, spectators' chat), in the
// side panel; the lobby shows them in its own page (tableOptions).
export function hostTablePanel(r) {
  if (!r.isHost() || !r.ctx.view || r.ctx.view.result !== null) return null;
  return h("details", { class: "tablepanel", id: "table-panel", open: r.tableOpts.open, ontoggle: (e) => { r.tableOpts.open = e.currentTarget.open; } },
    h("summary", {}, t("web.tableopt.title")),
    r.tableOpts.element(r.ctx.room.table, true, true));
}

export function timerBadge(r) {
  if (!r.ctx.view || r.ctx.view.result !== null) return null;
  return r.timer.element(r.name, r.ctx.seat);
}

export function tableOptions(r) {
  return r.tableOpts.element(r.ctx.room.table, r.isHost());
}
