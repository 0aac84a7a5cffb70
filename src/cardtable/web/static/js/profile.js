// A player's profile (#/player/NAME, docs/players.md#profiles): their rating on each
// ladder with its history drawn as a small plot, their games and wins per game and
// variant (Skyjo's points per round), and their recent games with links to the replays.
import { api } from "./api.js";
import { h } from "./dom.js";
import { gameTitle } from "./gamelist.js";
import { formatNumber, language, t } from "./i18n.js";
import { ladderName, seatLabel } from "./players.js";
import { errorText } from "./roomtext.js";

const SVG = "http://www.w3.org/2000/svg";
const PLOT = { width: 320, height: 110, pad: 8, left: 44 };

const signed = (n) => (n > 0 ? `+${formatNumber(n)}` : n < 0 ? `\u2212${formatNumber(-n)}` : formatNumber(0));

function svg(name, attributes, ...children) {
  const el = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) el.setAttribute(key, String(value));
  el.append(...children);
  return el;
}

// The rating after each rated game as a line, the first point the rating it started
// from; the highest and lowest ratings written beside it.
export function ratingPlot(points, ladder) {
  const ratings = points.map((p) => p.rating);
  let low = Math.min(...ratings);
  let high = Math.max(...ratings);
  if (high - low < 20) { low -= 10; high += 10; }
  const { width, height, pad, left } = PLOT;
  const x = (i) => left + (points.length > 1 ? (i * (width - left - pad)) / (points.length - 1) : (width - left - pad) / 2);
  const y = (r) => height - pad - ((r - low) * (height - 2 * pad)) / (high - low);
  const label = t("web.profile.plot_label", { ladder: ladderName(ladder), from: ratings[0], to: ratings[ratings.length - 1], count: points.length - 1 });
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ");
  return svg("svg", { class: "ratingplot", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label, "data-points": points.length },
    svg("title", {}, label),
    svg("line", { class: "axis", x1: left - 4, y1: pad, x2: left - 4, y2: height - pad }),
    svg("text", { x: left - 8, y: pad + 4, "text-anchor": "end" }, formatNumber(Math.max(...ratings))),
    svg("text", { x: left - 8, y: height - pad, "text-anchor": "end" }, formatNumber(Math.min(...ratings))),
    svg("polyline", { points: line }),
    ...points.map((p, i) => svg("circle", { cx: x(i).toFixed(1), cy: y(p.rating).toFixed(1), r: 2.5 })));
}

function ratingCard(entry, minGames) {
  const standing = entry.rank
    ? t("web.profile.rank", { rank: entry.rank })
    : t("web.board.you_needed", { count: Math.max(0, minGames - entry.games) });
  return h("section", { class: "panel ladderrating", dataset: { ladder: entry.ladder } },
    h("h3", {}, ladderName(entry.ladder)),
    h("p", { class: "rating" }, h("strong", {}, t("web.board.rating_value", { rating: entry.rating, plus_minus: entry.plus_minus })),
      entry.provisional ? [" ", h("span", { class: "provisional" }, t("web.profile.provisional"))] : null),
    h("p", { class: "muted" }, t("web.profile.rated_games", { count: entry.games }), " · ", t("web.profile.wins", { count: entry.wins }), " · ", standing),
    // Said in words, not only marked: why a game against this player may move nothing.
    entry.provisional ? h("p", { class: "muted small provisional-why" }, t("web.profile.provisional_why", { min: minGames })) : null,
    entry.history.length > 1 ? ratingPlot(entry.history, entry.ladder) : null);
}

// A table that scrolls sideways on a narrow screen rather than squeeze (a region the
// keyboard can reach and scroll).
const scroller = (table, label) => h("div", { class: "tablescroll", tabindex: "0", role: "region", "aria-label": label }, table);

