"""The table both games share: status line, board, key bar, message line and log.

The app holds no game state: it draws ``source.view()`` after every update, and
keeps only what the player is pointing at (a cursor, a selected card; those live in
the game's own app, :mod:`.skyjo_app` and :mod:`.skipbo_app`). Every key is declared
in ``BINDINGS`` with an ``action_*`` method; descriptions are translation keys, shown
translated in the key bar and the help screen.

Once the game is over the final scores offer the post-game review (``v``): a local
game works it out in a worker thread with the server's budget, an online room asks
the server. At an online room, the host may offer a rematch (``m``): the room goes
back to its lobby (:class:`~cardtable.tui.lobby.LobbyScreen`, also shown before the
first game), where the host may change the options and start, and every seat follows
the room into its next game.

At a table with the practice coach (an online room with the table option ``coach``),
the coach's line about a clearly worse move of ours shows under the board; while its
take-back is on offer, ``u`` takes the move back and ``k`` keeps it (:mod:`.coach`).
"""

from __future__ import annotations

import dataclasses
from abc import abstractmethod
from typing import Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import RichLog, Static
from textual.worker import Worker, WorkerState, get_current_worker

from .coach import CoachLine, coach_text
from .lobby import LobbyScreen
from .screens import FinalScreen, ReviewScreen, TextScreen
from .source import GameSource, MoveRefusedError, RefusedError, Update
from .words import Words

JSON = dict[str, Any]


def seat_names(lang: str, source: GameSource) -> list[str]:
    """'You' for our seat; 'Player N' (and the bot's name) for the others."""
    words = Words(lang, source.game.name, [])
    names = []
    for seat, label in enumerate(source.seat_labels()):
        if seat == source.seat:
            names.append(words("seat.you"))
        elif label:
            names.append(words("seat.bot", number=seat + 1, bot=label))
        else:
            names.append(words("seat.player", number=seat + 1))
    return names


class ReviewCancelledError(Exception):
    """The review thread stops: its worker was cancelled (a new game, or the app closing)."""


@dataclasses.dataclass
class ReviewJob:
    """One request for the post-game review and what came of it."""

    done: int = 0
    total: int = 0
    result: dict[str, Any] | None = None
    error: str | None = None
    worker: Worker[Any] | None = None

    @property
    def running(self) -> bool:
        return self.result is None and self.error is None


