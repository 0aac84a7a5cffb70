"""The measuring clients: what ``cardtable bench`` and ``cardtable loadtest`` run.

Each module is named by what it measures:

- ``engine``: the reference engines' moves, games, clones and views per second
  (``cardtable bench GAME``), and ``engine_table`` its table;
- ``fast_engine``: the compiled batch engines' games per second (``--engine fast``);
- ``rl_envs``: the RL environments' steps per second (``--rl``);
- ``loadtest`` and ``loadtest_*``: many rooms of scripted players against a running
  table server (``cardtable loadtest``). They talk to it only over HTTP and
  WebSocket, as a real client would, so they import nothing of the server package.

``bench`` may import what it measures; nothing imports it but the ``cardtable``
command. One-off experiments, behind a figure of the docs, are in ``lab/`` instead.
"""
