// Run in the page by tests/web/boardfit.py (`measure`): every card, pile place and hand
// count of the board, the place it lies in, and what is wrong with where it lies.
(opts) => {
  const board = document.querySelector(".board");
  if (!board) return { violations: ["no board on the page"], items: [], smallest: null };
  const vw = document.documentElement.clientWidth, vh = window.innerHeight;
  const rect = (el) => { const r = el.getBoundingClientRect(); return { l: r.left, t: r.top, r: r.right, b: r.bottom }; };
  const union = (a, b) => ({ l: Math.min(a.l, b.l), t: Math.min(a.t, b.t), r: Math.max(a.r, b.r), b: Math.max(a.b, b.b) });
  const round = (r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Math.round(v * 10) / 10]));
  const PLACES = "[data-seat], .handrow, .middle, .center";
  const placeName = (el) => el.dataset.seat !== undefined ? `place of seat ${el.dataset.seat}` : `the ${el.classList[0]}`;
  const shown = (el) => el.getClientRects().length > 0 && el.getBoundingClientRect().width >= 1;
  const items = [];
  for (const el of board.querySelectorAll("[data-id]")) {
    if (!shown(el)) continue;
    let r = rect(el);
    // A discard pile: its fanned cards' faces and the marker of the cards under them.
    for (const part of el.querySelectorAll(".fancard .face, .fanmore")) if (shown(part)) r = union(r, rect(part));
    const place = el.closest(PLACES);
    const card = el.classList.contains("card");
    const what = card && el.querySelector(".face.empty") ? "empty pile place" : card ? "card" : "item";
    items.push({ name: el.dataset.id, what, el, place, r, card, width: el.getBoundingClientRect().width });
  }
  const violations = [];
  const over = (a, b) => Math.min(a.r, b.r) - Math.max(a.l, b.l) > 0.5 && Math.min(a.b, b.b) - Math.max(a.t, b.t) > 0.5;
  const sides = (inner, outer) => {
    const out = [];
    if (inner.l < outer.l - 0.5) out.push(`left by ${Math.round(outer.l - inner.l)}px`);
    if (inner.r > outer.r + 0.5) out.push(`right by ${Math.round(inner.r - outer.r)}px`);
    if (inner.t < outer.t - 0.5) out.push(`top by ${Math.round(outer.t - inner.t)}px`);
    if (inner.b > outer.b + 0.5) out.push(`bottom by ${Math.round(inner.b - outer.b)}px`);
    return out;
  };
  const firstScreen = opts.firstScreen || null; // id prefixes that must be on the first screen
  const screen = { l: 0, t: 0, r: vw, b: vh };
  for (const item of items) {
    const label = `${item.what} ${item.name}`;
    if (!item.place) { violations.push(`${label} is in no player's place`); continue; }
    const out = sides(item.r, rect(item.place));
    if (out.length) violations.push(`${label} sticks out of the ${placeName(item.place)}: ${out.join(", ")}`);
    const wide = { l: screen.l, t: -1e9, r: screen.r, b: 1e9 };
    const whole = firstScreen === null || firstScreen.some((p) => item.name.startsWith(p));
    const off = sides(item.r, whole ? screen : wide);
    if (off.length) violations.push(`${label} is off the screen: ${off.join(", ")}`);
  }
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      if (over(items[i].r, items[j].r)) violations.push(`${items[i].what} ${items[i].name} lies over ${items[j].what} ${items[j].name}`);
    }
  }
  const places = [...new Set(items.map((i) => i.place).filter(Boolean))];
  for (let i = 0; i < places.length; i++) {
    for (let j = i + 1; j < places.length; j++) {
      if (over(rect(places[i]), rect(places[j]))) violations.push(`the ${placeName(places[i])} lies over the ${placeName(places[j])}`);
    }
  }
  const scroll = document.documentElement.scrollWidth;
  if (scroll > window.innerWidth) violations.push(`the page scrolls sideways: ${scroll}px in ${window.innerWidth}px`);
  if (opts.wholePage && document.documentElement.scrollHeight > vh) {
    violations.push(`the page scrolls: ${document.documentElement.scrollHeight}px in ${vh}px`);
  }
  const cards = items.filter((i) => i.card);
  const smallest = cards.reduce((a, b) => (a === null || b.width < a.width ? b : a), null);
  const b = rect(board);
  const top = Math.min(...cards.map((i) => i.r.t)), bottom = Math.max(...cards.map((i) => i.r.b));
  return {
    violations,
    smallest: smallest && { name: smallest.name, width: Math.round(smallest.width * 10) / 10 },
    span: cards.length ? Math.round((100 * (bottom - top)) / (b.b - b.t)) : 0,
    deepest: Math.max(0, ...[...board.querySelectorAll(".fan")].map((f) => f.querySelectorAll(".fancard").length + (f.querySelector(".fanmore") ? Number(f.querySelector(".fanmore").textContent.slice(1)) : 0))),
    items: items.map((i) => ({ name: i.name, what: i.what, place: i.place && placeName(i.place), rect: round(i.r) })),
  };
}
