// Choosing a move with the mouse, a finger or the keyboard: select a source, then a
// target; or drag the source onto the target. Sources and targets come only from the
// legal actions the server sent (each mapped to {source, target} element ids).

import { reducedMotion } from "./dom.js";

const SLOP = 8; // px a pointer may move and still tap

export class Picker {
  constructor(onPlay) {
    this.onPlay = onPlay;
    this.actions = [];
    this.selected = null;
    this.dragging = null;
    this.pressed = null; // {id, x, y, pointer} of a press on a card or pile, until it is released
    this.released = new Set(); // the pointers whose last release was acted on (their click is skipped)
    this.root = null;
    this.waiting = false; // a move was sent and its answer (the next legal moves) is awaited
    this.onChange = () => {};
  }

  // actions: [{code, source, target}], preferred: the source selected by default.
  set(actions, preferred = null, waiting = false) {
    this.waiting = waiting;
    const same = JSON.stringify(actions) === JSON.stringify(this.actions);
    this.actions = actions;
    if (!same || (this.selected && !this.isSource(this.selected))) {
      this.selected = preferred && this.isSource(preferred) ? preferred : null;
    }
  }

  isSource(id) {
    return this.actions.some((a) => a.source === id && a.target !== null);
  }

  find(source, target) {
    return this.actions.find((a) => a.source === source && a.target === target);
  }

  sources() {
    return new Set(this.actions.filter((a) => a.source !== null).map((a) => a.source));
  }

  targets() {
    const out = new Set();
    for (const a of this.actions) {
      if (a.target === null) continue;
      if (a.source === null || a.source === this.selected) out.add(a.target);
    }
    return out;
  }

  click(id) {
    if (!this.actions.length) return false;
    const action = (this.selected && this.find(this.selected, id)) || this.find(null, id) || this.find(id, null);
    if (action) {
      this.play(action);
      return true;
    }
    if (this.isSource(id)) {
      this.selected = this.selected === id ? null : id;
      this.onChange();
      return true;
    }
    if (this.selected) {
      this.selected = null;
      this.onChange();
    }
    return false;
  }

  drop(source, target) {
    const action = this.find(source, target);
    if (action) {
      this.play(action);
      return true;
    }
    if (this.isSource(target)) {
      this.selected = target;
      this.onChange();
      return true;
    }
    return false;
  }

  play(action) {
    this.selected = null;
    this.actions = [];
    this.waiting = true;
    this.onPlay(action);
  }

  // Mark the elements of `root` ([data-id]) as playable, selected or targets.
  decorate(root) {
    this.root = root;
    const sources = this.sources();
    const targets = this.targets();
    for (const el of root.querySelectorAll("[data-id]")) {
      const id = el.dataset.id;
      const isSource = sources.has(id);
      const isTarget = targets.has(id);
      el.classList.toggle("src-legal", isSource);
      el.classList.toggle("tgt-legal", isTarget);
      el.classList.toggle("selected", id === this.selected);
      const playable = isSource || isTarget;
      el.setAttribute("aria-disabled", playable ? "false" : "true");
      if (el.tagName === "BUTTON") el.setAttribute("aria-pressed", id === this.selected ? "true" : "false");
    }
  }

