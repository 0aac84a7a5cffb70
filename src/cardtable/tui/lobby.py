"""The lobby of an online room: who has joined, the rules options, and the host's keys.

Shown while the room waits for its game (before the first one, and after the host
offers a rematch). The option rows are built from the game's rules type
(:mod:`cardtable.tui.options`), so every option of the engine can be changed; the host
changes one with the arrows (a whole number also by typing it), each change goes to the
server (``configure``), and a refusal is shown under the option the server names. With
tab the host moves to the seats, where the arrows make a free seat a player's or a bot's
(any bot of the game), as on the web page. Only the server decides: the screen draws the
room summary it sends.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.geometry import Region
from textual.screen import ModalScreen
from textual.widgets import Static

from ..bots import bot_names
from ..core import OptionError, RulesBase
from ..statuses import SeatKind
from .options import OptionSpec, bounds, option_specs
from .screens import TextScreen
from .source import GameSource, RefusedError
from .words import Words

JSON = dict[str, Any]
#: The mark of the row under the cursor, and the indent of a refusal under its option.
CURSOR = "▶ "
REFUSAL_INDENT = "    "


#: The narrowest an option label is cut to, however narrow the terminal.
MIN_LABEL = 8


def _cut(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters, ending with … when it was longer."""
    return text if len(text) <= width else text[: width - 1] + "…"


def _row(selected: bool) -> Text:
    """The start of a seat or option row: one line, cut with an ellipsis if too wide."""
    row = Text(no_wrap=True, overflow="ellipsis")
    row.append(CURSOR if selected else "  ", style="bold green")
    return row


