// The optional turn sound (static/sounds/turn.wav, made by cardtable.web.turn_sound): a
// short chime when the player's turn comes. Off until the player turns it on with the
// table's sound button; the choice is remembered in this browser.
const STORE = "cardtable.sound";
const FILE = new URL("../sounds/turn.wav", import.meta.url).href;
let audio = null;

export function soundOn() {
  try { return localStorage.getItem(STORE) === "on"; } catch { return false; }
}

export function setSound(on) {
  try {
    if (on) localStorage.setItem(STORE, "on");
    else localStorage.removeItem(STORE);
  } catch { /* storage refused: the choice lasts as long as the page */ }
}

// Play the chime, if the player wants it. A browser may refuse to play before the page
// was touched: that is silence, not an error.
export function chime() {
  if (!soundOn()) return;
  if (!audio) audio = new Audio(FILE);
  audio.currentTime = 0;
  const played = audio.play();
  if (played && typeof played.catch === "function") played.catch(() => {});
}
