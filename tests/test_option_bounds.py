"""Every rules field's described range is exactly what is accepted: its boundary values
pass and one past them is refused, naming the field and the range, in the engine, over
the server protocol and on the command line (``cardtable sim --option NAME=VALUE``, and
``cardtable play`` with each option's own flag).

The values come from the generated description (:mod:`cardtable.rules_options`, which
reads each field's ``option()`` metadata), so a field added to a rules dataclass is
covered here without a line of this file changing.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from typing import Any

import pytest

from cardtable.cli import main
from cardtable.core import ALLOWED, OptionError, OptionField, RulesBase, option_fields
from cardtable.games import game_names, get_game
from cardtable.rules_options import PLAYERS, bounds, option_specs, player_counts

from .server.helpers import client


def _contexts(game: str) -> Iterator[RulesBase]:
    """Valid rules at every player count with every mix of the yes/no options, the
    whole numbers at their defaults or one of them at its lowest: where each field's
    limits, and what it needs of the others, may be found."""
    rules_type = get_game(game).rules_type
    specs = option_specs(game)
    flags = [spec.name for spec in specs if spec.kind == "bool"]
    numbers = [spec.name for spec in specs if spec.kind == "int" and spec.name != PLAYERS]
    for players, values in itertools.product(
        player_counts(game), itertools.product((False, True), repeat=len(flags))
    ):
        try:
            rules = rules_type(**{PLAYERS: players, **dict(zip(flags, values, strict=True))})
        except OptionError:
            continue
        yield rules
        for name in numbers:
            found = bounds(rules, name)
            assert found is not None
            try:
                yield rules.replace(**{name: found[0]})
            except OptionError:
                continue


def _cases(game: str) -> list[tuple[dict[str, Any], str, object, bool, str]]:
    """(other options, field, value, accepted?, the allowed text a refusal must give)
    for every field: whole numbers at both ends and one past them, for every context
    whose range differs; yes/no options on and off where allowed, on where a
    requirement fails, and a value that is no yes/no."""
    cases = []
    seen: set[tuple[str, tuple[int, int] | None, bool]] = set()
    for rules in _contexts(game):
        base = rules.to_json()
        for field in option_fields(type(rules)):
            if field.name == PLAYERS:
                others = {k: v for k, v in base.items() if k != PLAYERS}
            else:
                others = {k: v for k, v in base.items() if k != field.name}
            cases += _unmet_requirements(rules, field, others, seen)
            if field.kind == "int":
                found = bounds(rules, field.name)
                assert found is not None, field.name
                if (field.name, found, field.optional) in seen:
                    continue
                seen.add((field.name, found, field.optional))
                low, high = found
                key = "allowed.optional_int" if field.optional else "allowed.int"
                words = ALLOWED[key].format(low=low, high=high)
                cases += [
                    (others, field.name, low, True, words),
                    (others, field.name, high, True, words),
                    (others, field.name, low - 1, False, words),
                    (others, field.name, high + 1, False, words),
                ]
                if field.optional:
                    cases.append((others, field.name, None, True, words))
                continue
            holds = all(need.holds(rules) for need in field.option.requires)
            if holds and (field.name, None, True) not in seen:
                seen.add((field.name, None, True))
                cases += [
                    (others, field.name, True, True, ""),
                    (others, field.name, False, True, ""),
                    (others, field.name, 2, False, ALLOWED["allowed.bool"]),
                ]
    return cases


def _unmet_requirements(
    rules: RulesBase, field: OptionField, others: dict[str, Any], seen: set[Any]
) -> list[tuple[dict[str, Any], str, object, bool, str]]:
    """A value of ``field`` that one of its requirements refuses with the others as in
    ``rules`` (on for a yes/no option, either end of a number's range), once per
    requirement."""
    found = []
    values: list[object] = [True] if field.kind == "bool" else list(bounds(rules, field.name) or ())
    for need in field.option.requires:
        if (field.name, need.allowed_key) in seen:
            continue
        for value in values:
            if not _refused_by(rules, field.name, value, need.allowed_key):
                continue
            seen.add((field.name, need.allowed_key))
            found.append((others, field.name, value, False, need.english))
            break
    return found


def _refused_by(rules: RulesBase, name: str, value: object, key: str) -> bool:
    try:
        type(rules).from_json({**rules.to_json(), name: value})
    except OptionError as error:
        return error.field == name and error.key == key
    return False


CASES = [(game, *case) for game in game_names() for case in _cases(game)]


def test_every_field_of_every_game_is_covered_both_ways():
    covered = {(game, name, accepted) for game, _, name, _, accepted, _ in CASES}
    refusals = {(game, name, words) for game, _, name, _, accepted, words in CASES}
    for game in game_names():
        rules_type = get_game(game).rules_type
        for field in option_fields(rules_type):
            assert (game, field.name, True) in covered, (game, field.name)
            assert (game, field.name, False) in covered, (game, field.name)
            for need in field.option.requires:  # each requirement is seen refusing
                assert (game, field.name, need.english) in refusals, need
    # The limits that follow the player count are each tried at every count.
    assert {value for g, _, n, value, ok, _ in CASES if (g, n) == ("skipbo", "stock_size")} >= {
        5, 30, 27, 22, 4, 31, 28, 23, None,
    }  # fmt: skip


@pytest.mark.parametrize(("game", "others", "name", "value", "accepted", "words"), CASES)
def test_the_engine_accepts_exactly_the_described_values(
    game, others, name, value, accepted, words
):
    rules_type = get_game(game).rules_type
    options = {**others, name: value}
    if accepted:
        assert getattr(rules_type.from_json(options), name) == value
        return
    with pytest.raises(OptionError) as refused:
        rules_type.from_json(options)
    assert refused.value.field == name
    assert refused.value.allowed == words
    assert f"option {name!r}: {words}" in str(refused.value)


def test_over_the_server_protocol(tmp_path):
    with client(tmp_path, rooms_per_client=10_000) as http:
        for game, others, name, value, accepted, words in CASES:
            body = {"game": game, "options": {**others, name: value}}
            response = http.post("/api/rooms", json=body)
            where = (game, name, value, others)
            if accepted:
                assert response.status_code == 201, (where, response.text)
                assert response.json()["room"]["rules"][name] == value, where
                continue
            assert response.status_code == 400, where
            data = response.json()
            assert data["error"] == "bad_options", where
            assert (data["field"], data["allowed"]) == (name, words), where
            assert f"'{name}'" in data["reason"], where


def test_on_the_command_line(capsys):
    for game, others, name, value, accepted, words in CASES:
        pairs = [f"{key}={json.dumps(v)}" for key, v in {**others, name: value}.items()]
        argv = [
            "sim",
            game,
            "--games",
            "1",
            "--bots",
            "greedy",
            *itertools.chain(*(("--option", p) for p in pairs)),
        ]
        code = main(argv)
        _, err = capsys.readouterr()
        where = (game, name, value, others)
        if accepted:
            assert code == 0, (where, err)
        else:
            assert code == 2, where
            assert f"option {name!r}: {words}" in err, (where, err)


def _play_flags(game: str, options: dict[str, Any]) -> list[str]:
    """``cardtable play`` flags for ``options``: ``--teams`` / ``--no-teams``, ``--stock-size
    auto``, ``--end-score 60``; a value no flag can spell (2 for a yes/no option) as
    ``--option NAME=VALUE``."""
    argv: list[str] = []
    for name, value in options.items():
        spec = next(spec for spec in option_specs(game) if spec.name == name)
        if spec.kind == "bool" and isinstance(value, bool):
            argv.append(spec.flag if value else "--no-" + spec.flag[2:])
        elif spec.kind == "bool":
            argv += ["--option", f"{name}={value}"]
        else:
            argv += [spec.flag, "auto" if value is None else str(value)]
    return argv


def test_on_the_command_line_with_the_play_command_s_flags(capsys, monkeypatch):
    started: list[Any] = []

    def run(app: object) -> None:  # the app is built, never run
        started.append(app)

    monkeypatch.setattr("cardtable.tui.app.TableApp.run", run)
    for game, others, name, value, accepted, words in CASES:
        argv = ["play", game, *_play_flags(game, {**others, name: value}), "--seed", "1"]
        code = main(argv)
        _, err = capsys.readouterr()
        where = (game, name, value, others)
        if accepted:
            assert code == 0 and len(started) == 1, (where, err)
            assert getattr(started.pop().source.state.rules, name) == value, where
        else:
            assert code == 2 and started == [], where
            assert f"option {name!r}: {words}" in err, (where, err)