class LobbyScreen(ModalScreen[None]):
    """The room's lobby; the table's own keys wait until the game starts."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("tab", "section", "keys.lobby.section"),
        Binding("up", "cursor(-1)", "keys.lobby.option", key_display="↑↓"),
        Binding("down", "cursor(1)", "keys.lobby.option", show=False),
        Binding("left", "step(-1)", "keys.lobby.change", key_display="←→"),
        Binding("right,space", "step(1)", "keys.lobby.change", show=False),
        Binding("pageup", "step(-10)", "keys.lobby.change_ten", key_display="pgup/pgdn"),
        Binding("pagedown", "step(10)", "keys.lobby.change_ten", show=False),
        *[Binding(str(d), f"digit({d})", "keys.lobby.type", show=False) for d in range(10)],
        Binding("backspace", "erase", "keys.lobby.type", key_display="0-9 ⌫"),
        Binding("enter", "enter", "keys.lobby.enter"),
        Binding("delete", "auto", "keys.lobby.auto"),
        Binding("u", "revert", "keys.lobby.revert"),
        Binding("s", "start", "keys.lobby.start"),
        Binding("question_mark,f1", "help", "keys.help"),
        Binding("escape", "cancel", "keys.cancel", show=False),
        Binding("ctrl+q", "app.quit", "keys.quit"),
    ]
    DEFAULT_CSS = """
    LobbyScreen { align: center top; }
    LobbyScreen > VerticalScroll {
        width: 100%; height: 100%; background: $panel; padding: 0 1;
    }
    """

    def __init__(self, source: GameSource, words: Words) -> None:
        super().__init__()
        self.source = source
        self.words = words
        self.specs: tuple[OptionSpec, ...] = option_specs(source.game.name)
        self.cursor = 0
        #: Where the arrows act: the rules options, or (tab, the host) the seats.
        self.section = "options"
        self.seat_cursor = 0
        #: The seats last asked for, until the server answers (a second key press
        #: before the answer goes on from them, not from the room's older seats).
        self.pending_seats: list[JSON] | None = None
        #: Changes the server has not accepted yet (shown marked; sent at once).
        self.draft: JSON = {}
        #: A refusal per option, in words, shown under the option.
        self.errors: dict[str, str] = {}
        self.typed = ""
        self.message = ""
        self._dirty = False
        self._sending = False

    # --- drawing ----------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        # The scroll area takes no focus: its own arrow keys (scrolling) would take the
        # screen's as soon as the page is taller than the terminal. It follows the
        # cursor instead (:meth:`follow_cursor`); the mouse wheel still scrolls it.
        with VerticalScroll(can_focus=False):
            yield Static(Group(*self.lines()), id="lobby")

    def on_mount(self) -> None:
        self.call_after_refresh(self.follow_cursor)

    def draw(self) -> None:
        if self.is_mounted:
            self.query_one("#lobby", Static).update(Group(*self.lines()))
            self.call_after_refresh(self.follow_cursor)

    def say(self, key: str, **params: object) -> None:
        """Show the catalog text ``key`` on the message line and draw the lobby."""
        self.message = self.words(key, **params)
        self.draw()

    def on_resize(self) -> None:
        self.call_after_refresh(self.draw)  # the labels' width follows the terminal's

    def label_width(self, widest: int, value: int) -> int:
        """How wide the option labels are drawn: the widest label, or in a terminal too
        narrow for it what leaves room for the values (a longer label is cut with …)."""
        if not self.is_mounted:
            return widest
        scroll = self.query_one(VerticalScroll)
        # Room for a scroll bar is kept whether it shows or not: it comes and goes with
        # the page's height, which must not change the rows' width.
        room = scroll.content_size.width - scroll.styles.scrollbar_size_vertical
        if room <= 0:
            return widest
        # The cursor mark, the gap, the value and, on the row under the cursor, the "…"
        # that ends its hint (the option's flag and range) when it is cut.
        return max(MIN_LABEL, min(widest, room - len(CURSOR) - 2 - value - 1))

    def follow_cursor(self) -> None:
        """Scroll the page so that the row under the cursor (and a refusal under it) shows."""
        # Called after a refresh: by then the screen may be on its way out (the game
        # started), its page already gone.
        page = next(iter(self.query("#lobby").results(Static)), None) if self.is_mounted else None
        if page is None:
            return
        width = page.content_size.width
        if width <= 0:
            return
        lines = self.lines()
        top = 0
        for index, line in enumerate(lines):
            height = 1 if line.no_wrap else len(line.wrap(self.app.console, width))
            if line.plain.startswith(CURSOR):
                below = lines[index + 1] if index + 1 < len(lines) else None
                if below is not None and below.plain.startswith(REFUSAL_INDENT):
                    height += 1
                region = Region(0, top, width, height)
                self.query_one(VerticalScroll).scroll_to_region(region, animate=False)
                return
            top += height

    @property
    def host(self) -> bool:
        return self.source.rematch_role() == "host"

    def room(self) -> JSON:
        return self.source.lobby() or {}

    def values(self) -> JSON:
        """The options as shown: the room's, with our changes not accepted yet."""
        return {**(self.room().get("rules") or {}), **self.draft}

    def value_words(self, value: object) -> str:
        w = self.words
        if value is None:
            return w("lobby.auto")
        if isinstance(value, bool):
            return w("lobby.yes") if value else w("lobby.no")
        return str(value)

    def label(self, spec: OptionSpec) -> str:
        return self.words(spec.label) if self.words.has(spec.label) else spec.name

    def page(self) -> Text:
        """The whole page as one text (what :meth:`lines` shows, line by line)."""
        return Text("\n").join(self.lines())

    def lines(self) -> list[Text]:
        """The page's lines. A seat or option row stays one line, so the rows keep their
        places and the arrows their meaning: in a narrow terminal the option labels are
        cut first (the values stay in view), then what is still too wide ends with an
        ellipsis; the other lines (titles, link, refusals, keys) wrap."""
        w = self.words
        room = self.room()
        game = w(f"game.{self.source.game.name}")
        lines = [Text(w("lobby.title", game=game, code=room.get("code", "")), style="bold")]
        link = self.source.link()
        if link:
            lines.append(Text(w("lobby.link", url=link)))
            lines.append(Text(w("lobby.join_command", command=f"cardtable play --join {link}")))
        account = self.source.signed_in()
        if account is not None:
            lines.append(Text(w.standing(*account)))
        lines += [Text(), Text(w("lobby.seats"), style="bold")]
        seats = room.get("seats") or []
        for index, info in enumerate(seats):
            selected = self.host and self.section == "seats" and index == self.seat_cursor
            row = _row(selected)
            row.append(f"{info['seat'] + 1}. ")
            row.append_text(self.seat_text(info))
            if selected:
                row.append("  " + w("lobby.seat_choice"), style="dim")
            lines.append(row)
        lines += [Text(), Text(w("lobby.options"), style="bold")]
        values = self.values()
        rules = self.rules_now()
        shown_values = [self.value_words(values.get(spec.name)) for spec in self.specs]
        width = self.label_width(
            max(len(self.label(spec)) for spec in self.specs), max(map(len, shown_values))
        )
        for index, spec in enumerate(self.specs):
            selected = self.host and self.section == "options" and index == self.cursor
            row = _row(selected)
            label = _cut(self.label(spec), width)
            row.append(f"{label:<{width}}  ", style="bold" if selected else "")
            if selected and self.typed:
                row.append(self.typed + "▏", style="bold reverse")
            else:
                shown = self.value_words(values.get(spec.name))
                row.append(shown, style="bold yellow" if spec.name in self.draft else "bold")
            if selected:
                row.append(f"  {spec.flag}", style="dim")
                found = bounds(rules, spec.name) if spec.kind == "int" else None
                if found is not None:
                    row.append("  " + w("lobby.range", low=found[0], high=found[1]), style="dim")
            lines.append(row)
            if spec.name in self.errors:
                lines.append(Text(REFUSAL_INDENT + self.errors[spec.name], style="bold red"))
        lines.append(Text())
        free = sum(
            1 for info in seats if info.get("kind") == SeatKind.HUMAN and not info.get("taken")
        )
        if self.host:
            status = w.count("lobby.waiting_players", free) if free else w("lobby.ready")
        else:
            status = w("lobby.wait_host")
        lines.append(Text(status, style="bold"))
        if self.message:
            lines.append(Text(self.message, style="bold red"))
        lines.append(Text(w("lobby.keys_host" if self.host else "lobby.keys_guest"), style="dim"))
        return lines

    def seat_text(self, info: JSON) -> Text:
        w = self.words
        if info.get("kind") == SeatKind.BOT:
            return Text(w("lobby.seat_bot", bot=info.get("bot") or "bot"))
        if not info.get("taken"):
            return Text(w("lobby.seat_free"), style="dim")
        name = str(info.get("name") or "")
        text = Text(name)  # a player's name is text, never markup
        if info.get("seat") == self.source.seat:
            text.append(" " + w("lobby.seat_you"), style="bold green")
        elif not info.get("connected"):
            text.append(" " + w("lobby.seat_away"), style="dim")
        return text

    def rules_now(self) -> RulesBase:
        """The rules as shown, or the room's while our changes are refused."""
        rules_type = self.source.game.rules_type
        room_rules = self.room().get("rules") or {}
        try:
            return rules_type.from_json(self.values())
        except (OptionError, TypeError):
            try:
                return rules_type.from_json(room_rules)
            except (OptionError, TypeError):
                return rules_type()

    # --- editing ------------------------------------------------------------------------
    def editable(self) -> OptionSpec | None:
        """The option under the cursor, when we are the host (guests only watch)."""
        if not self.host:
            self.say("lobby.not_host")
            return None
        return self.specs[self.cursor]

    def action_section(self) -> None:
        """Tab: the arrows act on the seats, or back on the rules options (the host)."""
        if self.editable() is None:
            return
        self.typed = self.message = ""
        self.section = "seats" if self.section == "options" else "options"
        self.draw()

    def action_cursor(self, delta: int) -> None:
        self.typed = ""
        if self.section == "seats":
            count = len(self.room().get("seats") or []) or 1
            self.seat_cursor = (self.seat_cursor + delta) % count
        else:
            self.cursor = (self.cursor + delta) % len(self.specs)
        self.draw()

    def action_step(self, delta: int) -> None:
        spec = self.editable()
        if spec is None:
            return
        if self.section == "seats":
            self.change_seat(delta)
            return
        self.typed = ""
        value = self.values().get(spec.name)
        if spec.kind == "bool":
            self.change(spec, not bool(value))
            return
        rules = self.rules_now()
        own = bounds(rules, spec.name)
        if own is None:
            return
        if value is None:
            self.change(spec, own[0] if delta > 0 else own[1])
            return
        if spec.optional and value == own[0] and delta < 0:
            self.change(spec, None)  # below the smallest: the rules choose again
            return
        new = self.next_value(rules, spec.name, int(value), delta, own)
        if new is not None:
            self.change(spec, new)

    @staticmethod
    def next_value(
        rules: RulesBase, name: str, value: int, delta: int, own: tuple[int, int]
    ) -> int | None:
        """The value ``delta`` away, kept within the option's range with the other options
        as they are; a value only another option forbids (Skip-Bo's team play for 3
        players, say) is skipped to the next one accepted, or else sent for the table to
        explain its refusal under the option that forbids it."""
        wide = bounds(type(rules)(), name) or own
        low, high = min(own[0], wide[0]), max(own[1], wide[1])
        target = max(low, min(high, value + delta))
        if target == value:
            return None
        step = 1 if delta > 0 else -1
        candidate = target
        while low <= candidate <= high:
            try:
                rules.replace(**{name: candidate})
            except (OptionError, TypeError):
                candidate += step
            else:
                return candidate
        if own[0] <= value <= own[1] and not own[0] <= target <= own[1] and wide == own:
            return None
        return target

    def action_digit(self, digit: int) -> None:
        spec = self.editable()
        if spec is None:
            return
        if self.section == "seats":
            self.say("lobby.seat_keys")
            return
        if spec.kind != "int":
            self.say("lobby.not_a_number")
            return
        self.typed = (self.typed + str(digit))[:9]
        self.message = ""
        self.draw()

    def action_erase(self) -> None:
        self.typed = self.typed[:-1]
        self.draw()

    def action_enter(self) -> None:
        spec = self.editable()
        if spec is None:
            return
        if self.section == "seats":
            self.change_seat(1)
            return
        if self.typed:
            value, self.typed = int(self.typed), ""
            self.change(spec, value)
        elif spec.kind == "bool":
            self.change(spec, not bool(self.values().get(spec.name)))

    def action_auto(self) -> None:
        spec = self.editable()
        if spec is None:
            return
        if self.section == "seats":
            self.say("lobby.seat_keys")
            return
        self.typed = ""
        if spec.optional:
            self.change(spec, None)
        else:
            self.say("lobby.no_auto")

    def action_revert(self) -> None:
        """Forget the changes the server has not accepted (and their refusals)."""
        self.draft.clear()
        self.errors.clear()
        self.typed = self.message = ""
        self.draw()

    def action_cancel(self) -> None:
        self.typed = self.message = ""
        self.draw()

    def change(self, spec: OptionSpec, value: object) -> None:
        """Take one change and send our changes to the server."""
        self.draft[spec.name] = value
        self.errors.pop(spec.name, None)
        self.message = ""
        self.draw()
        self._dirty = True
        if not self._sending:
            self._sending = True
            self.run_worker(self.send(), group="configure", exit_on_error=False)

    async def send(self) -> None:
        """Send our changes, one request at a time; the last changes always go."""
        try:
            while self._dirty:
                self._dirty = False
                options = dict(self.draft)
                try:
                    await self.source.configure(options)
                except RefusedError as error:
                    self.refused(error)
                else:
                    rules = self.room().get("rules") or {}
                    for name, value in options.items():
                        if self.draft.get(name) == value and rules.get(name) == value:
                            del self.draft[name]
                    self.errors.clear()
                self.draw()
        finally:
            self._sending = False

    # --- seats --------------------------------------------------------------------------
    def change_seat(self, delta: int) -> None:
        """Make the seat under the cursor the next (``delta``) of: a player's, or a bot's."""
        seats = self.room().get("seats") or []
        if not seats:
            return
        index = min(self.seat_cursor, len(seats) - 1)
        info = seats[index]
        if info.get("kind") == SeatKind.HUMAN and info.get("taken"):
            self.say("lobby.seat_fixed", name=str(info.get("name") or ""))
            return
        asked = self.pending_seats
        if asked is None or len(asked) != len(seats):
            asked = [
                {"kind": SeatKind.HUMAN.value}
                if seat.get("kind") == SeatKind.HUMAN
                else {"kind": SeatKind.BOT.value, "bot": seat["bot"]}
                for seat in seats
            ]
        # The choices for a seat: a person, or one of the game's bots by name.
        kinds = [SeatKind.HUMAN.value, *bot_names(self.source.game.name)]
        now = (
            SeatKind.HUMAN.value
            if asked[index]["kind"] == SeatKind.HUMAN
            else str(asked[index]["bot"])
        )
        position = kinds.index(now) if now in kinds else 0
        chosen = kinds[(position + delta) % len(kinds)]
        wanted = list(asked)
        wanted[index] = (
            {"kind": SeatKind.HUMAN.value}
            if chosen == SeatKind.HUMAN
            else {"kind": SeatKind.BOT.value, "bot": chosen}
        )
        self.pending_seats = wanted
        self.message = ""
        self.draw()
        self.run_worker(self.send_seats(wanted), group="seats", exit_on_error=False)

    async def send_seats(self, seats: list[JSON]) -> None:
        try:
            await self.source.configure(seats=seats)
        except RefusedError as error:
            self.message = self.refusal_words(error)
        if self.pending_seats is seats:
            self.pending_seats = None
        self.draw()

    def refused(self, error: RefusedError) -> None:
        w = self.words
        if error.code == "bad_options" and error.field:
            self.errors.clear()
            allowed = w.allowed(
                error.allowed_key, error.allowed_params, error.allowed or error.reason
            )
            self.errors[error.field] = w("lobby.option_refused", allowed=allowed)
            if not any(spec.name == error.field for spec in self.specs):
                self.message = w("lobby.refused", reason=error.reason)
        else:
            self.message = self.refusal_words(error)

    def refusal_words(self, error: RefusedError) -> str:
        key = f"lobby.error.{error.code}"
        if self.words.has(key):
            return self.words(key)
        return self.words("lobby.refused", reason=self.words.error(error.code, error.reason))

    # --- starting -------------------------------------------------------------------------
    def action_start(self) -> None:
        if not self.host:
            self.message = self.words("lobby.wait_host")
        elif self.draft or self._sending:
            self.message = self.words("lobby.unsent")
        else:
            self.message = self.words("lobby.starting")
            self.run_worker(self.start(), group="start", exclusive=True, exit_on_error=False)
        self.draw()

    async def start(self) -> None:
        try:
            await self.source.start_game()
        except RefusedError as error:
            self.message = self.refusal_words(error)
            self.draw()

    def action_help(self) -> None:
        w = self.words
        page = Text(w("lobby.help_title") + "\n\n", style="bold")
        page.append(w("lobby.help") + "\n\n")
        for binding in self.BINDINGS:
            if isinstance(binding, Binding) and binding.show:
                keys = binding.key_display or " / ".join(binding.key.split(","))
                page.append(f"{keys:>16}", style="bold")
                page.append(f"  {w(binding.description)}\n")
        page.append("\n" + w("help.close"), style="dim")
        self.app.push_screen(TextScreen(page, "help"))
