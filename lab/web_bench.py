"""The web table's first load and its redraw time per server event, in the system Chromium.

    .venv/bin/python -m lab web_bench --events 80

A benchmark, not a test: it starts a table server (temporary SQLite, bots without
pause), then

- loads the home page in a fresh browser context (empty cache) and again in the same
  context (warm cache): requests, bytes over the wire (transferSize) and decoded, and the
  time from navigation to the page being ready to use (``body[data-ready]``);
- plays a 2-player and an 8-player Skyjo table to 500 points (the other seats greedy
  bots; the player turns cards up first) and times,
  for each ``event`` message, the page's message handler (the table brought up to date,
  laid out) and the time until the next frame has been produced.

Figures are medians and 90th percentiles over the events seen.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright
from tests.live_server import running_server
from tests.web.conftest import ARGS, CHROMIUM
from tests.web.pages import PAGE_HOOKS, create_table, over, skyjo_step, start

# Wraps every WebSocket "message" listener: how long the page took to handle each
# message, and how long until the frame after it.
PROBE = """
window.__bench = { events: [], ready: null };
const add = WebSocket.prototype.addEventListener;
WebSocket.prototype.addEventListener = function (type, fn, opts) {
  if (type === "message") {
    const inner = fn;
    fn = function (event) {
      const t0 = performance.now();
      inner.call(this, event);
      const t1 = performance.now();
      let kind = "";
      try { kind = JSON.parse(event.data).type; } catch {}
      requestAnimationFrame(() => setTimeout(() => {
        window.__bench.events.push({ kind, script: t1 - t0, frame: performance.now() - t0 });
      }, 0));
    };
  }
  return add.call(this, type, fn, opts);
};
new MutationObserver(() => {
  if (document.body && document.body.dataset.ready === "1" && window.__bench.ready === null) {
    window.__bench.ready = performance.now();
  }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-ready"] });
"""

LOAD = """() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const res = performance.getEntriesByType("resource");
  const all = [nav, ...res];
  return {
    requests: all.length,
    network: all.filter((e) => e.transferSize > 0).length,
    transferred: all.reduce((s, e) => s + e.transferSize, 0),
    decoded: all.reduce((s, e) => s + e.decodedBodySize, 0),
    ready: window.__bench.ready,
  };
}"""


def load(context: Any, base: str) -> dict[str, float]:
    page = context.new_page()
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#create")
    page.wait_for_timeout(300)  # late requests (icons) counted too
    figures: dict[str, float] = page.evaluate(LOAD)
    page.close()
    return figures


def table(browser: Any, base: str, players: int, events: int) -> list[dict[str, float]]:
    # The test helpers wait with evaluated text, which the page's CSP refuses.
    context = browser.new_context(
        viewport={"width": 1280, "height": 800}, locale="en", bypass_csp=True
    )
    context.add_init_script(PAGE_HOOKS)  # what the page helpers read
    context.add_init_script("localStorage.setItem('cardtable.lang', 'en')")
    context.add_init_script(PROBE)
    page = context.new_page()
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready='1']")
    options = {"players": players, "end_score": 500}
    create_table(page, "skyjo", "Bench", options, ["greedy"] * (players - 1))
    start(page)
    page.evaluate("window.__bench.events = []")
    while page.evaluate("window.__bench.events.filter((e) => e.kind === 'event').length") < events:
        if over(page):
            break
        summary = page.locator("#summary .continue")
        if summary.count():
            summary.first.click()
            continue
        if not skyjo_step(page):
            page.wait_for_timeout(20)
    seen: list[dict[str, float]] = page.evaluate(
        "window.__bench.events.filter((e) => e.kind === 'event')"
    )
    context.close()
    return seen[:events]


def spread(values: list[float]) -> str:
    values = sorted(values)
    p90 = values[min(len(values) - 1, int(0.9 * len(values)))]
    return f"median {statistics.median(values):.1f} ms, p90 {p90:.1f} ms"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=80)
    args = parser.parse_args(argv)
    with (
        tempfile.TemporaryDirectory() as data,
        running_server(Path(data)) as base,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        context.add_init_script(PAGE_HOOKS)  # what the page helpers read
        context.add_init_script(PROBE)
        load(context, base)  # warms the server (catalogs, first imports)
        context.close()
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        context.add_init_script(PAGE_HOOKS)  # what the page helpers read
        context.add_init_script(PROBE)
        for name in ("cold", "warm"):
            f = load(context, base)
            print(
                f"first load ({name} cache): {f['requests']} requests, "
                f"{f['network']} over the network, {f['transferred'] / 1000:.1f} kB "
                f"transferred, {f['decoded'] / 1000:.1f} kB decoded, "
                f"ready at {f['ready']:.0f} ms"
            )
        context.close()
        for players in (2, 8):
            seen = table(browser, base, players, args.events)
            print(
                f"skyjo {players} players, {len(seen)} events: handler "
                f"{spread([e['script'] for e in seen])}; to next frame "
                f"{spread([e['frame'] for e in seen])}"
            )
        browser.close()


if __name__ == "__main__":
    main()
