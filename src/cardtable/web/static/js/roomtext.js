// The words of a room that several of its parts need: a seat's name, a server error in
// the page's language, an advisor's reason inside a sentence.
import { h } from "./dom.js";
import { has, t } from "./i18n.js";
import { reasonText, refusalText } from "./words.js";

export function seatName(room, seat, me) {
  const info = room && room.seats[seat];
  let name;
  if (!info) name = t("web.seat.n", { n: seat + 1 });
  else if (info.kind === "bot") name = t("web.seat.bot", { n: seat + 1, level: t(`web.bot.${info.bot || "greedy"}`) });
  else name = info.name || t("web.seat.free", { n: seat + 1 });
  return seat === me ? t("web.seat.you", { name }) : name;
}

// Every error code the server sends (docs/protocol.md), each with its web.error text.
export const KNOWN_ERRORS = ["already_greeted", "bad_game", "bad_message", "bad_move", "bad_name", "bad_options",
  "bad_request", "bad_seats", "bad_table_options", "bad_token", "chat_empty", "chat_not_allowed", "chat_rate_limited", "draining", "hello_first", "hello_timeout", "hint_busy", "illegal_move", "network",
  "no_coach", "no_game", "no_hint", "no_review", "no_take_back", "no_room", "no_step", "not_a_player", "not_finished", "not_host", "not_in_lobby",
  "not_playing", "not_your_turn", "payload_too_large", "rate_limited", "review_busy", "room_elsewhere", "room_full", "room_moved", "seat_taken",
  "seat_unavailable", "seats_free", "stale_version", "too_many_rooms",
  "bad_host", "bad_content_type", "bad_origin", "too_many_lookups", "bad_password", "name_taken", "bad_csrf",
  "not_signed_in", "too_many_attempts", "bad_credentials", "seat_claimed", "no_ladder", "too_many_requests", "no_player", "second_seat",
  "too_many_seats", "seat_not_taken", "remove_self", "too_many_sockets", "server_full", "method_not_allowed"];

// A server error in the page's language, from its `code` (and the facts the server sends
// besides its English `reason`): a refused move says why from its catalog key, a refused
// option what it allows. Only an error the page does not know shows the English reason.
export function errorText(data) {
  if (!data) return t("web.error.network");
  const code = data.code || data.error || "unknown";
  if (!KNOWN_ERRORS.includes(code)) return data.reason ? `${t("web.error.unknown")} (${data.reason})` : t("web.error.unknown");
  const head = t(`web.error.${code}`);
  if (data.reason_key && has(data.reason_key)) return `${head} (${refusalText(data.reason_key, data.reason_params, data.move)})`;
  if (data.allowed_key && has(data.allowed_key)) return `${head} (${t(data.allowed_key, data.allowed_params || {})})`;
  // A refused move with no key the page knows: its English reason rather than nothing.
  if (code === "illegal_move" && data.reason) return `${head} (${data.reason})`;
  return head;
}

// The advisor's reason in a translated sentence (`key` with {reason}): worded from its
// parts in the page's language; a server that sends only the English text gets it
// marked as English inside the sentence.
export function reasonSentence(key, parts, english, name) {
  if (parts && parts.length) return [t(key, { reason: reasonText(parts, name) })];
  const [before, after = ""] = t(key, { reason: "\u0001" }).split("\u0001");
  return [before, h("span", { lang: "en" }, english), after];
}
