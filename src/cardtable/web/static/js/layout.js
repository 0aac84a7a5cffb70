// Fitting the table to the window: one scale (--s) for every card of the board, the
// largest at which the board ends above the window's bottom edge and is no wider than
// its column. On a wide screen the side panel (scores, log) scrolls inside itself, so
// the page does not scroll at all; on a phone the side panel comes after the board.

const MIN = 0.45;
const MAX = 1.8;
const MARGIN = 10; // px left free under the board (the page's own padding is 8)
const STEPS = 7; // bisection steps: the scale is found to within 1 %

let current = null; // { board, key, scale }

function fitsAt(board, scale) {
  board.style.setProperty("--s", String(scale));
  const rect = board.getBoundingClientRect();
  return rect.bottom + window.scrollY <= window.innerHeight - MARGIN && board.scrollWidth <= board.clientWidth + 1;
}

// What the fit depends on besides the cards' content: the window, the game, the seats.
function shapeOf(board) {
  const game = board.classList.contains("skyjo-board") ? "skyjo" : "skipbo";
  return [window.innerWidth, window.innerHeight, game, board.querySelectorAll("[data-seat]").length].join("|");
}

function boundSide(board) {
  const side = board.parentElement && board.parentElement.querySelector(".side");
  if (!side) return;
  if (window.innerWidth >= 960) side.style.maxHeight = `${Math.max(200, window.innerHeight - side.getBoundingClientRect().top - window.scrollY - MARGIN)}px`;
  else side.style.removeProperty("max-height");
}

// Scale `board` to fit. The scale found is kept while the shape is the same and the
// board still fits (one layout read per redraw); content that grows (a longer fan, a
// wrapped hand) or a new window size makes it search again.
export function fitBoard(board) {
  if (!board) return;
  boundSide(board);
  const key = shapeOf(board);
  const same = current && current.board === board && current.key === key;
  if (same && fitsAt(board, current.scale)) return;
  // Same shape, more content: only a smaller scale can fit.
  let low = MIN;
  let high = same ? current.scale : MAX;
  if (!same && fitsAt(board, MAX)) low = MAX;
  else {
    for (let i = 0; i < STEPS; i++) {
      const mid = (low + high) / 2;
      if (fitsAt(board, mid)) low = mid;
      else high = mid;
    }
  }
  const scale = Math.floor(low * 100) / 100;
  board.style.setProperty("--s", String(scale));
  current = { board, key, scale };
}

window.addEventListener("resize", () => {
  if (current && document.contains(current.board)) fitBoard(current.board);
});
