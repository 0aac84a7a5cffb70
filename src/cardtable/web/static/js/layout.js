// Fitting the table to the window: one scale (--s) for every card of the board, the
// largest at which the board ends above the window's bottom edge and is no wider than
// its column. On a wide screen the side panel (scores, log) scrolls inside itself, so
// the page does not scroll at all; on a phone the side panel comes after the board.
//
// The Skip-Bo board is also arranged: its players' places, the middle (draw, building
// and set-aside piles) and one's own place and hand are cells of a grid (data-cols
// columns, each as wide as what it holds: a place never overlaps the next, see
// style.css; a row of fewer places is centred). For each number of columns, and each spot the middle may take (a row of
// its own, or the free cells of the players' last row or of one's own row), the largest
// scale that fits is found; the arrangement with the largest cards wins. The deepest
// discard pile shown is part of what is fitted: a pile that grows (its fan and its "+N"
// marker) makes the cards smaller rather than reach into another place.

const GAMES = {
  skyjo: { min: 0.45, max: 1.8 },
  skipbo: { min: 0.45, max: 3 },
};
// A phone showing the other players as lines keeps its cards readable when one of them
// is opened from its line: the page may scroll then, rather than every card be tiny.
const OPENED_MIN = 0.7;
const MARGIN = 10; // px left free under the board (the page's own padding is 8)
const STEPS = 8; // bisection steps: the Skip-Bo scale is found to within 1 %
// An arrangement with the middle in a row of its own (the table's usual look) is kept
// unless another gives cards larger by more than this.
const USUAL = 1.04;

let current = null; // { board, key, scale, arrangement }

function fitsAt(board, scale) {
  board.style.setProperty("--s", String(scale));
  const rect = board.getBoundingClientRect();
  if (rect.bottom + window.scrollY > window.innerHeight - MARGIN || board.scrollWidth > board.clientWidth + 1) return false;
  // Skip-Bo: nothing sticks out of its place (one column stretches the places to the
  // board's width, and what overflows one may stay inside the board's padding).
  for (const place of board.querySelectorAll(".skipbo-board [data-seat], .skipbo-board .middle, .skipbo-board .handrow")) {
    if (place.scrollWidth > place.clientWidth + 1) return false;
  }
  return true;
}

function gameOf(board) {
  return board.classList.contains("skyjo-board") ? "skyjo" : "skipbo";
}

// The most cards a discard pile of the board shows fanned out.
function deepest(board) {
  let n = 0;
  for (const fan of board.querySelectorAll(".fan")) n = Math.max(n, Number(fan.style.getPropertyValue("--n")) || 1);
  return n;
}

// What the fit depends on besides the cards' content: the window, the game, the seats,
// and on the Skip-Bo board the deepest pile, the players opened on a phone and a notice.
function shapeOf(board) {
  const game = gameOf(board);
  const parts = [window.innerWidth, window.innerHeight, game, board.querySelectorAll("[data-seat]").length];
  if (game === "skipbo") {
    parts.push(deepest(board), board.querySelectorAll("[data-seat].open").length, board.querySelectorAll(".warning").length);
  }
  return parts.join("|");
}

function boundSide(board) {
  const side = board.parentElement && board.parentElement.querySelector(".side");
  if (!side) return;
  if (window.innerWidth >= 960) side.style.maxHeight = `${Math.max(200, window.innerHeight - side.getBoundingClientRect().top - window.scrollY - MARGIN)}px`;
  else side.style.removeProperty("max-height");
}

// The Skip-Bo board's cells: the players' places above the middle (the opponents, or
// every player for a spectator), the middle, and one's own places and hand.
function cells(board) {
  return {
    players: [...board.querySelectorAll(".opponents [data-seat]")],
    middle: board.querySelector(".middle"),
    own: [...board.querySelectorAll(".ours > [data-seat], .ours > .handrow")],
    notes: [...board.querySelectorAll(":scope > .warning")],
  };
}

// Lay the Skip-Bo board out as `arrangement` says: { cols, middle, shape }, where
// `middle` is where the middle goes ("row": a row of its own; "players": the free cells
// of the players' last row; "own": those of one's own row) and `shape` how its piles lie
// ("row", or "stacked": the draw and set-aside piles one over the other, beside the
// building piles, for a middle one cell wide). Each cell spans two tracks of the grid,
// so that a row with fewer places than columns is centred. One column is the phone's
// layout: everything stacked, the other players compact.
function arrange(board, arrangement) {
  const { cols, middle: where = "row" } = arrangement;
  const { players, middle, own, notes } = cells(board);
  board.dataset.cols = String(cols);
  board.style.setProperty("--tracks", String(2 * cols));
  for (const el of [...players, middle, ...own, ...notes]) {
    el.style.removeProperty("grid-row");
    el.style.removeProperty("grid-column");
  }
  const free = (count) => (count % cols ? cols - (count % cols) : 0);
  const span = where === "players" ? free(players.length) : where === "own" ? free(own.length) : cols;
  middle.dataset.shape = arrangement.shape || (span === 1 ? "stacked" : "row");
  if (cols === 1) return;
  // The rows, each a list of [element, columns]. A spectator sees the middle between the
  // two halves of the table.
  const rows = [];
  const fill = (els) => { for (let i = 0; i < els.length; i += cols) rows.push(els.slice(i, i + cols).map((el) => [el, 1])); };
  let above = players.length;
  if (!own.length && where === "row") {
    // Half of them above (a row of whole rows if half would take one more row).
    const n = players.length;
    const rowsOf = (k) => Math.ceil(k / cols) + Math.ceil((n - k) / cols);
    const half = Math.ceil(n / 2);
    const whole = Math.min(n, cols * Math.ceil(half / cols));
    above = rowsOf(half) <= rowsOf(whole) ? half : whole;
  }
  fill(players.slice(0, above));
  if (where === "players") rows[rows.length - 1].push([middle, span]);
  if (where === "row") rows.push([[middle, cols]]);
  fill(players.slice(above));
  fill(own);
  if (where === "own") rows[rows.length - 1].push([middle, span]);
  rows.forEach((row, r) => {
    let track = 1 + cols - row.reduce((sum, [, n]) => sum + n, 0);
    for (const [el, n] of row) {
      el.style.setProperty("grid-row", String(r + 1));
      el.style.setProperty("grid-column", `${track} / span ${2 * n}`);
      track += 2 * n;
    }
  });
  notes.forEach((el, i) => {
    el.style.setProperty("grid-row", String(rows.length + i + 1));
    el.style.setProperty("grid-column", "1 / -1");
  });
}

