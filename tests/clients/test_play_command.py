"""``tavli play``: a person against a bot in the terminal, driven here by a scripted person."""

from __future__ import annotations

import importlib.util
import io
import re
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tavli.clients import bots, cli
from tavli.clients.board_view import Clocks, Table, clock_time, draw, draw_clocks
from tavli.clients.bots.base import ResignLevel, Situation
from tavli.clients.bots.random_bot import RandomBot
from tavli.clients.client import TavliClient
from tavli.clients.play_command import HINT_PLIES, PlayOptions, PlaySession, clocks_at
from tavli.engine import BACKGAMMON, LONG_NARDI, Position
from tavli.engine.clock import ClockRules
from tavli.engine.match_id import MatchInfo
from tavli.engine.variant import VariantName
from tavli.server.app import ServerConfig, create_server
from tavli.v1 import analysis_service_pb2 as analysis_pb2, board_pb2, games_service_pb2 as games_pb2

START_BOARD = """\
 Backgammon      Position ID: 4HPwATDgc/ABMA
                 Match ID   : cIkOAAAAAAAE
 +13-14-15-16-17-18------19-20-21-22-23-24-+     O: heuristic bot
 | X           O    |   | O              X |     0 points
 | X           O    |   | O              X |
 | X           O    |   | O                |
 | X                |   | O                |
 | X                |   | O                |
v|                  |BAR|                  |     (Cube: 1)
 | O                |   | X                |
 | O                |   | X                |
 | O           X    |   | X                |
 | O           X    |   | X              O |     Rolled 53
 | O           X    |   | X              O |     0 points
 +12-11-10--9--8--7-------6--5--4--3--2--1-+     X: you
 Pip counts: O 167, X 167
"""


@pytest.fixture(scope="module")
def client() -> Iterator[TavliClient]:
    running = create_server(
        ServerConfig(host="127.0.0.1", port=0, db=None, log_rpcs=False, allow_seeded_dice=True)
    )
    with TavliClient.connect(f"127.0.0.1:{running.port}") as tavli:
        yield tavli
    running.stop(0)


@dataclass(frozen=True)
class TypedPlay:
    dice: str
    text: str


class ScriptedPerson(io.TextIOBase):
    """The person at the keyboard: reads the last prompt shown and answers it. A play is the first
    legal play the server lists. ``illegal_first``: the first play typed moves one checker by one
    die (illegal while both dice can be played). ``plays_to_make``: the input ends after so many
    plays were accepted. ``first_answers``: what is typed the first time a prompt starting so is
    shown, instead of the usual answer."""

    def __init__(
        self,
        client: TavliClient,
        output: io.StringIO,
        *,
        illegal_first: bool = False,
        plays_to_make: int | None = None,
        roll_answers: tuple[str, ...] = (),
        first_answers: dict[str, str] | None = None,
        most: int = 5000,
    ) -> None:
        self.roll_answers = list(roll_answers)
        self.first_answers = dict(first_answers or {})
        self.client = client
        self.output = output
        self.illegal_first = illegal_first
        self.plays_to_make = plays_to_make
        self.plays_made = 0
        self.refusals: list[tuple[TypedPlay, str]] = []
        self.answers = 0
        self.most = most

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        self.answers += 1
        if self.answers > self.most or self.plays_made == self.plays_to_make:
            return ""  # the end of the input: the session must quit by itself
        prompt = self.output.getvalue().rsplit("\n", 1)[-1]
        for start in self.first_answers:
            if prompt.startswith(start):
                return self.first_answers.pop(start) + "\n"
        if prompt.startswith("Your play with"):
            return self.play(prompt.split()[3]) + "\n"
        if prompt.startswith("Roll or double?") and self.roll_answers:
            return self.roll_answers.pop(0) + "\n"
        for start, answer in {
            "Take or drop": "take",
            "Take, drop or beaver": "take",
            "offers to resign": "accept",
            "Play another game?": "n",
        }.items():
            if start in prompt:
                return answer + "\n"
        return "\n"  # roll, pass, start the next game

    def play(self, dice: str) -> str:
        game = self.client.game(self.game_name())
        if self.illegal_first and not self.refusals:
            one_die = f"24/{24 - game.dice[0]}"
            verdict = self.client.validate_play("backgammon", game.position_id, tuple(game.dice), one_die)
            assert not verdict.legal
            self.refusals.append((TypedPlay(dice, one_die), verdict.reason))
            return one_die
        self.plays_made += 1
        legal = self.client.games.ListLegalActions(
            games_pb2.ListLegalActionsRequest(name=game.name, seat=games_pb2.SEAT_1)
        )
        return legal.plays[0].notation

    def game_name(self) -> str:
        match = re.search(r"^Game (games/\S+)\.$", self.output.getvalue(), re.MULTILINE)
        assert match, "the session names its game"
        return match.group(1)


