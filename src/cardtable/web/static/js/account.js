// The optional account (docs/players.md): who is signed in, the sign-in and registration
// forms, signing out, adding this browser's seats, deleting the account. The session is
// an HttpOnly cookie the page never sees; its CSRF token lives in api.js's memory.
import { api, heldSeats, onNewSeat, setCsrf } from "./api.js";
import { h, toast } from "./dom.js";
import { nameLimit } from "./gamelist.js";
import { t } from "./i18n.js";
import { profileLink } from "./players.js";
import { errorText } from "./roomtext.js";

// {name, seats} of the signed-in player, or null for a guest.
let account = null;

export function accountName() {
  return account ? account.name : null;
}

function signedIn(data) {
  if (data && data.signed_in) {
    account = { name: data.name, seats: (data.seats || []).length };
    setCsrf(data.csrf_token);
  } else {
    account = null;
    setCsrf(null);
  }
}

// Ask the table who is signed in (a guest when it cannot say).
export async function loadAccount() {
  const res = await api("/api/account");
  signedIn(res.ok ? res.data : null);
}

// A seat taken while signed in joins the account at once. Its answer is waited for: a
// refusal (second_seat, no_seat) or a failure is the player's to know, since the game
// will then be unrated; a limit (429), a lost connection or a server in trouble is
// tried again a few times, after the Retry-After the server asks for.
const CLAIM_TRIES = 4;
const CLAIM_LONGEST_WAIT = 30; // seconds: a longer Retry-After is told, not waited out
const RETRIED = (status) => status === 0 || status === 429 || status >= 500;
// Room code -> the refusal of its seat's claim (its lobby says it until a claim works).
const claimTrouble = new Map();

export function claimProblem(code) {
  return claimTrouble.get(code) || null;
}

function claimFailed(code, data) {
  claimTrouble.set(code, data || { error: "network" });
  toast(() => t("web.claim.failed", { why: errorText(claimTrouble.get(code)) }));
  window.dispatchEvent(new CustomEvent("cardtable:claim-trouble", { detail: { code } }));
}

export async function claimSeat(code, token, sleep = (ms) => new Promise((done) => setTimeout(done, ms))) {
  for (let attempt = 1; ; attempt++) {
    const res = await api("/api/account/claim", { method: "POST", body: { seats: [{ code, token }] } });
    if (res.ok) {
      const refused = res.data.refused || [];
      if (res.data.claimed.length) {
        claimTrouble.delete(code);
        if (account) account.seats += res.data.claimed.length;
        // The room's own node reads the claim (on a cluster it may not be the node
        // that took it), and its lobby then says the game will be rated.
        api(`/api/rooms/${encodeURIComponent(code)}`);
      }
      if (refused.length) claimFailed(code, { error: refused[0].error });
      return;
    }
    const wait = res.retryAfter ?? attempt;
    if (!RETRIED(res.status) || attempt >= CLAIM_TRIES || wait > CLAIM_LONGEST_WAIT) {
      claimFailed(code, res.status === 0 ? { error: "network" } : res.data);
      return;
    }
    await sleep(wait * 1000);
  }
}

onNewSeat((code, token) => {
  if (account) claimSeat(code, token);
});

// Add every seat this browser holds to the account; returns how many were added.
async function claimHeld() {
  const seats = heldSeats().slice(0, 50);
  if (!seats.length) return 0;
  const res = await api("/api/account/claim", { method: "POST", body: { seats } });
  if (!res.ok) { toast(() => errorText(res.data)); return 0; }
  return res.data.claimed.length;
}

function field(id, key, type, autocomplete, help) {
  return h("label", { for: id, class: "field" }, h("span", {}, t(key)),
    h("input", { id, name: id, type, required: true, autocomplete, maxlength: type === "password" ? 256 : nameLimit(),
      ...(help ? { "aria-describedby": `${id}-help` } : {}) }),
    help ? h("span", { class: "muted", id: `${id}-help` }, t(help)) : null);
}

async function enter(path, form, redraw) {
  const name = form.elements[`${path}-name`].value;
  const password = form.elements[`${path}-password`].value;
  const res = await api(`/api/account/${path}`, { method: "POST", body: { name, password } });
  if (!res.ok) { toast(() => errorText(res.data)); return; }
  signedIn(res.data);
  const added = await claimHeld();
  await loadAccount();
  if (added) toast(() => t("web.account.claimed", { n: added }), "info");
  redraw();
}

async function leave(path, body, message, redraw) {
  const res = await api(`/api/account/${path}`, { method: "POST", body });
  if (!res.ok) { toast(() => errorText(res.data)); return; }
  signedIn(null);
  toast(() => t(message), "info");
  redraw();
}

function guestPage(redraw) {
  const form = (path, title, button, autocomplete) => h("form", { class: "panel", id: `${path}-form`,
    onsubmit: (e) => { e.preventDefault(); enter(path, e.currentTarget, redraw); } },
  h("h2", {}, t(title)),
  field(`${path}-name`, "web.account.name", "text", "username"),
  field(`${path}-password`, "web.account.password", "password", autocomplete, path === "register" ? "web.account.password_help" : null),
  h("p", {}, h("button", { type: "submit", class: "primary", id: `${path}-button` }, t(button))));
  return [
    form("signin", "web.account.signin", "web.account.signin_button", "current-password"),
    form("register", "web.account.register", "web.account.register_button", "new-password"),
  ];
}

function memberPage(redraw) {
  const claim = h("button", { type: "button", id: "claim-button", onclick: async () => {
    const added = await claimHeld();
    await loadAccount();
    toast(() => t("web.account.claimed", { n: added }), "info");
    redraw();
  } }, t("web.account.claim_button"));
  const remove = h("form", { class: "panel", id: "delete-form", onsubmit: (e) => {
    e.preventDefault();
    const password = e.currentTarget.elements["delete-password"].value;
    leave("delete", { password }, "web.account.deleted", redraw);
  } },
  h("h2", {}, t("web.account.delete_title")),
  h("p", { class: "muted" }, t("web.account.delete_help")),
  field("delete-password", "web.account.password", "password", "current-password"),
  h("p", {}, h("button", { type: "submit", id: "delete-button" }, t("web.account.delete_button"))));
  return [
    h("section", { class: "panel", id: "account-panel" },
      h("p", { id: "signed-in-as" }, t("web.account.signed_in_as", { name: account.name })),
      h("p", {}, h("a", { href: profileLink(account.name), id: "profile-link" }, t("web.profile.mine"))),
      h("p", { id: "account-seats" }, t("web.account.seats", { n: account.seats })),
      h("p", {}, claim, " ",
        h("button", { type: "button", id: "signout-button", onclick: () => leave("signout", {}, "web.account.signed_out", redraw) }, t("web.account.signout")), " ",
        h("button", { type: "button", id: "signout-all-button", onclick: () => leave("signout-everywhere", {}, "web.account.signed_out", redraw) }, t("web.account.signout_all")))),
    remove,
  ];
}

// The account page (#/account) (page.js). `refresh` draws the page and its navigation
// again, as signing in or out changes both.
export function accountPage(refresh) {
  return {
    title: () => t("web.account.title"),
    mount(app) {
      const section = h("section", { class: "account" },
        h("h1", {}, t("web.account.title")),
        h("p", { class: "muted" }, t("web.account.optional")),
        ...(account ? memberPage(refresh) : guestPage(refresh)));
      app.replaceChildren(section);
      document.body.dataset.page = "account";
      document.body.dataset.account = account ? "member" : "guest";
    },
  };
}
