// Translations: one merged catalog per language from /i18n/{lang}.json.

export const LANGUAGES = ["en", "fr", "de", "it"];
const STORE = "cardtable.lang";
let catalog = {};
let current = "en";
const missing = new Set();

export function preferredLanguage() {
  const stored = localStorage.getItem(STORE);
  if (LANGUAGES.includes(stored)) return stored;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const code = String(tag).slice(0, 2).toLowerCase();
    if (LANGUAGES.includes(code)) return code;
  }
  return "en";
}

export async function loadLanguage(lang, remember = false) {
  if (!LANGUAGES.includes(lang)) lang = "en";
  const response = await fetch(`/i18n/${lang}.json`);
  catalog = await response.json();
  current = lang;
  document.documentElement.lang = lang;
  if (remember) localStorage.setItem(STORE, lang);
}

export function language() {
  return current;
}

// The text of `key` with {placeholders} filled in; the key itself when missing.
export function t(key, params = {}) {
  let text = catalog[key];
  if (text === undefined) {
    missing.add(key);
    return key;
  }
  return text.replace(/\{(\w+)\}/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole);
}

export function has(key) {
  return Object.prototype.hasOwnProperty.call(catalog, key);
}

export function missingKeys() {
  return [...missing];
}
