// The score panel beside the table: every finished round's points (the table scrolls
// sideways for many rounds), then the running total; the current player is marked.
import { h } from "./dom.js";
import { formatNumber, t } from "./i18n.js";
import { icon } from "./icons.js";

export function scorePanel(view, game, name) {
  const skyjo = game.game === "skyjo";
  const totals = skyjo ? view.totals : view.players.map((p) => p.score);
  const showTotals = skyjo || view.rules.rounds;
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
