"""Snapshots of both boards at 80x24 (pytest-textual-snapshot).

After a deliberate change of the look, regenerate them with
``pytest tests/tui/test_snapshots.py --snapshot-update`` and review the SVG files
in ``tests/tui/__snapshots__/``.
"""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from .helpers import local_app, settle


def test_skyjo_board(snap_compare: Any) -> None:
    app = local_app("skyjo", {"players": 3}, seed=21)

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        await pilot.press("enter", "right", "down", "enter")  # the two set-up reveals
        await settle(pilot, app)
        await pilot.press("d")  # draw: the held card shows and the legal places light up
        await settle(pilot, app)

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_skipbo_board(snap_compare: Any) -> None:
    options = {"players": 4, "teams": True, "stock_size": 5, "first_player": 1}
    app = local_app("skipbo", options, seed=8)

    async def run_before(pilot: Pilot[None]) -> None:
        await settle(pilot, app)
        await pilot.press("1")  # a hand card selected: its targets light up

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)
