"""`cardtable serve` options become a server configuration."""

from __future__ import annotations

import argparse
from pathlib import Path

from cardtable.server.command import add_serve_parser, serve_config


def _parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_serve_parser(parser.add_subparsers(dest="command"))
    return parser.parse_args(["serve", *argv])


def test_serve_defaults_use_sqlite_in_the_data_folder(tmp_path):
    args = _parse("--data", str(tmp_path))
    assert (args.host, args.port) == ("127.0.0.1", 8000)
    config = serve_config(args)
    assert config.database_url() == f"sqlite+aiosqlite:///{Path(tmp_path) / 'cardtable.db'}"


def test_serve_options_reach_the_configuration():
    args = _parse(
        "--db", "postgresql+asyncpg://u:p@db/cards", "--bot-pause", "0", "--grace", "5",
        "--allow-origin", "https://cards.example", "--room-ttl", "60",
    )  # fmt: skip
    config = serve_config(args)
    assert config.database_url() == "postgresql+asyncpg://u:p@db/cards"
    assert (config.bot_pause, config.grace_seconds, config.room_ttl_seconds) == (0, 5, 60)
    assert config.allowed_origins == ("https://cards.example",)


def test_guard_rail_and_proxy_options_reach_uvicorn():
    from cardtable.server.command import uvicorn_options

    args = _parse(
        "--rooms-per-client", "500", "--no-proxy-headers", "--forwarded-allow-ips", "10.0.0.1",
        "--ws-deflate",
    )  # fmt: skip
    config = serve_config(args)
    assert config.rooms_per_client == 500
    assert (config.rate_per_second, config.rate_burst) == (10.0, 40)
    options = uvicorn_options(args, config)
    assert options["proxy_headers"] is False
    assert options["forwarded_allow_ips"] == "10.0.0.1"
    assert options["ws_per_message_deflate"] is True
    defaults = uvicorn_options(_parse(), serve_config(_parse()))
    assert defaults["proxy_headers"] is True and defaults["forwarded_allow_ips"] is None
    assert defaults["ws_per_message_deflate"] is False  # CPU and memory: issue 30


def test_gc_options_parse_and_refuse_what_is_not_three_numbers(capsys):
    import pytest

    args = _parse()
    assert args.gc_thresholds == (10_000, 50, 1_000) and args.gc_freeze is True
    assert (args.gc_freeze_seconds, args.gc_full_seconds) == (10.0, 600.0)
    args = _parse(
        "--gc-thresholds", "50000,20,1000", "--no-gc-freeze", "--gc-full-seconds", "0"
    )  # fmt: skip
    assert args.gc_thresholds == (50_000, 20, 1_000) and args.gc_freeze is False
    assert args.gc_full_seconds == 0.0
    for bad in ("10000,10", "a,b,c", "-1,2,3"):
        with pytest.raises(SystemExit):
            _parse(f"--gc-thresholds={bad}")
        assert "three whole numbers" in capsys.readouterr().err
    for option, bad in (("--gc-freeze-seconds", "0"), ("--gc-full-seconds", "-1")):
        with pytest.raises(SystemExit):
            _parse(option, bad)
        assert option in capsys.readouterr().err


def test_message_rate_options_reach_the_configuration_and_refuse_zero(capsys):
    import pytest

    config = serve_config(_parse("--message-rate", "2.5", "--message-burst", "7"))
    assert (config.rate_per_second, config.rate_burst) == (2.5, 7)
    for option, bad in (
        ("--message-rate", "0"),
        ("--message-burst", "0"),
        ("--message-burst", "1.5"),
    ):
        with pytest.raises(SystemExit):
            _parse(option, bad)
        assert option in capsys.readouterr().err
