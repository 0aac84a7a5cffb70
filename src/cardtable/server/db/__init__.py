"""The table server's database, one concern a module, composed into
:class:`cardtable.server.storage.Storage`:

- ``tables``: every table, on the one ``metadata`` the Alembic migrations follow;
- ``records``: the rows as the rest of the server sees them, and ``FencedError``;
- ``database``: connecting, the SQLite file lock, the schema check, closing;
- ``group_commit``: the writer that commits the moves of many rooms in one transaction;
- ``rooms``: a room's row; ``leases``: which node serves a room, and hand-overs;
- ``games``: the stored games and their move logs;
- ``accounts``: users, sessions, claimed seats and the sign-in limits' counters;
- ``ratings``: finished games judged once for a ladder, ratings, leaderboards.

A new group of tables gets its tables in ``tables`` (so the
migrations see them) and its queries in a module of its own, one more base class of
``Storage``.
"""
