"""The modal pages over the table: help, round summary, final scores, post-game review.

Each is a :class:`TextScreen` of rich text; the table app pushes them and holds the
game source while one is shown (see ``TableApp.show_page``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static


class TextScreen(ModalScreen[None]):
    """A modal page of text (help, round summary, final scores); any closing key returns.

    A page taller than the terminal scrolls (arrows, page up and down).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,space,question_mark", "close", "keys.close"),
    ]
    DEFAULT_CSS = """
    TextScreen { align: center middle; }
    TextScreen > VerticalScroll {
        width: 76; height: auto; max-height: 22;
        border: round $accent; background: $panel; padding: 0 1;
    }
    """

    def __init__(self, body: Text, kind: str) -> None:
        super().__init__()
        self.body = body
        self.kind = kind

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(self.body, id="page")

    def action_close(self) -> None:
        self.dismiss(None)


class FinalScreen(TextScreen):
    """The final scores, with the keys of what comes after a game: review, rematch."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("v", "app.review", "keys.review"),
        Binding("m", "app.rematch", "keys.rematch"),
    ]


class ReviewScreen(TextScreen):
    """The post-game review: "reviewing…" with its progress, then the costliest moves.

    The page is drawn again from ``draw()`` a few times a second, so it follows the
    review as it is worked out (a worker thread, or the server) without blocking.
    """

    DEFAULT_CSS = """
    ReviewScreen > Vertical {
        width: 76; height: auto; max-height: 22;
        border: round $accent; background: $panel; padding: 0 1;
    }
    ReviewScreen VerticalScroll { height: auto; max-height: 19; }
    ReviewScreen #review-keys { height: 1; color: $text-muted; }
    """

    def __init__(self, draw: Callable[[], Text], keys: str) -> None:
        super().__init__(draw(), "review")
        self.draw = draw
        self.keys = keys

    def compose(self) -> ComposeResult:
        with Vertical():
            with VerticalScroll():
                yield Static(self.body, id="page")
            yield Static(self.keys, id="review-keys")

    def on_mount(self) -> None:
        self.set_interval(0.2, self.redraw)

    def redraw(self) -> None:
        self.body = self.draw()
        self.query_one("#page", Static).update(self.body)
