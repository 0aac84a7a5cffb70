// The Skyjo table: every 3x4 grid, the draw and discard piles, the held card.
import { backFace, emptyFace, skyjoFace } from "./cards.js";
import { h } from "./dom.js";
import { icon } from "./icons.js";
import { t, whose } from "./i18n.js";

export const game = "skyjo";

export function seatCount(view) {
  return view.players;
}

export function current(view) {
  return view.current_player;
}

export function legalActions(view) {
  return view.legal_actions || [];
}

function cell(seat, pos) {
  return `cell:${seat}:${pos}`;
}

// Where a legal move starts and ends on the page (from its JSON form).
export function actionFor(move, mover) {
  switch (move.type) {
    case "draw": return { source: "draw", target: null };
    case "take_discard": return { source: "discard", target: null };
    case "exchange": return { source: "held", target: cell(mover, move.pos) };
    case "reveal": return { source: null, target: cell(mover, move.pos) };
    case "discard_and_reveal": return { source: "discard", target: cell(mover, move.pos) };
    default: return { source: null, target: null };
  }
}

// The flight a card takes when `move` is played.
export function flight(move, mover) {
  switch (move.type) {
    case "draw": return ["draw", "held"];
    case "take_discard": return ["discard", "held"];
    case "exchange": return ["held", cell(mover, move.pos)];
    case "discard_and_reveal": return ["held", "discard"];
    default: return null;
  }
}

// Skyjo's log starts with the first deal's line (no draw for the deal).
export function openingLines() {
  return [];
}

export function preferred(view) {
  return view.hand !== null ? "held" : null;
}

export function prompt(view) {
  if (view.phase === "setup") return t("web.skyjo.prompt.setup");
  if (view.phase === "turn") return t("web.skyjo.prompt.turn");
  if (view.phase === "drawn") return t("web.skyjo.prompt.drawn");
  if (view.phase === "taken") return t("web.skyjo.prompt.taken");
  return "";
}

function position(pos) {
  return t("web.skyjo.position", { row: Math.floor(pos / 4) + 1, col: (pos % 4) + 1 });
}

export function gridElement(seat, values, status, opts = {}) {
  const { interactive = false, name = "", me = null } = opts;
  const grid = h("div", { class: "grid", role: "group", "aria-label": t(whose("web.skyjo.grid_of", seat, me), { name }) });
  for (let pos = 0; pos < 12; pos++) {
    const state = status[pos];
    let label;
    let inner;
    if (state === "removed") {
      label = t("web.skyjo.cell_removed", { position: position(pos) });
      inner = emptyFace();
    } else if (state === "down") {
      label = t("web.skyjo.cell_down", { position: position(pos) });
      inner = backFace("skyjo");
    } else {
      label = t("web.skyjo.cell_up", { position: position(pos), card: values[pos] });
      inner = skyjoFace(values[pos]);
    }
    const face = state === "up" ? String(values[pos]) : state;
    const attrs = { class: `slot card ${state}`, "aria-label": label, dataset: { id: cell(seat, pos), face } };
    grid.append(interactive ? h("button", { type: "button", ...attrs }, inner) : h("div", { role: "img", ...attrs }, inner));
  }
  return grid;
}

function pile(id, label, face, count, interactive) {
  const attrs = { class: "pile card", "aria-label": label, dataset: { id, face: String(count) + ":" + label } };
  const body = [face, count !== null ? h("span", { class: "count", "aria-hidden": "true" }, String(count)) : null];
  return interactive ? h("button", { type: "button", ...attrs }, body) : h("div", { role: "img", ...attrs }, body);
}

