"""The online table: an ASGI server where people and bots play the engines together.

The server never re-implements a rule: it asks the engine for legal moves, views and
outcomes. See docs/protocol.md for the protocol and docs/operations.md for running it.
One folder per concept, bottom to top (each folder's docstring says what lives there
and what it may import; ``tests/import_rules.py`` holds the table):

- leaves, which any part may use: ``errors`` (refused requests), ``tokens`` (seat and
  host tokens, room codes), ``ladder`` (which game is rated on which ladder and how it
  moves ratings), ``name_skeletons`` (names that look alike);
- ``ops/``: settings, limits, logs, the garbage collector, worker processes, metrics;
- ``storage/``: the database, its migrations and every query;
- ``edges/``: what every route shares (refusals as answers, bodies, addresses), the
  guard every request passes, the session cookie;
- ``ratings/``: finished games judged once, and players' profiles;
- ``rooms/``: one room and its parts, the node's live rooms, their routes and the
  WebSocket;
- ``players/``: accounts, sign-in, leaderboards, profiles over HTTP;
- ``lobby/``: the public rooms' list and quick match;
- ``lessons``: the guided lessons over HTTP;
- ``app``: every folder's routes put together; ``command``: ``cardtable serve``.

Display names are checked with :mod:`cardtable.display_names`.

Nothing heavy is imported here, so ``cardtable`` commands that do not serve stay fast.
"""
