// The page contract: what every route shows in <main>. A page module exports a
// function of the route's parts that returns a page; router.js makes one page per
// navigation and keeps it until the next. A page is an object with:
//
//   title()              The page's name in the document title ("Leaderboards ·
//                        cardtable"), in the current language; "" for none.
//   mount(app, signal)   Draws the page into `app` (<main>); may be async. `signal`
//                        aborts the moment the user leaves the page: pass it to every
//                        api() call (api.js). A late answer then throws an AbortError
//                        instead of drawing over the page the user went to, and the
//                        router drops that error. Work started later (a poll, a click
//                        that fetches) checks the signal or goes through whileShown.
//   redraw()             Optional. The language changed: draw again from what the page
//                        already holds, keeping its timers and its focus. Without it
//                        the router leaves the page and mounts a fresh one.
//   leave()              Optional. Stop what the page started that the signal does not
//                        stop (a socket, a timer). Called after the signal aborted.
//
// Nothing else is shared between the router and a page: a page keeps its own state.

function isAbort(error) {
  return error?.name === "AbortError";
}

// `promise` with the abort of a page left swallowed: for work a page starts outside its
// mount (a poll, a click), whose late answer must end quietly, not as an error.
export function whileShown(promise) {
  return Promise.resolve(promise).catch((error) => {
    if (!isAbort(error)) throw error;
  });
}

// Wait `ms`, or throw the AbortError as soon as `signal` aborts: a page's timer that
// ends with the page.
export function pause(ms, signal) {
  return new Promise((resolve, reject) => {
    signal.throwIfAborted();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => { clearTimeout(timer); reject(signal.reason); }, { once: true });
  });
}
