"""The online table: an ASGI server where people and bots play the engines together.

The server never re-implements a rule: it asks the engine for legal moves, views and
outcomes. See docs/protocol.md for the WebSocket protocol. Modules: ``app`` (the ASGI
app: the API and the WebSocket beside the routes of a front end it is given, see
:mod:`cardtable.online`), ``http_api``, ``websocket``, ``protocol`` (message schemas),
``rooms`` and ``table`` (live rooms), ``events`` (versioned events per recipient),
``storage`` (SQLAlchemy, Alembic migrations), ``botseats`` (bots off the event loop),
``tokens``, ``limits``, ``connections``, ``replays``, ``config`` and ``command`` (the
CLI glue). Display names are checked with :mod:`cardtable.display_names`.

Nothing heavy is imported here, so ``cardtable`` commands that do not serve stay fast.
"""
