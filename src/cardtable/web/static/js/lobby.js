// The lobby of a room, before its game starts: the code and link to share, the seats,
// the rules (a form for the host, a list for the others), joining and starting.
import { claimProblem } from "./account.js";
import { api, playerName, rememberName, rememberSeat, seatFor } from "./api.js";
import { announce, h, listen, toast } from "./dom.js";
import { botsOf, gameInfo, nameLimit } from "./gamelist.js";
import { t } from "./i18n.js";
import { optionFields, optionLabel } from "./options.js";
import { ladderName } from "./players.js";
import { errorText } from "./roomtext.js";
import { chatPanel, tableOptions } from "./tablelife.js";

// The refusals that answer a change of the rules or seats the host sent.
export const CONFIGURE_ERRORS = ["bad_options", "bad_seats", "seat_taken", "not_in_lobby", "not_host"];

export function lobbyPage(r) {
  const ctx = r.ctx;
  const room = ctx.room;
  const link = `${location.origin}/r/${room.code}`;
  const free = room.seats.filter((s) => s.kind === "human" && !s.taken);
  const box = h("section", { class: "panel lobby" },
    h("h1", {}, t("web.lobby.title", { game: room.title, code: room.code })),
    h("p", { class: "codeline" }, t("web.lobby.code"), " ", h("strong", { class: "code", id: "room-code" }, room.code)),
    h("div", { class: "share" },
      h("label", { for: "share-link" }, t("web.lobby.share")),
      h("div", { class: "sharerow" },
        h("input", { id: "share-link", readonly: true, value: link }),
        h("button", { type: "button", onclick: () => copy(link) }, t("web.lobby.copy")))));
  const list = h("ol", { class: "seats" });
  room.seats.forEach((s, index) => {
    const status = s.kind === "bot" ? t("web.lobby.bot_ready")
      : s.taken ? (s.connected ? t("web.lobby.online") : t("web.lobby.offline")) : t("web.lobby.waiting");
    const item = h("li", { class: `seat ${s.kind}${index === ctx.seat ? " me" : ""}` },
      h("span", { class: `dot ${s.kind === "bot" || s.connected ? "on" : "off"}`, "aria-hidden": "true" }),
      h("span", { class: "seatname" }, r.name(index)),
      h("span", { class: "muted" }, status));
    if (r.isHost() && !s.taken) item.append(seatSelect(r, index, s));
    if (r.isHost() && s.kind === "human" && s.taken && index !== ctx.seat) item.append(removeButton(r, index));
    list.append(item);
  });
  box.append(h("h2", {}, t("web.lobby.seats")), list);
  // Whether the game will be rated: the server's verdict on the table as it stands.
  const expected = room.expected_verdict;
  if (expected) {
    box.append(h("p", { id: "expected-verdict", class: expected.rated ? "rated" : "muted", dataset: { rated: String(expected.rated) } },
      expected.rated
        ? t("web.lobby.will_be_rated", { ladder: ladderName(room.ladder) })
        : [t("web.lobby.will_not_be_rated"), " ", t(`web.rated.reason.${expected.reason}`)]));
  }
  const trouble = claimProblem(room.code);
  if (trouble) box.append(h("p", { class: "error", id: "claim-trouble", role: "alert" }, t("web.claim.failed", { why: errorText(trouble) })));
  box.append(h("h2", { id: "lobby-options-title" }, t("web.lobby.options")),
    r.isHost() ? optionForm(r, room) : optionList(room), tableOptions(r));
  if (ctx.seat === null && free.length) {
    const input = h("input", {
      id: "join-name", required: true, maxlength: nameLimit(), value: ctx.joinName ?? playerName(), autocomplete: "nickname",
      dataset: { key: "join-name" }, oninput: (e) => { ctx.joinName = e.currentTarget.value; },
    });
    box.append(h("form", { class: "joinform", onsubmit: (e) => { e.preventDefault(); join(r, e.currentTarget.elements["join-name"].value); } },
      h("label", { for: "join-name" }, t("web.home.your_name")), input,
      h("button", { type: "submit", class: "primary", id: "join" }, t("web.lobby.join"))));
  } else if (ctx.seat === null) {
    box.append(h("p", {}, t("web.lobby.watching")));
  }
  if (r.isHost()) {
    box.append(h("p", {}, h("button", {
      type: "button", class: "primary big", id: "start", disabled: free.length > 0,
      onclick: () => r.send({ type: "start", host_token: ctx.mine.host_token }),
    }, t("web.lobby.start"))));
    if (free.length) box.append(h("p", { class: "muted" }, t("web.lobby.wait_players", { count: free.length })));
    if (free.length && ctx.mine.quick) box.append(quickWait(r, ctx.mine.quick));
  } else if (ctx.seat !== null) {
    box.append(h("p", { class: "muted" }, t("web.lobby.wait_host")));
  }
  if (room.game_no > 1) {
    box.append(h("p", {}, h("a", { href: `#/replay/${room.code}/${room.game_no - 1}` }, t("web.replay.previous"))));
  }
  box.append(chatPanel(r));
  return box;
}

