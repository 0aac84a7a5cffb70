"""Fixtures of the server tests: the database each storage test runs on."""

from __future__ import annotations

import pytest

from .postgres import postgres_cluster, postgres_url

__all__ = ["database", "postgres_cluster", "postgres_url"]


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest) -> str | None:
    """The server's ``db_url`` in the tests that run on both databases: None for the
    default SQLite file in the data folder, else a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return None
    url: str = request.getfixturevalue("postgres_url")
    return url