def _session(
    client: TavliClient, options: PlayOptions, *, bot: str = "random"
) -> tuple[PlaySession, io.StringIO]:
    output = io.StringIO()
    person = ScriptedPerson(client, output)
    session = PlaySession(client, bots.create(bot, seed=5), options, input=person, output=output)
    return session, output


def test_a_one_point_backgammon_match_is_played_to_the_end(client: TavliClient) -> None:
    session, output = _session(client, PlayOptions(match_length=1, dice_seed="play-1"))
    assert session.run() == 0
    text = output.getvalue()
    assert "Type a play like 13/7 8/7" in text
    assert re.search(r"The random bot plays \d-\d: \S+", text), "the bot's plays are shown with their dice"
    assert re.search(r"^\*\*\* (You win|The random bot wins) game 1: ", text, re.MULTILINE)
    assert re.search(r"(You win|The random bot wins) the match [1-3]-0", text)
    assert "Roll or double?" not in text, "a 1-point match has no cube"
    assert session.game.phase == games_pb2.PHASE_MATCH_OVER


def test_a_long_nardi_game_is_played_to_the_end(client: TavliClient) -> None:
    session, output = _session(client, PlayOptions(variant="long-nardi", match_length=1, dice_seed="nardi-1"))
    assert session.run() == 0
    text = output.getvalue()
    assert "Long nardi: both sides move the same way round" in text
    assert "O starts on X's 12" in text
    assert re.search(r"(You win|The random bot wins) game 1: (a single game|a mars)", text)
    assert session.game.phase == games_pb2.PHASE_MATCH_OVER


def test_a_hypergammon_match_is_played_to_the_end_with_its_checkers(client: TavliClient) -> None:
    options = PlayOptions(match_length=1, start="HYPERGAMMON_2", dice_seed="hyper-1")
    session, output = _session(client, options)
    assert session.run() == 0
    text = output.getvalue()
    assert "you play 2-checker hypergammon" in text
    assert re.search(r"^ 2-checker hypergammon Position ID: AABAAQAACgAAAA$", text, re.MULTILINE)
    assert session.game.phase == games_pb2.PHASE_MATCH_OVER


def test_a_tavla_match_is_played_with_the_hitter_staying_and_the_winner_opening(client: TavliClient) -> None:
    options = PlayOptions(
        match_length=3,
        cube=False,
        backgammons="AS_GAMMON",
        home_hit_and_run="FORBIDDEN",
        opening="WINNER_ROLLS_AGAIN",
        match_openings="WINNER_OPENS",
        dice_seed="tavla-1",
    )
    session, output = _session(client, options)
    assert session.run() == 0
    text = output.getvalue()
    assert "a checker that hits in its home board stays there, the winner of a game opens the next" in text
    assert session.game.rule_set.home_hit_and_run == board_pb2.HOME_HIT_AND_RUN_FORBIDDEN
    assert session.game.phase == games_pb2.PHASE_MATCH_OVER


def test_a_plakoto_match_is_played_to_the_end(client: TavliClient) -> None:
    session, output = _session(client, PlayOptions(variant="plakoto", match_length=3, dice_seed="plakoto-1"))
    assert session.run() == 0
    text = output.getvalue()
    assert "you play plakoto against the random bot: a 3-point match, without the cube" in text
    assert "the winner of a game opens the next" in text
    assert re.search(r"\*\*\* (You win|The random bot wins) game 1: |\*\*\* Game 1 is drawn", text)
    assert session.game.phase == games_pb2.PHASE_MATCH_OVER
    pinned = "Pinned, under the other side's checkers: " in text
    assert pinned == any(":" in line for line in re.findall(r"Position ID: (\S+)", text))


def test_a_fevga_match_is_played_to_the_end(client: TavliClient) -> None:
    session, output = _session(client, PlayOptions(variant="fevga", match_length=1, dice_seed="fevga-1"))
    assert session.run() == 0
    text = output.getvalue()
    assert "Fevga: both sides move the same way round" in text
    assert session.game.phase == games_pb2.PHASE_MATCH_OVER


