""".mat match records: written as GNU Backgammon writes them, read back through the rules.

Seeded bot matches go out and come back with the same games; GNU Backgammon itself (the ``gnubg``
package) reads our files, sees the same dice, positions, cube actions and results, and writes
them back to the character; files from gnubg and other programs are read, and an illegal play in
one is reported with its game, move number and reason.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tavli.engine import BACKGAMMON
from tavli.engine.dice import SeededDice
from tavli.engine.events import (
    Beavered,
    Doubled,
    Dropped,
    Event,
    OpeningThrown,
    Played,
    ResignationAccepted,
    ResignationOffered,
    ResignationRejected,
    Rolled,
    Took,
)
from tavli.engine.game import FinishedGame, apply, new_match
from tavli.engine.match import Match
from tavli.engine.matfile import MatFileError, check_mat, export_mat, import_mat
from tavli.engine.position import Position
from tavli.engine.rules import RuleSet
from tests.games import (
    BACKGAMMON_GAME,
    BACKGAMMON_SEED,
    ROLL_THEN_RESIGN,
    as_gammon_match_with_a_backgammon,
    bot_match,
    roll_then_resign,
    score_after,
)
from tests.gnubg_mat import gnubg_read, requires_gnubg

MAT_FILES = Path(__file__).resolve().parents[1] / "data" / "mat"


# --- what a game is made of ----------------------------------------------------------------------


@dataclass(frozen=True)
class GameRecord:
    """What a .mat file keeps of a game: the score it started at, every roll, play (by the position
    it led to), cube action and accepted resignation, and how it ended."""

    score: tuple[int, int]
    actions: tuple[tuple[Any, ...], ...]
    result: FinishedGame | None


def game_records(rules: RuleSet, events: list[Event]) -> list[GameRecord]:
    state = new_match(rules)
    games: list[GameRecord] = []
    score, actions = state.score, []
    offer: ResignationOffered | None = None
    for event in events:
        before, state = state, apply(state, event)
        if isinstance(event, OpeningThrown):
            actions.append(("opening", event.throws[-1]))  # a .mat file keeps only the deciding throw
        elif isinstance(event, Rolled):
            actions.append(("roll", event.side, event.dice))
        elif isinstance(event, Played):
            board = before.game.position
            after = rules.rules.check_play(board, before.game.dice, event.steps).position
            actions.append(("play", event.side, before.game.dice, board.position_id(), after.position_id()))
        elif isinstance(event, ResignationOffered):
            offer = event
        elif isinstance(event, ResignationRejected):
            offer = None  # neither gnubg nor a .mat file records a rejected offer
        elif isinstance(event, ResignationAccepted):
            assert offer is not None
            actions.append(("resign", offer.side, state.finished[-1].result))
        elif isinstance(event, (Doubled, Took, Dropped, Beavered)):
            actions.append((event.kind, event.side))
        if len(state.finished) > len(before.finished):
            games.append(GameRecord(score, tuple(actions), state.finished[-1]))
            score, actions = state.score, []
    if actions:
        games.append(GameRecord(score, tuple(actions), None))
    return games


def assert_same_games(match: Match, text: str) -> None:
    imported = import_mat(text)
    assert imported.rules == match.rules
    assert game_records(imported.rules, imported.events) == game_records(match.rules, match.events)
    assert imported.score == match.state.score
    assert imported.winner == match.state.winner


# --- export and import give back the same games -----------------------------------------------------


def test_a_seven_point_match_with_doubles_takes_and_drops_comes_back_the_same() -> None:
    match = bot_match(RuleSet(match_length=7), seed=1, resign=0.01)
    text = export_mat(match, players=("Alice", "Bob"))
    assert text.startswith("\n 7 point match\n\n Game 1\n Alice : 0                      Bob : 0\n")
    for word in (" Doubles => 2", " Takes", " Drops"):
        assert word in text
    assert match.state.over and text.rstrip().endswith("and the match")
    assert_same_games(match, text)
    assert import_mat(text).players == ("Alice", "Bob")


@pytest.mark.parametrize("seed", range(6))
def test_seeded_matches_of_every_length_come_back_the_same(seed: int) -> None:
    match = bot_match(RuleSet(match_length=seed + 1), seed=seed, resign=0.02)
    assert_same_games(match, export_mat(match))


def test_a_money_session_comes_back_the_same() -> None:
    match = bot_match(RuleSet(), seed=3, games=6, resign=0.02)
    text = export_mat(match)
    assert text.startswith("\n 0 point match\n")  # money play, as gnubg writes it
    assert text.count(" Game ") == 6
    assert_same_games(match, text)


def test_a_money_session_with_beavers_and_jacoby_keeps_them() -> None:
    rules = RuleSet(beavers=True, jacoby=True)
    match = bot_match(rules, seed=5, games=8, beaver=0.5, resign=0.02)
    text = export_mat(match)
    assert '; [Jacoby "On"]\n; [Beaver "On"]\n' in text
    assert " Beavers => 4" in text
    assert_same_games(match, text)


def test_a_five_point_long_nardi_match_comes_back_the_same() -> None:
    rules = RuleSet(variant="long-nardi", match_length=5)
    match = bot_match(rules, seed=2)
    text = export_mat(match)
    assert text.startswith('; [Variation "Long Nardi"]\n\n 5 point match\n')
    # The opening throw is not played in long nardi, so each game says what it was.
    assert re.search(r'^ Game 1\n .*\n; \[Opening "\d-\d( \d-\d)*"\]\n', text, re.MULTILINE)
    assert_same_games(match, text)


def test_a_match_in_progress_comes_back_where_it_stopped() -> None:
    for stop in (1, 2, 9, 40, 41):
        match = bot_match(RuleSet(match_length=5), seed=7, double=0.4, events=stop)
        imported = import_mat(export_mat(match))
        assert game_records(imported.rules, imported.events) == game_records(match.rules, match.events)
        state, again = match.state.game, imported.match.state.game
        assert (again.phase, again.turn, again.dice, again.position) == (
            state.phase,
            state.turn,
            state.dice,
            state.position,
        )


@pytest.mark.parametrize("opening, roller_resigns", ROLL_THEN_RESIGN)
def test_a_roll_followed_by_a_resignation_is_kept_unplayed(opening: bool, roller_resigns: bool) -> None:
    match = roll_then_resign(opening=opening, roller_resigns=roller_resigns)
    imported = import_mat(export_mat(match))
    kinds = [type(event).__name__ for event in imported.events]
    assert kinds[-3:] == [
        "Rolled" if not opening else "OpeningThrown",
        "ResignationOffered",
        "ResignationAccepted",
    ]
    assert imported.match.state.finished == match.state.finished


# --- GNU Backgammon's layout, to the character ------------------------------------------------------


def test_a_file_gnubg_wrote_is_written_back_to_the_character() -> None:
    text = (MAT_FILES / "gnubg_3_point.mat").read_text()
    imported = import_mat(text)
    assert imported.players == ("gnubg", "Bob")
    assert (imported.match_length, imported.score, imported.winner) == (3, (4, 2), 0)
    results = [(game.winner, game.points, game.ended_by) for game in imported.match.state.finished]
    assert results == [(0, 2, "resignation"), (1, 1, "resignation"), (1, 1, "drop"), (0, 2, "resignation")]
    again = export_mat(
        imported.match, players=imported.players, date=datetime.date(2026, 11, 30), and_the_match=False
    )
    assert again == text


def test_when_player_1_starts_the_left_column_of_move_1_is_empty() -> None:
    seed = next(
        seed
        for seed in range(100)
        if SeededDice(f"p1-{seed}").roll(0) < SeededDice(f"p1-{seed}").roll(0)[::-1]
    )
    match = Match(RuleSet(match_length=3), dice=SeededDice(f"p1-{seed}"))
    match.roll(0)
    assert match.state.game.turn == 1
    match.play(1, match.legal_plays()[0])
    line = export_mat(match).splitlines()[5]
    assert re.fullmatch(r"  1\) {29}\d\d: \S.*", line)


# --- files written by others ------------------------------------------------------------------------


def test_a_file_in_xg_style_is_read() -> None:
    # Header lines gnubg does not write, wider columns, "Cannot Move", 24/18(2) and bar/20*(3).
    imported = import_mat((MAT_FILES / "xg_style_2_point.mat").read_text())
    assert imported.players == ("Alice", "Bob")
    assert imported.rules.cube_limit == 1024
    assert (imported.match_length, imported.score, imported.winner) == (2, (3, 1), 0)
    first, second = imported.match.state.finished
    assert (first.winner, first.ended_by, first.points) == (1, "drop", 1)
    assert (second.winner, second.result.value, second.points) == (0, "backgammon", 3)


def test_an_illegal_play_in_game_2_is_caught_with_its_move_number_and_reason() -> None:
    text = (MAT_FILES / "illegal_play_game_2.mat").read_text()
    with pytest.raises(MatFileError) as caught:
        import_mat(text)
    error = caught.value
    assert (error.game, error.move_number, error.side) == (2, 3, 0)
    assert error.why == "the 5 cannot be played from your 6-point: your 1-point is blocked"
    assert str(error).startswith("game 2, move 3, player 0 (Alice)")
    assert "'6/2 6/1' with 4-5" in str(error)


def mat(*games: str, length: int = 3) -> str:
    return f"\n {length} point match\n\n" + "\n".join(games)


def test_a_double_by_the_side_that_does_not_own_the_cube_is_refused() -> None:
    text = mat(
        " Game 1\n Alice : 0                      Bob : 0\n"
        "  1) 31: 8/5 6/5                  Doubles => 2\n"
        "  2)  Takes                       42: 8/4 6/4\n"
        "  3) 52: 13/8 13/11                Doubles => 4\n"
    )
    with pytest.raises(
        MatFileError, match=r"game 1, move 3, player 1 \(Bob\), line 8: doubles: .*your opponent owns"
    ):
        import_mat(text)


def test_a_score_line_that_does_not_follow_from_the_games_before_is_refused() -> None:
    text = mat(
        " Game 1\n Alice : 0                      Bob : 0\n"
        "  1) 31: 8/5 6/5                  Doubles => 2\n"
        "  2)  Drops                       Wins 1 point\n",
        " Game 2\n Alice : 0                      Bob : 2\n",
    )
    with pytest.raises(
        MatFileError, match="game 2.*the score line says 0-2, but the games before make it 0-1"
    ):
        import_mat(text)


def test_a_result_the_game_did_not_have_is_refused() -> None:
    text = mat(
        " Game 1\n Alice : 0                      Bob : 0\n"
        "  1) 31: 8/5 6/5                  Doubles => 2\n"
        "  2)  Drops                       Wins 2 points\n"
    )
    with pytest.raises(
        MatFileError,
        match=(
            r"game 1, move 2, player 1 \(Bob\), line 7: Wins 2 points: the game ended with player 1 "
            r"winning 1 point"
        ),
    ):
        import_mat(text)


def test_the_opening_throw_cannot_be_a_double() -> None:
    text = mat(" Game 1\n Alice : 0                      Bob : 0\n  1) 33: 8/5(2) 6/3(2)\n")
    with pytest.raises(MatFileError, match="move 1.*the opening throw cannot be a double"):
        import_mat(text)


def test_a_roll_left_unplayed_in_the_middle_of_a_game_says_what_should_have_been_played() -> None:
    text = mat(
        " Game 1\n Alice : 0                      Bob : 0\n  1) 31:                          42: 8/4 6/4\n"
    )
    with pytest.raises(MatFileError, match=r"move 1, player 0 \(Alice\).*you must play both dice"):
        import_mat(text)


def test_a_file_without_a_match_length_is_not_a_mat_file() -> None:
    with pytest.raises(MatFileError, match="no ' N point match' line"):
        import_mat('; [Site "nowhere"]\n Game 1\n')


# --- backgammons scored as gammons --------------------------------------------------------------------


def test_a_match_with_backgammons_as_gammons_names_the_option_and_comes_back_the_same() -> None:
    match = as_gammon_match_with_a_backgammon()
    text = export_mat(match, players=("Alice", "Bob"))
    assert text.startswith('; [Backgammons "AsGammon"]\n\n 7 point match\n')
    assert_same_games(match, text)
    scored = import_mat(text).games[BACKGAMMON_GAME - 1].result
    assert scored is not None
    assert (scored.result.value, scored.points, scored.cube_value) == ("gammon", 2, 1)


def test_without_its_header_line_the_backgammon_scored_as_a_gammon_is_a_problem() -> None:
    text = export_mat(as_gammon_match_with_a_backgammon(), players=("Alice", "Bob"))
    problems = check_mat(text.replace('; [Backgammons "AsGammon"]\n', "", 1)).problems
    assert problems[0].game == BACKGAMMON_GAME
    assert problems[0].reason.endswith("the game ended with player 1 winning 3 points")


def test_a_counted_backgammon_needs_no_header_line() -> None:
    match = bot_match(RuleSet(match_length=7), seed=BACKGAMMON_SEED)
    assert "Backgammons" not in export_mat(match)
    assert import_mat(export_mat(match)).rules.backgammons == "COUNTED"


@pytest.mark.parametrize("words", ["AsGammon", "asgammon", " ASGAMMON "])
def test_the_backgammons_header_is_read_in_any_case(words: str) -> None:
    text = f'; [Backgammons "{words}"]\n' + mat(" Game 1\n Alice : 0                      Bob : 0\n")
    assert import_mat(text).rules.backgammons == "AS_GAMMON"


@pytest.mark.parametrize(
    ("header", "reason"),
    [
        ('; [Backgammons "Triple"]', "the header's Backgammons is Counted or AsGammon, not 'Triple'"),
        (
            '; [Variation "Long Nardi"]\n; [Backgammons "AsGammon"]',
            "the header's rules do not go together: long nardi has no backgammons to score as gammons",
        ),
    ],
    ids=["unknown-words", "long-nardi"],
)
def test_a_backgammons_header_tavli_cannot_play_is_refused_in_words(header: str, reason: str) -> None:
    with pytest.raises(MatFileError) as caught:
        import_mat(header + "\n" + mat(" Game 1\n Alice : 0                      Bob : 0\n"))
    assert str(caught.value).startswith(reason)


def test_under_as_gammon_a_resignation_written_as_three_times_the_cube_is_refused() -> None:
    text = '; [Backgammons "AsGammon"]\n' + mat(
        " Game 1\n Alice : 0                      Bob : 0\n  1) 31: 8/5 6/5                  Wins 3 points\n"
    )
    with pytest.raises(MatFileError, match="a resignation is worth at most 2 points with the cube at 1"):
        import_mat(text)
    assert import_mat(text.replace("Wins 3", "Wins 2")).match.state.finished[0].points == 2


@requires_gnubg
def test_gnubg_ignores_the_header_takes_the_score_lines_and_scores_a_last_game_by_the_board(
    tmp_path: Path,
) -> None:
    match = as_gammon_match_with_a_backgammon()
    path = tmp_path / "as-gammon.mat"
    path.write_text(export_mat(match, players=("Alice", "Bob")))
    reading = gnubg_read(path)
    assert reading is not None and not reading.warnings
    # The backgammon is not the last game: the score lines after it carry tavli's score.
    assert (reading.games, reading.score) == (len(match.state.finished), match.state.score)
    # Cut after the backgammon: gnubg scores that game as the board has it, 3 times the cube.
    text = export_mat(match, players=("Alice", "Bob"))
    path.write_text(text[: text.index(f" Game {BACKGAMMON_GAME + 1}\n")])
    reading = gnubg_read(path)
    assert reading is not None
    backgammon = match.state.finished[BACKGAMMON_GAME - 1]
    expected = list(score_after(match, BACKGAMMON_GAME - 1))
    expected[backgammon.winner] += 3 * backgammon.cube_value
    assert (reading.games, reading.score) == (BACKGAMMON_GAME, tuple(expected))


# --- GNU Backgammon reads our files -----------------------------------------------------------------


@pytest.fixture(scope="module")
def gnubg() -> Any:
    gnubg = pytest.importorskip("gnubg")
    for command in (
        "set display off",  # no board drawn after every command
        "set sound enable off",
        "set confirm new off",  # importing discards the match in memory without asking
        "set jacoby off",  # gnubg reads money games with its own Jacoby setting; ours is off
        "set player 0 human",  # nobody plays on by itself after the import
        "set player 1 human",
    ):
        gnubg.command(command)
    return gnubg


def _gnubg_reads(gnubg: Any, text: str, tmp_path: Path) -> dict[str, Any]:
    path = tmp_path / "match.mat"
    path.write_text(text)
    gnubg.command(f"import mat {path}")
    match: dict[str, Any] = gnubg.match(analysis=False, boards=True, statistics=False, verbose=False)
    return match


def _gnubg_games(match: dict[str, Any]) -> list[GameRecord]:
    """gnubg's games in our terms: each play by the position it led to, found by playing gnubg's
    steps on the board gnubg shows before it (a Position ID, the mover's view)."""
    side = {"X": 0, "O": 1}
    games = []
    for game in match["games"]:
        info, actions = game["info"], []
        for record in game["game"]:
            player = side[record["player"]]
            if record["action"] == "move":
                dice = tuple(record["dice"])
                board = Position.from_id(record["board"])
                written = " ".join(f"{start}/{end}" for start, end in record["move"])
                after = BACKGAMMON.parse_play(board, dice, written).position
                actions.append(("play", player, dice, board.position_id(), after.position_id()))
            elif record["action"] == "resign":
                actions.append(("resign", player, record["points"]))
            else:
                actions.append((record["action"], player))
        result = (side[info["winner"]], info["points-won"]) if info.get("winner") else None
        games.append(GameRecord((info["score-X"], info["score-O"]), tuple(actions), result))  # type: ignore[arg-type]
    return games


def _our_games_as_gnubg_sees_them(match: Match) -> list[GameRecord]:
    """Our games as gnubg records them: no opening throw or roll apart from the play, a resignation
    by the points it gives up before the cube, a result as the winner and the points."""
    games = []
    for game in game_records(match.rules, match.events):
        actions = []
        for action in game.actions:
            if action[0] == "resign":
                actions.append(("resign", action[1], action[2].multiplier))
            elif action[0] not in ("opening", "roll"):
                actions.append(action)
        result = (game.result.winner, game.result.points) if game.result else None
        games.append(GameRecord(game.score, tuple(actions), result))  # type: ignore[arg-type]
    return games


@pytest.mark.parametrize(
    "rules, options",
    [
        (RuleSet(match_length=7), {"seed": 1, "resign": 0.01}),
        (RuleSet(match_length=5), {"seed": 4, "double": 0.3, "take": 0.5, "resign": 0.02}),
        (RuleSet(), {"seed": 3, "games": 5, "resign": 0.02}),
    ],
    ids=["7-point", "5-point", "money"],
)
def test_gnubg_reads_back_exactly_the_match_that_was_played(
    gnubg: Any, tmp_path: Path, rules: RuleSet, options: dict[str, Any]
) -> None:
    match = bot_match(rules, **options)
    text = export_mat(match, players=("Alice", "Bob"))
    read = _gnubg_reads(gnubg, text, tmp_path)
    assert read["match-info"]["match-length"] == rules.match_length
    assert (read["match-info"]["X"]["name"], read["match-info"]["O"]["name"]) == ("Alice", "Bob")
    theirs = _gnubg_games(read)
    ours = _our_games_as_gnubg_sees_them(match)
    assert len(theirs) == len(ours)
    for number, (their_game, our_game) in enumerate(zip(theirs, ours), start=1):
        assert their_game == our_game, f"game {number}"


def test_gnubg_writes_our_file_back_to_the_character(gnubg: Any, tmp_path: Path) -> None:
    for rules, options in ((RuleSet(match_length=7), {"seed": 1}), (RuleSet(), {"seed": 3, "games": 4})):
        match = bot_match(rules, resign=0.02, **options)
        text = export_mat(match, players=("Alice", "Bob"))
        _gnubg_reads(gnubg, text, tmp_path)
        gnubg.command(f"export match mat {tmp_path / 'again.mat'}")
        again = (tmp_path / "again.mat").read_text()
        # gnubg adds the date it read the file on, and never writes " and the match".
        again = re.sub(r'^; \[EventDate "[\d.]+"\]\n', "", again)
        assert again == text.replace(" and the match", "")


@pytest.mark.parametrize("opening, roller_resigns", ROLL_THEN_RESIGN)
def test_gnubg_reads_a_resignation_after_an_unplayed_roll(
    gnubg: Any, tmp_path: Path, opening: bool, roller_resigns: bool
) -> None:
    # Two of these four gnubg would write with the result on the roll's line, where its own reader
    # loses it; ours are written so that it reads all four.
    match = roll_then_resign(opening=opening, roller_resigns=roller_resigns)
    read = _gnubg_reads(gnubg, export_mat(match), tmp_path)
    (game,) = read["games"]
    finished = match.state.finished[0]
    assert (game["info"]["winner"], game["info"]["points-won"]) == ("XO"[finished.winner], 1)
    assert [record["action"] for record in game["game"]][-2:] == ["set", "resign"]
