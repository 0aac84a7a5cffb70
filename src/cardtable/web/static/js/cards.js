// Card faces. Colour is never the only cue: the number is always printed, and each
// colour band has its own pattern and corner shape.
import { h } from "./dom.js";
import { t } from "./i18n.js";

const SHAPES = { neg: "▼", zero: "●", low: "■", mid: "▲", high: "◆", wild: "★", b1: "■", b2: "▲", b3: "◆" };

function skyjoBand(value) {
  if (value < 0) return "neg";
  if (value === 0) return "zero";
  if (value <= 4) return "low";
  if (value <= 8) return "mid";
  return "high";
}

function skipboBand(value) {
  if (value === 0) return "wild";
  if (value <= 4) return "b1";
  if (value <= 8) return "b2";
  return "b3";
}

function face(game, band, label, extra = null) {
  const shape = SHAPES[band];
  return h("span", { class: `face ${game} band-${band}`, "aria-hidden": "true" },
    h("span", { class: "corner tl" }, label, h("i", {}, shape)),
    h("span", { class: "big" }, label),
    extra,
    h("span", { class: "corner br" }, label, h("i", {}, shape)));
}

export function skyjoFace(value) {
  return face("skyjo", skyjoBand(value), String(value));
}

export function skipboFace(value, counts = null) {
  const label = value === 0 ? t("web.card.wild_short") : String(value);
  const extra = value === 0 && counts !== null ? h("span", { class: "counts" }, `= ${counts}`) : null;
  return face("skipbo", skipboBand(value), label, extra);
}

export function backFace(game) {
  return h("span", { class: `face back ${game}`, "aria-hidden": "true" }, h("span", { class: "logo" }, game === "skyjo" ? "SKYJO" : "SKIP-BO"));
}

export function emptyFace() {
  return h("span", { class: "face empty", "aria-hidden": "true" });
}

export function skipboName(value) {
  return value === 0 ? t("web.card.wild") : String(value);
}
