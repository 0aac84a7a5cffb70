"""Storage: the server's database (SQLAlchemy 2, SQLite or PostgreSQL), one concern a
module, composed into :class:`~cardtable.server.storage.store.Storage`.

- ``tables``: every table, on the one ``metadata`` the Alembic ``migrations`` follow;
  ``schema`` runs them at start; ``datalock`` keeps one server per SQLite file;
- ``records``: the rows as the rest of the server sees them, and ``FencedError``;
- ``database``: connecting, the schema check, closing;
- ``group_commit``: the writer that commits the moves of many rooms in one transaction;
  ``lock_trouble``: the guard that logs and counts deadlocks and long row-lock waits;
- ``rooms``: a room's row; ``leases``: which node serves a room, and hand-overs;
- ``games``: the stored games and their move logs;
- ``accounts``: users, sessions, claimed seats and the sign-in limits' counters;
  ``claims``: the one query of who claimed which seat of a room;
- ``ratings``: finished games judged once for a ladder, ratings, leaderboards;
- ``profiles``: an account's finished games and ratings; ``public_rooms``: the rooms
  the public lobby lists.

A new group of tables gets its tables in ``tables`` (so the migrations see them) and its
queries in a module of its own, one more part of ``Storage``.

May import: ``ops`` and the server's leaves (``ladder`` judges a game in the
transaction that records it).
"""
