"""The largest tables fit an 80x24 terminal."""

from __future__ import annotations

import asyncio

import pytest

from cardtable.i18n import LANGUAGES

from .helpers import local_app, settle

LARGEST = [
    ("skyjo", {"players": 8}),
    ("skipbo", {"players": 6, "teams": True, "stock_size": 5}),
    ("skipbo", {"players": 6, "stock_size": 5}),
]


@pytest.mark.parametrize(("game", "options"), LARGEST)
def test_the_largest_tables_fit_80x24(game: str, options: dict[str, object]) -> None:
    async def body() -> None:
        for lang in LANGUAGES:
            app = local_app(game, options, seed=9, lang=lang)
            async with app.run_test(size=(80, 24)) as pilot:
                await settle(pilot, app)
                board = app.query_one("#board")
                lines = app.render_board(app.source.view()).plain.splitlines()
                assert max(len(line) for line in lines) <= 78, lang
                assert board.region.height == len(lines)  # nothing cut off
                assert app.query_one("#log").region.height >= 2
                assert app.query_one("#keys").region.bottom <= 24

    asyncio.run(body())