def test_a_tavli_match_announces_each_game_of_the_rotation(client: TavliClient) -> None:
    session, output = _session(client, PlayOptions(variant="tavli", match_length=3, dice_seed="tavli-1"))
    assert session.run() == 0
    text = output.getvalue()
    assert "you play the Greek tavli match (Portes, Plakoto and Fevga in turn)" in text
    announced = re.findall(r"^Game (\d+): (Portes|Plakoto|Fevga)\.$", text, re.MULTILINE)
    played = len(session.game.finished_games)
    assert announced == [
        (str(number), ("Portes", "Plakoto", "Fevga")[(number - 1) % 3]) for number in range(1, played + 1)
    ]
    assert session.game.phase == games_pb2.PHASE_MATCH_OVER


def test_money_play_keeps_a_running_total_and_asks_for_another_game(client: TavliClient) -> None:
    session, output = _session(client, PlayOptions(cube=False, dice_seed="money-1"), bot="heuristic")
    assert session.run() == 0
    text = output.getvalue()
    assert re.search(r"Running total after 1 game: you \d+, the heuristic bot \d+ \(you are [+-]?\d+\)", text)
    assert "Play another game? [Y/n] > n" in text
    assert re.search(r"You leave the table\. Running total after 1 game: .*\Z", text.rstrip())


def test_an_illegal_play_is_refused_with_the_servers_reason_and_a_legal_one_accepted(
    client: TavliClient,
) -> None:
    output = io.StringIO()
    person = ScriptedPerson(client, output, illegal_first=True, plays_to_make=1)
    session = PlaySession(
        client, bots.create("random", seed=5), PlayOptions(dice_seed="illegal-1"), input=person, output=output
    )
    assert session.run() == 0
    text = output.getvalue()
    assert person.refusals, "the person typed an illegal play"
    play, reason = person.refusals[0]
    assert reason and f"Your play with {play.dice} > {play.text}\nNot allowed: {reason}\n" in text
    after_refusal = text.split(f"Not allowed: {reason}", 1)[1]
    assert re.search(r"^Your play with \d-\d > \S", after_refusal, re.MULTILINE), "asked again"
    assert re.search(r"^You play \S", after_refusal, re.MULTILINE), "the legal play is accepted"


class DoublingBot(RandomBot):
    def offer_double(self, situation: Situation) -> bool:
        return True


class ResigningBot(RandomBot):
    def resign(self, situation: Situation) -> ResignLevel | None:
        return "single"


class RejectingBot(RandomBot):
    def accept_resignation(self, situation: Situation, offered: ResignLevel) -> bool:
        return False


_BOARD_TOP = "+13-14-15-16-17-18------19-20-21-22-23-24-+"
_DECISIONS = (
    "Your turn: press Enter to roll",
    "Roll or double?",
    "Your play with",
    "You cannot move with",
    "Take or drop?",
    "Take, drop or beaver?",
    "Accept or reject?",
)


def test_unreadable_input_is_told_as_unreadable_with_how_to_write_a_play(client: TavliClient) -> None:
    output = io.StringIO()
    person = ScriptedPerson(
        client,
        output,
        plays_to_make=2,
        first_answers={"Your play with": "hello", "Your turn: press Enter to roll": "soon"},
    )
    session = PlaySession(
        client,
        bots.create("random", seed=5),
        PlayOptions(cube=False, dice_seed="unreadable-1"),
        input=person,
        output=output,
    )
    assert session.run() == 0
    text = output.getvalue()
    assert not person.first_answers, "both prompts were shown and answered with what cannot be read"
    assert re.search(
        r"^Your play with \d-\d > hello\nCannot read 'hello': .+\. Type a play like 13/7 8/7, bar/22, .* or "
        r"6/off\.$",
        text,
        re.MULTILINE,
    )
    assert (
        "Your turn: press Enter to roll > soon\nCannot read 'soon': press Enter (or type roll) to roll.\n"
        in text
    )
    assert "Not allowed" not in text