export function render(view, ctx) {
  const me = ctx.me;
  const turn = current(view);
  const board = h("div", { class: "board skyjo-board" });
  const top = view.discard_top;
  const held = view.hand;
  const center = h("div", { class: "center" },
    h("div", { class: "pilebox" },
      pile("draw", t("web.skyjo.draw_pile", { count: view.draw_count }), backFace("skyjo"), view.draw_count, ctx.interactive),
      h("span", { class: "pilename", "aria-hidden": "true" }, t("web.skyjo.draw_short"))),
    h("div", { class: "pilebox" },
      pile("discard",
        top === null ? t("web.skyjo.discard_empty") : t("web.skyjo.discard_pile", { card: top, count: view.discard.length }),
        top === null ? emptyFace() : skyjoFace(top), view.discard.length, ctx.interactive),
      h("span", { class: "pilename", "aria-hidden": "true" }, t("web.skyjo.discard_short"))),
    h("div", { class: `pilebox heldbox${held === null ? " none" : ""}` },
      held === null
        ? h("div", { class: "pile card placeholder", "aria-hidden": "true" }, emptyFace())
        : pile("held",
          t(view.hand_from === "discard" ? "web.skyjo.held_taken" : "web.skyjo.held_drawn", { card: held, name: ctx.name(turn) }),
          skyjoFace(held), null, ctx.interactive && turn === me),
      h("span", { class: "pilename", "aria-hidden": "true" },
        held === null ? "\u00a0" : t(view.hand_from === "discard" ? "web.skyjo.held_short_taken" : "web.skyjo.held_short_drawn"))));
  board.append(center);
  if (view.final_turns) {
    board.append(h("p", { class: "warning", role: "status" }, icon("warning"), " ", t("web.skyjo.final_turns", { name: ctx.name(view.closer) })));
  }
  const order = [];
  for (let i = 0; i < view.players; i++) order.push(me === null ? i : (me + i) % view.players);
  const grids = h("div", { class: `grids n${view.players}` });
  for (const seat of order) {
    const mine = seat === me;
    // On a phone with several other players, theirs are a line each until tapped open.
    const compact = ctx.compact && !mine;
    const open = !compact || ctx.expanded(seat);
    const head = [
      h("span", { class: "who" }, seat === turn ? [icon("turn", "turnmark"), " "] : null, ctx.name(seat), ctx.presence(seat)),
      h("span", { class: "nums" },
        h("span", { title: t("web.skyjo.visible_sum") }, t("web.skyjo.sum_short", { sum: view.face_up_sums[seat] })),
        " · ",
        h("span", { title: t("web.score.total") }, t("web.skyjo.total_short", { total: view.totals[seat] })))];
    const box = h("section", {
      class: `gridbox${mine ? " mine" : ""}${seat === turn ? " turn" : ""}${compact ? " compact" : ""}${compact && open ? " open" : ""}`,
      "aria-label": ctx.name(seat),
      dataset: { seat: String(seat) },
    },
    compact
      ? h("button", { type: "button", class: "seattoggle", "aria-expanded": open ? "true" : "false", dataset: { key: `seat-toggle-${seat}` }, onclick: () => ctx.toggle(seat) }, head)
      : h("header", {}, head),
    open ? gridElement(seat, view.grids[seat], view.status[seat], { interactive: ctx.interactive && mine, name: ctx.name(seat), me }) : null);
    grids.append(box);
  }
  board.append(grids);
  return board;
}

// Grids at the end of a round: the view before the move, with the move's events applied.
export function roundSummary(before, outcome) {
  const grids = before.grids.map((g) => g.slice());
  const status = before.status.map((s) => s.slice());
  for (const event of outcome.events) {
    if (event.type === "CardRevealed" || event.type === "Exchanged") {
      grids[event.seat][event.pos] = event.card;
      status[event.seat][event.pos] = "up";
    } else if (event.type === "ColumnRemoved") {
      for (const pos of [event.col, event.col + 4, event.col + 8]) status[event.seat][pos] = "removed";
    } else if (event.type === "RowRemoved") {
      for (let c = 0; c < 4; c++) status[event.seat][event.row * 4 + c] = "removed";
    } else if (event.type === "RoundEnded") {
      return { game: "skyjo", round: event.round, closer: event.closer, doubled: event.doubled, points: event.points, totals: event.totals, grids, status };
    }
  }
  return null;
}

export function renderRoundSummary(summary, ctx) {
  const list = h("div", { class: "summary-grids" });
  summary.points.forEach((points, seat) => {
    const closer = seat === summary.closer;
    list.append(h("section", { class: "sumgrid" },
      h("h3", {}, ctx.name(seat), closer ? h("span", { class: "badge" }, t("web.skyjo.closer")) : null),
      gridElement(seat, summary.grids[seat], summary.status[seat], { name: ctx.name(seat), me: ctx.me }),
      h("p", { class: "pts" },
        t("web.score.round_points", { count: points }),
        closer && summary.doubled ? h("strong", { class: "doubled" }, " ", t("web.skyjo.doubled")) : null,
        " · ", t("web.score.total_is", { total: summary.totals[seat] }))));
  });
  return list;
}
