// The game log in words, from the public events of each move.
import { skipboName } from "./cards.js";
import { t } from "./i18n.js";

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

function names(seats, name) {
  return seats.map(name).join(", ");
}

function skyjo(event, name) {
  const who = event.seat !== undefined ? name(event.seat) : "";
  switch (event.type) {
    case "RoundDealt": return t("web.log.skyjo.round_dealt", { round: event.round });
    case "CardRevealed": return t("web.log.skyjo.revealed", { name: who, card: event.card, row: Math.floor(event.pos / 4) + 1, col: (event.pos % 4) + 1 });
    case "StarterChosen": return t("web.log.skyjo.starter", { name: who });
    case "Drew": return t("web.log.skyjo.drew", { name: who, card: event.card });
    case "TookDiscard": return t("web.log.skyjo.took", { name: who, card: event.card });
    case "Exchanged": return t("web.log.skyjo.exchanged", { name: who, card: event.card, replaced: event.replaced, row: Math.floor(event.pos / 4) + 1, col: (event.pos % 4) + 1 });
    case "Discarded": return t("web.log.skyjo.discarded", { name: who, card: event.card });
    case "ColumnRemoved": return t("web.log.skyjo.column", { name: who, card: event.card, col: event.col + 1 });
    case "RowRemoved": return t("web.log.skyjo.row", { name: who, card: event.card, row: event.row + 1 });
    case "Reshuffled": return t("web.log.skyjo.reshuffled", { count: event.count });
    case "FinalTurns": return t("web.log.skyjo.final_turns", { name: name(event.closer) });
    case "TurnLimitReached": return t("web.log.skyjo.turn_limit", { round: event.round, turns: event.turns });
    case "RoundEnded":
      return t("web.log.skyjo.round_ended", { round: event.round, points: event.points.map((p, s) => `${name(s)} ${p}`).join(", ") })
        + (event.doubled ? ` ${t("web.log.skyjo.doubled", { name: name(event.closer) })}` : "");
    case "GameEnded": return t("web.log.game_won", { names: names(event.winners, name) });
    default: return null;
  }
}

function skipbo(event, name) {
  const who = event.seat !== undefined ? name(event.seat) : "";
  switch (event.type) {
    case "RoundDealt": return t("web.log.skipbo.round_dealt", { round: event.round, name: name(event.starter) });
    case "TurnStarted": return null;
    case "Drew": return t("web.log.skipbo.drew", { name: who, count: event.count });
    case "Reshuffled": return t("web.log.skipbo.reshuffled", { count: event.count });
    case "Built": {
      const params = { name: who, card: skipboName(event.card), pile: event.pile + 1, value: event.value, owner: name(event.owner) };
      if (event.source === "hand") return t("web.log.skipbo.built_hand", params);
      if (event.source === "stock") {
        return t(event.owner === event.seat ? "web.log.skipbo.built_stock" : "web.log.skipbo.built_partner_stock", params);
      }
      return t(event.owner === event.seat ? "web.log.skipbo.built_discard" : "web.log.skipbo.built_partner_discard", params);
    }
    case "PileCompleted": return t("web.log.skipbo.completed", { pile: event.pile + 1 });
    case "StockRevealed": return t("web.log.skipbo.stock_revealed", { name: name(event.owner), card: skipboName(event.card), count: event.remaining });
    case "StockEmptied": return t("web.log.skipbo.stock_emptied", { name: name(event.owner) });
    case "Discarded": return t("web.log.skipbo.discarded", { name: who, card: skipboName(event.card), pile: event.discard + 1, owner: name(event.owner) });
    case "TurnPassed": return t("web.log.skipbo.passed", { name: who });
    case "RoundEnded":
      return event.blocked ? t("web.log.skipbo.round_blocked", { round: event.round })
        : t("web.log.skipbo.round_won", { round: event.round, names: names(event.winners, name) });
    case "GameEnded":
      return event.blocked ? t("web.log.game_blocked") : t("web.log.game_won", { names: names(event.winners, name) });
    default: return null;
  }
}

// Lines for one move's outcome: [{seat, text}]
export function describe(gameName, outcome, name) {
  const lines = [];
  for (const event of outcome.events) {
    const text = gameName === "skyjo" ? skyjo(event, name) : skipbo(event, name);
    if (text) lines.push({ seat: outcome.seat, text });
  }
  return lines;
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
