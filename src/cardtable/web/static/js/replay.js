// A finished (or stopped) game played back (#/replay/{code}/{n}): the board at each
// step, drawn by the game's own module from the view the server sends for that step,
// with the move that led there in words; stepped by buttons, a slider, the arrow keys,
// or played at a steady pace.
import { api } from "./api.js";
import { h } from "./dom.js";
import { gameTitle } from "./gamelist.js";
import { formatNames, t } from "./i18n.js";
import { icon } from "./icons.js";
import { fitBoard } from "./layout.js";
import { whileShown } from "./page.js";
import { errorText, seatName } from "./roomtext.js";
import { GAMES } from "./table.js";
import { describe, lineText } from "./words.js";

const PACE_MS = 700;

function failed(res) {
  return h("section", { class: "panel" }, h("h1", {}, t("web.replay.title")), h("p", {}, errorText(res.data)),
    h("a", { href: "#/", class: "button" }, t("web.nav.home")));
}

// #/replay/{code}/{n} (page.js). No redraw of its own: a new language mounts it afresh.
export function replayPage(code, number) {
  let timer = null;
  const stopPlaying = () => { clearInterval(timer); timer = null; };

  async function mount(app, signal) {
    app.replaceChildren(h("p", { class: "loading" }, t("web.room.connecting")));
    const res = await api(`/api/rooms/${code}/games/${number}`, { signal });
    if (!res.ok) { app.replaceChildren(failed(res)); return; }
    const log = res.data;
    const game = GAMES[log.game];
    const room = { seats: log.seats };
    const name = (seat) => seatName(room, seat, null);
    const total = log.moves.length;
    const cache = new Map();
    let step = total;
    const stage = h("div", { class: "replaystage" });
    const caption = h("p", { class: "caption", "aria-live": "polite" });
    const range = h("input", { type: "range", min: 0, max: total, value: step, "aria-label": t("web.replay.step_label"), id: "replay-range" });
    const counter = h("span", { class: "counter", id: "replay-counter" });

    async function fetchStep(k) {
      const r = await api(`/api/rooms/${code}/games/${number}/steps/${k}`, { signal });
      if (r.ok) cache.set(k, r.data.view);
    }

    async function show(k) {
      step = Math.max(0, Math.min(total, k));
      range.value = String(step);
      counter.textContent = t("web.replay.step", { step, total });
      if (!cache.has(step)) await fetchStep(step);
      // Stepped on while this step was asked for: the later step draws itself.
      if (Number(range.value) !== step || !cache.has(step)) return;
      const view = cache.get(step);
      stage.replaceChildren(game.render(view, { me: null, name, presence: () => null, interactive: false }));
      const move = step > 0 ? log.moves[step - 1] : null;
      caption.replaceChildren(...(move
        ? describe(log.game, move.outcome).map((l) => h("span", { class: "line" }, lineText(l, name)))
        : [t("web.replay.deal"), ...game.openingLines(view).map((l) => h("span", { class: "line" }, " ", lineText(l, name)))]));
      // The Skip-Bo board laid out and scaled as at the table, under the caption.
      if (log.game === "skipbo") fitBoard(stage.querySelector(".board"));
    }
    const go = (k) => whileShown(show(k));

    const play = h("button", { type: "button", id: "replay-play" }, t("web.replay.play"));
    play.addEventListener("click", () => {
      if (timer) { stopPlaying(); play.textContent = t("web.replay.play"); return; }
      if (step >= total) go(0);
      play.textContent = t("web.replay.pause");
      timer = setInterval(() => {
        if (step < total) { go(step + 1); return; }
        stopPlaying();
        play.textContent = t("web.replay.play");
      }, PACE_MS);
    });
    range.addEventListener("input", () => go(Number(range.value)));
    const controls = h("div", { class: "replaycontrols" },
      h("button", { type: "button", "aria-label": t("web.replay.first"), onclick: () => go(0) }, icon("first")),
      h("button", { type: "button", "aria-label": t("web.replay.prev"), id: "replay-prev", onclick: () => go(step - 1) }, icon("prev")),
      play,
      h("button", { type: "button", "aria-label": t("web.replay.next"), id: "replay-next", onclick: () => go(step + 1) }, icon("next")),
      h("button", { type: "button", "aria-label": t("web.replay.last"), onclick: () => go(total) }, icon("last")),
      range, counter);
    const result = log.result
      ? h("p", {}, log.result.winners.length ? t("web.summary.winners", { names: formatNames(log.result.winners.map(name)), count: log.result.winners.length }) : t("web.summary.no_winner"))
      : h("p", { class: "muted" }, t("web.replay.unfinished"));
    const section = h("section", { class: `replay ${log.game}` },
      h("h1", {}, t("web.replay.heading", { game: gameTitle(log.game), code, n: number })),
      result, controls, caption, stage,
      h("p", {}, h("a", { href: `#/room/${code}`, class: "button" }, t("web.replay.back_room")), " ", h("a", { href: "#/", class: "button" }, t("web.nav.home"))));
    section.addEventListener("keydown", (e) => {
      if (e.target === range) return;
      if (e.key === "ArrowRight") { go(step + 1); e.preventDefault(); }
      if (e.key === "ArrowLeft") { go(step - 1); e.preventDefault(); }
    });
    section.tabIndex = -1;
    app.replaceChildren(section);
    document.body.dataset.page = "replay";
    await show(total);
  }

  return { title: () => t("web.replay.title"), mount, leave: stopPlaying };
}
