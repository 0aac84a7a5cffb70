"""The online table: an ASGI server where people and bots play the engines together.

The server never re-implements a rule: it asks the engine for legal moves, views and
outcomes. See docs/protocol.md for the WebSocket protocol and docs/operations.md
for running it. Modules, one job each:

- serving: ``app`` (the ASGI app: the API and the WebSocket beside the routes of a
  front end it is given, see :mod:`cardtable.online`), ``http_api``, ``websocket``,
  ``protocol`` (message schemas), ``connections`` (a socket's send queue), ``limits``,
  ``errors``, ``tokens``;
- rooms: ``table`` (the node's live rooms, leases, adoption, the sweeper), ``rooms``
  (one room: versions, moves, broadcasts), ``lobby``, ``seats``, ``tableopts``,
  ``events`` (versioned events per recipient), ``replays``;
- a room's helpers: ``botseats`` and ``botturns`` (bot seats), ``workers`` (the worker
  processes they run in), ``advice`` (hints and reviews), ``grace`` (absent players),
  ``turnclock`` (the turn time limit), ``chat``; the room's parts (the lobby and these)
  hold it through ``roomparts`` (the interface the room provides), never ``rooms``;
- storage: ``storage`` (``Storage``, the database the server holds) over the package
  ``db`` (its tables, records, connection, group-commit writer, and the queries of rooms,
  leases and games), ``schema`` (the Alembic migrations at start), ``datalock`` (one
  server per SQLite file), ``startup``;
- the process: ``config``, ``command`` (``cardtable serve``), ``collector`` (the
  garbage collector's policy), ``logs``, ``metrics``.

Display names are checked with :mod:`cardtable.display_names`.

Nothing heavy is imported here, so ``cardtable`` commands that do not serve stay fast.
"""
