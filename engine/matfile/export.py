"""Writing a match as a .mat file, laid out exactly as GNU Backgammon's ``export match mat`` does
(its ExportGameJF), column widths included, so that gnubg, and the tools that read what gnubg
writes, read ours.

A game lost on time (:class:`~tavli.engine.events.TimeRanOut`) is written as gnubg writes an accepted
resignation, the winner's ``Wins N points`` with the points the time loss gave it, and named in a
header tag of tavli's own, ``; [Game 3 Time "Alice ran out of time"]``, by which tavli reads it
back as a time loss. gnubg ignores header tags it does not know and has no clocks: it reads the
game as a resignation, which it credits with at most three times the cube, so in a match it may
score the time loss lower than the points needed for the match that tavli gives (in money play
the cube's value is what both give). That is accepted: the format has no word for a time loss."""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from tavli.engine.events import (
    Beavered,
    Doubled,
    Dropped,
    Event,
    OpeningThrown,
    Played,
    ResignationAccepted,
    Rolled,
    Side,
    TimeRanOut,
    Took,
)
from tavli.engine.game import FinishedGame, apply, new_match
from tavli.engine.match import Match
from tavli.engine.matfile.header import MATCH_OPENINGS_WORDS, OPENING_WORDS, rule_headers, time_loss_tag
from tavli.engine.matfile.problems import points_in_words
from tavli.engine.play import Dice
from tavli.engine.position import OFF, Checkers
from tavli.engine.rules import RuleSet

# --- export ---------------------------------------------------------------------------------------

_RIGHT_COLUMN = " " * 34  # where gnubg writes the right column's "Wins" when nothing precedes it
_EMPTY_LEFT = "  1)" + " " * 29  # move 1 when player 1 starts: the left column is empty

RecordKind = Literal["move", "dice", "double", "take", "drop", "beaver", "resign"]


@dataclass(frozen=True, slots=True)
class _Record:
    """One entry of gnubg's move list for a game, what ExportGameJF turns into a column."""

    kind: RecordKind
    side: Side
    dice: Dice | None = None
    play: str = ""  # the steps as gnubg writes them
    cube: int = 1  # the cube after a double or beaver
    points: int = 0  # for drops, resignations and time losses: what the winner scores


@dataclass(slots=True)
class _GameRecord:
    number: int
    score: tuple[int, int]
    opening: tuple[Dice, ...] = ()
    records: list[_Record] = field(default_factory=list)
    finished: FinishedGame | None = None
    wins_match: bool = False
    ended_by_play_at: int | None = None  # the index of the record whose play ended the game
    ran_out_of_time: Side | None = None  # the side whose time ran out, in a game lost on time


def export_mat(
    match: Match | tuple[RuleSet, Iterable[Event]],
    *,
    players: tuple[str, str] = ("Player 0", "Player 1"),
    site: str | None = None,
    event: str | None = None,
    round: str | None = None,
    date: datetime.date | None = None,
    transcriber: str | None = None,
    comment: str | None = None,
    and_the_match: bool = True,
) -> str:
    """The match (finished or not, or a money session) as a .mat file, laid out as gnubg writes it.

    ``match`` is a :class:`~tavli.engine.match.Match` or a rule set with its event log. Player 0 is the
    left column. The optional header lines are gnubg's (``site``, ``event``, ``round``, ``date``,
    ``transcriber``, ``comment``); rule options gnubg has no word for are added as header lines
    gnubg keeps as a comment (``; [Jacoby "On"]``). gnubg itself never writes `` and the match``
    after the last game's result (its source has a FIXME there) but reads past it, as JellyFish
    wrote it; it is written unless ``and_the_match`` is false.

    :raises ValueError: for a player name that would break the layout (empty, a colon or a line break).
    :raises ActionError: if the event log breaks the rules.
    """
    rules, events = (match.rules, match.events) if isinstance(match, Match) else (match[0], list(match[1]))
    for name in players:
        if not name.strip() or ":" in name or name.splitlines() != [name]:
            raise ValueError(
                f"a player's name in a .mat file cannot be empty or hold ':' or a line break: {name!r}"
            )
    games = _game_records(rules, events)
    lines = _header_lines(rules, _time_losses(games, players), site, event, round, date, transcriber, comment)
    text = "".join(lines) + "\n" + f" {rules.match_length} point match\n\n"
    for game in games:
        text += _format_game(game, rules, players, and_the_match)
    return text if text.endswith("\n") else text + "\n"


