"""How the tests are handed out to the workers: the long ones first, each browser test
module to one worker.

`make test` runs the suite on three workers with ``--dist loadgroup``: a worker takes
one test at a time, or a whole group at once. The browser tests take seconds to a
minute each and the server tests start servers, while most others take milliseconds.
Handed out first, the long tests are spread over the workers from the start and the
short ones fill the end, so no worker is left alone with a long test while the others
are done (in the order files are collected, the browser tests came last, and a worker
could be handed twenty of them at once). Each browser test module is a group: its
server and its module fixtures (tables played to mid-game, say) are set up once, on one
worker. Within a module the collection's order is kept."""

from __future__ import annotations

from pathlib import Path

import pytest

TESTS = Path(__file__).parent
WEB = TESTS / "web"
# The folders handed out first, in this order; the rest follow as collected. The install
# test waits on pip for a minute or more, so it starts first.
FIRST = (TESTS / "test_install_set.py", WEB, TESTS / "server")


def _rank(item: pytest.Item) -> int:
    for index, folder in enumerate(FIRST):
        if item.path.is_relative_to(folder):
            return index
    return len(FIRST)


# Before xdist's worker reads the groups (it names each test after its group).
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=_rank)  # a stable sort: each folder keeps the collection's order
    if not config.pluginmanager.hasplugin("xdist"):
        return  # (-p no:xdist) its mark would be unknown
    for item in items:
        if item.path.is_relative_to(WEB):
            item.add_marker(pytest.mark.xdist_group(f"web-{item.path.stem}"))
