"""The terminal client (``cardtable play``): a Textual app over a game source.

Needs the optional extra ``tui`` (Textual). The game comes from a
:class:`~cardtable.tui.source.GameSource`: the engine on this machine
(:class:`~cardtable.tui.source.LocalGame`).
"""
