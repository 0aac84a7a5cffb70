"""The terminal client (``cardtable play``): a Textual app over a game source.

Needs the optional extra ``tui`` (Textual). The game comes from a
:class:`~cardtable.tui.source.GameSource`: the engine on this machine with its bots
(:class:`~cardtable.tui.source.LocalGame`), or a room of an online table, joined or
hosted from its lobby (:class:`~cardtable.tui.remote.RemoteGame`). How the modules
divide the work is said in :mod:`cardtable.tui.app`.
"""
