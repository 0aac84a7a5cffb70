"""The public lobby: the public rooms' list (``public``, ``GET /api/lobby``) and quick
match (``quick_match``, ``POST /api/quickmatch``, over ``choice``: which room and which
bot level, decided from data alone). A room's own seating before its game
is ``rooms.seating``.

May import: ``players``, ``rooms``, ``ratings``, ``edges``, ``storage``, ``ops`` and the
server's leaves.
"""