// A quick match's host waits for people (the page counts the seconds); after the wait
// the bot level rated closest to them may take the empty seats, and the game starts.
function quickWait(r, quick) {
  const ctx = r.ctx;
  const status = h("span", {});
  const button = h("button", { type: "button", id: "quick-bots", disabled: true, onclick: () => {
    const seats = ctx.room.seats.map((s) => (s.kind === "bot" ? { kind: "bot", bot: s.bot }
      : s.taken ? { kind: "human" } : { kind: "bot", bot: quick.bot.bot }));
    r.send({ type: "configure", host_token: ctx.mine.host_token, seats });
    r.send({ type: "start", host_token: ctx.mine.host_token });
  } }, t("web.quick.bots", { bot: t(`web.bot.${quick.bot.bot}`), rating: quick.bot.rating }));
  const box = h("p", { class: "quickwait", id: "quick-wait", role: "status" }, status, " ", button);
  const update = () => {
    const waited = Math.floor((Date.now() - quick.since) / 1000);
    status.textContent = t("web.quick.waiting", { seconds: waited });
    button.disabled = waited < quick.wait;
  };
  // A redraw draws a new copy: the copy that is not in the page stops counting.
  const tick = () => { if (box.isConnected) { update(); setTimeout(tick, 1000); } };
  update();
  setTimeout(tick, 1000);
  return box;
}

// The rules as read-only text: what guests and spectators see, updated with each room event.
function optionList(room) {
  const info = gameInfo(room.game);
  const shown = info ? info.options.map((o) => o.name) : Object.keys(room.rules);
  return h("dl", { class: "optionlist", id: "lobby-options" }, shown.filter((key) => key in room.rules).map((key) => {
    const value = room.rules[key];
    const text = value === true ? t("web.opt.yes") : value === false ? t("web.opt.no") : value === null ? t("web.opt.auto") : String(value);
    return h("div", { dataset: { option: key } }, h("dt", {}, optionLabel(room.game, key)), h("dd", {}, text));
  }));
}

// The host edits the rules with the home page's controls; each accepted change is sent
// at once, and the room event (or the refusal) that answers it is what the page shows.
function optionForm(r, room) {
  const ctx = r.ctx;
  const info = gameInfo(room.game);
  if (!info) return optionList(room);
  const values = { ...room.rules, ...ctx.drafts };
  const error = ctx.optionError;
  const busy = ctx.configuring.length > 0;
  return h("fieldset", { class: "lobbyoptions", id: "lobby-options", "aria-labelledby": "lobby-options-title", "aria-busy": busy ? "true" : "false" },
    optionFields(info, values, {
      prefix: "lobby-opt",
      onInput: (option, raw) => { ctx.drafts[option] = raw; },
      // Chromium blurs (and so "changes") a focused field as a redraw takes it out of the
      // page: that is not the user leaving it, and the form ignores it.
      onValue: (option, value) => { if (!ctx.redrawing) configureOption(r, info, option, value); },
      onProblem: (option, text, words) => {
        if (ctx.redrawing) return; // the new copy keeps the text; leaving it judges it
        delete ctx.drafts[option];
        ctx.optionError = { option, text: words || (() => text) };
        announce(text);
        r.draw();
      },
      errorFor: (option) => (error && error.option === option ? error.text() : null),
      isDirty: (option) => option in ctx.drafts && !ctx.configuring.some((c) => c.option === option),
    }));
}

