"""Players: accounts and where they stand.

``accounts`` (sign-up, sign-in, sessions, claimed seats over HTTP), ``passwords``
(Argon2id), ``leaderboard`` (``GET /api/leaderboard/{ladder}``), ``profile_route``
(``GET /api/players/{name}``).

May import: ``rooms`` (a claim names a live room's seat), ``ratings``, ``edges``,
``storage``, ``ops`` and the server's leaves.
"""
