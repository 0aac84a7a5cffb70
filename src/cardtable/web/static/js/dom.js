// Small DOM helpers: build elements without innerHTML (names come from players), and
// bring a part of the page up to date by patching it rather than replacing it.
import { Idiomorph } from "../vendor/idiomorph/idiomorph.esm.js";

// Listeners live in a per-element table (`el.__on[type]`) behind one relay listener
// per type, so a patch can hand a kept element the listeners of its fresh copy: the
// handlers always see the state of the last drawing, and the element (its focus, its
// caret, the press under the pointer) stays.
function relay(event) {
  for (const fn of this.__on[event.type] || []) fn.call(this, event);
}

export function listen(el, type, fn) {
  if (!el.__on) el.__on = {};
  if (!el.__on[type]) {
    el.__on[type] = [];
    el.addEventListener(type, relay);
  }
  el.__on[type].push(fn);
  return el;
}

function adoptListeners(kept, fresh) {
  const wanted = fresh.__on || {};
  const had = kept.__on || {};
  for (const type of Object.keys(wanted)) if (!had[type]) kept.addEventListener(type, relay);
  for (const type of Object.keys(had)) if (!wanted[type]) kept.removeEventListener(type, relay);
  kept.__on = wanted;
}

// A node idiomorph adds is a deep copy of the fresh one (importNode), or an empty
// element morphed into its likeness: either way its tree mirrors the fresh one, whose
// listeners it takes.
function adoptTree(added, fresh) {
  if (added.nodeType !== 1 || fresh.nodeType !== 1) return;
  if (added.__on || fresh.__on) adoptListeners(added, fresh);
  let a = added.firstChild;
  let f = fresh.firstChild;
  while (a && f) {
    adoptTree(a, f);
    a = a.nextSibling;
    f = f.nextSibling;
  }
}

// Make `root`'s content look like `fresh` (one element), keeping every element that
// still has a place: focus, an open <select>, the button being pressed and a drag in
// progress survive. A field's value is what `fresh` says (the callers keep what is
// being typed in their state and draw it again); when unchanged, its caret stays.
export function patch(root, fresh) {
  const adding = []; // the fresh nodes being added, innermost last
  Idiomorph.morph(root, fresh, {
    morphStyle: "innerHTML",
    callbacks: {
      beforeNodeAdded(next) { adding.push(next); return true; },
      afterNodeAdded(added) { adoptTree(added, adding.pop()); },
      // The inline style goes through the CSSOM (the CSP refuses style attributes).
      beforeAttributeUpdated(name) { return name !== "style"; },
      beforeNodeMorphed(kept, next) {
        if (kept.nodeType !== 1) return true;
        adoptListeners(kept, next);
        if (kept.style && kept.style.cssText !== next.style.cssText) kept.style.cssText = next.style.cssText;
        return true;
      },
    },
  });
}

// While a pointer is pressed, a form is not redrawn: a field that loses the focus to
// the press changes the form (one more seat), which would move the button being
// clicked from under the pointer before its release, and the click would be lost.
let pressed = false;
const afterRelease = new Set();
document.addEventListener("pointerdown", () => { pressed = true; }, true);
function released() {
  pressed = false;
  const waiting = [...afterRelease];
  afterRelease.clear();
  setTimeout(() => { for (const fn of waiting) fn(); }, 0); // after the click it makes
}
document.addEventListener("pointerup", released, true);
document.addEventListener("pointercancel", released, true);

export function isPressed() {
  return pressed;
}

// Run `fn` now, or once the pointer is released if it is pressed (and then only once).
export function unpressed(fn) {
  if (pressed) afterRelease.add(fn);
  else fn();
}

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "style") el.style.cssText = value; // through the CSSOM: the CSP allows no style attribute
    else if (key === "text") el.textContent = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") {
      listen(el, key.slice(2), value);
    } else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

let toastTimer = null;
let toastText = null; // the shown toast's words, when they can be said again in another language

// A short message. `message` is a text, or a function giving it in the page's language:
// such a toast is worded again when the language changes while it is shown.
export function toast(message, kind = "error") {
  const box = document.getElementById("toast");
  toastText = typeof message === "function" ? message : null;
  box.textContent = toastText ? toastText() : message;
  box.dataset.kind = kind;
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; toastText = null; }, 5000);
}

// The language changed: the toast shown, if any, in the new one.
export function retranslateToast() {
  const box = document.getElementById("toast");
  if (toastText && !box.hidden) box.textContent = toastText();
}

export function announce(message) {
  const box = document.getElementById("announce");
  box.textContent = message;
}

export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}
