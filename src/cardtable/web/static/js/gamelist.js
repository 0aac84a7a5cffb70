// The games the server offers (/api/web/games, web/options.py): each game's title,
// rules options, bots and table of moves, and the server's limits on what the page's
// fields hold. Asked once, as the page starts (app.js); every page reads it from here.
import { api } from "./api.js";

let games = [];
let limits = { name: 24 };

export async function loadGames() {
  const res = await api("/api/web/games");
  if (!res.ok) return;
  games = res.data.games;
  if (res.data.limits) limits = res.data.limits;
}

export function allGames() {
  return games;
}

export function gameInfo(game) {
  return games.find((g) => g.game === game) || null;
}

// The game's name as the server titles it ("Skip-Bo"); the code while it is unknown.
export function gameTitle(game) {
  return gameInfo(game)?.title ?? game;
}

export function botsOf(game) {
  return gameInfo(game)?.bots ?? [];
}

// The longest display name the server takes (a name field's maxlength).
export function nameLimit() {
  return limits.name;
}