def test_a_refused_resignation_is_told_in_the_servers_words(client: TavliClient) -> None:
    output = io.StringIO()
    session = PlaySession(
        client,
        RejectingBot(seed=3),
        PlayOptions(cube=False, dice_seed="resign-3"),
        input=io.StringIO("resign\nresign\nquit\n"),
        output=output,
    )
    assert session.run() == 0
    text = output.getvalue()
    assert re.search(
        r"> resign\nNot allowed: your last offer was rejected: you may offer again after a roll has been "
        r"played\n",
        text,
    )
    after_the_rejection = text.split("The random bot rejects the resignation: play on.\n", 1)[1]
    assert _BOARD_TOP not in after_the_rejection.split(" > ", 1)[0], "the board unchanged is not drawn again"


@pytest.mark.parametrize(
    ("variant", "bot", "cube", "dice_seed"),
    [
        ("long-nardi", RandomBot, False, "nardi-1"),
        ("backgammon", RandomBot, False, "money-1"),
        ("backgammon", DoublingBot, True, "doubling-1"),
        ("backgammon", ResigningBot, False, "resign-1"),
    ],
)
def test_the_board_is_shown_once_before_every_decision(
    client: TavliClient, variant: VariantName, bot: type[RandomBot], cube: bool, dice_seed: str
) -> None:
    output = io.StringIO()
    person = ScriptedPerson(client, output, plays_to_make=None if variant == "long-nardi" else 6)
    options = PlayOptions(
        variant=variant, match_length=1 if variant == "long-nardi" else 0, cube=cube, dice_seed=dice_seed
    )
    session = PlaySession(client, bot(seed=3), options, input=person, output=output)
    assert session.run() == 0
    boards_since_a_prompt = 0
    decisions = 0
    for line in output.getvalue().splitlines():
        if _BOARD_TOP in line:
            boards_since_a_prompt += 1
            assert boards_since_a_prompt == 1, "the same board twice in a row"
        elif " > " in line:  # a prompt, with the answer typed after it
            if any(decision in line for decision in _DECISIONS):
                decisions += 1
                assert boards_since_a_prompt == 1, f"no board before {line!r}"
            boards_since_a_prompt = 0
    assert decisions >= 2


def test_the_person_answers_the_bots_double(client: TavliClient) -> None:
    output = io.StringIO()
    person = ScriptedPerson(client, output, plays_to_make=2)
    session = PlaySession(
        client, DoublingBot(seed=3), PlayOptions(dice_seed="doubling-1"), input=person, output=output
    )
    assert session.run() == 0
    text = output.getvalue()
    assert "The random bot doubles to 2. Take or drop? > take\nYou take.\n" in text
    assert "X: you (Cube: 2)" in text, "the board shows the cube on the taker's side"


def test_the_person_doubles_and_the_bot_answers(client: TavliClient) -> None:
    output = io.StringIO()
    person = ScriptedPerson(client, output, plays_to_make=2, roll_answers=("double",))
    session = PlaySession(
        client,
        bots.create("heuristic", seed=3),
        PlayOptions(dice_seed="doubling-2"),
        input=person,
        output=output,
    )
    assert session.run() == 0
    text = output.getvalue()
    assert "Roll or double? (Enter rolls) > double\nYou double.\nThe heuristic bot " in text
    assert re.search(r"^The heuristic bot (takes|drops)\.$", text, re.MULTILINE)


def test_the_person_accepts_the_bots_resignation(client: TavliClient) -> None:
    output = io.StringIO()
    person = ScriptedPerson(client, output)
    session = PlaySession(
        client,
        ResigningBot(seed=3),
        PlayOptions(cube=False, dice_seed="resign-1"),
        input=person,
        output=output,
    )
    assert session.run() == 0
    text = output.getvalue()
    assert "The random bot offers to resign a single game (1 point). Accept or reject? > accept\n" in text
    assert "*** You win game 1: a single game, by resignation, 1 point. ***" in text
    assert "Running total after 1 game: you 1, the random bot 0 (you are +1)." in text


def test_the_person_resigns_and_the_bot_answers(client: TavliClient) -> None:
    output = io.StringIO()
    session = PlaySession(
        client,
        bots.create("heuristic", seed=3),
        PlayOptions(match_length=3, dice_seed="resign-2"),
        input=io.StringIO("resign gammon\n\n"),
        output=output,
    )
    assert session.run() == 0
    text = output.getvalue()
    assert re.search(
        r"> resign gammon\nYou offer to resign a (single game|gammon)\.\nThe heuristic bot (accepts|rejects)",
        text,
    )


