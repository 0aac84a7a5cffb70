// The table options in the lobby (docs/protocol.md, "Table options"): the turn time
// limit, whether spectators may write in the chat, whether the room is public, and the
// practice coach (set in the lobby only: a coached game is unrated). They are not rules: the host
// changes them with a `table` message, in the lobby or during the game, and the room
// event that answers shows them to everyone.
import { h } from "./dom.js";
import { t } from "./i18n.js";

// The server's range (cardtable.server.tableopts): 0 is no limit.
export const TURN_SECONDS_MIN = 10;
export const TURN_SECONDS_MAX = 600;

export class TableOptionsForm {
  // `send(options)` sends a `table` message (false when offline); `redrawing()` is
  // true while the page is being patched (a field's blur then is not the user's).
  constructor(send, redrawing = () => false) {
    this.send = send;
    this.redrawing = redrawing;
    this.draft = null; // the turn limit being typed, not yet sent
    this.problem = null; // the text of a refused or invalid limit
    this.open = window.innerWidth > 900; // the host's panel during the game is open
  }

  // What a typed limit is: {value} when the server allows it, else {problem}.
  static read(raw) {
    const text = String(raw).trim();
    const value = text === "" ? 0 : Number(text);
    if (Number.isInteger(value) && (value === 0 || (value >= TURN_SECONDS_MIN && value <= TURN_SECONDS_MAX))) return { value };
    return { problem: t("web.tableopt.turn_seconds_range", { min: TURN_SECONDS_MIN, max: TURN_SECONDS_MAX }) };
  }

  commit(raw, current) {
    if (this.redrawing()) return;
    const read = TableOptionsForm.read(raw);
    if (read.problem) { this.problem = read.problem; return; }
    this.problem = null;
    this.draft = null;
    if (read.value !== current) this.send({ turn_seconds: read.value });
  }

  refused(text) {
    this.problem = text;
    this.draft = null;
  }

  // The host's controls, or (`host` false) the options as text; `playing`: during the
  // game, when the coach can no longer be changed.
  element(table, host, playing = false) {
    const options = table || { turn_seconds: 0, spectator_chat: false, public: false, coach: false };
    const limitText = options.turn_seconds ? t("web.tableopt.seconds", { seconds: options.turn_seconds }) : t("web.tableopt.no_limit");
    if (!host) {
      return h("dl", { class: "optionlist", id: "table-options" },
        h("div", { dataset: { option: "turn_seconds" } }, h("dt", {}, t("web.tableopt.turn_seconds")), h("dd", {}, limitText)),
        h("div", { dataset: { option: "spectator_chat" } }, h("dt", {}, t("web.tableopt.spectator_chat")),
          h("dd", {}, options.spectator_chat ? t("web.opt.yes") : t("web.opt.no"))),
        h("div", { dataset: { option: "public" } }, h("dt", {}, t("web.tableopt.public")),
          h("dd", {}, options.public ? t("web.opt.yes") : t("web.opt.no"))),
        h("div", { dataset: { option: "coach" } }, h("dt", {}, t("web.tableopt.coach")),
          h("dd", {}, options.coach ? t("web.opt.yes") : t("web.opt.no"))));
    }
    const described = this.problem ? "table-turn-seconds-error" : "table-turn-seconds-hint";
    return h("fieldset", { class: "lobbyoptions tableoptions", id: "table-options" },
      h("legend", {}, t("web.tableopt.title")),
      h("label", { for: "table-turn-seconds" }, t("web.tableopt.turn_seconds")),
      h("input", {
        type: "number", id: "table-turn-seconds", min: 0, max: TURN_SECONDS_MAX, step: 1, inputmode: "numeric",
        value: this.draft ?? String(options.turn_seconds), dataset: { key: "table-turn-seconds" },
        "aria-describedby": described, "aria-invalid": this.problem ? "true" : null,
        oninput: (e) => { this.draft = e.currentTarget.value; },
        onchange: (e) => this.commit(e.currentTarget.value, options.turn_seconds),
      }),
      h("p", { class: "muted small", id: "table-turn-seconds-hint" }, t("web.tableopt.turn_seconds_hint", { min: TURN_SECONDS_MIN, max: TURN_SECONDS_MAX })),
      this.problem ? h("p", { class: "opterror", id: "table-turn-seconds-error" }, this.problem) : null,
      h("label", { class: "check", for: "table-spectator-chat" },
        h("input", {
          type: "checkbox", id: "table-spectator-chat", checked: Boolean(options.spectator_chat), dataset: { key: "table-spectator-chat" },
          onchange: (e) => { if (!this.redrawing()) this.send({ spectator_chat: e.currentTarget.checked }); },
        }), " ", t("web.tableopt.spectator_chat")),
      h("label", { class: "check", for: "table-public" },
        h("input", {
          type: "checkbox", id: "table-public", checked: Boolean(options.public), dataset: { key: "table-public" },
          onchange: (e) => { if (!this.redrawing()) this.send({ public: e.currentTarget.checked }); },
        }), " ", t("web.tableopt.public")),
      h("label", { class: "check", for: "table-coach" },
        h("input", {
          type: "checkbox", id: "table-coach", checked: Boolean(options.coach), disabled: playing, dataset: { key: "table-coach" },
          onchange: (e) => { if (!this.redrawing()) this.send({ coach: e.currentTarget.checked }); },
        }), " ", t("web.tableopt.coach")));
  }
}
