// The rules options controls, shared by the home page (choosing them before creating a
// table) and the lobby (the host changing them). Names, types, defaults and ranges come
// from the server (/api/web/games, web/options.py), including the ranges that depend on
// the player count; the server still validates what is sent and has the last word on
// rules between options (team play needs 4 or 6 players).
import { h, listen } from "./dom.js";
import { gameInfo } from "./gamelist.js";
import { has, t } from "./i18n.js";

// An option's label: the catalog key the server sends with it (`label`, from the rules
// options' metadata, the same text the terminal and the command line show).
export function optionLabel(game, name) {
  const info = gameInfo(game);
  const option = info && info.options.find((o) => o.name === name);
  return option && option.label && has(option.label) ? t(option.label) : name;
}

// What a number input holds: {value} when it fits the option's range, else {problem}
// (the translated message naming the option and its range) and {words}, a function
// giving the same message in the page's language of the moment.
export function readOption(game, option, input) {
  const raw = input.value.trim();
  if (raw === "" && !input.validity.badInput) return { value: option.optional ? null : option.default };
  if (input.validity.valid) return { value: Number(raw) };
  const key = option.min === undefined ? "web.opt.whole_number" : option.optional ? "web.opt.range_auto" : "web.opt.range";
  const words = () => t(key, { option: optionLabel(game, option.name), min: option.min ?? "", max: option.max ?? "" });
  return { problem: words(), words };
}

// One labelled control. `onValue(name, value)` gets every valid change; an invalid number
// is marked (aria-invalid, and the browser's own validity bubble, which blocks the home
// page's form, shows the same message) and reported with `onProblem(name, message, words)`
// (`words()` gives the message again, in the language of the moment).
// `error`: a message shown under the control and tied to it with aria-describedby.
// `dirty`: the value shown was typed into an earlier copy of this control (the lobby is
// redrawn on every message), so leaving it must still commit it.
export function optionControl(game, option, value, { onValue, onProblem = () => {}, onInput = null, prefix = "opt", error = null, dirty = false }) {
  const id = `${prefix}-${option.name}`;
  const label = optionLabel(game, option.name);
  const described = error ? `${id}-error` : null;
  const note = error ? h("p", { class: "opterror", id: described }, error) : null;
  if (option.type === "bool") {
    return withNote(h("label", { class: "check", for: id },
      h("input", {
        type: "checkbox", id, checked: Boolean(value), dataset: { key: id, option: option.name },
        "aria-describedby": described,
        onchange: (e) => onValue(option.name, e.target.checked),
      }),
      " ", label), note);
  }
  const input = h("input", {
    type: "number", id, min: option.min, max: option.max, step: 1, inputmode: "numeric",
    value: value === null || value === undefined ? "" : String(value),
    placeholder: option.optional ? t("web.opt.auto") : null,
    dataset: { key: id, option: option.name },
    "aria-describedby": described,
  });
  if (!input.validity.valid) {
    // Out of the range in force (more players leave room for fewer stock cards): marked
    // at once, and the home page's form is refused with the message naming the range.
    const read = readOption(game, option, input);
    input.setCustomValidity(read.problem || "");
    input.setAttribute("aria-invalid", "true");
  }
  // The handlers read the element they run on: after a patch that is the kept copy of
  // this control, not the fresh one built here.
  if (onInput) listen(input, "input", (e) => onInput(option.name, e.currentTarget.value));
  let committed = false;
  const commit = (e) => {
    const field = e.currentTarget;
    committed = true;
    field.setCustomValidity(""); // judge the new value, not the last message
    const read = readOption(game, option, field);
    field.setCustomValidity(read.problem || "");
    field.setAttribute("aria-invalid", read.problem ? "true" : "false");
    if (read.problem) onProblem(option.name, read.problem, read.words);
    else onValue(option.name, read.value);
  };
  listen(input, "change", commit);
  if (dirty) {
    listen(input, "blur", (e) => { if (!committed) commit(e); });
    listen(input, "keydown", (e) => { if (e.key === "Enter") e.currentTarget.blur(); });
  }
  return withNote(h("label", { class: "num", for: id }, h("span", {}, label), input), note);
}

function withNote(control, note) {
  return note ? h("div", { class: "optbox" }, control, note) : control;
}

// The option with the range in force for the player count in `values`: the server sends
// the largest value for each count (`max_by_players`, the engine's figures).
export function inForce(option, values) {
  const byPlayers = option.max_by_players;
  const top = byPlayers ? byPlayers[String(Number(values.players))] : undefined;
  return top === undefined ? option : { ...option, max: top };
}

// Every control of a game, in the server's order, in the layout of the home page.
export function optionFields(info, values, handlers) {
  return h("div", { class: "options" }, info.options.map((o) => inForce(o, values)).map((o) => optionControl(info.game, o, values[o.name], {
    ...handlers,
    error: handlers.errorFor ? handlers.errorFor(o.name) : null,
    dirty: handlers.isDirty ? handlers.isDirty(o.name) : false,
  })));
}
