// The table chat and the quick reactions (docs/protocol.md: `chat`, `reaction`,
// `chat_history`). Every text from the server goes into the page as text (h() makes
// text nodes; never innerHTML), and the reactions are icons shipped with the page, not
// emoji that depend on the fonts installed.
import { h } from "./dom.js";
import { formatNumber, t } from "./i18n.js";

// The server's limits (cardtable.server.protocol.MAX_CHAT, chat.HISTORY).
export const MAX_CHAT = 200;
const KEPT = 50;
// How long a reaction stays in the bubble above the chat.
const BURST_MS = 4000;

export const REACTIONS = ["thumbs_up", "clap", "wow", "phew", "party"];

const SVG = "http://www.w3.org/2000/svg";
// Each drawn on a 16x16 grid in the text colour, like js/icons.js.
const REACTION_PATHS = {
  thumbs_up: ["M2 7.5h2.5V14H2z", "M4.5 7.5L7.6 2c1.1 0 1.9.9 1.6 2l-.6 2.4h4a1.3 1.3 0 0 1 1.3 1.5l-.9 4.7A1.7 1.7 0 0 1 11.3 14H4.5"],
  clap: ["M6 14.5L3 8.5a1 1 0 0 1 1.8-.9L6.5 11V4a1 1 0 0 1 2 0v5.5", "M8.5 5.5a1 1 0 0 1 2 0V9", "M10.5 7a1 1 0 0 1 2 0v3.5A4 4 0 0 1 8.5 14.5H6",
    "M11 1.5l.4 1.6", "M13.6 2.6l-1 1.2", "M14.5 5.2l-1.5.3"],
  wow: ["M8 1.5a6.5 6.5 0 1 0 0 13a6.5 6.5 0 1 0 0-13z", "M5.6 6.2v.6", "M10.4 6.2v.6", "M6.8 10.6a1.2 1.5 0 1 0 2.4 0a1.2 1.5 0 1 0-2.4 0z"],
  phew: ["M7.5 2a6 6 0 1 0 6 6.5", "M4.8 6.6h1.6", "M8.6 6.6h1.6", "M4.8 9.6c1.5 2 4 2 5.4 0", "M13 1.2c1 1.4 1.5 2.2 1.5 2.8a1.5 1.5 0 0 1-3 0c0-.6.5-1.4 1.5-2.8z"],
  party: ["M2 14.5l3.2-9.3 6.1 6.1z", "M4 9.8l2.4 2.4", "M9.5 1.5v1.8", "M12.6 3.4l1.3-1.3", "M12.8 6.6h1.8", "M9.8 5.5l1-1"],
};

export function reactionIcon(name) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("class", `icon reaction-icon reaction-${name}`);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  for (const d of REACTION_PATHS[name] || []) {
    const path = document.createElementNS(SVG, "path");
    path.setAttribute("d", d);
    svg.append(path);
  }
  return svg;
}

export class TableChat {
  // `send(message)` sends on the room's connection (false when offline); `redraw()`
  // draws the page again.
  constructor(send, redraw) {
    this.send = send;
    this.redraw = redraw;
    this.lines = []; // chat lines and reactions, oldest first
    this.draft = ""; // what is typed and not yet sent (a redraw keeps it)
    this.bursts = []; // recent reactions: {id, who, reaction, until}
    this.burstId = 0;
    this.unread = 0;
    this.open = window.innerWidth > 900;
    this.closed = false; // the room's page was left: no more drawing
  }

  close() {
    this.closed = true;
  }

