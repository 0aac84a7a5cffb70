// Playing with the keyboard: the arrow keys move between the cards and piles of the
// table by where they are on screen; Enter or Space (a button's own keys) select a card
// and place it; Escape drops the selection or closes a dialog; "?" lists the shortcuts.
// After each move the focus lands on the next card that can be played.

const ARROWS = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

function centre(el) {
  const r = el.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2, w: r.width, h: r.height };
}

// The card or pile nearest to `from` in the direction [dx, dy]: along that axis first,
// a step aside counting twice as much, so Right stays on the row when it can.
export function nearest(from, candidates, [dx, dy]) {
  const a = centre(from);
  let best = null;
  let bestScore = Infinity;
  for (const el of candidates) {
    if (el === from) continue;
    const b = centre(el);
    const along = (b.x - a.x) * dx + (b.y - a.y) * dy;
    if (along <= 1) continue;
    const aside = Math.abs((b.x - a.x) * dy) + Math.abs((b.y - a.y) * dx);
    const score = along + 2 * aside;
    if (score < bestScore) { bestScore = score; best = el; }
  }
  return best;
}

// Focus without the browser's own scroll, which would bring the card just under the
// sticky turn bar, and so cover the piles at the top of the board on a phone; scroll
// only when the card is off screen (the cards' scroll margin keeps it below the bar).
function focusInView(el) {
  el.focus({ preventScroll: true });
  const r = el.getBoundingClientRect();
  if (r.top < 0 || r.bottom > window.innerHeight) el.scrollIntoView({ block: "nearest" });
}

function focusable(board) {
  return [...board.querySelectorAll("button[data-id]")].filter((el) => !el.disabled && el.getClientRects().length);
}

// After a move or a selection: the focus goes to where the next press makes sense (a
// target once a card is selected, else a card that can be played), unless the player
// is already on one, or is elsewhere on the page (the log, a button, a dialog).
export function landFocus(board, picker) {
  if (!board || !picker.actions.length || picker.dragging) return;
  const active = document.activeElement;
  const lost = !active || active === document.body || active.id === "app" || !document.contains(active);
  if (!lost && !board.contains(active)) return;
  const wanted = picker.selected ? ["tgt-legal"] : ["src-legal", "tgt-legal"];
  if (!lost && wanted.some((c) => active.classList.contains(c))) return;
  for (const c of wanted) {
    const el = board.querySelector(`button.${c}[data-id]`);
    if (el) { focusInView(el); return; }
  }
}

// Key handling for a room's page (delegated on `root`). `help()` toggles the list of
// shortcuts; `escape()` closes what is open or drops the selection.
export function attachKeys(root, { help, escape }) {
  root.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const typing = event.target.closest("input, select, textarea");
    if (event.key === "?" && !typing) { help(); event.preventDefault(); return; }
    if (event.key === "Escape") { escape(); return; }
    const step = ARROWS[event.key];
    const board = root.querySelector(".board");
    if (!step || typing || !board || !board.contains(event.target)) return;
    const next = nearest(event.target, focusable(board), step);
    if (next) focusInView(next);
    event.preventDefault();
  });
}