def test_the_start_position_is_drawn_as_gnubg_draws_it() -> None:
    table = Table(
        variant=BACKGAMMON,
        position=BACKGAMMON.start_position(),
        x_name="you",
        o_name="heuristic bot",
        on_roll="X",
        dice=(5, 3),
        match_id=MatchInfo(player_on_roll=1, player_to_act=1, dice=(5, 3)).match_id(),
    )
    assert draw(table) == START_BOARD


def test_long_nardi_is_drawn_on_the_same_frame_with_both_heads_in_place() -> None:
    board = draw(Table(variant=LONG_NARDI, position=LONG_NARDI.start_position(), cube_value=0))
    lines = board.splitlines()
    assert lines[1] == " +13-14-15-16-17-18------19-20-21-22-23-24-+     O: O"
    assert lines[6] == " |                  |   |                F |", "X's head: 15 on its 24-point"
    assert lines[8] == " | F                |   |                  |", "O's head: 15 on X's 12-point"
    assert "A = 10, B = 11, ... F = 15" in board


@pytest.mark.skipif(importlib.util.find_spec("gnubg") is None, reason="the gnubg package is not installed")
@pytest.mark.parametrize(
    ("position_id", "state"),
    [
        ("4HPwATDgc/ABMA", {}),  # the start, money play
        # both sides on the bar, checkers borne off, stacks of 7 and 8; O owns the cube at 4
        ("7R8AAAj2BwSAAQ", {"cube_value": 4, "cube_owner": 0}),
        # a stack of 11 (B), X owns the cube at 2 in a 5-point match, 1-1 ("1 point")
        ("7R8AgEOw/wMAYA", {"match_length": 5, "score": (1, 1), "cube_value": 2, "cube_owner": 1}),
        ("4HPwATDgc/ABMA", {"match_length": 7, "score": (3, 0)}),  # a match with the cube centred
    ],
)
def test_the_board_matches_gnubgs_own_show_board(
    position_id: str, state: dict[str, Any], tmp_path: Path
) -> None:
    match_info = MatchInfo(player_on_roll=1, player_to_act=1, dice=(6, 5), jacoby=not state, **state)
    gnubg_id = f"{position_id}:{match_info.match_id()}"
    script = tmp_path / "show_board.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import gnubg
            for command in ("set sound enable off", "set player 0 human", "set player 1 human",
                            "set gnubgid {gnubg_id}", "show board"):
                gnubg.command(command)
            """
        )
    )
    shown = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        check=True,
        stdin=subprocess.DEVNULL,
    ).stdout
    gnubg_board = [line.rstrip() for line in shown.split("\n\n")[-2].splitlines()]
    owner = {0: "O", 1: "X"}.get(state.get("cube_owner", -1))
    ours = draw(
        Table(
            variant=BACKGAMMON,
            position=Position.from_id(position_id),
            x_name="root",
            o_name="gnubg",
            on_roll="X",
            dice=(6, 5),
            cube_value=state.get("cube_value", 1),
            cube_owner=owner,  # type: ignore[arg-type]
            score=(state.get("score", (0, 0))[1], state.get("score", (0, 0))[0]),
            match_length=state.get("match_length", 0),
            title="GNU Backgammon",
            match_id=match_info.match_id(),
        )
    ).splitlines()
    assert gnubg_board[0].startswith(" GNU Backgammon  Position ID:")
    assert ours[:15] == gnubg_board


HINT = re.compile(
    r" Position ID: (?P<position>\S+)\n(?:.*\n)*?.*Rolled (?P<dice>\d\d)(?:.*\n)*?"
    r"GNU Backgammon's best play: (?P<best>.+?) \(equity (?P<equity>[+-]\d\.\d{3})\); "
    r"next best (?P<next>.+?) \((?P<next_equity>[+-]\d\.\d{3}), (?P<loss>\d\.\d{3}) worse\)\.$",
    re.MULTILINE,
)


def test_a_hint_is_gnu_backgammons_best_play_with_its_equity_and_the_next_best(client: TavliClient) -> None:
    output = io.StringIO()
    person = ScriptedPerson(client, output, plays_to_make=1, first_answers={"Your play with": "hint"})
    session = PlaySession(
        client, bots.create("random", seed=5), PlayOptions(dice_seed="hint-1"), input=person, output=output
    )
    assert session.run() == 0
    hint = HINT.search(output.getvalue())
    assert hint is not None, output.getvalue()
    dice = (int(hint["dice"][0]), int(hint["dice"][1]))
    ranked = client.ranked_plays(
        "backgammon", hint["position"], dice, analysis_pb2.GameContext(plies=HINT_PLIES)
    )
    assert (hint["best"], hint["next"]) == (ranked[0].play.notation, ranked[1].play.notation)
    assert float(hint["equity"]) == pytest.approx(ranked[0].equity, abs=0.0005)
    assert float(hint["loss"]) == pytest.approx(ranked[1].loss, abs=0.0005) and ranked[1].loss >= 0
    assert "heuristic bot would play" not in output.getvalue()


def test_a_hint_where_gnu_backgammon_has_no_evaluator_says_so_and_names_the_heuristic_bots_play(
    client: TavliClient,
) -> None:
    output = io.StringIO()
    person = ScriptedPerson(client, output, plays_to_make=1, first_answers={"Your play with": "hint"})
    options = PlayOptions(variant="plakoto", match_length=1, dice_seed="hint-plakoto")
    assert PlaySession(client, bots.create("random", seed=5), options, input=person, output=output).run() == 0
    assert re.search(
        r"^GNU Backgammon does not evaluate plakoto\. "
        r"The heuristic bot would play \S.* \(\d+ other legal plays?\)\.$",
        output.getvalue(),
        re.MULTILINE,
    ), output.getvalue()


def test_board_redraws_and_quit_leaves_the_table(client: TavliClient) -> None:
    output = io.StringIO()
    session = PlaySession(
        client,
        bots.create("random", seed=1),
        PlayOptions(dice_seed="quit-1"),
        input=io.StringIO("board\nhelp\nquit\n"),
        output=output,
    )
    assert session.run() == 0
    text = output.getvalue()
    assert text.count("+13-14-15-16-17-18------19-20-21-22-23-24-+") >= 2
    assert text.count("Commands: hint") == 2  # at the start and after 'help'
    assert "> quit\n" in text
    assert text.rstrip().endswith(
        "You leave the table. Running total after 0 games: you 0, the random bot 0 (you are 0)."
    )


def test_the_end_of_the_input_quits_cleanly(client: TavliClient) -> None:
    output = io.StringIO()
    session = PlaySession(
        client,
        bots.create("random", seed=1),
        PlayOptions(match_length=3, dice_seed="eof-1"),
        input=io.StringIO(""),
        output=output,
    )
    assert session.run() == 0
    assert (
        output.getvalue()
        .rstrip()
        .endswith("You leave the table. Score: you 0, the random bot 0 (match to 3).")
    )


def test_tavli_play_starts_its_own_server_when_none_is_given(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert (
        cli.main(["play", "--variant", "long-nardi", "--match", "3", "--bot", "random", "--seed", "4"]) == 0
    )
    out = capsys.readouterr().out
    assert "tavli: you play long nardi against the random bot: a 3-point match, without the cube." in out
    assert "You leave the table." in out


def test_tavli_play_refuses_the_cube_in_long_nardi(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["play", "--variant", "long-nardi", "--cube"]) == 2
    assert "long nardi is played without the cube" in capsys.readouterr().err


def test_tavli_play_takes_backgammons_as_gammon_and_offers_no_backgammon_to_resign(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("resign backgammon\nquit\n"))
    assert cli.main(["play", "--bot", "random", "--seed", "4", "--backgammons", "as-gammon"]) == 0
    out = capsys.readouterr().out
    assert "the random bot: money play, game after game, with the cube, backgammons scored as gammons." in out
    assert "resign [single|gammon]," in out
    refused = "Cannot read 'resign backgammon': type resign, or resign followed by one of: single, gammon."
    assert refused in out


def test_the_session_creates_its_game_with_the_backgammons_option(client: TavliClient) -> None:
    as_gammon, counted = games_pb2.BACKGAMMONS_AS_GAMMON, games_pb2.BACKGAMMONS_COUNTED
    for backgammons, expected in (("AS_GAMMON", as_gammon), ("COUNTED", counted)):
        options = PlayOptions(backgammons=backgammons, dice_seed="backgammons-1")  # type: ignore[arg-type]
        session = PlaySession(
            client, bots.create("random", seed=1), options, input=io.StringIO(""), output=io.StringIO()
        )
        assert session.run() == 0
        assert session.game.rule_set.backgammons == expected


@pytest.mark.parametrize(
    ("options", "refusal"),
    [
        (
            ["--variant", "long-nardi", "--backgammons", "as-gammon"],
            "tavli play: long nardi has no backgammons to score as gammons: its biggest win, a mars, is",
        ),
        (["--backgammons", "triple"], "argument --backgammons: invalid choice: 'triple'"),
    ],
)
def test_tavli_play_refuses_backgammons_it_cannot_play(
    options: list[str], refusal: str, capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        status = cli.main(["play", *options])
    except SystemExit as exit:  # argparse exits on a word it does not know
        status = exit.code  # type: ignore[assignment]
    assert status == 2
    assert refusal in capsys.readouterr().err


# --- clocks ------------------------------------------------------------------------------------

NOW = 1_800_000_000.0


def _clocked_game(
    *,
    remaining: tuple[float, float] | None = (300.0, 240.0),
    running: int = games_pb2.SEAT_1,
    turn_started: float = NOW - 20,
    delay: float = 0.0,
    move_limit: float = 0.0,
) -> games_pb2.Game:
    """A game with clocks as the server sends it: the running seat's reserve as at the start of its turn."""
    game = games_pb2.Game(name="games/clocked")
    settings = {"reserve": 300.0 if remaining else 0.0, "delay": delay, "move_limit": move_limit}
    for setting, seconds in settings.items():
        if seconds:
            getattr(game.rule_set.clock, setting).FromNanoseconds(round(seconds * 1e9))
    game.rule_set.clock.SetInParent()
    clocks = game.clocks
    for seconds in remaining or ():
        clocks.remaining.add().FromNanoseconds(round(seconds * 1e9))
    clocks.running = running
    if running != games_pb2.SEAT_UNSPECIFIED:
        clocks.turn_start_time.FromNanoseconds(round(turn_started * 1e9))
        clocks.delay_end_time.FromNanoseconds(round((turn_started + delay) * 1e9))
    return game


