// The Skip-Bo table: own hand, stocks, every discard pile in full, the building piles.
import { backFace, emptyFace, skipboFace, skipboName } from "./cards.js";
import { h } from "./dom.js";
import { icon } from "./icons.js";
import { formatNames, t, whose } from "./i18n.js";

export const game = "skipbo";

// The most cards a discard pile shows fanned out (its label names them all).
const FAN_MAX = 6;

export function current(view) {
  return view.current;
}

export function seatCount(view) {
  return view.players.length;
}

export function legalActions(view) {
  return view.legal_actions || [];
}

function owner(view, mover, partner) {
  return partner ? view.players[mover].partner : mover;
}

export function actionFor(move, mover, view) {
  switch (move.type) {
    case "play_hand": return { source: `hand:${move.card}`, target: `build:${move.pile}` };
    case "play_stock": return { source: `stock:${owner(view, mover, move.partner)}`, target: `build:${move.pile}` };
    case "play_discard":
      return { source: `disc:${owner(view, mover, move.partner)}:${move.discard}`, target: `build:${move.pile}` };
    case "discard":
      return { source: `hand:${move.card}`, target: `disc:${owner(view, mover, move.partner)}:${move.discard}` };
    case "end_turn": return { source: "endturn", target: null };
    default: return { source: null, target: null };
  }
}

export function flight(move, mover, view, me) {
  const a = actionFor(move, mover, view);
  if (a.target === null) return null;
  const from = a.source.startsWith("hand:") && mover !== me ? `handof:${mover}` : a.source;
  return [from, a.target];
}

export function preferred() {
  return null;
}

// The lines the game log starts with: sheet 003's draw for the deal, when the table
// plays it (the view's `cut`: each pass a list of [seat, card]; the dealer is marked on
// the table).
export function openingLines(view) {
  if (!view.cut || !view.cut.length) return [];
  return [{ seat: null, parts: [{ key: "web.log.skipbo.cut", params: { draws: { cut: view.cut } } }] }];
}

// Who deals this round (sheet 003's draw for the deal; the view says null otherwise).
function dealerBadge(view, seat) {
  return view.dealer === seat ? [" ", h("span", { class: "badge dealer" }, t("web.skipbo.dealer"))] : null;
}

export function prompt(view) {
  const actions = legalActions(view);
  if (actions.length === 1) return t("web.skipbo.prompt.end_turn");
  return t("web.skipbo.prompt.turn");
}

function cardButton(id, label, face, interactive, extra = "") {
  const attrs = { class: `card ${extra}`.trim(), "aria-label": label, dataset: { id, face: label } };
  return interactive ? h("button", { type: "button", ...attrs }, face) : h("div", { role: "img", ...attrs }, face);
}

function discardPile(view, seat, index, ctx, interactive) {
  const cards = view.players[seat].discards[index];
  const names = cards.map(skipboName);
  const label = cards.length
    ? t(whose("web.skipbo.discard_pile", seat, ctx.me), { n: index + 1, name: ctx.name(seat), cards: names.join(", "), top: names[names.length - 1] })
    : t(whose("web.skipbo.discard_empty", seat, ctx.me), { n: index + 1, name: ctx.name(seat) });
  const fan = h(interactive ? "button" : "div", {
    class: "fan card",
    type: interactive ? "button" : null,
    role: interactive ? null : "img",
    "aria-label": label,
    dataset: { id: `disc:${seat}:${index}`, face: names.join(",") },
    style: `--n:${Math.max(Math.min(cards.length, FAN_MAX), 1)}`,
  });
  if (!cards.length) fan.append(emptyFace());
  // A bounded fan: the last cards only, and how many lie under them.
  const hidden = Math.max(0, cards.length - FAN_MAX);
  if (hidden) fan.append(h("span", { class: "fanmore", "aria-hidden": "true" }, `+${hidden}`));
  cards.slice(hidden).forEach((card) => fan.append(h("span", { class: "fancard" }, skipboFace(card))));
  return fan;
}

function stockPile(view, seat, ctx, interactive) {
  const p = view.players[seat];
  const label = p.stock_size
    ? t(whose("web.skipbo.stock_pile", seat, ctx.me), { name: ctx.name(seat), card: skipboName(p.stock_top), count: p.stock_size })
    : t(whose("web.skipbo.stock_empty", seat, ctx.me), { name: ctx.name(seat) });
  return h("div", { class: "pilebox stockbox" },
    cardButton(`stock:${seat}`, label, p.stock_size ? skipboFace(p.stock_top) : emptyFace(), interactive, "pile stock"),
    h("span", { class: "pilename", "aria-hidden": "true" }, t("web.skipbo.stock_short", { count: p.stock_size })));
}

