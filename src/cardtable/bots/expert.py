"""``expert`` bots: determinized Monte-Carlo search over the hidden cards.

Both experts play ``hard``'s move unless a search shows a clearly better one (the
Skyjo expert's ``hard`` values moves with weights of its own,
:data:`~cardtable.bots.skyjo_expert.EXPERT_WEIGHTS`, tuned in games against ``hard``).
``hard`` proposes the moves worth comparing (Skip-Bo: the moves it values within a
small margin of its own best, see :class:`~cardtable.bots.skipbo_expert.SkipBoExpert`;
Skyjo: its best few options), and
:func:`~cardtable.bots.montecarlo.compare` plays ``hard``'s move and each
alternative on the same re-deals of the hidden cards with the same random stream,
so that the difference between two moves comes from the moves alone. An
alternative is taken only when its mean gain is more than ``z`` standard errors
above zero (:func:`~cardtable.bots.montecarlo.improve`). Without that guard, the
best-looking of several close moves after a few dozen re-deals is mostly noise,
and an earlier version that always took it lost to ``hard``.

Rollouts and scores:

- Skip-Bo: ``horizon`` turns (default 4: the rest of this turn, the next
  player's, the next own turn and the answer to it in a 2-player game) of
  :class:`~cardtable.bots.skipbo_hard.PlanFollowingBot` in every seat, each seat
  drawing from its own part of the re-dealt draw pile (:mod:`.seat_draws`). A
  2-player rollout is scored by the seat's chance to win the round: 1 or 0 when it
  ends the round, else a logistic of the stock sizes and the stock cards each side
  can expect in the next 8 turns (:mod:`.skipbo_value`, fitted on ``hard`` games).
  With more seats, by the stock race: stock cards the seat's side played minus the
  best opposing side's, a finished round counting as 30 either way. Rollouts to the end of the
  round would cost tens of milliseconds each. The rollouts' ``hard`` players share
  a memo of their decisions for the search (``HardBot(memo)``).
- Skyjo: to the end of the round with ``greedy`` by default (a whole 4-player
  round played by ``hard`` costs 20 to 30 times as much CPU, see docs/bots.md;
  ``rollout="hard"`` selects it anyway), scored by the seat's round points against
  the others' average (``objective="game"``: its chance to win the game).

The advisor values every move with :func:`~cardtable.bots.montecarlo.evaluate`
and the functions ``skipbo_outcome``/``skipbo_round_over`` (a logistic win
chance from the stocks left after three turns per seat) and
``skyjo_outcome``/``skyjo_round_over`` defined in :mod:`.skipbo_expert` and
:mod:`.skyjo_expert`.

Budget: a fixed number of iterations (deterministic for a given seed; the
defaults keep a decision under a second of CPU time, see docs/bots.md) or
milliseconds, whichever ends first. ``expert@N`` names the bot with N iterations.
"""

from __future__ import annotations

from .base import Bot
from .montecarlo import Budget
from .skipbo_expert import SkipBoExpert
from .skyjo_expert import SkyjoExpert, skyjo_candidates

__all__ = ["SkipBoExpert", "SkyjoExpert", "make_expert", "skyjo_candidates"]


def make_expert(game: str, iterations: int) -> Bot:
    """The game's ``expert`` searching ``iterations`` re-deals per decision (``expert@N``)."""
    budget = Budget(iterations=iterations, milliseconds=None)
    bot: SkipBoExpert | SkyjoExpert
    if game == "skipbo":
        bot = SkipBoExpert(budget)
    elif game == "skyjo":
        bot = SkyjoExpert(budget)
    else:
        raise KeyError(f"no expert bot for {game!r}")
    # Tournaments tell bots apart by name.
    bot.name = f"expert@{iterations}"
    return bot
