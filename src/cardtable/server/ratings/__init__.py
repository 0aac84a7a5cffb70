"""Rated games after the fact: when a finished game is judged, and what a player's
record says.

``jobs`` (rating finished games off the move's path, once whoever tries first) and
``profiles`` (a player's profile from the stored games and ratings, and the verdict of
one game seat by seat). Which game is rated and how it moves ratings is the leaf
``ladder``; the judging transaction is ``storage.ratings``; how a table tells its
players is ``rooms.rated_notice``.

May import: ``ops``, ``storage`` and the server's leaves.
"""