def _header_lines(
    rules: RuleSet,
    time_losses: list[tuple[str, str]],
    site: str | None,
    event: str | None,
    round: str | None,
    date: datetime.date | None,
    transcriber: str | None,
    comment: str | None,
) -> list[str]:
    lines = []
    for key, value in (("Site", site), ("Event", event), ("Round", round)):
        if value:
            lines.append(f'; [{key} "{value}"]\n')
    if date is not None:
        lines.append(f'; [EventDate "{date.year:04d}.{date.month:02d}.{date.day:02d}"]\n')
    lines.extend(f'; [{key} "{value}"]\n' for key, value in rule_headers(rules) + time_losses)
    if transcriber:
        lines.append(f'; [Transcriber "{transcriber}"]\n')
    if comment:
        lines.append("\n; " + comment.rstrip("\n").replace("\n", "\n; "))
    return lines


def _time_losses(games: list[_GameRecord], players: tuple[str, str]) -> list[tuple[str, str]]:
    """The header lines naming each game lost on time and who ran out of time in it (a name's
    double quotes, which would end the tag, written as single ones)."""
    return [
        (time_loss_tag(game.number), players[game.ran_out_of_time].replace('"', "'") + " ran out of time")
        for game in games
        if game.ran_out_of_time is not None
    ]


def _game_records(rules: RuleSet, events: Iterable[Event]) -> list[_GameRecord]:
    """Replay ``events`` and turn each game into gnubg's move records."""
    state = new_match(rules)
    games = [_GameRecord(number=1, score=state.score)]
    rolled: Rolled | None = None  # a roll not yet played
    for event in events:
        game = games[-1]
        before = state
        state = apply(state, event)
        if isinstance(event, OpeningThrown):
            game.opening = event.throws
            if state.game.dice is not None:  # the opening throw is the starter's first roll
                rolled = Rolled(state.game.turn, state.game.dice)
        elif isinstance(event, Rolled):
            rolled = event
        elif isinstance(event, Played):
            assert before.game.dice is not None
            moves = [(step.start, step.end) for step in event.steps]
            written = _plain_steps(moves, before.game.position.opponent, before.game_rules)
            game.records.append(_Record("move", event.side, before.game.dice, written))
            rolled = None
        elif isinstance(event, Doubled):
            game.records.append(_Record("double", event.side, cube=before.game.cube_value * 2))
        elif isinstance(event, Took):
            game.records.append(_Record("take", event.side))
        elif isinstance(event, Beavered):
            game.records.append(_Record("beaver", event.side, cube=state.game.cube_value))
        elif isinstance(event, Dropped):
            game.records.append(_Record("drop", event.side, points=before.game.cube_value))
        elif isinstance(event, ResignationAccepted):
            assert before.game.resignation is not None
            resigner = before.game.resignation[0]
            game.records.extend(_given_up(rolled, resigner, state.finished[-1].points))
        elif isinstance(event, TimeRanOut):
            # Written as a resignation: gnubg has no clocks (the header names the game, see above).
            game.records.extend(_given_up(rolled, event.side, state.finished[-1].points))
            game.ran_out_of_time = event.side
        if len(state.finished) > len(before.finished):
            game.finished = state.finished[-1]
            game.wins_match = state.over
            if isinstance(event, Played):
                game.ended_by_play_at = len(game.records) - 1
            rolled = None
            if not state.over:
                games.append(_GameRecord(number=state.game.number, score=state.score))
    if rolled is not None:
        games[-1].records.append(_Record("dice", rolled.side, rolled.dice))
    last = games[-1]
    if len(games) > 1 and not last.records and not last.opening:
        games.pop()  # the next game has not started
    return games


def _given_up(rolled: Rolled | None, loser: Side, points: int) -> list[_Record]:
    """The records of a game ``loser`` gives up (by resigning, or on time) with ``points`` to the
    winner: the roll not yet played, if any, then the winner's result."""
    records = [] if rolled is None else [_Record("dice", rolled.side, rolled.dice)]
    return records + [_Record("resign", loser, points=points)]


