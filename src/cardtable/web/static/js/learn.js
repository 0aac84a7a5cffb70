// The guided lessons (issue 31): `#/learn` lists them, `#/learn/{game}` plays one on the
// real table's board (drawn by skipbo.js / skyjo.js, moves chosen with play.js's picker).
// The server judges every move (/api/lessons, docs/protocol.md): this page only draws the
// learner's view it sends and words the step's catalog keys. Where the learner is (the
// step and the moves made in it) is kept in localStorage, so a reload returns there.
import { api, playerName, rememberSeat } from "./api.js";
import { announce, h, patch, toast } from "./dom.js";
import { gameInfo } from "./gamelist.js";
import { language, t } from "./i18n.js";
import { whileShown } from "./page.js";
import { Picker } from "./play.js";
import { errorText } from "./roomtext.js";
import { scorePanel } from "./scores.js";
import { GAMES, rememberBoard, settleBoard } from "./table.js";

const LESSON_GAMES = ["skipbo", "skyjo"];
// The easy level's bot (cardtable.bots.levels: "easy" is the naive bot).
const EASY_BOT = "naive";
const STORE = "cardtable.lesson.";
// Narrower windows (px) show the other players compact when there are several (as the table).
const COMPACT_BELOW = 600;

// {step, moves, finished} of a game's lesson, as this browser left it.
export function progressOf(game) {
  try {
    const stored = JSON.parse(localStorage.getItem(STORE + game));
    if (stored && Number.isInteger(stored.step) && Array.isArray(stored.moves)) return stored;
  } catch { /* a damaged entry starts the lesson again */ }
  return { step: 0, moves: [], finished: false };
}

function saveProgress(game, progress) {
  localStorage.setItem(STORE + game, JSON.stringify(progress));
}

function drawList(app) {
  const cards = LESSON_GAMES.map((game) => {
    const progress = progressOf(game);
    const label = progress.finished ? t("lesson.ui.completed")
      : progress.step > 0 || progress.moves.length ? t("lesson.ui.resume", { n: progress.step + 1 }) : t("lesson.ui.start");
    return h("section", { class: `panel lessoncard ${game}` },
      h("h2", {}, t(`lesson.ui.lesson_${game}`)),
      h("p", { class: "muted" }, t(`web.home.about_${game}`)),
      h("p", {}, h("a", {
        href: `#/learn/${game}`, class: "button primary", id: `learn-${game}`,
        onclick: () => { if (progress.finished) saveProgress(game, { step: 0, moves: [], finished: false }); },
      }, label)));
  });
  app.replaceChildren(h("div", { class: "learnlist" },
    h("section", { class: "hero" }, h("h1", {}, t("lesson.ui.title")), h("p", {}, t("lesson.ui.intro"))),
    ...cards));
  document.body.dataset.page = "learn";
}

// #/learn (page.js).
export function learnListPage() {
  let app = null;
  return {
    title: () => t("lesson.ui.title"),
    mount(into) { app = into; drawList(app); },
    redraw: () => drawList(app),
  };
}

// #/learn/{game} (page.js); null for a game without a lesson. `answer` is the server's
// last answer while the page is shown: the step, the learner's seat and view.
export function lessonPage(game) {
  if (!GAMES[game] || !LESSON_GAMES.includes(game)) return null;
  let lesson = null;
  return {
    title: () => t("lesson.ui.title"),
    get answer() { return lesson.answer(); },
    mount(app, signal) { lesson = openLesson(game, app, signal); },
    redraw: () => lesson.redraw(),
  };
}

