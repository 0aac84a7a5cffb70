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
  numbers = new Intl.NumberFormat(lang, DIGITS);
  plurals = new Intl.PluralRules(lang, DIGITS);
  lists = new Intl.ListFormat(lang, { type: "conjunction" });
  document.documentElement.lang = lang;
  if (remember) localStorage.setItem(STORE, lang);
}

export function language() {
  return current;
}

// Numbers are written and counted the language's way (CLDR, through Intl): "1 234,5"
// in French; one decimal at most, and the plural form chosen for the number as written.
const DIGITS = { maximumFractionDigits: 1 };
let numbers = new Intl.NumberFormat("en", DIGITS);
let plurals = new Intl.PluralRules("en", DIGITS);
let lists = new Intl.ListFormat("en", { type: "conjunction" });

export function formatNumber(value) {
  return numbers.format(value);
}

// Several names the language's way: "Alice and Bob", "Alice et Bob", "Alice und Bob".
export function formatNames(names) {
  return lists.format(names);
}

// The text of `key` with {placeholders} filled in; the key itself when missing. A key
// whose wording depends on a number has one entry per CLDR plural category the
// language uses ("key.one", "key.other", ...), chosen by the `count` parameter; a
// category without its own entry takes "key.other".
export function t(key, params = {}) {
  let text = catalog[key];
  if (text === undefined && typeof params.count === "number" && `${key}.other` in catalog) {
    text = catalog[`${key}.${plurals.select(params.count)}`] ?? catalog[`${key}.other`];
  }
  if (text === undefined) {
    missing.add(key);
    return key;
  }
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!Object.prototype.hasOwnProperty.call(params, name)) return whole;
    const value = params[name];
    return typeof value === "number" ? numbers.format(value) : String(value);
  });
}

// The key of a text about what belongs to `seat`: its "_you" form when that seat is the
// reader's own ("Your stock pile", "Votre talon", not "Alice (you)'s stock pile").
export function whose(key, seat, me) {
  return me !== null && me !== undefined && seat === me && has(`${key}_you`) ? `${key}_you` : key;
}

export function has(key) {
  return Object.prototype.hasOwnProperty.call(catalog, key) || Object.prototype.hasOwnProperty.call(catalog, `${key}.other`);
}

export function missingKeys() {
  return [...missing];
}
