// The leaderboards (#/leaderboard/{ladder}, docs/players.md#ratings): the best players
// of a ladder, the bot levels in their places among them, and the reader's own rank.
import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { LADDERS, ladderName, profileLink } from "./players.js";
import { errorText } from "./roomtext.js";

const rating = (entry) => t("web.board.rating_value", { rating: entry.rating, plus_minus: entry.plus_minus });

function row(entry, bot) {
  return h("tr", { class: bot ? "bot" : null, dataset: bot ? { bot: entry.level } : {} },
    h("td", {}, bot ? "" : String(entry.rank)),
    h("td", {}, bot ? t(`web.bot.${entry.bot}`) : h("a", { href: profileLink(entry.name) }, entry.name)),
    h("td", {}, rating(entry)),
    h("td", {}, String(entry.games)),
    h("td", {}, String(entry.wins)));
}

// The players in rank order, each bot level before the player whose rank is its place.
function rows(body) {
  const out = [];
  const bots = [...body.bots].sort((a, b) => a.place - b.place || b.rating - a.rating);
  let next = 0;
  for (const player of body.players) {
    while (next < bots.length && bots[next].place <= player.rank) out.push(row(bots[next++], true));
    out.push(row(player, false));
  }
  while (next < bots.length) out.push(row(bots[next++], true));
  return out;
}

function yours(you) {
  if (!you) return h("p", { id: "board-you" }, h("a", { href: "#/account" }, t("web.board.guest")));
  const mine = h("a", { href: profileLink(you.name), id: "board-profile" }, t("web.profile.mine"));
  if (you.rank) return h("p", { id: "board-you" }, t("web.board.you_rank", { rank: you.rank, rating: you.rating, plus_minus: you.plus_minus }), " ", mine);
  const rated = you.rating == null ? [] : [t("web.board.you_rating", { rating: you.rating, plus_minus: you.plus_minus }), " "];
  return h("p", { id: "board-you" }, ...rated, t("web.board.you_needed", { count: you.games_needed }), " ", mine);
}

function content(ladder, res) {
  if (!res.ok) return [h("p", { class: "error", role: "alert" }, errorText(res.data))];
  const body = res.data;
  const head = h("tr", {}, ["rank", "player", "rating", "games", "wins"].map((c) => h("th", { scope: "col" }, t(`web.board.${c}`))));
  return [
    yours(body.you),
    h("table", { class: "scores", id: "board" },
      h("caption", {}, ladderName(ladder)), h("thead", {}, head), h("tbody", {}, rows(body))),
    h("p", { class: "muted", id: "board-rules" }, t("web.board.min_games", { count: body.min_games }), " ", t("web.board.rated_help")),
  ];
}

// #/leaderboard/{ladder} (page.js): the first ladder when the one asked is unknown.
export function leaderboardPage(asked) {
  const ladder = LADDERS.includes(asked) ? asked : LADDERS[0];
  let app = null;
  let answer = null;
  const draw = () => {
    const tabs = h("nav", { class: "ladders", "aria-label": t("web.board.ladders") },
      LADDERS.map((l) => h("a", { href: `#/leaderboard/${l}`, "aria-current": l === ladder ? "page" : null }, ladderName(l))));
    app.replaceChildren(h("section", { class: "leaderboard" }, h("h1", {}, t("web.board.title")), tabs,
      ...(answer ? content(ladder, answer) : [h("p", { class: "loading" }, t("web.room.connecting"))])));
    document.body.dataset.page = "leaderboard";
    document.body.dataset.ladder = ladder;
  };
  return {
    title: () => t("web.board.title"),
    async mount(into, signal) {
      app = into;
      draw(); // the page left is gone at once, not while the ladder is asked for
      answer = await api(`/api/leaderboard/${ladder}`, { signal });
      draw();
    },
    redraw: () => draw(),
  };
}
