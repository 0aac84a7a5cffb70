// Small SVG icons shipped with the page: symbols never depend on the fonts installed
// (Debian's default fonts have no glyph for ⦸, ⏮, ⏭ or 🂠). Each is drawn on a 16x16
// grid in the current text colour, hidden from screen readers (the element it sits in
// carries the words).

const SVG = "http://www.w3.org/2000/svg";

const PATHS = {
  // a card back with its corner: a hand of cards
  cards: ["M3 2.5h7a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H3a1 1 0 0 1-1-1v-10a1 1 0 0 1 1-1z", "M12.5 4.5l1 .3a1 1 0 0 1 .7 1.2l-2.2 8"],
  // a crossed circle: not connected
  offline: ["M8 1.8a6.2 6.2 0 1 0 0 12.4A6.2 6.2 0 0 0 8 1.8z", "M3.6 12.4l8.8-8.8"],
  // a triangle with a bar and a dot: a warning
  warning: ["M8 1.8l6.6 12H1.4z", "M8 6.2v4", "M8 12.2v.1"],
  first: ["M3.5 3v10", "M13 3L6 8l7 5z"],
  prev: ["M11.5 3L4.5 8l7 5z"],
  next: ["M4.5 3l7 5-7 5z"],
  last: ["M12.5 3v10", "M3 3l7 5-7 5z"],
  turn: ["M5 3l7 5-7 5z"],
  // a loudspeaker with a sound wave: the turn sound
  sound: ["M2.5 6h2.5l3.5-3v10l-3.5-3H2.5z", "M11 5.5a3.5 3.5 0 0 1 0 5", "M12.8 3.5a6.2 6.2 0 0 1 0 9"],
  star: ["M8 1.5l1.9 4.1 4.5.5-3.3 3.1.9 4.4L8 11.4 4 13.6l.9-4.4L1.6 6.1l4.5-.5z"],
};

const FILLED = new Set(["first", "prev", "next", "last", "turn", "star"]);

export function icon(name, extra = "") {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("class", `icon icon-${name} ${extra}`.trim());
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  for (const d of PATHS[name]) {
    const path = document.createElementNS(SVG, "path");
    path.setAttribute("d", d);
    svg.append(path);
  }
  if (FILLED.has(name)) svg.classList.add("filled");
  return svg;
}
