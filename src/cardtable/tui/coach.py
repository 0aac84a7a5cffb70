"""The practice coach at the terminal table (docs/protocol.md, "The practice coach").

At a table with the coach on, the server sends our seat a ``coach`` line after a clearly
worse move: what it cost, the better move and why, in the review's words, and whether
the move may still be taken back. The table shows it under the board until our next
move, with the keys that answer it while the offer stands (the bots wait meanwhile).
The line is worded here from its catalog keys and parts, in the player's language; the
judgement and every refusal are the server's.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from rich.text import Text

from .words import Words

JSON = dict[str, Any]


@dataclasses.dataclass
class CoachLine:
    """The coach's last line about our move, and whether its take-back is still on offer:
    it is from the line's ``take_back`` until we answer or the game goes on."""

    message: JSON
    open: bool

    @classmethod
    def of(cls, message: JSON) -> CoachLine:
        return cls(message, bool(message.get("take_back")))

    @property
    def version(self) -> int:
        return int(self.message["version"])

    def why_not(self) -> str | None:
        """Why the move cannot be taken back (a ``no_take_back`` code), if the server said."""
        why = self.message.get("no_take_back")
        return why if isinstance(why, str) else None


def cost_text(words: Words, message: JSON) -> str:
    """What the move cost, in the review's words."""
    if message.get("measure") == "win_chance":
        return words("review.cost_skipbo", cost=words.number(100 * float(message["cost"])))
    return words.amount("review.cost_skyjo", float(message["cost"]))


def coach_text(words: Words, line: CoachLine, reason: str) -> Text:
    """The coach's line: cost, better move and ``reason`` (worded by the caller), then
    the keys while the take-back is on offer, or why the move stays."""
    message = line.message
    text = Text(words("coach.title") + " ", style="bold")
    text.append(cost_text(words, message) + " ", style="bold yellow")
    text.append(words("review.better", move=words.move(message["best_move"])))
    if reason:
        text.append(" · " + words("review.reason", reason=reason), style="dim")
    why = line.why_not()
    if line.open:
        text.append("\n" + words("coach.offer"), style="bold")
    elif why is not None and words.has(f"coach.no_take_back.{why}"):
        text.append("\n" + words(f"coach.no_take_back.{why}"), style="dim")
    return text