  // Pointer events on `root` (delegated), the same for mouse, pen and touch: a drag
  // starts after a few pixels. A drag may start on a card while the answer to the last
  // move is awaited (or a card is still landing): it is judged when it is dropped, against
  // the legal moves known then, so a quick second move is not lost.
  //
  // A tap (or a mouse click) is acted on when the pointer is lifted, not on the `click`
  // that follows: Chromium makes that click from its tap gesture, and on a touch screen it
  // now and then makes none (traced: a tap just after a finger drag had its pointerdown,
  // pointerup and touchend but no click), which left the tap unanswered. The click that
  // does follow a pointer's release is then skipped; a click with no pointer before it
  // (Enter or Space on a focused card) is acted on as before.
  attach(root) {
    root.addEventListener("click", (event) => {
      const el = event.target.closest("[data-id]");
      if (!el || !root.contains(el)) return;
      if (this.released.delete(event.pointerId)) return; // the click of a release acted on
      this.click(el.dataset.id);
    });
    root.addEventListener("pointerdown", (event) => {
      skipFlights(); // a touch on the table ends the flight of the last card
      if (event.button !== 0) return;
      const el = event.target.closest("[data-id]");
      if (!el || !root.contains(el)) { this.pressed = null; return; }
      this.pressed = { id: el.dataset.id, x: event.clientX, y: event.clientY, pointer: event.pointerId };
      if (!(this.isSource(el.dataset.id) || (this.waiting && el.classList.contains("card")))) return;
      this.dragging = { el, id: el.dataset.id, x: event.clientX, y: event.clientY, ghost: null, pointer: event.pointerId };
    });
    root.addEventListener("pointermove", (event) => {
      const drag = this.dragging;
      if (!drag || drag.pointer !== event.pointerId) return;
      if (!drag.ghost) {
        if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < SLOP) return;
        const rect = drag.el.getBoundingClientRect();
        const ghost = ghostOf(drag.el);
        ghost.style.width = `${rect.width}px`;
        ghost.style.height = `${rect.height}px`;
        document.body.append(ghost);
        drag.ghost = ghost;
        drag.dx = drag.x - rect.left;
        drag.dy = drag.y - rect.top;
        this.selected = drag.id;
        this.decorate(root);
      }
      drag.ghost.style.left = `${event.clientX - drag.dx}px`;
      drag.ghost.style.top = `${event.clientY - drag.dy}px`;
      event.preventDefault();
    });
    const end = (event) => {
      const press = this.pressed && this.pressed.pointer === event.pointerId ? this.pressed : null;
      const drag = this.dragging && this.dragging.pointer === event.pointerId ? this.dragging : null;
      if (!press && !drag) return;
      this.pressed = null;
      this.dragging = null;
      if (event.type === "pointercancel") { if (drag && drag.ghost) { drag.ghost.remove(); this.onChange(); } return; }
      this.released.delete(event.pointerId);
      this.released.add(event.pointerId);
      if (this.released.size > 8) this.released.delete(this.released.values().next().value); // clicks that never came
      if (drag && drag.ghost) {
        drag.ghost.remove();
        const under = document.elementFromPoint(event.clientX, event.clientY);
        const target = under && under.closest("[data-id]");
        if (!(target && root.contains(target) && this.drop(drag.id, target.dataset.id))) {
          if (this.selected === drag.id && !this.isSource(drag.id)) this.selected = null;
          this.onChange();
        }
        return;
      }
      // A tap: the pointer came up near where it went down (the card under it may have
      // been redrawn meanwhile; its id is the same).
      if (press && Math.hypot(event.clientX - press.x, event.clientY - press.y) < SLOP) this.click(press.id);
    };
    root.addEventListener("pointerup", end);
    root.addEventListener("pointercancel", end);
  }
}

// A copy of a card that moves over the page (a drag, a flight). It lives outside the
// board, so it takes the sizes in force where the card is (the board's scale, its part's
// card size, and the size of its number, which some parts set for their cards): else it
// would be drawn at the page's default card size, its faces and number larger than the
// box it flies in. It does not turn over as it moves (the mark of a changed card, a
// quarter turn, made a flying card a thin strip).
const SIZES = ["--s", "--card-w", "--card-h"];

function ghostOf(el) {
  const ghost = el.cloneNode(true);
  ghost.removeAttribute("data-id");
  ghost.classList.remove("changed", "landing");
  ghost.classList.add("ghost");
  const style = getComputedStyle(el);
  for (const name of SIZES) ghost.style.setProperty(name, style.getPropertyValue(name));
  const originals = el.querySelectorAll("*");
  ghost.querySelectorAll("*").forEach((copy, i) => { copy.style.fontSize = getComputedStyle(originals[i]).fontSize; });
  return ghost;
}

// The flights under way; a key or a touch on the table ends them at once (skipFlights).
const flights = new Set();

export function skipFlights() {
  for (const animation of [...flights]) animation.finish();
}

// A short flight of a card from where it was to where it lands (none when the player
// asks for reduced motion).
export function fly(fromRect, toEl) {
  if (!fromRect || !toEl || reducedMotion()) return;
  const to = toEl.getBoundingClientRect();
  if (!to.width || (fromRect.left === to.left && fromRect.top === to.top)) return;
  const ghost = ghostOf(toEl);
  // A card on its way is neither playable nor a target yet: no ring, no marker.
  ghost.classList.remove("src-legal", "tgt-legal", "selected", "hinted");
  ghost.classList.add("flying");
  Object.assign(ghost.style, { left: `${to.left}px`, top: `${to.top}px`, width: `${to.width}px`, height: `${to.height}px` });
  document.body.append(ghost);
  toEl.classList.add("landing");
  const dx = fromRect.left - to.left;
  const dy = fromRect.top - to.top;
  const animation = ghost.animate(
    [{ transform: `translate(${dx}px, ${dy}px) scale(0.9)`, opacity: 0.85 }, { transform: "none", opacity: 1 }],
    { duration: 260, easing: "ease-out" });
  flights.add(animation);
  const land = () => { flights.delete(animation); ghost.remove(); toEl.classList.remove("landing"); };
  animation.onfinish = land;
  animation.oncancel = land;
  setTimeout(land, 600);
}
