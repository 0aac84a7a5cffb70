"""A real table server (uvicorn in a thread, temporary SQLite, bots without pause) and
the system Chromium driven by Playwright. Never downloads a browser."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import pytest

from ..live_server import running_server

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
SHOTS = Path(__file__).parents[2] / "artifacts" / "screenshots"

# .ci/run installs Chromium and sets CARDTABLE_BROWSER_TESTS=required, so CI fails
# rather than skips when the browser is missing; elsewhere a missing browser skips.
if os.environ.get("CARDTABLE_BROWSER_TESTS") == "required":
    from playwright import sync_api

    assert Path(CHROMIUM).exists(), f"browser tests are required but {CHROMIUM} is missing"
else:
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip("the system Chromium is not installed", allow_module_level=True)


#: How often a ``wait_for_function`` evaluates its condition when the test does not say
#: (ms). Playwright's default evaluates it at every animation frame, which keeps the page
#: drawing 60 frames a second the whole wait: a sixth of the browser's CPU in a whole-game
#: test (test_keyboard: 13.1 s of the browser's CPU, 11.1 s polling every 50 ms).
POLL_MS = 50
_wait_for_function = sync_api.Page.wait_for_function


def _wait_polling(
    page: Any, expression: str, *, arg: Any = None, timeout: float | None = None,
    polling: float | Literal["raf"] | None = None,
) -> Any:  # fmt: skip
    return _wait_for_function(
        page, expression, arg=arg, timeout=timeout, polling=POLL_MS if polling is None else polling
    )


sync_api.Page.wait_for_function = _wait_polling  # type: ignore[method-assign,assignment]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("web-data"), rooms_per_client=500) as url:
        yield url


@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    """One Chromium for all the browser tests a worker runs in a row: a launch costs
    seconds, a context (what each test opens its pages in) a fraction of one. pytest closes
    it as soon as the worker turns to a test outside tests/web, where it would be in the
    way: Playwright's sync API keeps an event loop running in this thread, and
    asyncio.run fails there (so a web test that needs asyncio runs it in another thread)."""
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(autouse=True)
def _contexts_closed(request: pytest.FixtureRequest) -> Iterator[None]:
    """Close the contexts a test opened and left open: their pages would go on running
    (timers, a socket reconnecting to a server since stopped) in the shared browser while
    the next tests run. The contexts of module fixtures, opened before, are left alone."""
    if "browser" not in request.fixturenames:
        yield
        return
    shared = request.getfixturevalue("browser")
    before = set(shared.contexts)
    yield
    for context in shared.contexts:
        if context not in before:
            context.close()


@pytest.fixture
def shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS
