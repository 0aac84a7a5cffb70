// The turn time limit on the page: the countdown of the seat to move (from the server's
// `clock` messages, see docs/protocol.md) and the log lines of a turn a bot played
// because the player's time ran out.
import { h } from "./dom.js";
import { t } from "./i18n.js";

// Under this many seconds the countdown is shown as urgent.
const LOW = 10;

export class TurnTimer {
  constructor() {
    this.seat = null; // whose clock runs (null: none)
    this.until = null; // performance.now() at which it runs out
    this.limit = 0; // turn_seconds of the table (0: no limit)
    this.timedOut = null; // the seat whose turn a bot is finishing
    this.ticker = null;
  }

  // A `clock` message, or the `clock` of a `sync`.
  update(clock) {
    if (!clock) return;
    this.seat = clock.seat;
    this.limit = clock.limit || 0;
    this.timedOut = clock.timed_out ?? null;
    this.until = clock.seat === null || clock.seconds === null ? null : performance.now() + clock.seconds * 1000;
    clearInterval(this.ticker);
    this.ticker = this.until === null ? null : setInterval(() => this.tick(), 250);
    this.tick();
  }

  stop() {
    clearInterval(this.ticker);
    this.ticker = null;
    this.seat = null;
    this.until = null;
    this.timedOut = null;
  }

  seconds() {
    if (this.until === null) return null;
    return Math.max(0, Math.ceil((this.until - performance.now()) / 1000));
  }

  // The countdown between two drawings: only its own text changes (no redraw).
  tick() {
    const el = document.getElementById("turn-timer");
    if (!el) return;
    const seconds = this.seconds();
    if (seconds === null) { el.hidden = true; return; }
    const text = t("web.timer.left", { seconds });
    if (el.firstChild && el.firstChild.nodeType === 3) el.firstChild.textContent = text;
    el.classList.toggle("low", seconds <= LOW);
  }

  // The countdown in the turn bar; `name(seat)` words a seat, `me` is the page's seat.
  element(name, me) {
    const seconds = this.seconds();
    if (seconds === null) return null;
    const whose = this.seat === me ? t("web.timer.yours") : t("web.timer.theirs", { player: name(this.seat) });
    return h("span", {
      class: `turntimer${seconds <= LOW ? " low" : ""}`, id: "turn-timer", role: "timer",
      title: whose, "aria-label": whose, dataset: { seat: String(this.seat) },
    }, t("web.timer.left", { seconds }));
  }

  // The log line of a `turn_timeout` notice (worded when drawn, see lineText); the
  // reader's own is worded as theirs ("Your time is up").
  static timeoutLine(seat, me) {
    const key = seat === me ? "web.timer.timeout_line_you" : "web.timer.timeout_line";
    return { seat, timeout: true, parts: [{ key, params: { player: { seat } } }] };
  }

  // The lines of a move the bot played for a timed-out seat say so.
  markBotLines(lines, seat, me) {
    if (this.timedOut === null || seat !== this.timedOut) return lines;
    const key = seat === me ? "web.timer.played_by_bot_you" : "web.timer.played_by_bot";
    return lines.map((line) => ({ ...line, parts: [...line.parts, { key, params: { player: { seat } } }] }));
  }
}
