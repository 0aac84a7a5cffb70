"""``cardtable review``: a post-game review read from the game records cardtable writes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cardtable.bots import make_bot
from cardtable.bots.review import amount_text, review_game
from cardtable.cli import main
from cardtable.core import Rng
from cardtable.games import get_game
from cardtable.sim.gamefile import GameFileError, load_game_file, parse_game_json
from cardtable.sim.transcript import snapshot_hash

GOLDEN = Path(__file__).parent / "golden"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _game(name: str, options: dict[str, Any], seed: int, bots: list[str]) -> Any:
    game = get_game(name)
    state = game.new_state(game.rules_from_json(options), seed)
    players = [make_bot(name, bots[s % len(bots)]) for s in range(state.num_players)]
    rng = Rng(seed)
    while (seat := state.current_player) is not None:
        state.apply_action(players[seat].choose(state, rng))
    return state


def _replay_json(state: Any, finished: bool = True) -> dict[str, Any]:
    """What ``GET /api/rooms/{code}/games/{n}`` answers (see server/rooms/replays.py)."""
    return {
        "room": "ABCDE",
        "game_no": 1,
        "game": state.game.name,
        "rules": state.rules.to_json(),
        "seats": [
            {"kind": "human", "bot": None, "name": "Ann", "taken": True},
            {"kind": "bot", "bot": "random", "name": None, "taken": False},
        ],
        "finished": finished,
        "result": None,
        "seed": state.seed if finished else None,
        "moves": [
            {"index": i, "seat": 0, "action": a, "version": i + 2, "outcome": {}}
            for i, a in enumerate(state.history)
        ],
        "started_at": 0.0,
        "finished_at": None,
    }


def test_review_of_a_web_table_replay_equals_the_library_review(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    state = _game("skipbo", {"players": 2, "stock_size": 5}, 11, ["greedy", "random"])
    path = tmp_path / "replay.json"
    path.write_text(json.dumps(_replay_json(state)), encoding="utf-8")
    out_json = tmp_path / "review.json"
    code, out, err = run(
        capsys, "review", str(path), "--seat", "1", "--iterations", "2", "--seed", "5",
        "--json", str(out_json), "--worst", "3",
    )  # fmt: skip
    assert code == 0, err
    assert "Skip-Bo review of seat 1 (random):" in out
    assert "decisions with a choice" in out and "Best move played:" in out
    expected = review_game(
        state.game, state.rules, state.seed, state.history, 1, iterations=2, rng=Rng(5)
    )
    assert json.loads(out_json.read_text(encoding="utf-8")) == expected.to_json(3)
    assert expected.worst(3)
    for move in expected.worst(3):  # the table wraps the texts; the costs stay whole
        assert amount_text("win_chance", move.cost) in out


def test_plain_output_lists_every_decision(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    state = _game("skyjo", {"players": 2, "end_score": 20}, 3, ["greedy"])
    path = tmp_path / "snapshot.json"
    path.write_text(json.dumps(state.to_json()), encoding="utf-8")
    code, out, err = run(
        capsys, "review", str(path), "--seat", "0", "--iterations", "1",
        "--max-decisions", "4", "--plain", "--all",
    )  # fmt: skip
    assert code == 0, err
    assert out.startswith("Skyjo review of seat 0: 22 decisions with a choice, 4 reviewed")
    assert out.count("Move ") == 4
    assert "points expected" in out


def test_golden_transcripts_are_read_back_move_for_move() -> None:
    for path in sorted(GOLDEN.glob("*.txt")):
        record = load_game_file(path)
        state = record.game.replay(record.rules, record.seed, record.actions)
        last = path.read_text(encoding="utf-8").splitlines()[-1]
        assert last.endswith(f"sha256 {snapshot_hash(state.to_json())}"), path.name
        assert state.is_over and record.source == "golden transcript"


def test_review_of_a_golden_transcript(capsys: pytest.CaptureFixture[str]) -> None:
    path = GOLDEN / "skipbo_2p_stock5_random_greedy.txt"
    code, out, err = run(capsys, "review", str(path), "--seat", "0", "--iterations", "1")
    assert code == 0, err
    assert "Skip-Bo review of seat 0 (random):" in out


def test_a_sim_json_game_is_played_again_with_its_bots(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    results = tmp_path / "sim.json"
    code, _, err = run(
        capsys, "sim", "skyjo", "--players", "2", "--target", "20", "--games", "2",
        "--bots", "greedy,random", "--seed", "4", "--json", str(results),
    )  # fmt: skip
    assert code == 0, err
    data = json.loads(results.read_text(encoding="utf-8"))
    record = load_game_file(results, index=1)
    assert (
        record.seed == data["records"][1]["seed"]
        and len(record.actions) == (data["records"][1]["moves"])
    )
    assert record.players == ("greedy", "random")
    code, out, err = run(
        capsys, "review", str(results), "--game", "1", "--seat", "1", "--iterations", "1",
        "--max-decisions", "3",
    )  # fmt: skip
    assert code == 0, err
    assert "Skyjo review of seat 1 (random):" in out
    # A file whose bots no longer play the recorded game is refused, not misread.
    data["records"][1]["moves"] += 1
    with pytest.raises(GameFileError, match="bots have changed"):
        parse_game_json(data, 1)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"finished": False, "seed": None}, "still being played"),
        ({"game": "chess"}, "unknown game"),
        ({"moves": [{"action": 196}]}, "move 1 (action 196) is not legal"),
        ({"moves": [{"action": "x"}]}, "integer action codes"),
        ({"rules": {"players": 99}}, "bad rules"),
    ],
)
def test_bad_files_are_one_line_errors(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, change: dict[str, Any], message: str
) -> None:
    state = _game("skipbo", {"players": 2, "stock_size": 5}, 11, ["greedy"])
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({**_replay_json(state), **change}), encoding="utf-8")
    code, out, err = run(capsys, "review", str(path), "--seat", "0")
    assert code == 2 and out == ""
    assert err.startswith("cardtable review: error:") and message in err, err
    assert len(err.strip().splitlines()) == 1


def test_a_seat_outside_the_game_and_a_missing_file_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = GOLDEN / "skyjo_3p_greedy_random.txt"
    code, _, err = run(capsys, "review", str(path), "--seat", "3")
    assert code == 2 and "--seat must be from 0 to 2" in err
    code, _, err = run(capsys, "review", str(tmp_path / "nothing.json"), "--seat", "0")
    assert code == 2 and "cannot read" in err
    (tmp_path / "text.json").write_text("hello", encoding="utf-8")
    code, _, err = run(capsys, "review", str(tmp_path / "text.json"), "--seat", "0")
    assert code == 2 and "neither JSON nor a golden transcript" in err


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"game": "skyjo", "seed": 1, "moves": [], "seats": 3}, "'seats' must be a list"),
        (
            {"game": "skyjo", "rules": {"players": 2}, "seat_bots": [],
             "records": [{"seed": 1, "bots": "random", "moves": 9}]},
            "'bots' must be a list",
        ),
        (
            {"game": "skyjo", "rules": {"players": 2}, "seat_bots": [],
             "records": [{"seed": 1, "bots": ["random", "random"], "moves": 9, "winners": 0}]},
            "'winners' must be a list",
        ),
        (
            {"game": "skyjo", "rules": {"players": 2}, "seat_bots": [],
             "records": [{"seed": 1, "bots": ["random", "random"], "winners": [0]}]},
            "'moves' must be its number of moves",
        ),
    ],
)  # fmt: skip
def test_malformed_fields_are_one_line_errors(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, data: dict[str, Any], message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run(capsys, "review", str(path), "--seat", "0")
    assert code == 2 and out == ""
    assert err.startswith("cardtable review: error:") and message in err, err
    assert len(err.strip().splitlines()) == 1


def test_a_file_that_is_not_text_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(b"\xff\xfe{\x00}\x00")
    code, out, err = run(capsys, "review", str(path), "--seat", "0")
    assert code == 2 and out == ""
    assert err.strip() == f"cardtable review: error: {path} is not a text file (UTF-8)"


def test_the_report_counts_one_decision_and_one_re_deal_in_the_singular() -> None:
    from cardtable.sim.review_report import counted

    assert [counted(n, "decision", "decisions") for n in (0, 1, 2, 5)] == [
        "0 decisions",
        "1 decision",
        "2 decisions",
        "5 decisions",
    ]
