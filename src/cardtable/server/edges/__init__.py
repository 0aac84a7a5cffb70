"""The edges: what every HTTP route and the WebSocket share, before a request reaches
its concept's folder.

``http`` (a refusal as a JSON answer, the client's address, query parameters),
``bodies`` (the strict model of what a client sends, a request body read within its
limit), ``guard`` (the checks every request passes and the headers of every
answer), ``sessions`` (the session cookie and its CSRF token), ``lookups`` (room code
look-ups per address across a cluster).

May import: ``ops``, ``storage`` and the server's leaves.
"""
