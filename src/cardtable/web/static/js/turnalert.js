// The tab says whose turn it is: "your turn" in its title and a dot on its icon, for a
// player whose tab is in the background; and when the turn comes, the turn sound plays
// (if the player turned it on, see sound.js).
import { t } from "./i18n.js";
import { chime } from "./sound.js";

let wasMine = false;

export function showTurn(mine) {
  const base = document.title.replace(/^● [^·]*· /, "");
  document.title = mine ? `● ${t("web.table.your_turn")} · ${base}` : base;
  const link = document.querySelector("link[rel=icon]");
  if (link) {
    const want = mine ? "favicon-turn.svg" : "favicon.svg";
    if (!link.href.endsWith(want)) link.href = link.href.replace(/favicon(-turn)?\.svg$/, want);
  }
  if (mine && !wasMine) chime();
  wasMine = mine;
}