  // A server message for the chat; true when it was one.
  onMessage(m) {
    if (m.type === "chat_history") {
      this.lines = m.messages.map((line) => ({ ...line, kind: "chat" }));
      return true;
    }
    if (m.type === "chat") {
      this.add({ ...m, kind: "chat" });
      if (!this.open) this.unread += 1;
      return true;
    }
    if (m.type === "reaction") {
      this.add({ ...m, kind: "reaction" });
      const burst = { id: ++this.burstId, who: m, reaction: m.reaction, until: performance.now() + BURST_MS };
      this.bursts.push(burst);
      setTimeout(() => {
        this.bursts = this.bursts.filter((b) => b.id !== burst.id);
        if (!this.closed) this.redraw();
      }, BURST_MS);
      return true;
    }
    return false;
  }

  add(line) {
    this.lines.push(line);
    if (this.lines.length > KEPT * 2) this.lines.splice(0, this.lines.length - KEPT * 2);
  }

  // Who wrote: the seat's name as the table words it, else "spectator n".
  static author(line, name) {
    if (line.seat !== null && line.seat !== undefined) return name(line.seat);
    return t("web.chat.spectator", { n: formatNumber(line.spectator || 0) });
  }

  submit(text) {
    const clean = text.trim();
    if (!clean) return;
    if (this.send({ type: "chat", text: clean.slice(0, MAX_CHAT) })) this.draft = "";
    this.redraw();
  }

  // The chat panel. `canWrite`: this connection may write (a player, or a spectator
  // the host allows).
  panel({ name, canWrite }) {
    const list = h("ol", { class: "chatlist", id: "chat-list", "aria-live": "polite", "aria-label": t("web.chat.title") },
      this.lines.slice(-KEPT).map((line) => line.kind === "chat"
        ? h("li", { class: "chatline", dataset: { id: String(line.id) } },
          h("span", { class: "chatwho" }, TableChat.author(line, name)), ": ",
          h("span", { class: "chattext" }, line.text))
        : h("li", { class: "chatline reaction" },
          h("span", { class: "chatwho" }, TableChat.author(line, name)), " ",
          reactionIcon(line.reaction), h("span", { class: "sr-only" }, t(`web.reaction.${line.reaction}`)))));
    const bubbles = h("div", { class: "reactionbursts", id: "reaction-bursts", "aria-hidden": "true" },
      this.bursts.map((b) => h("span", { class: "reactionburst", dataset: { reaction: b.reaction } },
        reactionIcon(b.reaction), " ", TableChat.author(b.who, name))));
    const body = [bubbles, list];
    if (canWrite) {
      body.push(h("div", { class: "reactions", role: "group", "aria-label": t("web.reaction.title") },
        REACTIONS.map((r) => h("button", {
          type: "button", class: "reactionbutton", dataset: { reaction: r }, title: t(`web.reaction.${r}`), "aria-label": t(`web.reaction.${r}`),
          onclick: () => { this.send({ type: "reaction", reaction: r }); },
        }, reactionIcon(r)))));
      body.push(h("form", { class: "chatform", id: "chat-form", onsubmit: (e) => { e.preventDefault(); this.submit(e.currentTarget.elements["chat-input"].value); } },
        h("label", { for: "chat-input", class: "sr-only" }, t("web.chat.label")),
        h("input", {
          id: "chat-input", maxlength: MAX_CHAT, autocomplete: "off", value: this.draft, placeholder: t("web.chat.placeholder"),
          // The table's keys (arrows, "?") leave a text field alone (keys.js).
          dataset: { key: "chat-input" }, oninput: (e) => { this.draft = e.currentTarget.value; },
        }),
        h("button", { type: "submit", id: "chat-send" }, t("web.chat.send"))));
    } else {
      body.push(h("p", { class: "muted small", id: "chat-readonly" }, t("web.chat.read_only")));
    }
    const title = this.unread && !this.open ? t("web.chat.title_unread", { count: this.unread }) : t("web.chat.title");
    return h("details", {
      class: "chat", id: "chat", open: this.open,
      ontoggle: (e) => { this.open = e.currentTarget.open; if (this.open && this.unread) { this.unread = 0; this.redraw(); } },
    }, h("summary", {}, title), body);
  }
}