function configureOption(r, info, option, value) {
  const ctx = r.ctx;
  const last = ctx.configuring.filter((c) => c.option === option).pop();
  if (last && last.value === value) return; // already on its way
  ctx.optionError = null;
  if (!last && ctx.room.rules[option] === value) { delete ctx.drafts[option]; r.draw(); return; }
  const message = { type: "configure", host_token: ctx.mine.host_token, options: { [option]: value } };
  if (option === "players") {
    // Keep the seats that stay (players and bots alike); a new seat gets the home page's
    // default bot, and the host may make it a human seat with its selector.
    message.seats = Array.from({ length: value }, (_, i) => {
      const seat = ctx.room.seats[i];
      if (!seat) return { kind: "bot", bot: info.default_bot };
      return seat.kind === "bot" ? { kind: "bot", bot: seat.bot } : { kind: "human" };
    });
  }
  if (!r.send(message)) {
    delete ctx.drafts[option];
    toast(() => t("web.net.offline"));
  } else {
    ctx.drafts[option] = value;
    ctx.configuring.push({ option, value });
  }
  r.draw();
}

// A room event while the lobby is shown: the server answers in order, so the oldest
// change awaiting an answer is the one applied; once the game starts nothing is pending.
export function lobbyEvent(r, room) {
  const ctx = r.ctx;
  const first = ctx.configuring[0];
  if (first && room.rules[first.option] === first.value) settleChange(r);
  if (room.status !== "lobby") { ctx.drafts = {}; ctx.configuring = []; ctx.optionError = null; }
}

// An error the server sent: true when it answers a change of the rules (and is shown
// under that option), false when it is for the caller to show.
export function lobbyError(r, m) {
  if (!r.ctx.configuring.length || !CONFIGURE_ERRORS.includes(m.code)) return false;
  optionRefused(r, m);
  return true;
}

// The server refused the change: nothing changed, the controls show the room's rules
// again, and the refusal stays under the option it is about: the one the server names
// (`field`; not always the one sent: more players can make the stock size too large),
// else the one sent (a refusal of the seats, an option the page does not show).
function optionRefused(r, m) {
  const ctx = r.ctx;
  const sent = settleChange(r).option;
  const info = gameInfo(ctx.room.game);
  const option = m.field && info && info.options.some((o) => o.name === m.field) ? m.field : sent;
  // Worded when drawn: a change of language words the refusal again.
  const text = () => t("web.lobby.option_refused", { option: optionLabel(ctx.room.game, option), reason: errorText(m) });
  ctx.optionError = { option, text };
  announce(text());
}

// The oldest change sent has its answer: its field shows the room's rules again, unless
// a later change of the same option is still on its way, or the host has typed into the
// field since it was sent (the answer must not wipe what is being typed).
function settleChange(r) {
  const ctx = r.ctx;
  const done = ctx.configuring.shift();
  const typedSince = ctx.drafts[done.option] !== done.value;
  if (!typedSince && !ctx.configuring.some((c) => c.option === done.option)) delete ctx.drafts[done.option];
  return done;
}

function seatSelect(r, index, s) {
  const ctx = r.ctx;
  const select = h("select", { "aria-label": t("web.lobby.seat_kind", { n: index + 1 }), dataset: { key: `seat-${index}` } },
    h("option", { value: "human", selected: s.kind === "human" }, t("web.home.human")),
    botsOf(ctx.room.game).map((bot) =>
      h("option", { value: bot, selected: s.kind === "bot" && s.bot === bot }, t(`web.bot.${bot}`))));
  listen(select, "change", (e) => {
    const chosen = e.currentTarget.value;
    const seats = ctx.room.seats.map((seat, i) => {
      const value = i === index ? chosen : seat.kind === "bot" ? seat.bot : "human";
      return value === "human" ? { kind: "human" } : { kind: "bot", bot: value };
    });
    r.send({ type: "configure", host_token: ctx.mine.host_token, seats });
  });
  return select;
}

// The host frees a seat a waiting player took (a stranger at a public table, say).
function removeButton(r, index) {
  return h("button", {
    type: "button", class: "small", dataset: { key: `remove-${index}` },
    "aria-label": t("web.lobby.remove_label", { name: r.name(index) }),
    onclick: () => r.send({ type: "remove", host_token: r.ctx.mine.host_token, seat: index }),
  }, t("web.lobby.remove"));
}

async function join(r, raw) {
  const clean = raw.trim();
  if (!clean) return;
  rememberName(clean);
  const res = await api(`/api/rooms/${r.code}/join`, { method: "POST", body: { name: clean } });
  if (!res.ok) { toast(() => errorText(res.data)); return; }
  rememberSeat(r.code, { seat: res.data.seat, token: res.data.token, name: clean });
  r.ctx.joinName = null;
  r.ctx.mine = seatFor(r.code);
  r.connect();
}

function copy(link) {
  if (navigator.clipboard) navigator.clipboard.writeText(link).then(() => toast(() => t("web.lobby.copied"), "info"), () => {});
  else toast(link, "info");
}