function countsTable(games) {
  const head = ["game", "variant", "played", "won", "points_per_round"].map((c) => h("th", { scope: "col" }, t(`web.profile.col_${c}`)));
  return scroller(h("table", { class: "scores", id: "profile-games" },
    h("caption", {}, t("web.profile.games_title")),
    h("thead", {}, h("tr", {}, head)),
    h("tbody", {}, games.map((g) => h("tr", { dataset: { game: g.game, variant: g.variant } },
      h("td", {}, gameTitle(g.game)),
      h("td", {}, t(`web.profile.variant_${g.variant}`)),
      h("td", {}, formatNumber(g.played)),
      h("td", {}, formatNumber(g.won)),
      h("td", {}, g.points_per_round == null ? "\u2014" : formatNumber(g.points_per_round)))))), t("web.profile.games_title"));
}

function ratingCell(game) {
  if (game.rated) return h("td", { class: "change" }, signed(game.rating_change ?? 0));
  if (!game.unrated_reason) return h("td", { class: "muted" }, "\u2014");
  return h("td", { class: "muted" }, t("web.rated.unrated_short"), h("br"), h("small", {}, t(`web.rated.reason.${game.unrated_reason}`)));
}

function recentTable(recent) {
  const date = new Intl.DateTimeFormat(language(), { dateStyle: "medium", timeStyle: "short" });
  const head = ["date", "game", "result", "players", "rating", "replay"].map((c) => h("th", { scope: "col" }, t(`web.profile.col_${c}`)));
  return scroller(h("table", { class: "scores", id: "profile-recent" },
    h("caption", {}, t("web.profile.recent_title")),
    h("thead", {}, h("tr", {}, head)),
    h("tbody", {}, recent.map((g) => {
      const seats = [];
      g.seats.forEach((seat, i) => { if (i) seats.push(", "); seats.push(seatLabel(seat)); });
      return h("tr", { class: g.result === "won" ? "winner" : "", dataset: { result: g.result } },
        h("td", {}, date.format(new Date(g.finished_at * 1000))),
        h("td", {}, `${gameTitle(g.game)} · ${t(`web.profile.variant_${g.variant}`)}`),
        h("td", {}, t(`web.profile.result_${g.result}`), g.score == null ? "" : ` (${formatNumber(g.score)})`),
        h("td", {}, seats),
        ratingCell(g),
        h("td", {}, g.replay
          ? h("a", { href: `#/replay/${g.replay.code}/${g.replay.game_no}`, class: "replaylink" }, t("web.profile.replay"))
          : h("span", { class: "muted", title: t("web.profile.replay_private") }, "\u2014")));
    }))), t("web.profile.recent_title"));
}

// The answer's page: the profile, or the error the server gave.
function content(name, res) {
  if (!res.ok) return [h("h1", {}, name), h("p", { class: "error", role: "alert" }, errorText(res.data))];
  const body = res.data;
  const since = new Intl.DateTimeFormat(language(), { dateStyle: "long" }).format(new Date(body.member_since * 1000));
  return [
    h("h1", { id: "profile-name" }, body.name),
    h("p", { class: "muted" }, t("web.profile.member_since", { date: since }),
      body.you ? [" · ", h("a", { href: "#/account" }, t("web.profile.your_account"))] : ""),
    h("h2", {}, t("web.profile.ratings_title")),
    body.ratings.length
      ? h("div", { class: "ladderratings" }, body.ratings.map((r) => ratingCard(r, body.min_games)))
      : h("p", { class: "muted", id: "profile-unrated" }, t("web.profile.no_rating")),
    body.games.length ? countsTable(body.games) : h("p", { class: "muted", id: "profile-no-games" }, t("web.profile.no_games")),
    body.recent.length ? recentTable(body.recent) : null,
    body.recent.some((g) => !g.replay) ? h("p", { class: "muted small" }, t("web.profile.replay_private")) : null,
  ];
}

// #/player/NAME (page.js): drawn once the server answers, again from that answer in a
// new language.
export function profilePage(name) {
  let app = null;
  let answer = null;
  const draw = () => {
    app.replaceChildren(answer
      ? h("section", { class: "profile" }, ...content(name, answer))
      : h("p", { class: "loading" }, t("web.room.connecting")));
    document.body.dataset.page = "profile";
  };
  return {
    title: () => name,
    async mount(into, signal) {
      app = into;
      draw();
      answer = await api(`/api/players/${encodeURIComponent(name)}`, { signal });
      draw();
    },
    redraw: () => draw(),
  };
}
