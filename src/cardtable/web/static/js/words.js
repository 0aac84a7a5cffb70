// The game log in words, from the public events of each move.
import { skipboName } from "./cards.js";
import { formatNames, t, whose } from "./i18n.js";

// The move advisor's reason (the server's `reason_parts`: catalog keys and numbers) in
// the page's language: a seat is shown as its player's name, a change of points signed.
export function reasonText(parts, name) {
  return parts.map((part) => t(part.key, reasonParams(part.params || {}, name))).join(t("advice.separator"));
}

function reasonParams(params, name) {
  const shown = {};
  for (const [key, value] of Object.entries(params)) {
    if (key === "seat") shown[key] = name(value);
    else if (key === "delta") shown[key] = value >= 0 ? `+${value}` : String(value);
    else shown[key] = String(value);
  }
  return shown;
}

// A move the engine refused (the server's `reason_key`, `reason_params` and `move`) in the
// page's language. As every client does (cardtable.core.refusal): `card` and `needed` are
// Skip-Bo cards named with their article, and `{move}` is the refused move in words.
export function refusalText(key, params, move) {
  const shown = {};
  for (const [name, value] of Object.entries(params || {})) {
    shown[name] = name === "card" || name === "needed" ? t(cardKey(value), { value }) : String(value);
  }
  shown.move = move ? moveText(key.split(".")[1], move) : "";
  return t(key, shown);
}

function cardKey(card) {
  if (card === 0) return "refusal.skipbo.card_wild";
  return card === 8 || card === 11 ? "refusal.skipbo.card_an" : "refusal.skipbo.card_a";
}

// The game log. Each line is kept as catalog keys and their parameters ({seat, parts:
// [{key, params}]}) and worded when drawn, so a change of language words the whole log
// again. A parameter is a number or a text shown as it is, or an object naming what
// stands for words: {seat} a player's name, {seats} several names, {card} a Skip-Bo card
// (the wild card has a name), {points} each player's name and points, {cut} the passes of
// a draw for the deal (each player's name and card).
const SEAT = (seat) => ({ seat });
const CARD = (card) => ({ card });

function skyjo(event) {
  const who = event.seat !== undefined ? SEAT(event.seat) : "";
  const where = (pos) => ({ row: Math.floor(pos / 4) + 1, col: (pos % 4) + 1 });
  switch (event.type) {
    case "RoundDealt": return [["web.log.skyjo.round_dealt", { round: event.round }]];
    case "CardRevealed": return [["web.log.skyjo.revealed", { name: who, card: event.card, ...where(event.pos) }]];
    case "StarterChosen": return [["web.log.skyjo.starter", { name: who }]];
    case "Drew": return [["web.log.skyjo.drew", { name: who, card: event.card }]];
    case "TookDiscard": return [["web.log.skyjo.took", { name: who, card: event.card }]];
    case "Exchanged": return [["web.log.skyjo.exchanged", { name: who, card: event.card, replaced: event.replaced, ...where(event.pos) }]];
    case "Discarded": return [["web.log.skyjo.discarded", { name: who, card: event.card }]];
    case "ColumnRemoved": return [["web.log.skyjo.column", { name: who, card: event.card, col: event.col + 1 }]];
    case "RowRemoved": return [["web.log.skyjo.row", { name: who, card: event.card, row: event.row + 1 }]];
    case "Reshuffled": return [["web.log.skyjo.reshuffled", { count: event.count }]];
    case "FinalTurns": return [["web.log.skyjo.final_turns", { name: SEAT(event.closer) }]];
    case "TurnLimitReached": return [["web.log.skyjo.turn_limit", { round: event.round, count: event.turns }]];
    case "RoundEnded": {
      const parts = [["web.log.skyjo.round_ended", { round: event.round, points: { points: event.points } }]];
      if (event.doubled) parts.push(["web.log.skyjo.doubled", { name: SEAT(event.closer) }]);
      return parts;
    }
    case "GameEnded": return [["web.log.game_won", { names: { seats: event.winners }, count: event.winners.length }]];
    default: return null;
  }
}

// Why a round ended blocked (the engine's RoundEnded reason).
const SKIPBO_BLOCKED = {
  "no card fits": "web.log.skipbo.round_blocked_stuck",
  "idle limit": "web.log.skipbo.round_blocked_idle",
};