// Every arrangement worth trying on this board, the usual ones first.
function arrangements(board) {
  const { players, own } = cells(board);
  const list = [{ cols: 1, shape: "row" }, { cols: 1, shape: "stacked" }];
  if (board.querySelector("[data-seat].compact")) return list; // a phone: the others are lines that open
  const most = Math.max(2, players.length, own.length + 1);
  for (let cols = 2; cols <= most; cols++) list.push({ cols, middle: "row" });
  for (let cols = 2; cols <= most; cols++) {
    if (players.length % cols) list.push({ cols, middle: "players" });
    if (own.length % cols) list.push({ cols, middle: "own" });
  }
  return list;
}

// The largest scale in [low, high] at which `board` fits: `low` itself when nothing
// larger does, null when not even `low` does.
function largest(board, low, high, steps) {
  if (!fitsAt(board, low)) return null;
  if (fitsAt(board, high)) return high;
  for (let i = 0; i < steps; i++) {
    const mid = (low + high) / 2;
    if (fitsAt(board, mid)) low = mid;
    else high = mid;
  }
  return low;
}

const usual = (a) => a.cols === 1 || a.middle === "row";
const alike = (a, b) => a.cols === b.cols && a.middle === b.middle && a.shape === b.shape;

// How far the board overflows (px), to pick the least bad arrangement when none fits.
function overflow(board, scale) {
  board.style.setProperty("--s", String(scale));
  const rect = board.getBoundingClientRect();
  return Math.max(0, rect.bottom + window.scrollY - window.innerHeight) + 10 * Math.max(0, board.scrollWidth - board.clientWidth);
}

// The Skip-Bo board's best arrangement and its scale.
function searchSkipbo(board, game) {
  const opened = Boolean(board.querySelector("[data-seat].compact.open"));
  const limits = { min: opened ? OPENED_MIN : game.min, max: game.max };
  // The arrangement found last first: it is likely still the best, and then every other
  // one costs a single layout (it does not fit at the best scale so far).
  const list = arrangements(board);
  const last = current && current.arrangement;
  if (last) list.sort((a, b) => Number(alike(b, last)) - Number(alike(a, last)));
  let best = null;
  for (const arrangement of list) {
    arrange(board, arrangement);
    // The scale to beat: the best so far, with the usual look's allowance.
    let floor = limits.min;
    if (best !== null) {
      floor = best.scale;
      if (usual(best.arrangement) && !usual(arrangement)) floor *= USUAL;
      if (!usual(best.arrangement) && usual(arrangement)) floor /= USUAL;
      if (floor >= limits.max) continue;
    }
    const scale = largest(board, floor, limits.max, STEPS);
    if (scale !== null && (best === null || scale > floor)) best = { scale, arrangement };
  }
  if (best !== null) best.fitted = true;
  else {
    let least = Infinity;
    for (const arrangement of arrangements(board)) {
      arrange(board, arrangement);
      const over = overflow(board, limits.min);
      if (over < least) { least = over; best = { scale: limits.min, arrangement, fitted: false }; }
    }
  }
  arrange(board, best.arrangement);
  return best;
}

// Scale `board` to fit. The scale found (and the Skip-Bo board's arrangement) is kept
// while the shape is the same and the board still fits (one layout read per redraw);
// content that grows (a longer fan, a wrapped hand) or a new window size makes it search
// again.
export function fitBoard(board) {
  if (!board) return;
  boundSide(board);
  const key = shapeOf(board);
  const game = gameOf(board);
  const limits = GAMES[game];
  const same = current && current.board === board && current.key === key;
  if (game === "skipbo") {
    if (current && current.board === board && current.arrangement) arrange(board, current.arrangement);
    // (A board that fits at no scale is left as found: no search at every redraw.)
    if (same && (!current.fitted || fitsAt(board, current.scale))) {
      board.style.setProperty("--s", String(current.scale));
      return;
    }
    const found = searchSkipbo(board, limits);
    const scale = Math.floor(found.scale * 100) / 100;
    board.style.setProperty("--s", String(scale));
    current = { board, key, scale, arrangement: found.arrangement, fitted: found.fitted };
    return;
  }
  if (same && fitsAt(board, current.scale)) return;
  // Same shape, more content: only a smaller scale can fit.
  let low = limits.min;
  let high = same ? current.scale : limits.max;
  if (!same && fitsAt(board, limits.max)) low = limits.max;
  else {
    for (let i = 0; i < 7; i++) {
      const mid = (low + high) / 2;
      if (fitsAt(board, mid)) low = mid;
      else high = mid;
    }
  }
  const scale = Math.floor(low * 100) / 100;
  board.style.setProperty("--s", String(scale));
  current = { board, key, scale, arrangement: null };
}

window.addEventListener("resize", () => {
  if (current && document.contains(current.board)) fitBoard(current.board);
});
