// How pages outside a room name players: the link to a profile, a ladder's name, and a
// seat as listed in the public lobby and in a profile's recent games.
import { h } from "./dom.js";
import { t } from "./i18n.js";

export const LADDERS = ["skyjo", "skipbo", "skipbo-teams"];

export const profileLink = (name) => `#/player/${encodeURIComponent(name)}`;

export const ladderName = (ladder) => t(`web.board.ladder_${ladder.replace("-", "_")}`);

// A seat {kind, bot, name, taken, rating, profile, you}: a bot by its level, a free
// seat as free, a player by name; with the rating when the server sends one, the
// reader's own seat in bold, and another account's seat linked to its profile (by the
// account's name, if it differs).
export function seatLabel(seat) {
  if (seat.kind !== "bot" && seat.taken === false) return t("web.publobby.free_seat");
  const name = seat.kind === "bot" ? t(`web.bot.${seat.bot || "greedy"}`) : seat.name || "\u2014";
  const text = seat.rating == null ? name : t("web.publobby.rated", { name, rating: seat.rating });
  if (seat.you) return h("strong", {}, text);
  if (seat.kind === "bot" || !seat.profile) return text;
  return h("a", { href: profileLink(seat.profile), title: seat.profile }, text);
}
