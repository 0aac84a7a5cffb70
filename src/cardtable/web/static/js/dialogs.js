// The dialogs over the table: the keyboard shortcuts ("?") and the summary of a round
// or of the match (with the post-game review and the rematch).
import { h, toast } from "./dom.js";
import { formatNames, formatNumber, language, t } from "./i18n.js";
import { icon } from "./icons.js";
import { reasonSentence } from "./roomtext.js";
import * as skipbo from "./skipbo.js";
import * as skyjo from "./skyjo.js";
import { moveText } from "./words.js";

// The keyboard shortcuts ("?" opens it, Escape or its button closes it).
export function helpDialog(r) {
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
      h("p", { class: "dialogbuttons" }, h("button", { type: "button", class: "primary", id: "keys-close", onclick: () => closeHelp(r) }, t("web.keys.close")))));
}

export function openHelp(r) {
  r.ctx.help = true;
  r.draw();
  const close = document.getElementById("keys-close");
  if (close) close.focus();
}

export function closeHelp(r) {
  r.ctx.help = false;
  r.draw();
  const opener = document.getElementById("keys-help");
  if (opener) opener.focus();
}

function askReview(r) {
  const ctx = r.ctx;
  if (!ctx.mine || ctx.reviewing) return;
  if (r.send({ type: "review", token: ctx.mine.token })) ctx.reviewing = true;
  else toast(() => t("web.net.offline"));
  r.draw();
}

function reviewSection(review, gameName, name) {
  const winChance = review.measure === "win_chance";
  const number = new Intl.NumberFormat(language(), { maximumFractionDigits: 1 });
  const byNumber = new Map(review.moves.map((m) => [m.number, m]));
  const worst = review.worst.map((n) => byNumber.get(n)).filter(Boolean);
  const items = worst.map((m) => h("li", { class: "reviewed" },
    h("div", { class: "played" }, t("review.move", { number: m.number, move: moveText(gameName, m.played_move) })),
    h("div", { class: "cost" }, winChance
      ? t("review.cost_skipbo", { cost: number.format(100 * m.cost) })
      : t("review.cost_skyjo", { count: m.cost })),
    h("div", { class: "better" }, t("review.better", { move: moveText(gameName, m.best_move) })),
    h("div", { class: "why muted", dataset: { parts: JSON.stringify(m.reason_parts || []) } },
      ...reasonSentence("review.reason", m.reason_parts, m.reason, name))));
  return h("section", { class: "review", id: "review-list" },
    h("h3", {}, t("review.title")),
    h("p", {}, t("review.summary", {
      reviewed: review.reviewed,
      decisions: t("review.decisions", { count: review.decisions }),
      best: t("review.best", { count: review.best_moves }),
    })),
    h("p", {}, t(items.length ? "review.worst" : "review.none")),
    items.length ? h("ol", { class: "reviewlist" }, items) : null,
    h("p", { class: "muted small" }, t("review.note")));
}

// Was the game rated: each rated seat's new rating and change (the reader's own first),
// or why it was not.
function verdictSection(verdict, name, me) {
  if (!verdict.rated) {
    return h("p", { class: "verdict unrated", id: "verdict" }, t("web.rated.unrated"), " ",
      t(`web.rated.reason.${verdict.reason || "blocked"}`));
  }
  const seats = [...verdict.seats].sort((a, b) => (b.seat === me) - (a.seat === me) || a.seat - b.seat);
  const change = (n) => (n > 0 ? `+${formatNumber(n)}` : n < 0 ? `\u2212${formatNumber(-n)}` : formatNumber(0));
  return h("div", { class: "verdict rated", id: "verdict" },
    h("p", {}, t("web.rated.rated", { ladder: t(`web.board.ladder_${verdict.ladder.replace("-", "_")}`) })),
    h("ul", {}, seats.map((s) => h("li", { dataset: { seat: s.seat } },
      t("web.rated.seat_change", { name: name(s.seat), rating: s.rating, plus_minus: s.plus_minus, change: change(s.change) })))));
}

// The summary of the round just ended (Continue closes it) or of the match (closable, to
// look at the table; the turn bar's button opens it again).
export function summaryDialog(r, view, game) {
  const ctx = r.ctx;
  const name = r.name;
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
      ? t("web.summary.winners", { names: formatNames(result.winners.map(name)), count: result.winners.length })
      : t("web.summary.no_winner")));
    body.push(h("table", { class: "scores final" },
      h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("web.score.player")), h("th", {}, t(lowWins ? "web.score.total" : "web.score.points")))),
      h("tbody", {}, ranking.map((row, i) => h("tr", { class: result.winners.includes(row.seat) ? "winner" : "" },
        h("td", {}, String(i + 1)), h("th", { scope: "row" }, result.winners.includes(row.seat) ? [icon("star", "winstar"), " "] : "", name(row.seat)), h("td", {}, String(row.score)))))));
  }
  if (summary && summary.game === "skyjo") {
    if (over) body.push(h("h3", {}, t("web.summary.round_title", { round: summary.round })));
    body.push(skyjo.renderRoundSummary(summary, { name, me: ctx.seat }));
  } else if (summary && summary.game === "skipbo" && view.rules.rounds) {
    body.push(skipbo.renderRoundSummary(summary, { name }, view));
  } else if (over && game === skyjo) {
    body.push(skyjo.renderRoundSummary({
      game: "skyjo", round: view.round, closer: null, doubled: false,
      points: view.rounds.length ? view.rounds[view.rounds.length - 1].points : view.totals,
      totals: view.totals, grids: view.grids, status: view.status,
    }, { name }));
  }
  if (over && ctx.verdict && ctx.verdict.game_no === ctx.gameNo) body.push(verdictSection(ctx.verdict, name, ctx.seat));
  if (over && ctx.review) body.push(reviewSection(ctx.review, ctx.room.game, name));
  const buttons = h("p", { class: "dialogbuttons" });
  if (over && ctx.seat !== null && ctx.mine && !ctx.review) {
    buttons.append(h("button", { type: "button", id: "review", disabled: ctx.reviewing, onclick: () => askReview(r) },
      ctx.reviewing ? t("review.thinking") : t("web.review.button")), " ");
  }
  if (over) {
    if (r.isHost()) {
      // Back to the lobby with the same seats: the host may change the options, then starts.
      buttons.append(h("button", { type: "button", class: "primary", id: "rematch", onclick: () => {
        r.send({ type: "rematch", host_token: ctx.mine.host_token });
      } }, t("web.summary.rematch")));
    } else {
      buttons.append(h("span", { class: "muted" }, t("web.summary.rematch_wait")));
    }
    buttons.append(" ", h("a", { class: "button", href: `#/replay/${r.code}/${ctx.gameNo}`, id: "replay" }, t("web.replay.open")),
      " ", h("a", { class: "button", href: "#/" }, t("web.nav.new_table")),
      " ", h("button", { type: "button", id: "summary-close", onclick: () => { ctx.finalClosed = true; r.draw(); } }, t("web.summary.close")));
  } else {
    buttons.append(h("button", { type: "button", class: "primary continue", onclick: () => { ctx.dismissed = true; r.draw(); } }, t("web.summary.continue")));
  }
  return h("div", { class: "overlay" },
    h("div", { class: `dialog ${over ? "match-summary" : "round-summary"}`, role: "dialog", "aria-modal": "true", "aria-labelledby": "summary-title", id: "summary" },
      h("h2", { id: "summary-title" }, title), body, buttons));
}
