"""Bots over the core protocol, looked up by game and name."""

from .base import Bot, RandomBot
from .registry import bot_names, make_bot

__all__ = ["Bot", "RandomBot", "bot_names", "make_bot"]