function skipbo(event) {
  const who = event.seat !== undefined ? SEAT(event.seat) : "";
  switch (event.type) {
    case "RoundDealt": return [["web.log.skipbo.round_dealt", { round: event.round, name: SEAT(event.starter) }]];
    case "TurnStarted": return null;
    case "Drew": return [["web.log.skipbo.drew", { name: who, count: event.count }]];
    case "Reshuffled": return [["web.log.skipbo.reshuffled", { count: event.count }]];
    case "Built": {
      const params = { name: who, card: CARD(event.card), pile: event.pile + 1, value: event.value, owner: SEAT(event.owner) };
      if (event.source === "hand") return [["web.log.skipbo.built_hand", params]];
      if (event.source === "stock") {
        return [[event.owner === event.seat ? "web.log.skipbo.built_stock" : "web.log.skipbo.built_partner_stock", params]];
      }
      return [[event.owner === event.seat ? "web.log.skipbo.built_discard" : "web.log.skipbo.built_partner_discard", params]];
    }
    case "PileCompleted": return [["web.log.skipbo.completed", { pile: event.pile + 1 }]];
    case "StockRevealed": return [["web.log.skipbo.stock_revealed", { name: SEAT(event.owner), card: CARD(event.card), count: event.remaining }]];
    case "StockEmptied": return [["web.log.skipbo.stock_emptied", { name: SEAT(event.owner) }]];
    case "Discarded": return [["web.log.skipbo.discarded", { name: who, card: CARD(event.card), pile: event.discard + 1, owner: SEAT(event.owner) }]];
    case "TurnPassed": return [["web.log.skipbo.passed", { name: who }]];
    case "RoundEnded":
      return event.blocked ? [[SKIPBO_BLOCKED[event.reason] || "web.log.skipbo.round_blocked", { round: event.round }]]
        : [["web.log.skipbo.round_won", { round: event.round, names: { seats: event.winners } }]];
    case "GameEnded":
      // A match stopped by blocked rounds in a row is decided on the points so far.
      if (event.blocked && event.winners.length) return [["web.log.game_stopped_on_points", { names: { seats: event.winners }, count: event.winners.length }]];
      return event.blocked ? [["web.log.game_blocked", {}]] : [["web.log.game_won", { names: { seats: event.winners }, count: event.winners.length }]];
    default: return null;
  }
}

// Lines for one move's outcome: [{seat, parts: [{key, params}]}], one per event worth a line.
export function describe(gameName, outcome) {
  const lines = [];
  for (const event of outcome.events) {
    const parts = gameName === "skyjo" ? skyjo(event) : skipbo(event);
    if (parts) lines.push({ seat: outcome.seat, parts: parts.map(([key, params]) => ({ key, params })) });
  }
  return lines;
}

// The lines about what belongs to a seat, and which parameter names that seat: worded
// with their "_you" form for the reader's own ("Your stock pile is empty!").
const OWNER_PARAM = {
  "web.log.skipbo.built_partner_discard": "owner",
  "web.log.skipbo.built_partner_stock": "owner",
  "web.log.skipbo.discarded": "owner",
  "web.log.skipbo.stock_emptied": "name",
  "web.log.skyjo.column": "name",
  "web.log.skyjo.doubled": "name",
  "web.log.skyjo.row": "name",
};

// A log line in the page's language of the moment; `name(seat)` gives a player's name,
// `me` is the reader's seat (null for a spectator or a replay).
export function lineText(line, name, me = null) {
  return line.parts.map((part) => {
    const owner = part.params[OWNER_PARAM[part.key]];
    const key = owner && typeof owner === "object" && "seat" in owner ? whose(part.key, owner.seat, me) : part.key;
    return t(key, lineParams(part.params, name));
  }).join(" ");
}

function lineParams(params, name) {
  const shown = {};
  for (const [key, value] of Object.entries(params)) {
    if (value === null || typeof value !== "object") shown[key] = value;
    else if ("seat" in value) shown[key] = name(value.seat);
    else if ("seats" in value) shown[key] = formatNames(value.seats.map(name));
    else if ("card" in value) shown[key] = skipboName(value.card);
    else if ("points" in value) shown[key] = value.points.map((p, s) => `${name(s)} ${p}`).join(", ");
    else if ("cut" in value) shown[key] = value.cut.map((pass) => pass.map(([s, c]) => `${name(s)} ${skipboName(c)}`).join(", "))
      .join(`; ${t("web.skipbo.cut_then")} `);
  }
  return shown;
}

// A move in the engine's JSON form, in words, addressed to the player who made it
// (the post-game review shows the player's own moves and the advisor's better ones).
export function moveText(gameName, move) {
  if (gameName === "skyjo") {
    const where = move.pos === undefined ? {} : { row: Math.floor(move.pos / 4) + 1, col: (move.pos % 4) + 1 };
    switch (move.type) {
      case "draw": return t("web.move.skyjo.draw");
      case "take_discard": return t("web.move.skyjo.take_discard");
      case "exchange": return t("web.move.skyjo.exchange", where);
      case "reveal": return t("web.move.skyjo.reveal", where);
      case "discard_and_reveal": return t("web.move.skyjo.discard_and_reveal", where);
      default: return move.type;
    }
  }
  const params = {
    card: move.card === undefined ? "" : skipboName(move.card),
    pile: move.pile === undefined ? "" : move.pile + 1,
    discard: move.discard === undefined ? "" : move.discard + 1,
  };
  switch (move.type) {
    case "play_hand": return t("web.move.skipbo.play_hand", params);
    case "play_stock": return t(move.partner ? "web.move.skipbo.play_partner_stock" : "web.move.skipbo.play_stock", params);
    case "play_discard": return t(move.partner ? "web.move.skipbo.play_partner_discard" : "web.move.skipbo.play_discard", params);
    case "discard": return t(move.partner ? "web.move.skipbo.discard_partner" : "web.move.skipbo.discard", params);
    case "end_turn": return t("web.move.skipbo.end_turn");
    default: return move.type;
  }
}
