// The practice coach at the table (docs/protocol.md, "The practice coach"): after a
// clearly worse move of the player, the server's one line in the review's words (what
// the move cost, the better move and why) and, while the move may still be taken back,
// the buttons to take it back or to keep it. The line stays until the player moves again.
import { announce, h, toast } from "./dom.js";
import { language, t } from "./i18n.js";
import { reasonSentence } from "./roomtext.js";
import { moveText } from "./words.js";

// A server message of the coach's: true when it was one (the caller then draws).
export function coachMessage(r, m) {
  const ctx = r.ctx;
  if (m.type === "coach") {
    ctx.coach = m;
    announce(`${t("web.coach.title")}: ${costText(m)} ${t("review.better", { move: moveText(ctx.room.game, m.best_move) })}`);
    return true;
  }
  if (m.type === "took_back") {
    ctx.coach = null;
    ctx.log = []; // the sync that follows brings the log of the moves that stand
    if (m.seat === ctx.seat) toast(() => t("web.coach.took_back"), "info");
    return true;
  }
  return false;
}

// A move event: the player's own next move ends the line about the last one.
export function coachAfterEvent(ctx, m) {
  if (ctx.coach && (m.game_no !== ctx.coach.game_no || (m.outcome.seat === ctx.seat && m.index > ctx.coach.index))) ctx.coach = null;
}

// Whether the take-back is on offer: nothing happened since the move (the room is still
// at its version) and the player has not kept it. The bots wait meanwhile.
export function coachWaiting(r) {
  const ctx = r.ctx;
  const m = ctx.coach;
  return Boolean(m && m.take_back && !m.kept && m.game_no === ctx.gameNo && r.conn && r.conn.version === m.version && ctx.view && ctx.view.result === null);
}

export function coachLine(r) {
  const ctx = r.ctx;
  const m = ctx.coach;
  if (!m || !ctx.view || m.game_no !== ctx.gameNo) return null;
  const gameName = ctx.room.game;
  const cost = costText(m);
  const open = coachWaiting(r);
  let answer = null;
  if (open) {
    answer = h("span", { class: "coachbuttons" },
      h("button", { type: "button", id: "coach-take-back", class: "primary", onclick: () => reply(r, "take_back") }, t("web.coach.take_back")),
      " ",
      h("button", { type: "button", id: "coach-keep", onclick: () => reply(r, "keep_move") }, t("web.coach.keep")));
  } else if (m.no_take_back) {
    answer = h("span", { class: "muted", id: "coach-no-take-back" }, t(`web.coach.no_take_back.${m.no_take_back}`));
  }
  return h("div", { class: "coachline", id: "coach-line", role: "status", dataset: { index: String(m.index) } },
    h("strong", {}, t("web.coach.title")), " ",
    h("span", { class: "cost" }, cost), " ",
    h("span", { class: "better" }, t("review.better", { move: moveText(gameName, m.best_move) })), " · ",
    h("span", { class: "why", dataset: { parts: JSON.stringify(m.reason_parts || []) } },
      ...reasonSentence("review.reason", m.reason_parts, m.reason, r.name)),
    answer ? " " : null, answer);
}

// What the move cost, in the review's words.
function costText(m) {
  return m.measure === "win_chance"
    ? t("review.cost_skipbo", { cost: new Intl.NumberFormat(language(), { maximumFractionDigits: 1 }).format(100 * m.cost) })
    : t("review.cost_skyjo", { count: Math.round(10 * m.cost) / 10 });
}

function reply(r, type) {
  const ctx = r.ctx;
  if (!ctx.mine || !ctx.coach) return;
  if (!r.send({ type, token: ctx.mine.token, version: ctx.coach.version })) {
    toast(() => t("web.net.offline"));
    return;
  }
  if (type === "keep_move") ctx.coach = { ...ctx.coach, kept: true };
  r.draw();
}
