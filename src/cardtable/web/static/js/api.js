// HTTP calls and what the browser remembers about its seats (localStorage).

export async function api(path, options = {}) {
  const init = { method: options.method || "GET", headers: {} };
  if (options.body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(options.body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    return { ok: false, status: 0, data: { error: "network", reason: String(error) } };
  }
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  return { ok: response.ok, status: response.status, data };
}

const KEY = "cardtable.room.";

// {seat, token, host_token, name} for a room code, or null.
export function seatFor(code) {
  try { return JSON.parse(localStorage.getItem(KEY + code)) || null; } catch { return null; }
}

export function rememberSeat(code, info) {
  const old = seatFor(code) || {};
  localStorage.setItem(KEY + code, JSON.stringify({ ...old, ...info }));
}

export function forgetSeat(code) {
  localStorage.removeItem(KEY + code);
}

export function playerName() {
  return localStorage.getItem("cardtable.name") || "";
}

export function rememberName(name) {
  localStorage.setItem("cardtable.name", name);
}
