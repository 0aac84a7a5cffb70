// The live connection to a room: hello with the seat token, catch-up by version,
// silent reconnection with jittered exponential back-off, a keep-alive ping.
//
// Behind several servers (docs/operations.md) a room changes hands: its server is
// drained or dies, and another adopts it. The page then sees its socket closed with
// 4009 (room_moved), 1013 (try again later: room_elsewhere, draining), or no close
// frame at all (a killed server, a proxy's HTTP 503), and for a moment the server it
// reaches may not know the room yet (no_room, 4004). None of these is shown: the page
// reconnects and resumes from its last version. Only "no room" for a room this page
// never reached, or "no room" that lasts (HANDOVER_TRIES attempts), is final.

const NO_SUCH_ROOM = 4004;

// Errors the server sends before closing a socket that is to be opened again.
const RETRY_ERRORS = new Set(["room_moved", "room_elsewhere", "draining"]);
// How many times in a row "no room" is taken for a hand-over still under way, once the
// room was reached; about half a minute of back-off.
export const HANDOVER_TRIES = 8;
const BASE_MS = 250;
const CAP_MS = 8000;

// The wait before attempt `attempt` (0, 1, ...): exponential, capped, and "equal
// jitter" (half fixed, half random), so that the players of a room a server dropped do
// not all come back at the same instant.
export function backoff(attempt, random = Math.random) {
  const ceiling = Math.min(CAP_MS, BASE_MS * 2 ** attempt);
  return ceiling / 2 + random() * (ceiling / 2);
}

export class Connection {
  constructor(code, token, handlers) {
    this.code = code;
    this.token = token || null;
    this.handlers = handlers;
    this.version = null;
    this.ws = null;
    this.closed = false;
    this.attempt = 0;
    this.fatal = null;
    this.pingTimer = null;
    this.retryTimer = null;
    this.reached = false; // the room answered once (a welcome): "no room" is then a hand-over
    this.missing = 0; // "no room" answers in a row since the room was reached
    this.handoverTries = HANDOVER_TRIES;
    this.lastDelay = null; // ms waited before the last reconnection (tests read it)
  }

  connect() {
    if (this.closed) return;
    clearTimeout(this.retryTimer);
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/ws/${encodeURIComponent(this.code)}`);
    this.ws = ws;
    let noRoom = false;
    ws.addEventListener("open", () => {
      const hello = { type: "hello" };
      if (this.token) hello.token = this.token;
      if (this.version !== null) hello.last_version = this.version;
      ws.send(JSON.stringify(hello));
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), 20000);
    });
    ws.addEventListener("message", (event) => {
      if (this.ws !== ws) return;
      let message;
      try { message = JSON.parse(event.data); } catch { return; }
      if (message.type === "welcome") {
        // The room is here: online again, and the back-off starts over.
        this.reached = true;
        this.attempt = 0;
        this.missing = 0;
        this.handlers.status("online");
      }
      if ((message.type === "sync" || message.type === "event") && typeof message.version === "number") {
        this.version = message.version;
      }
      if (message.type === "error") {
        if (RETRY_ERRORS.has(message.code)) return; // the close that follows reconnects
        if (message.code === "no_room") {
          noRoom = true;
          if (this.reached && this.missing < this.handoverTries) return; // a hand-over: try again
          this.fatal = "no_room";
        } else if (message.code === "bad_token") {
          this.fatal = "bad_token";
        }
      }
      this.handlers.message(message);
    });
    ws.addEventListener("close", (event) => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws || this.closed) return;
      if (event.code === NO_SUCH_ROOM || noRoom) {
        this.missing += 1;
        if (!this.reached || this.missing > this.handoverTries) this.fatal = "no_room";
      }
      if (this.fatal) {
        this.handlers.status("gone", this.fatal);
        return;
      }
      this.handlers.status("reconnecting");
      const delay = backoff(this.attempt);
      this.attempt += 1;
      this.lastDelay = delay;
      this.retryTimer = setTimeout(() => this.connect(), delay);
    });
  }

  send(data) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(data));
      return true;
    }
    return false;
  }

  // Drop the socket (tests and the network both do this); the page reconnects.
  drop() {
    if (this.ws) this.ws.close();
  }

  close() {
    this.closed = true;
    clearInterval(this.pingTimer);
    clearTimeout(this.retryTimer);
    if (this.ws) this.ws.close();
  }
}
