"""Why a server refuses to start: a refusal is an operator's mistake, never a crash.

Raised while the database is opened (the data folder is in use, the schema does not
match this version); ``cardtable serve`` prints the message and exits with status 1.
"""

from __future__ import annotations


class StartupRefusedError(Exception):
    """The server must not start; the message says why and what to do."""