class TableApp(App[None]):
    """What both games share: status, board, key bar, message line and log."""

    TITLE = "cardtable"
    CSS = """
    Screen { layout: vertical; }
    #status { height: 1; background: $boost; padding: 0 1; }
    #board { height: auto; padding: 0 1; }
    #keys { height: 1; color: $text-muted; padding: 0 1; }
    #coach { height: auto; padding: 0 1; display: none; }
    #message { height: 1; padding: 0 1; color: $warning; }
    #log { height: 1fr; min-height: 2; padding: 0 1; border-top: solid $primary-darken-2; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark,f1", "help", "keys.help"),
        Binding("h", "hint", "keys.hint"),
        Binding("v", "review", "keys.review"),
        Binding("m", "rematch", "keys.rematch"),
        Binding("u", "take_back", "keys.take_back"),
        Binding("k", "keep_move", "keys.keep_move"),
        Binding("escape", "cancel", "keys.cancel", show=False),
        Binding("ctrl+q", "quit", "keys.quit"),
    ]

    def __init__(self, source: GameSource, lang: str, *, summaries: bool = True) -> None:
        super().__init__()
        self.source = source
        self.lang = lang
        self.summaries = summaries
        self.words = Words(lang, source.game.name, seat_names(lang, source))
        self.message = ""
        self.log_lines: list[str] = []
        self.finished = False
        self.review_job: ReviewJob | None = None
        #: The coach's last line about our move (a table with the coach only).
        self.coach: CoachLine | None = None

    # --- layout -------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="status")
        yield Static(id="board")
        yield Static(id="keys")
        yield Static(id="coach")
        yield Static(id="message")
        log = RichLog(id="log", wrap=True, markup=False, max_lines=500)
        log.can_focus = False
        yield log

    def on_mount(self) -> None:
        self.title = self.words(f"game.{self.source.game.name}")
        self.query_one("#keys", Static).update(self.key_bar())
        account = self.source.signed_in()
        if account is not None:  # the player's rating, until the first move's message
            self.say(self.words.standing(*account))
        self.run_worker(
            self.source.run(self.on_update), exclusive=True, name="game", exit_on_error=False
        )

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A game source that fails (an online room that closed) is explained, not a crash."""
        if event.worker.name == "game" and event.state == WorkerState.ERROR:
            error = event.worker.error
            code = getattr(error, "code", None)  # a RemoteError's, when it has one
            reason = self.words.error(code if isinstance(code, str) else None, str(error))
            self.say(self.words("msg.lost", reason=reason))
        elif event.worker.name == "review":
            self.review_finished(event.worker, event.state)

    # --- updates --------------------------------------------------------------
    def on_update(self, update: Update) -> None:
        """Called by the source after every move (and once at the start)."""
        if update.talk is not None:
            line = self.words.talk(update.talk)
            if line is not None:
                self.log_lines.append(line)
                # Written as plain text (the log has no markup): a chat line's brackets
                # are shown, never read as Rich markup.
                self.query_one("#log", RichLog).write(line)
                if update.talk.get("type") == "rated":
                    self.say(line)  # was the game rated: beside the final scores
            return
        if update.coach is not None:
            self.on_coach(update.coach)
            return
        if update.lobby or update.room:
            if update.lobby:
                self.say(self.words("rematch.lobby"))
            self.show_lobby()
            return
        self.close_lobby()
        if update.new_game:
            self.new_game()
        outcome = update.outcome
        if outcome is not None:
            if self.coach is not None:
                # Our next move ends the line about the last one; any other move ends
                # its offer (the game went on).
                if outcome.get("seat") == self.source.seat:
                    self.coach = None
                else:
                    self.coach.open = False
            self.after_move(update.view)
            log = self.query_one("#log", RichLog)
            for event in outcome["events"]:
                line = self.words.event(event)
                if line is not None:
                    self.log_lines.append(line)
                    log.write(line)
            types = {event["type"]: event for event in outcome["events"]}
            if "GameEnded" in types:
                self.finished = True
                self.show_page(self.final_page(update.view), "final")
            elif "RoundEnded" in types and self.summaries:
                self.show_page(self.round_page(update.view, types["RoundEnded"]), "round")
        self.redraw()

    def lobby_screen(self) -> LobbyScreen | None:
        return next((s for s in self.screen_stack if isinstance(s, LobbyScreen)), None)

    def show_lobby(self) -> None:
        """Show the room's lobby (drawn again when it is already shown)."""
        if self.source.lobby() is None:
            return
        screen = self.lobby_screen()
        if screen is not None:
            screen.draw()
            return
        while len(self.screen_stack) > 1 and isinstance(self.screen, TextScreen):
            self.pop_screen()  # the final scores: the room has moved on
        self.push_screen(LobbyScreen(self.source, self.words))

    def close_lobby(self) -> None:
        """The game started: back to the table (with whatever the lobby had on top)."""
        if self.lobby_screen() is None:
            return
        while self.lobby_screen() is not None:
            self.pop_screen()

    def after_move(self, view: JSON) -> None:
        """Forget a selection that no longer makes sense; games override it."""

    def new_game(self) -> None:
        """The room dealt its next game (a rematch): forget the last one, keep the seat."""
        job = self.review_job
        if job is not None and job.worker is not None:
            job.worker.cancel()
        self.review_job = None
        self.coach = None
        self.finished = False
        self.log_lines.clear()
        self.query_one("#log", RichLog).clear()
        while len(self.screen_stack) > 1 and isinstance(self.screen, TextScreen):
            self.pop_screen()
        self.words = Words(self.lang, self.source.game.name, seat_names(self.lang, self.source))
        self.after_move(self.source.view())
        self.say(self.words("rematch.started"))

    def redraw(self) -> None:
        view = self.source.view()
        self.query_one("#status", Static).update(self.status_text(view))
        self.query_one("#board", Static).update(self.render_board(view))
        self.draw_coach()
        self.query_one("#message", Static).update(Text(self.message))

    def say(self, message: str) -> None:
        self.message = message
        self.query_one("#message", Static).update(Text(message))

    def show_page(self, body: Text, kind: str) -> None:
        self.source.hold(True)

        def closed(_: None) -> None:
            self.source.hold(False)

        screen = FinalScreen(body, kind) if kind == "final" else TextScreen(body, kind)
        self.push_screen(screen, closed)

    # --- text -------------------------------------------------------------------
    def key_bar(self) -> Text:
        """The one-line reminder of the main keys (the help screen lists them all)."""
        return Text(self.words(f"bar.{self.source.game.name}"))

    @classmethod
    def all_bindings(cls) -> list[Binding]:
        """The app's bindings, base class first."""
        found: list[Binding] = []
        for klass in reversed(cls.__mro__):
            for binding in klass.__dict__.get("BINDINGS", []):
                if isinstance(binding, Binding) and klass is not App:
                    found.append(binding)
        return found

    def help_page(self) -> Text:
        page = Text(self.words("help.title", game=self.title) + "\n\n", style="bold")
        page.append(self.words(f"help.{self.source.game.name}") + "\n\n")
        for binding in self.all_bindings():
            if binding.action == "rematch" and self.source.rematch_role() is None:
                continue  # a rematch is for online rooms
            if binding.action in ("take_back", "keep_move") and not self.source.coached():
                continue  # for a table with the coach
            keys = binding.key_display or " / ".join(binding.key.split(","))
            page.append(f"{keys:>16}", style="bold")
            page.append(f"  {self.words(binding.description)}\n")
        page.append("\n" + self.words("help.close"), style="dim")
        return page

    def scores_table(self, view: JSON, totals: list[int]) -> Text:
        text = Text()
        for seat, total in sorted(enumerate(totals), key=lambda item: self.sort_key(item[1])):
            text.append(f"  {self.words.who(seat):<28} {total:>5}\n")
        return text

    def sort_key(self, total: int) -> int:
        return total

    @abstractmethod
    def status_text(self, view: JSON) -> Text: ...

    @abstractmethod
    def render_board(self, view: JSON) -> Text: ...

    def round_page(self, view: JSON, event: JSON) -> Text:
        """The round summary: the game's own heading, then points and totals per seat."""
        w = self.words
        page = Text(w("summary.round", round=event["round"]) + "\n\n", style="bold")
        page.append_text(self.round_heading(event))
        page.append("\n\n")
        page.append(f"  {'':<28} {w('summary.points'):>7} {w('summary.total'):>7}\n", style="dim")
        totals = event[self.ROUND_TOTALS]
        for seat, points in enumerate(event["points"]):
            page.append(f"  {w.who(seat):<28} {points:>7} {totals[seat]:>7}\n")
        page.append("\n" + w("summary.continue"), style="dim")
        return page

    ROUND_TOTALS: ClassVar[str]
    """The key of the round-end event that holds each seat's running total."""
    CURRENT: ClassVar[str]
    """The key of the view that holds the seat to move (None once the game is over)."""

    @abstractmethod
    def round_heading(self, event: JSON) -> Text: ...

    @abstractmethod
    def final_page(self, view: JSON) -> Text: ...

    def final_keys(self) -> Text:
        """The last lines of the final scores: review, rematch, back to the table, quit."""
        w = self.words
        parts = [w("final.review")]
        role = self.source.rematch_role()
        if role == "host":
            parts.append(w("final.rematch"))
        elif role == "guest":
            parts.append(w("final.rematch_wait"))
        text = Text("\n" + " · ".join(parts) + "\n", style="bold")
        text.append(w("summary.quit"), style="dim")
        return text

    # --- after the game: review and rematch ---------------------------------------------
    def game_over(self) -> bool:
        return self.source.view().get("result") is not None

    def action_review(self) -> None:
        """Show the review of our moves, asking for it first (once the game is over)."""
        if not self.game_over():
            self.say(self.words("msg.after_game"))
            return
        job = self.review_job
        if job is None or job.error is not None:
            job = self.review_job = ReviewJob()
            self.say(self.words("review.thinking"))
            if self.source.reviews_here:
                job.worker = self.run_worker(
                    self.review_here_thread,
                    name="review",
                    group="review",
                    thread=True,
                    exit_on_error=False,
                )
            else:
                job.worker = self.run_worker(
                    self.source.review(), name="review", group="review", exit_on_error=False
                )
        if not isinstance(self.screen, ReviewScreen):
            self.push_screen(ReviewScreen(self.review_page, self.words("review.back")))

    def review_here_thread(self) -> JSON:
        """The local review (runs in a worker thread; the UI goes on meanwhile)."""
        worker = get_current_worker()
        job = self.review_job

        def progress(done: int, total: int) -> None:
            if worker.is_cancelled:
                raise ReviewCancelledError
            if job is not None:
                job.done, job.total = done, total

        return self.source.review_here(progress)

    def review_finished(self, worker: Worker[Any], state: WorkerState) -> None:
        job = self.review_job
        if job is None or job.worker is not worker:
            return  # the review of a game left behind
        if state == WorkerState.SUCCESS and isinstance(worker.result, dict):
            job.result = worker.result
            self.say("")
        elif state == WorkerState.ERROR:
            job.error = self.refusal_text("review", worker.error)
            self.say(job.error)
        elif state == WorkerState.CANCELLED:
            job.error = self.words("review.error.no_review")
        else:
            return
        if isinstance(self.screen, ReviewScreen):
            self.screen.redraw()

    def refusal_text(self, what: str, error: BaseException | None) -> str:
        """Words for a refused review or rematch: known codes translated, others quoted."""
        w = self.words
        if isinstance(error, RefusedError):
            key = f"{what}.error.{error.code}"
            if w.has(key):
                return w(key)
            return w(f"{what}.refused", reason=w.error(error.code, error.reason))
        return w(f"{what}.refused", reason=str(error))

    def review_page(self) -> Text:
        """The review as it stands: reviewing (with progress), refused, or the moves."""
        w = self.words
        job = self.review_job
        page = Text(w("review.title") + "\n\n", style="bold")
        if job is None or job.running:
            if job is not None and job.total:
                page.append(w("review.progress", done=job.done, total=job.total))
            else:
                page.append(w("review.thinking"))
        elif job.error is not None:
            page.append(job.error, style="bold red")
        elif job.result is not None:
            page.append_text(self.review_text(job.result))
        return page

    def review_text(self, review: JSON) -> Text:
        """The costliest moves of a review (the server's ``review`` message form)."""
        w = self.words
        win_chance = review.get("measure") == "win_chance"
        by_number = {move["number"]: move for move in review.get("moves", [])}
        worst = [by_number[n] for n in review.get("worst", []) if n in by_number]
        text = Text(
            w(
                "review.summary",
                reviewed=review.get("reviewed", 0),
                decisions=w.count("review.decisions", review.get("decisions", 0)),
                best=w.count("review.best", review.get("best_moves", 0)),
            )
            + "\n\n"
        )
        text.append(w("review.worst" if worst else "review.none") + "\n")
        for move in worst:
            played = w.move(move["played_move"])
            text.append("\n" + w("review.move", number=move["number"], move=played) + "\n")
            if win_chance:
                cost = w("review.cost_skipbo", cost=w.number(100 * move["cost"]))
            else:
                cost = w.amount("review.cost_skyjo", move["cost"])
            text.append("  " + cost + "\n", style="bold yellow")
            text.append("  " + w("review.better", move=w.move(move["best_move"])) + "\n")
            reason = self.reason_text(move.get("reason_parts"), move.get("reason", ""))
            if reason:
                text.append("  " + w("review.reason", reason=reason) + "\n", style="dim")
        text.append("\n" + w("review.note"), style="dim")
        return text

    def reason_text(self, parts: Any, english: str) -> str:
        """The advisor's reason in our language from its parts; a server that sends only
        the English text (an older one) is quoted in English, and only to English players."""
        if parts:
            return self.words.reason(parts)
        return english if self.lang == "en" else ""

    def action_rematch(self) -> None:
        """The host starts a rematch; a guest is told the host can (and will be followed)."""
        role = self.source.rematch_role()
        if role is None:
            self.say(self.words("rematch.local"))
        elif not self.game_over():
            self.say(self.words("msg.after_game"))
        elif role != "host":
            self.say(self.words("rematch.wait_host"))
        else:
            self.say(self.words("rematch.asked"))
            self.run_worker(self.ask_rematch(), name="rematch", group="rematch", exclusive=True)

    async def ask_rematch(self) -> None:
        try:
            await self.source.rematch()
        except RefusedError as error:
            self.say(self.refusal_text("rematch", error))

    # --- the practice coach ------------------------------------------------------------
    def on_coach(self, message: JSON) -> None:
        """The coach's line about our last move, or the notice that a move was taken
        back (the view before it follows, as a ``sync``)."""
        if message.get("type") == "coach":
            self.coach = CoachLine.of(message)
        elif message.get("type") == "took_back":
            self.coach = None
            if message.get("seat") == self.source.seat:
                line = self.words("coach.took_back")
                self.log_lines.append(line)
                self.query_one("#log", RichLog).write(line)
                self.say(line)
        self.draw_coach()

    def draw_coach(self) -> None:
        widget = self.query_one("#coach", Static)
        line = self.coach
        widget.display = line is not None
        if line is not None:
            message = line.message
            reason = self.reason_text(message.get("reason_parts"), message.get("reason", ""))
            widget.update(coach_text(self.words, line, reason))

    def coach_offer(self) -> CoachLine | None:
        """The line whose take-back is on offer; else None, with why on the message line."""
        line = self.coach
        if line is not None and line.open:
            return line
        why = None if line is None else line.why_not()
        if not self.source.coached():
            reason = self.words.error("no_coach", "")
        elif why is not None and self.words.has(f"coach.no_take_back.{why}"):
            reason = self.words(f"coach.no_take_back.{why}")
        else:
            reason = self.words.error("no_take_back", "")
        self.say(self.words("msg.refused", reason=reason))
        return None

    def action_take_back(self) -> None:
        line = self.coach_offer()
        if line is not None:
            self.run_worker(self.ask_take_back(line), name="coach", group="coach", exclusive=True)

    async def ask_take_back(self, line: CoachLine) -> None:
        try:
            await self.source.take_back(line.version)
        except RefusedError as error:
            line.open = False
            self.say(self.words("msg.refused", reason=self.words.error(error.code, error.reason)))
            self.draw_coach()

    async def action_keep_move(self) -> None:
        line = self.coach_offer()
        if line is None:
            return
        try:
            await self.source.keep_move(line.version)
        except RefusedError as error:
            self.say(self.words("msg.refused", reason=self.words.error(error.code, error.reason)))
            return
        line.open = False
        self.say(self.words("coach.kept"))
        self.draw_coach()

    # --- moves --------------------------------------------------------------------
    def my_turn(self, view: JSON) -> bool:
        return bool(view.get("legal_actions"))

    def turn_view(self) -> JSON | None:
        """The view when we are to move; else None, with why on the message line."""
        view = self.source.view()
        if view["result"] is not None:
            self.say(self.words("msg.over"))
            return None
        if view[self.CURRENT] != view["seat"]:
            self.say(self.words("msg.not_your_turn"))
            return None
        return view

    async def play(self, move: Any) -> bool:
        """Submit ``move``; explain a refusal on the message line. True when it was played."""
        try:
            await self.source.submit(move)
        except MoveRefusedError as refused:
            # In our language when the engine gave its catalog key (one we know).
            refusal = refused.refusal
            if refusal is not None and self.words.has(refusal.key):
                reason = self.words.refusal(refusal, refused.move)
            else:  # not the engine's refusal: the server's code or our own, else English
                reason = self.words.error(refused.code, refused.reason)
            self.say(self.words("msg.refused", reason=reason))
            self.redraw()
            return False
        self.message = ""
        self.redraw()
        return True

    # --- shared actions -----------------------------------------------------------
    def action_help(self) -> None:
        self.push_screen(TextScreen(self.help_page(), "help"))

    async def action_hint(self) -> None:
        if self.source.view()[self.CURRENT] != self.source.seat:
            self.say(self.words("msg.no_hint"))
            return
        self.say(self.words("msg.thinking"))
        hint = await self.source.hint()
        if hint is None:
            self.say(self.words("msg.no_hint"))
            return
        by = (
            self.words("hint.advisor")
            if hint.by == "advisor"
            else self.words("hint.bot", bot=hint.by)
        )
        text = self.words("msg.hint", by=by, move=self.words.move(hint.move))
        if hint.value is not None:
            key = "hint.win_chance" if self.source.game.name == "skipbo" else "hint.expected_points"
            value = (
                round(100 * hint.value)
                if self.source.game.name == "skipbo"
                else self.words.number(hint.value)
            )
            text += " " + self.words(key, value=value)
        reason = self.reason_text(hint.reason_parts, hint.reason)
        if reason:
            text = self.words("msg.hint_reason", hint=text, reason=reason)
        self.say(text)

    def action_cancel(self) -> None:
        self.say("")
