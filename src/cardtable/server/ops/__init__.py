"""Operations: how a server process runs, whatever it serves.

``config`` (a server's settings), ``limits`` (rate limits and caps per connection and
address), ``logs`` (plain or JSON log lines), ``collector`` (the garbage collector's
policy), ``workers`` (the worker processes of the CPU-heavy work), ``startup`` (why a
server refuses to start), ``metrics`` (what ``GET /metrics`` reports).

May import: the server's leaves (``errors``, ``tokens``, ``ladder``, ``name_skeletons``)
and nothing else of the server. What it reads of a table is a protocol of its own.
"""