def _format_game(game: _GameRecord, rules: RuleSet, players: tuple[str, str], and_the_match: bool) -> str:
    """One game as gnubg's ExportGameJF writes it, column widths and trailing spaces included."""
    score_left = f"{players[0]} : {game.score[0]}"
    out = [f" Game {game.number}\n", f" {score_left:<31}{players[1]} : {game.score[1]}\n"]
    if game.opening and (
        rules.opening != "PLAY_OPENING_DICE" or (rules.automatic_doubles and len(game.opening) > 1)
    ):
        out.append('; [Opening "' + " ".join(f"{a}-{b}" for a, b in game.opening) + '"]\n')
    suffix = " and the match" if game.wins_match and and_the_match and rules.is_match else ""
    i = 0
    dice_rolled = 0
    for index, record in enumerate(game.records):
        if record.kind == "move":
            dice_rolled = 0
            assert record.dice is not None
            text = f"{record.dice[0]}{record.dice[1]}: " + record.play
        elif record.kind == "dice":
            assert record.dice is not None
            text = f"{record.dice[0]}{record.dice[1]}: "
            dice_rolled = 1
        elif record.kind == "double":
            text = f" Doubles => {record.cube}"
        elif record.kind == "beaver":
            text = f" Beavers => {record.cube}"
        elif record.kind == "take":
            text = " Takes"
        elif record.kind == "drop":
            gap = "\n      " if i & 1 else " " * 23
            text = f" Drops{gap}Wins {points_in_words(record.points)}{suffix}"
        else:  # resign
            wins = f"Wins {points_in_words(record.points)}{suffix}\n"
            if dice_rolled and (record.side == 1) == bool(i & 1):
                # gnubg would write "31:       Wins" or "31:  Wins" here, which its own reader
                # takes for a roll and loses the result: the result goes on a line of its own.
                text = "\n" + ("      " if record.side == 1 else _RIGHT_COLUMN) + wins
            elif record.side == 1:
                text = ("\n" if (i & 1) ^ dice_rolled else "") + "      " + wins
            elif i & 1:
                text = (" " if (i & 1) ^ dice_rolled else " " * 24) + wins
            else:
                text = (" " if (i & 1) ^ dice_rolled else _RIGHT_COLUMN) + wins
        if i == 0 and record.side == 1 and record.kind != "resign":
            out.append(_EMPTY_LEFT)
            i += 1
        if i & 1 or record.kind == "resign":
            out.append(text)
            if record.kind != "dice":
                out.append("\n")
        elif record.kind != "dice":
            out.append(f"{i // 2 + 1:3d}) {text:<27} ")
        else:
            out.append(f"{i // 2 + 1:3d}) {text:<3}")
        if record.kind == "drop":
            out.append("\n" if i & 1 else "\n\n")
        if index == game.ended_by_play_at:
            assert game.finished is not None
            prefix = _RIGHT_COLUMN if i & 1 else "\n      "
            out.append(f"{prefix}Wins {points_in_words(game.finished.points)}{suffix}\n\n")
        i += 1
    return "".join(out)


def _plain_steps(steps: Iterable[tuple[int, int]], opponent: Checkers, rules: RuleSet) -> str:
    """A play as gnubg's FormatMovePlain writes it: each step ``from/to`` (bar 25, off 0), a space
    after each of the first three.

    A step is marked ``*`` when an opposing checker stood on its landing point before the play and
    no earlier step landed there: the hit, marked once.
    """
    parts = []
    landed: set[int] = set()
    for start, end in steps:
        hit = rules.rules.hits and end != OFF and end not in landed
        hit = hit and opponent[rules.rules.opponent_point(end)] > 0
        landed.add(end)
        parts.append(f"{start}/{end}" + ("*" if hit else ""))
    return "".join(part + (" " if index < 3 else "") for index, part in enumerate(parts))


__all__ = [
    "MATCH_OPENINGS_WORDS",
    "OPENING_WORDS",
    "export_mat",
    "rule_headers",
    "time_loss_tag",
]
