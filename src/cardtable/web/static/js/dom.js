// Small DOM helpers: build elements without innerHTML (names come from players).

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
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