def _clock_text(game: games_pb2.Game, *, now: float = NOW, x_seat: int = games_pb2.SEAT_1) -> str:
    clocks = clocks_at(game, now, x_seat=x_seat, x_name="you", o_name="random bot")
    assert clocks is not None
    return draw_clocks(clocks)


@pytest.mark.parametrize(
    ("game", "shown"),
    [
        # the person's clock runs: 20 s of its 240 s used
        (_clocked_game(), "Clocks: you 3:40 (running), random bot 5:00."),
        # within the delay: no reserve used yet, and what is left of the delay shown
        (_clocked_game(delay=30), "Clocks: you 4:00 (running, delay 0:10 left), random bot 5:00."),
        # past the delay: only the time after it counts
        (_clocked_game(delay=12), "Clocks: you 3:52 (running), random bot 5:00."),
        # the bot's clock runs; the move limit of its turn runs down with it
        (
            _clocked_game(running=games_pb2.SEAT_0, move_limit=45),
            "Clocks: you 4:00, random bot 4:40 (running); move limit 0:25 left.",
        ),
        # no clock runs (the throw for who starts): no move limit left to show
        (
            _clocked_game(running=games_pb2.SEAT_UNSPECIFIED, move_limit=45),
            "Clocks: you 4:00, random bot 5:00.",
        ),
        # a clock with no reserve, only a move limit
        (
            _clocked_game(remaining=None, move_limit=60),
            "Clocks (no reserve): you (running), random bot; move limit 0:40 left.",
        ),
        # out of time, not yet recorded: never below 0
        (
            _clocked_game(turn_started=NOW - 500, move_limit=400),
            "Clocks: you 0:00 (running), random bot 5:00; move limit 0:00 left.",
        ),
    ],
)
def test_the_clocks_show_both_times_which_runs_its_delay_and_its_move_limit(
    game: games_pb2.Game, shown: str
) -> None:
    assert _clock_text(game) == shown


