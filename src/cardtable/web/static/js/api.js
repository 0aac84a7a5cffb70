// HTTP calls and what the browser remembers about its seats (localStorage).

// The session's CSRF token (docs/players.md): kept in memory only, sent with every change.
let csrf = null;

export function setCsrf(token) {
  csrf = token || null;
}

// `options.signal`: the page's abort signal (page.js). Once it aborts, the call throws
// its AbortError rather than answer: a page the user has left draws nothing more.
export async function api(path, options = {}) {
  const signal = options.signal;
  const init = { method: options.method || "GET", headers: {}, signal };
  if (options.body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(options.body);
  }
  if (csrf && init.method !== "GET") init.headers["X-CSRF-Token"] = csrf;
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    signal?.throwIfAborted();
    return { ok: false, status: 0, data: { error: "network", reason: String(error) } };
  }
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  signal?.throwIfAborted();
  // A limit's refusal says when to ask again (whole seconds), for a caller that retries.
  const retryAfter = Number.parseInt(response.headers.get("Retry-After") || "", 10);
  return { ok: response.ok, status: response.status, data, retryAfter: Number.isFinite(retryAfter) ? retryAfter : null };
}

const KEY = "cardtable.room.";

// {seat, token, host_token, name} for a room code, or null.
export function seatFor(code) {
  try { return JSON.parse(localStorage.getItem(KEY + code)) || null; } catch { return null; }
}

// Told of every new seat token this browser keeps (the account adds the seat).
let seatListener = null;

export function onNewSeat(listener) {
  seatListener = listener;
}

export function rememberSeat(code, info) {
  const old = seatFor(code) || {};
  localStorage.setItem(KEY + code, JSON.stringify({ ...old, ...info }));
  if (seatListener && info.token && info.token !== old.token) seatListener(code, info.token);
}

// Every seat this browser holds, as the account's claim takes them: [{code, token}].
export function heldSeats() {
  const seats = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (!key || !key.startsWith(KEY)) continue;
    const info = seatFor(key.slice(KEY.length));
    if (info && typeof info.token === "string") seats.push({ code: key.slice(KEY.length), token: info.token });
  }
  return seats;
}

export function forgetSeat(code) {
  localStorage.removeItem(KEY + code);
}

// The host removed this browser's player: its seat token is void (a host token stays).
export function dropSeatToken(code) {
  const { seat, token, ...rest } = seatFor(code) || {};
  if (Object.keys(rest).length) localStorage.setItem(KEY + code, JSON.stringify(rest));
  else forgetSeat(code);
}

export function playerName() {
  return localStorage.getItem("cardtable.name") || "";
}

export function rememberName(name) {
  localStorage.setItem("cardtable.name", name);
}
