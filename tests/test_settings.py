"""The shared settings: the data folder and the database come from ``CARDTABLE_*``."""

from __future__ import annotations

import argparse
from pathlib import Path

from cardtable.server.command import add_serve_parser, serve_config
from cardtable.settings import default_data_dir, settings
from cardtable.tui.remote import seat_file


def _serve_args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_serve_parser(parser.add_subparsers())
    return parser.parse_args(["serve", *argv])


def test_the_data_folder_follows_cardtable_data_then_xdg(monkeypatch, tmp_path):
    monkeypatch.setenv("CARDTABLE_DATA", str(tmp_path / "mine"))
    assert default_data_dir() == tmp_path / "mine"
    monkeypatch.setenv("CARDTABLE_DATA", "")  # empty counts as unset
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_data_dir() == tmp_path / "xdg" / "cardtable"
    monkeypatch.delenv("CARDTABLE_DATA")
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_data_dir() == Path.home() / ".local" / "share" / "cardtable"


def test_the_server_and_the_terminal_read_the_same_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("CARDTABLE_DATA", str(tmp_path))
    assert serve_config(_serve_args()).data_dir == tmp_path
    assert seat_file() == tmp_path / "seats.json"
    assert serve_config(_serve_args("--data", str(tmp_path / "flag"))).data_dir == tmp_path / "flag"


def test_the_database_url_comes_from_cardtable_db_unless_given(monkeypatch, tmp_path):
    url = "postgresql+asyncpg://table:SECRET@db.internal/cardtable"
    monkeypatch.setenv("CARDTABLE_DB", url)
    assert settings().db == url
    assert serve_config(_serve_args()).database_url() == url
    other = "postgresql+asyncpg://other@db2/cardtable"
    assert serve_config(_serve_args("--db", other)).database_url() == other
    monkeypatch.delenv("CARDTABLE_DB")
    monkeypatch.setenv("CARDTABLE_DATA", str(tmp_path))
    assert serve_config(_serve_args()).database_url().endswith(f"{tmp_path}/cardtable.db")
