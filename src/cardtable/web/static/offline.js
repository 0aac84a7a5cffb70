// The offline page (served by the service worker when the table server cannot be
// reached): shown in the player's language, it asks the server again, sooner and sooner
// after the network comes back, and returns to the table as soon as it answers.
const LANGUAGES = ["en", "fr", "de", "it"];
const FIRST_WAIT = 2000; // ms before the first retry, doubled up to MAX_WAIT
const MAX_WAIT = 15000;

function language() {
  const stored = localStorage.getItem("cardtable.lang");
  if (LANGUAGES.includes(stored)) return stored;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const code = String(tag).slice(0, 2).toLowerCase();
    if (LANGUAGES.includes(code)) return code;
  }
  return "en";
}

const lang = language();
const section = document.querySelector(`section[lang="${lang}"]`);
for (const other of document.querySelectorAll("section[lang]")) other.hidden = other !== section;
document.documentElement.lang = lang;
document.title = section.querySelector("h1").textContent;
document.body.dataset.offline = lang;

let wait = FIRST_WAIT;
let timer = null;
let trying = false;

async function retry() {
  if (trying) return;
  trying = true;
  clearTimeout(timer);
  section.querySelector(".status").textContent = section.dataset.trying;
  try {
    const response = await fetch(location.href, { cache: "no-store" });
    if (response.ok) {
      location.reload();
      return;
    }
  } catch {
    // still unreachable
  } finally {
    trying = false;
  }
  section.querySelector(".status").textContent = section.dataset.waiting;
  timer = setTimeout(retry, wait);
  wait = Math.min(wait * 2, MAX_WAIT);
}

for (const button of document.querySelectorAll("button.retry")) {
  button.addEventListener("click", () => { wait = FIRST_WAIT; retry(); });
}
window.addEventListener("online", () => { wait = FIRST_WAIT; retry(); });
timer = setTimeout(retry, FIRST_WAIT);
