// The service worker of the web table, served at /sw.js (scope "/") with the asset
// version filled in by cardtable.web.routes: a new deployment is a new worker.
//
// It keeps only what carries no secret and never goes stale: the versioned static files
// (/static/v/{version}/..., whose URL changes with their content) and the offline page.
// API answers, catalogs, the page itself and WebSocket traffic are never touched: they go
// to the network as if there were no worker. A page navigation that cannot reach the
// server gets the offline page, which retries and returns to the table.
const VERSION = "__VERSION__";
const CACHE = `cardtable-${VERSION}`;
const ASSETS = `/static/v/${VERSION}/`;
const OFFLINE = "/offline";
const PRECACHE = [OFFLINE, ...__OFFLINE_ASSETS__.map((name) => ASSETS + name)];
// What a proxy answers when the table server behind it is down.
const UNREACHABLE = new Set([502, 503, 504]);

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(PRECACHE.map((url) => new Request(url, { cache: "reload" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    // Every cache of another version goes: its files are not served any more.
    for (const name of await caches.keys()) {
      if (name !== CACHE && name.startsWith("cardtable-")) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

async function asset(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  // Only a whole file is kept (never a 206 part of one, nor an error).
  if (response.status === 200 && response.type === "basic") {
    cache.put(request, response.clone()).catch(() => {});
  }
  return response;
}

async function offlinePage() {
  const cache = await caches.open(CACHE);
  return (await cache.match(OFFLINE)) || Response.error();
}

async function navigate(request) {
  let response;
  try {
    response = await fetch(request);
  } catch {
    return offlinePage();
  }
  return UNREACHABLE.has(response.status) ? offlinePage() : response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") event.respondWith(navigate(request));
  else if (url.pathname.startsWith(ASSETS) && !url.search && !request.headers.has("range")) {
    event.respondWith(asset(request));
  }
  // Anything else (/api, /ws, /i18n, /health, unversioned files, a media element's
  // ranges) is left to the network.
});
