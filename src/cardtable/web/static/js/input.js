// The glue between input and the room's state: the picker (pointer and touch) sends the
// chosen move; the keys open the shortcuts, close dialogs, drop a selection; and around
// each drawing the focus (with a text field's caret) stays where the player left it, a
// dialog that opens takes it, and after a move it lands on the next sensible card.
import { toast } from "./dom.js";
import { t } from "./i18n.js";
import { attachKeys, landFocus } from "./keys.js";
import { Picker, skipFlights } from "./play.js";
import { closeHelp, openHelp } from "./dialogs.js";

export function makePicker(r) {
  const ctx = r.ctx;
  const picker = new Picker((action) => {
    ctx.pending = true;
    const ok = r.send({ type: "move", token: ctx.mine.token, version: r.conn.version, action: action.code });
    if (!ok) { ctx.pending = false; toast(() => t("web.net.offline")); }
    r.draw();
  });
  picker.onChange = () => { if (r.board) { picker.decorate(r.board); landFocus(r.board, picker); } };
  return picker;
}

export function attachInput(r, root) {
  const ctx = r.ctx;
  r.picker.attach(root);
  root.addEventListener("keydown", skipFlights, true); // a key ends the flight of the last card
  attachKeys(root, {
    help: () => { if (!ctx.view) return; if (ctx.help) closeHelp(r); else openHelp(r); },
    escape: () => {
      if (ctx.help) closeHelp(r);
      else if (ctx.view && ctx.view.result !== null && !ctx.finalClosed) { ctx.finalClosed = true; r.draw(); }
      else if (r.picker.selected) { r.picker.selected = null; r.picker.onChange(); }
    },
  });
}

// Where the caret is in a focused text field, so a redraw puts it back (a message that
// arrives while someone types must not move their cursor).
function selection(el) {
  if (!el || typeof el.setSelectionRange !== "function") return null;
  try {
    if (el.selectionStart === null) return null; // a field with no text caret (number)
    return { value: el.value, start: el.selectionStart, end: el.selectionEnd, direction: el.selectionDirection };
  } catch { return null; }
}

// What has the focus before a drawing (by its data-id or data-key, which a redrawn
// element keeps).
export function rememberFocus() {
  const active = document.activeElement;
  const data = active && active.dataset ? active.dataset : {};
  return { id: data.id || null, key: data.key || null, caret: selection(active) };
}

// After a drawing: the focus goes back where it was; a dialog that has just opened takes
// it (its first button: continue, rematch); else, on the table, it lands on a card.
export function settleFocus(r, root, before) {
  const again = (before.id && root.querySelector(`[data-id="${CSS.escape(before.id)}"]`))
    || (before.key && root.querySelector(`[data-key="${CSS.escape(before.key)}"]`));
  if (again) {
    again.focus({ preventScroll: true });
    const caret = before.caret;
    if (caret && again.value === caret.value) again.setSelectionRange(caret.start, caret.end, caret.direction);
  }
  return again;
}

export function focusDialog(r, root) {
  const dialog = root.querySelector("#summary");
  if (dialog && !r.shownDialog) {
    const first = dialog.querySelector(".continue, #rematch, button");
    if (first) first.focus();
  }
  r.shownDialog = dialog;
  if (r.board && !r.ctx.help && !dialog) landFocus(r.board, r.picker);
}
