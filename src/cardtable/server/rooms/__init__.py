"""Rooms: one room and its parts, and the node's live rooms.

- the node: ``table`` (every live room of the node, their creation, restore, leases and
  expiry), ``routes`` (``/api/rooms``, ``/health``, ``/metrics``), ``websocket`` (the live
  protocol), ``protocol`` (its messages), ``connections`` (a socket's queue);
- one room: ``room`` (versions, moves, broadcasts), ``events`` (versioned events per
  recipient), ``seats`` (seats and the room's stages), ``seating`` (players take seats,
  the host sets options and starts), ``table_options``, ``replays``;
- a room's parts, which hold it through ``parts`` (the interface the room provides),
  never ``room``: ``bot_seats`` and ``bot_turns`` (bots and stand-ins), ``grace`` (absent
  players), ``turn_clock``, ``chat``, ``coach``, ``advice`` (hints and reviews),
  ``rated_notice`` (the ``rated`` message).

May import: ``ops``, ``storage``, ``edges``, ``ratings`` and the server's leaves.
"""
