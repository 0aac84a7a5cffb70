"""Settings every front end shares, read from ``CARDTABLE_*`` environment variables.

One place says where cardtable keeps its files and which database the table server
uses, so the server, the terminal client and the command agree without importing each
other. An environment variable lets a database password stay off the command line
(where ``ps`` shows it to every user of the machine):

- ``CARDTABLE_DATA``: the data folder (SQLite file, the terminal's remembered seats);
  without it ``$XDG_DATA_HOME/cardtable``, else ``~/.local/share/cardtable``;
- ``CARDTABLE_DB``: the table server's database URL (``--db`` overrides it); without
  either, SQLite in the data folder.

The language (``CARDTABLE_LANG`` and the locale variables) is read by
:mod:`cardtable.i18n`, which follows the POSIX order of those variables.
"""

from __future__ import annotations

import os
from pathlib import Path

from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """The shared settings; each field ``name`` is read from ``CARDTABLE_NAME``."""

    # An empty variable counts as unset, as ``CARDTABLE_DATA=`` always has.
    model_config = SettingsConfigDict(
        env_prefix="CARDTABLE_", env_ignore_empty=True, frozen=True, extra="ignore"
    )

    #: The data folder, None for the XDG default (see :meth:`data_dir`).
    data: Path | None = None
    #: The table server's database URL, None for SQLite in the data folder.
    db: str | None = None

    def data_dir(self) -> Path:
        """``data`` if set, else the XDG data folder."""
        if self.data is not None:
            return self.data
        xdg = os.environ.get("XDG_DATA_HOME")
        base = Path(xdg) if xdg else Path.home() / ".local" / "share"
        return base / "cardtable"


def settings() -> Settings:
    """The settings as the environment says now (read on each call: tests change it)."""
    return Settings()


def default_data_dir() -> Path:
    """The data folder: ``$CARDTABLE_DATA``, else ``$XDG_DATA_HOME/cardtable``, else
    ``~/.local/share/cardtable``."""
    return settings().data_dir()
