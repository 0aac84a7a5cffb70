"""Rolling restart behind a real nginx: two nodes on one PostgreSQL, a browser playing a
game through nginx, and each node in turn drained (SIGUSR1), stopped (SIGTERM) and
started again, as in a rolling upgrade (docs/operations.md). The game finishes, and the
page never shows an error nor loses its room."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from ..server.nginx_cluster import nginx_cluster
from ..server.postgres import Cluster, postgres_cluster
from ..server.test_group_commit import rows
from .pages import TIMEOUT, create_table, new_page, play_until_over, skyjo_step, start

__all__ = ["postgres_cluster"]  # the fixture of the PostgreSQL tests


@pytest.fixture(scope="module")
def database(postgres_cluster: Cluster) -> str:
    """A fresh PostgreSQL database, made in another thread: the browser the web tests
    share may be running already, and Playwright's sync API keeps an event loop running
    in this thread, where asyncio.run fails."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(postgres_cluster.create_database).result()


def _rows(url: str, sql: str, **params: Any) -> list[Any]:
    with ThreadPoolExecutor(1) as pool:  # off this thread's running event loop
        return pool.submit(rows, url, sql, **params).result()


# Every error the page shows goes through its toast (kind "error") or ends the room
# ("gone"): both are recorded from the start, so one shown for a moment is not missed.
WATCH = """() => {
  window.__shown = [];
  const toast = document.getElementById("toast");
  const net = document.getElementById("net");
  const look = () => {
    if (!toast.hidden && toast.dataset.kind === "error") {
      window.__shown.push("toast: " + toast.textContent);
    }
    if (net.dataset.status === "gone") window.__shown.push("gone");
  };
  const all = { attributes: true, childList: true, characterData: true, subtree: true };
  new MutationObserver(look).observe(toast, all);
  new MutationObserver(look).observe(net, { attributes: true });
}"""


def _owner(url: str, code: str) -> str | None:
    ((owner,),) = _rows(url, "SELECT owner FROM rooms WHERE code = :c", c=code)
    return owner  # type: ignore[no-any-return]


def _online(page: Any) -> None:
    page.wait_for_function("document.getElementById('net').dataset.status === 'online'",
                           timeout=TIMEOUT)  # fmt: skip


def test_a_browser_game_goes_on_through_a_rolling_restart(tmp_path, database, browser):
    with nginx_cluster(tmp_path / "nginx", database) as cluster:
        page = new_page(browser, cluster.base)
        page.evaluate(WATCH)
        code = create_table(page, "skyjo", "Alice", {"players": 3, "end_score": 40},
                            ["greedy", "greedy"])  # fmt: skip
        start(page)
        page.wait_for_selector(".tgt-legal, .src-legal", timeout=TIMEOUT)
        restarted: list[str] = []
        plan = {4: 0, 12: 1}  # after the player's 4th and 12th moves; the owner first

        def every(p: Any, moves: int) -> None:
            if moves not in plan or len(restarted) != plan[moves]:
                return
            owner = _owner(database, code)
            live = {node.node_id(): node for node in cluster.nodes}
            node = (
                live[owner]
                if owner in live and not restarted
                else next(n for n in cluster.nodes if n.name not in restarted)
            )
            node.restart()
            restarted.append(node.name)
            _online(p)

        play_until_over([page], skyjo_step, every=every)
        assert sorted(restarted) == ["n1", "n2"]  # each node in turn
        assert page.evaluate("window.__shown") == []
        assert not page.errors
        # The room moved from node to node and its game is whole in the log.
        generations = {node.name: node.generation for node in cluster.nodes}
        assert generations == {"n1": 2, "n2": 2}
        log = _rows(
            database,
            "SELECT idx FROM moves WHERE room_code = :c AND game_no = 1 ORDER BY idx",
            c=code,
        )
        assert [idx for (idx,) in log] == list(range(len(log)))
        ((adoptions,),) = _rows(database, "SELECT epoch FROM rooms WHERE code = :c", c=code)
        assert adoptions >= 2  # claimed at least twice after its creation