def test_the_clocks_are_shown_from_the_persons_side_whichever_seat_it_sits_at() -> None:
    game = _clocked_game(running=games_pb2.SEAT_0)
    assert _clock_text(game, x_seat=games_pb2.SEAT_0) == "Clocks: you 4:40 (running), random bot 4:00."


def test_a_game_without_clocks_shows_none() -> None:
    assert clocks_at(games_pb2.Game(name="games/plain"), NOW, x_seat=games_pb2.SEAT_1) is None


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [
        (0, "0:00"),
        (0.2, "0:01"),
        (59.9999999, "1:00"),
        (61, "1:01"),
        (599, "9:59"),
        (3599.5, "1:00:00"),
        (3600, "1:00:00"),
        (3661, "1:01:01"),
        (36000, "10:00:00"),
        (-3, "0:00"),
    ],
)
def test_a_time_is_shown_as_m_ss_and_from_an_hour_on_as_h_mm_ss(seconds: float, shown: str) -> None:
    assert clock_time(seconds) == shown


def test_the_clocks_line_names_x_first() -> None:
    clocks = Clocks(x_name="you", o_name="gnubg bot", x_time=4000, o_time=65.5, running="O", delay_left=3)
    assert draw_clocks(clocks) == "Clocks: you 1:06:40, gnubg bot 1:06 (running, delay 0:03 left)."


