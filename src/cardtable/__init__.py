"""cardtable: exact rules engines, bots and an online table for Skip-Bo and Skyjo."""

__version__ = "0.1.0"