// In a team game, a player's team, named in the place's header (laid out in columns,
// a team's places are not framed together; the group's own name is for screen readers).
function teamTag(view, seat, ctx) {
  if (!view.rules.teams) return null;
  const ours = ctx.me !== null && view.players[seat].team === view.players[ctx.me].team;
  return h("span", { class: "teamtag", "aria-hidden": "true" },
    "· ", ours ? t("web.skipbo.your_team") : t("web.skipbo.team", { n: view.players[seat].team + 1 }));
}

function playerPanel(view, seat, ctx, opts = {}) {
  const { mine = false, partner = false } = opts;
  const p = view.players[seat];
  const turn = current(view) === seat;
  const interactive = ctx.interactive && (mine || partner);
  if (ctx.compact && !mine && !partner) return compactPanel(view, seat, ctx, turn);
  const discards = h("div", { class: "discards", role: "group", "aria-label": t(whose("web.skipbo.discards_of", seat, ctx.me), { name: ctx.name(seat) }) });
  for (let i = 0; i < 4; i++) discards.append(discardPile(view, seat, i, ctx, interactive));
  const panel = h("section", {
    class: `player${mine ? " mine" : ""}${partner ? " partner" : ""}${turn ? " turn" : ""}`,
    "aria-label": ctx.name(seat),
    dataset: { seat: String(seat) },
  },
  h("header", {},
    h("span", { class: "who" }, turn ? [icon("turn", "turnmark"), " "] : null, ctx.name(seat), ctx.presence(seat), dealerBadge(view, seat), teamTag(view, seat, ctx)),
    h("span", { class: "nums" },
      mine ? null : h("span", { class: "handcount", "data-id": `handof:${seat}`, "aria-label": t("web.skipbo.hand_size", { count: p.hand_size }) },
        icon("cards"), " ", String(p.hand_size)),
      view.rules.rounds ? h("span", { class: "score" }, " · ", t("web.score.points_short", { count: p.score })) : null)),
  h("div", { class: "row" }, stockPile(view, seat, ctx, interactive), discards));
  return panel;
}

// Another player on a phone: one line (name, turn, stock top and size, cards in hand)
// that opens the player's piles when tapped.
function compactPanel(view, seat, ctx, turn) {
  const p = view.players[seat];
  const open = ctx.expanded(seat);
  const stock = p.stock_size ? t("web.skipbo.stock_line", { card: skipboName(p.stock_top), count: p.stock_size }) : t("web.skipbo.stock_short", { count: 0 });
  const line = h("button", {
    type: "button", class: "seattoggle", "aria-expanded": open ? "true" : "false", dataset: { key: `seat-toggle-${seat}` },
    onclick: () => ctx.toggle(seat),
  },
  h("span", { class: "who" }, turn ? [icon("turn", "turnmark"), " "] : null, ctx.name(seat), ctx.presence(seat), dealerBadge(view, seat)),
  h("span", { class: "nums" }, stock, " · ",
    h("span", { class: "handcount", "data-id": `handof:${seat}`, "aria-label": t("web.skipbo.hand_size", { count: p.hand_size }) },
      icon("cards"), " ", String(p.hand_size)),
    view.rules.rounds ? h("span", { class: "score" }, " · ", t("web.score.points_short", { count: p.score })) : null));
  const discards = h("div", { class: "discards", role: "group", "aria-label": t(whose("web.skipbo.discards_of", seat, ctx.me), { name: ctx.name(seat) }) });
  if (open) for (let i = 0; i < 4; i++) discards.append(discardPile(view, seat, i, ctx, false));
  return h("section", {
    class: `player compact${open ? " open" : ""}${turn ? " turn" : ""}`,
    "aria-label": ctx.name(seat),
    dataset: { seat: String(seat) },
  }, line, open ? h("div", { class: "row" }, stockPile(view, seat, ctx, false), discards) : null);
}

