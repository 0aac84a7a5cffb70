// The live connection to a room: hello with the seat token, catch-up by version,
// silent reconnection with back-off, a keep-alive ping.

const NO_SUCH_ROOM = 4004;
const POLICY_VIOLATION = 1008;

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
  }

  connect() {
    if (this.closed) return;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/ws/${encodeURIComponent(this.code)}`);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.attempt = 0;
      const hello = { type: "hello" };
      if (this.token) hello.token = this.token;
      if (this.version !== null) hello.last_version = this.version;
      ws.send(JSON.stringify(hello));
      this.handlers.status("online");
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), 20000);
    });
    ws.addEventListener("message", (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch { return; }
      if ((message.type === "sync" || message.type === "event") && typeof message.version === "number") {
        this.version = message.version;
      }
      if (message.type === "error" && (message.code === "bad_token" || message.code === "no_room")) {
        this.fatal = message.code;
      }
      this.handlers.message(message);
    });
    ws.addEventListener("close", (event) => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws || this.closed) return;
      if (this.fatal || event.code === NO_SUCH_ROOM || (event.code === POLICY_VIOLATION && this.fatal)) {
        this.handlers.status("gone", this.fatal || "no_room");
        return;
      }
      this.handlers.status("reconnecting");
      const delay = Math.min(5000, 250 * 2 ** this.attempt);
      this.attempt += 1;
      setTimeout(() => this.connect(), delay);
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
    if (this.ws) this.ws.close();
  }
}
