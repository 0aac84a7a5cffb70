"""The guided lessons over HTTP (issue 31; docs/lessons.md, docs/protocol.md).

- ``GET /api/lessons/{game}``: the lesson's outline: each step's name, its texts' catalog
  keys, the sheet each language quotes, how many moves the learner makes in it.
- ``POST /api/lessons/{game}/steps/{n}`` with ``{"moves": [action codes]}``: step ``n``
  (from 0) after those moves, as the learner's seat sees it. The server keeps nothing: it
  rebuilds the step from its snapshot and replays the moves each time (a browser that
  reloads sends the moves it kept and is back where it was). A legal move the step does
  not teach is answered with ``refused`` (its action code and the step's explanation key)
  and the position before it; an illegal one with ``illegal_move`` and the engine's own
  refusal; a bad game, step or move list with an error naming the field.

Only the learner's view of a position ever leaves the server: never a snapshot (the draw
pile's order, the other hands). Each client address is limited like the other public
look-ups.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Annotated

from pydantic import Field
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..core import JSON
from ..lessons import IllegalStepMoveError, LessonError, Step, lesson_of, run_step, text_keys
from .edges.bodies import StrictModel, read_body
from .edges.http import ascii_number, client_address
from .errors import ApiError, refusal_fields, too_many
from .ops.limits import AddressBuckets

#: Per address: a burst of this many requests, then this many a second (one per move).
BURST = 30
PER_SECOND = 4.0
#: The longest body: a step takes a handful of moves.
MAX_BODY = 1024
MAX_MOVES = 16


class StepRequest(StrictModel):
    """Body of ``POST /api/lessons/{game}/steps/{n}``: the learner's moves in the step."""

    moves: Annotated[list[int], Field(max_length=MAX_MOVES)] = Field(default_factory=list)


def step_outline(game: str, step: Step) -> JSON:
    return {
        "name": step.name,
        "texts": text_keys(game, step),
        "sources": dict(step.sources),
        "learner_moves": step.learner_moves(),
        "free_choice": step.free_choice,
    }


class LessonsApi:
    """The lessons of one table: stateless, limited per client address."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.buckets = AddressBuckets(PER_SECOND, BURST, clock)

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/api/lessons/{game}", self.outline),
            Route("/api/lessons/{game}/steps/{number}", self.step, methods=["POST"]),
        ]

    def _limit(self, request: Request) -> None:
        if not self.buckets.allow(client_address(request)):
            raise too_many("too_many_requests", "too many lesson requests", 1 / PER_SECOND)

    async def outline(self, request: Request) -> Response:
        self._limit(request)
        game = request.path_params["game"]
        try:
            lesson = lesson_of(game)
        except LessonError as error:
            raise _lesson_refused(error) from None
        steps = [step_outline(game, step) for step in lesson.steps]
        return JSONResponse({"game": game, "steps": steps})

    async def step(self, request: Request) -> Response:
        self._limit(request)
        try:
            lesson = lesson_of(request.path_params["game"])
            number = ascii_number(request.path_params["number"], 999)
            if number is None:
                raise LessonError("step", f"step is a number from 0 to {len(lesson.steps) - 1}")
            body = await read_body(request, StepRequest, MAX_BODY)
            run = run_step(lesson, number, body.moves)
        except LessonError as error:
            raise _lesson_refused(error) from None
        except IllegalStepMoveError as error:
            fields = refusal_fields(error, error.move) | {"made": error.made}
            raise ApiError("illegal_move", error.reason, fields) from None
        step = lesson.steps[number]
        keys = text_keys(lesson.game, step)
        refused = (
            None if run.refused is None else {"action": run.refused, "reason_key": keys["wrong"]}
        )
        return JSONResponse(
            {
                "game": lesson.game,
                "step": number,
                "steps": len(lesson.steps),
                "seat": step.learner,
                "view": run.state.view(step.learner),
                "made": run.made,
                "done": run.done,
                "refused": refused,
                "outcomes": [outcome.to_json() for outcome in run.outcomes],
            }
        )


def _lesson_refused(error: LessonError) -> ApiError:
    """A lesson's refusal: a game without a lesson is not there (404, where a room asked
    for an unknown game is a bad request), a bad step or move list a bad request."""
    if error.field == "game":
        return ApiError("bad_game", error.reason, {"field": "game"}, status=404)
    return ApiError("bad_request", error.reason, {"field": error.field})