def test_a_game_with_a_clock_shows_it_before_every_decision(client: TavliClient) -> None:
    output = io.StringIO()
    person = ScriptedPerson(client, output)
    clock = ClockRules(reserve=600, delay=5, move_limit=300)
    options = PlayOptions(match_length=1, dice_seed="play-1", clock=clock)
    session = PlaySession(client, bots.create("random", seed=5), options, input=person, output=output)
    assert session.run() == 0
    text = output.getvalue()
    assert (
        "a 1-point match, without the cube, with a clock (10:00 each for the match, a delay of 0:05 a turn,"
        " at most 5:00 a turn)."
    ) in text
    assert "Your clock runs while you decide: if your time runs out, you lose the match." in text
    lines = text.splitlines()
    decisions = [number for number, line in enumerate(lines) if any(line.startswith(d) for d in _DECISIONS)]
    assert len(decisions) >= 2
    clocks = (
        r"Clocks: you \d+:\d\d \(running(, delay 0:0[1-5] left)?\), random bot \d+:\d\d; move limit "
        r"[45]:\d\d left\."
    )
    for number in decisions:
        assert re.fullmatch(clocks, lines[number - 1]), f"no clocks before {lines[number]!r}"
    assert session.game.phase == games_pb2.PHASE_MATCH_OVER


class SlowPerson(io.TextIOBase):
    """A person who takes ``seconds`` over each answer: resigns first, then leaves."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.answers = ["resign\n"]

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        time.sleep(self.seconds)
        return self.answers.pop(0) if self.answers else ""


def test_a_person_whose_time_runs_out_loses_the_match_on_time(client: TavliClient) -> None:
    output = io.StringIO()
    options = PlayOptions(match_length=1, cube=False, dice_seed="slow-1", clock=ClockRules(reserve=0.5))
    session = PlaySession(
        client, bots.create("random", seed=5), options, input=SlowPerson(1.5), output=output
    )
    assert session.run() == 0
    text = output.getvalue()
    assert "> resign\nYour time ran out.\n" in text, (
        "the refusal after the time ran out is told as the time loss"
    )
    assert "Not allowed" not in text
    ended = r"^\*\*\* The random bot wins game 1: a \w+( game)?, on time, 1 point\. \*\*\*$"
    assert re.search(ended, text, re.MULTILINE)
    assert "The random bot wins the match 1-0." in text
    assert session.game.finished_games[-1].ended_by == games_pb2.GAME_END_TIME


def test_tavli_play_takes_a_clock(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    clock = ["--clock-reserve", "90", "--clock-move-limit", "30"]
    assert cli.main(["play", "--bot", "random", "--seed", "4", *clock]) == 0
    out = capsys.readouterr().out
    assert "with a clock (1:30 each for the game, at most 0:30 a turn)." in out
    clocks = r"^Clocks: you 1:[0-3]\d \(running\), random bot 1:[0-3]\d; move limit 0:[0-3]\d left\.$"
    assert re.search(clocks, out, re.MULTILINE)


@pytest.mark.parametrize(
    ("options", "refusal"),
    [
        (["--clock-delay", "5"], "a clock needs a reserve, a reserve per point or a move limit"),
        (["--clock-reserve", "-1"], "the clock's reserve is between 0 and"),
    ],
)
def test_tavli_play_refuses_a_clock_it_cannot_set(
    options: list[str], refusal: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["play", *options]) == 2
    assert refusal in capsys.readouterr().err