export function render(view, ctx) {
  const me = ctx.me;
  const board = h("div", { class: "board skipbo-board" });
  const n = view.players.length;
  const partner = me === null ? null : view.players[me].partner;
  const others = [];
  for (let i = 1; i <= n; i++) {
    const seat = me === null ? i - 1 : (me + i) % n;
    if (seat !== me && seat !== partner) others.push(seat);
  }
  const opponents = h("div", { class: "opponents" });
  if (view.rules.teams) {
    const teams = new Map();
    for (const seat of others) {
      const team = view.players[seat].team;
      if (!teams.has(team)) teams.set(team, []);
      teams.get(team).push(seat);
    }
    for (const [team, seats] of teams) {
      opponents.append(h("div", { class: "team", role: "group", "aria-label": t("web.skipbo.team", { n: team + 1 }) },
        h("h3", { class: "teamname" }, t("web.skipbo.team", { n: team + 1 })),
        seats.map((seat) => playerPanel(view, seat, ctx))));
    }
  } else {
    for (const seat of others) opponents.append(playerPanel(view, seat, ctx));
  }
  board.append(opponents);

  const building = h("div", { class: "building", role: "group", "aria-label": t("web.skipbo.building_piles") });
  view.building.forEach((pile, index) => {
    const top = pile.length ? pile[pile.length - 1] : null;
    const label = pile.length
      ? t("web.skipbo.building_pile", { n: index + 1, value: pile.length, next: pile.length + 1 })
      : t("web.skipbo.building_empty", { n: index + 1 });
    building.append(h("div", { class: "pilebox" },
      cardButton(`build:${index}`, label, top === null ? emptyFace() : skipboFace(top, top === 0 ? pile.length : null), ctx.interactive, "pile build"),
      h("span", { class: "pilename", "aria-hidden": "true" }, pile.length ? t("web.skipbo.next", { next: pile.length + 1 }) : "1–12")));
  });
  const middle = h("div", { class: "middle" },
    h("div", { class: "pilebox" },
      cardButton("draw", t("web.skipbo.draw_pile", { count: view.draw_size }), backFace("skipbo"), false, "pile"),
      h("span", { class: "pilename" }, t("web.skipbo.draw_short", { count: view.draw_size }))),
    building,
    h("div", { class: "pilebox" },
      cardButton("completed", t("web.skipbo.completed", { count: view.completed_size }),
        view.completed_size ? backFace("skipbo") : emptyFace(), false, "pile"),
      h("span", { class: "pilename" }, t("web.skipbo.completed_short", { count: view.completed_size }))));
  board.append(middle);
  // Nothing left to draw: the turns in a row without a build, which end the round blocked
  // at the house rule's limit (a rules edition 1 replay counted otherwise: not shown).
  if (view.idle_turns > 0 && view.rules.edition !== 1) {
    board.append(h("p", { class: "warning idle", role: "status" }, icon("warning"), " ",
      t("web.skipbo.idle", { count: view.idle_turns, limit: view.rules.idle_limit })));
  }

  if (me !== null) {
    const mineBox = h("div", { class: `ours${partner !== null ? " team" : ""}` });
    if (partner !== null) {
      mineBox.append(h("h3", { class: "teamname" }, t("web.skipbo.your_team")));
      mineBox.append(playerPanel(view, partner, ctx, { partner: true }));
    }
    mineBox.append(playerPanel(view, me, ctx, { mine: true }));
    const hand = h("div", { class: "hand", role: "group", "aria-label": t("web.skipbo.your_hand") });
    (view.hand || []).forEach((card, index) => {
      hand.append(cardButton(`hand:${card}`, t("web.skipbo.hand_card", { card: skipboName(card) }), skipboFace(card), ctx.interactive, `handcard h${index}`));
    });
    if (!(view.hand || []).length) hand.append(h("p", { class: "muted" }, t("web.skipbo.hand_empty")));
    const endTurn = legalActions(view).length && ctx.actionsHaveEndTurn
      ? h("button", { type: "button", class: "endturn primary", dataset: { id: "endturn" } }, t("web.skipbo.end_turn"))
      : null;
    mineBox.append(h("div", { class: "handrow" }, h("div", { class: "handhead" }, h("span", { class: "pilename" }, t("web.skipbo.your_hand")), endTurn), hand));
    board.append(mineBox);
  }
  return board;
}

export function roundSummary(before, outcome) {
  for (const event of outcome.events) {
    if (event.type === "RoundEnded") {
      return { game: "skipbo", round: event.round, winners: event.winners, points: event.points, scores: event.scores, blocked: event.blocked };
    }
  }
  return null;
}

export function renderRoundSummary(summary, ctx, view) {
  const target = view.rules.target;
  const rows = summary.points.map((points, seat) => h("tr", { class: summary.winners.includes(seat) ? "winner" : "" },
    h("th", { scope: "row" }, ctx.name(seat)),
    h("td", {}, String(points)),
    h("td", {}, String(summary.scores[seat])),
    h("td", {}, h("span", { class: "bar", style: `--p:${Math.min(100, Math.round((100 * summary.scores[seat]) / target))}%` }))));
  return h("div", {},
    h("p", {}, summary.blocked ? t("web.skipbo.round_blocked") : t("web.skipbo.round_won", { names: formatNames(summary.winners.map(ctx.name)) })),
    h("table", { class: "scores" },
      h("thead", {}, h("tr", {}, h("th", {}, t("web.score.player")), h("th", {}, t("web.score.round")), h("th", {}, t("web.score.total")),
        h("th", {}, t("web.skipbo.to_target", { target })))),
      h("tbody", {}, rows)));
}