function openLesson(game, app, signal) {
  const root = h("div", { class: "lessonhost" });
  app.replaceChildren(root);
  const state = { outline: null, answer: null, feedback: null, progress: progressOf(game), error: null, board: null, waiting: false };
  const picker = new Picker((action) => play(action.code));
  picker.onChange = () => { if (state.board) picker.decorate(state.board); };
  picker.attach(root);

  async function load() {
    if (!state.outline) {
      const res = await api(`/api/lessons/${game}`, { signal });
      if (!res.ok) { state.error = res.data; draw(); return; }
      state.outline = res.data.steps;
    }
    if (state.progress.step >= state.outline.length) state.progress = { step: 0, moves: [], finished: false };
    await ask(state.progress.moves);
  }

  // The step replayed with `moves`: the server's answer is drawn; a refused move leaves
  // the kept moves as they were.
  async function ask(moves) {
    state.waiting = true;
    const res = await api(`/api/lessons/${game}/steps/${state.progress.step}`, { method: "POST", body: { moves }, signal });
    state.waiting = false;
    if (!res.ok) {
      if (!state.answer && moves.length && res.status === 400) {
        // A kept place this lesson no longer has (its steps changed): the step's start.
        state.progress.moves = [];
        saveProgress(game, state.progress);
        await ask([]);
        return;
      }
      if (!state.answer) state.error = res.data;
      else toast(() => errorText(res.data));
      draw();
      return;
    }
    const answer = res.data;
    state.progress.moves = moves.slice(0, answer.made);
    if (answer.done && answer.step === state.outline.length - 1) state.progress.finished = true;
    saveProgress(game, state.progress);
    const before = state.answer;
    state.answer = answer;
    if (answer.refused) {
      state.feedback = { kind: "wrong", key: answer.refused.reason_key };
    } else if (answer.done) {
      state.feedback = { kind: "done", key: stepKeys().done };
    } else {
      state.feedback = null;
    }
    if (state.feedback) announce(t(state.feedback.key));
    draw(before && !answer.refused ? answer.outcomes[answer.outcomes.length - 1] : null);
  }

  function play(code) {
    if (state.waiting || !state.answer) return;
    whileShown(ask([...state.progress.moves, code]));
    draw();
  }

  function stepKeys() {
    return state.outline[state.progress.step].texts;
  }

  function goTo(step) {
    window.scrollTo(0, 0); // a new step starts with its instruction
    state.progress = { step, moves: [], finished: state.progress.finished };
    state.answer = null;
    state.feedback = null;
    saveProgress(game, state.progress);
    whileShown(ask([]));
  }

  // The first real game: started at once (the learner lands at a running table, not in a
  // lobby), with the practice coach, who says when a move was clearly worse.
  async function playReal() {
    const name = (playerName() || t("lesson.ui.you")).trim();
    const body = {
      game, options: { players: 2 }, seats: [{ kind: "human" }, { kind: "bot", bot: EASY_BOT }], name,
      table: { coach: true }, start: true,
    };
    const res = await api("/api/rooms", { method: "POST", body });
    if (!res.ok) { toast(() => errorText(res.data)); return; }
    rememberSeat(res.data.code, { seat: res.data.seat, token: res.data.token, host_token: res.data.host_token, name });
    location.hash = `#/room/${res.data.code}`;
  }

  const name = (seat) => (state.answer && seat === state.answer.seat ? t("lesson.ui.you") : t("lesson.ui.seat", { n: seat + 1 }));
  const expanded = new Set();

  function page() {
    if (state.error) {
      return h("section", { class: "panel" }, h("h1", {}, t(`lesson.ui.lesson_${game}`)),
        h("p", {}, t("lesson.ui.error")), h("p", { class: "muted" }, errorText(state.error)),
        h("a", { href: "#/learn", class: "button" }, t("lesson.ui.all")));
    }
    if (!state.answer) return h("p", { class: "loading" }, t("web.room.connecting"));
    const answer = state.answer;
    const view = answer.view;
    const gameMod = GAMES[game];
    const me = answer.seat;
    const keys = stepKeys();
    const last = answer.step === answer.steps - 1;
    // The server's table of moves (action code -> move) turns the legal codes into cards.
    const table = gameInfo(game);
    const actions = answer.done || state.waiting || !table ? [] : (view.legal_actions || []).map((code) =>
      ({ code, ...gameMod.actionFor(table.moves[code], me, view) }));
    picker.set(actions, null, state.waiting);
    const source = state.outline[answer.step].sources[language()];
    const quote = h("figure", { class: "lessonquote" },
      h("blockquote", { lang: language(), id: "lesson-quote" }, t(keys.quote)),
      h("figcaption", {}, source === "project" ? t("lesson.ui.translated") : t("lesson.ui.sheet", { sheet: source })));
    const feedback = state.feedback
      ? h("p", { class: `lessonfeedback ${state.feedback.kind}`, id: "lesson-feedback" },
        h("strong", {}, state.feedback.kind === "done" ? t("lesson.ui.well_done") : t("lesson.ui.try_again")), " ", t(state.feedback.key))
      : null;
    const buttons = h("p", { class: "lessonbuttons" },
      answer.done && !last ? h("button", { type: "button", class: "primary", id: "lesson-next", onclick: () => goTo(answer.step + 1) }, t("lesson.ui.next")) : null,
      answer.done && last ? h("button", { type: "button", class: "primary big", id: "lesson-play", onclick: playReal }, t("lesson.ui.play_real")) : null,
      " ",
      h("button", { type: "button", id: "lesson-again", onclick: () => goTo(answer.step) }, t("lesson.ui.again")),
      " ",
      h("a", { href: "#/learn", class: "button" }, t("lesson.ui.all")));
    const panel = h("section", { class: "panel lessonpanel", "aria-labelledby": "lesson-title" },
      h("p", { class: "lessonstep muted", id: "lesson-step" }, t(`lesson.ui.lesson_${game}`), " · ", t("lesson.ui.step", { n: answer.step + 1, total: answer.steps })),
      h("progress", { max: answer.steps, value: answer.step + (answer.done ? 1 : 0), "aria-label": t("lesson.ui.step", { n: answer.step + 1, total: answer.steps }) }),
      h("h1", { id: "lesson-title" }, t(keys.title)),
      quote,
      h("p", { class: "lessondo", id: "lesson-do" }, t(keys.do)));
    // The answer to a move and the way on: above the board at the desk; on a phone below
    // it, held at the bottom of the screen while it answers (style.css), where the
    // learner's eyes are after a tap on their cards.
    const status = h("section", { class: `panel lessonstatus${feedback ? " answered" : ""}`, "aria-label": t(keys.title) },
      h("div", { role: "status", "aria-live": "polite" }, feedback,
        answer.done && last ? h("p", { id: "lesson-finished" }, t("lesson.ui.finished"), " ", t("lesson.ui.coached")) : null),
      buttons);
    const rctx = {
      me, name, presence: () => null, interactive: !answer.done,
      actionsHaveEndTurn: actions.some((a) => a.source === "endturn"),
      compact: window.innerWidth < COMPACT_BELOW && gameMod.seatCount(view) > 2,
      expanded: (seat) => expanded.has(seat),
      toggle: (seat) => { if (expanded.has(seat)) expanded.delete(seat); else expanded.add(seat); draw(); },
    };
    const board = gameMod.render(view, rctx);
    if (state.waiting) board.classList.add("waiting");
    picker.decorate(board);
    return h("section", { class: `tablepage lessonpage ${game}` }, panel, status,
      h("div", { class: "tablewrap" }, board, h("aside", { class: "side" }, scorePanel(view, gameMod, name))));
  }

  function draw(outcome = null) {
    if (signal.aborted) return; // left: a late event draws nothing
    const before = rememberBoard(state.board);
    patch(root, page()); // patched, not replaced: the focus stays on the card it was on
    state.board = root.querySelector(".board");
    const answer = state.answer;
    const flight = outcome && answer && state.board ? GAMES[game].flight(outcome.move, outcome.seat, answer.view, answer.seat) : null;
    if (state.board) settleBoard(state.board, before, flight);
    document.body.dataset.page = "learn";
  }

  draw();
  whileShown(load());
  return { answer: () => state.answer, redraw: () => draw() };
}
