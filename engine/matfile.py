""".mat match records: the text format GNU Backgammon writes and reads, and eXtreme Gammon imports.

A .mat file is a header (comment lines ``; [Key "value"]`` and ``N point match``, 0 for money
play) and then each game: `` Game n``, a score line, and numbered lines of two columns, player 0
on the left. A column holds a roll and its play (``31: 8/5 6/5``), a cube action (`` Doubles => 2``,
`` Takes``, `` Drops``) or a result (``Wins 2 points``). Each play is written from its own mover's
side, one step a checker, the bar as 25 and off as 0, exactly as GNU Backgammon's
``export match mat`` does (its ExportGameJF); :func:`export_mat` copies its column widths to the
character, so that gnubg, and the tools that read what gnubg writes, read ours.

:func:`import_mat` reads such files, from gnubg or other programs (header lines, spacing, dice
written low first, ``Cannot Move``, ``Beavers``, the words in either case), and replays every game
through the engine's state machine: a play or cube action the rules forbid stops the import with
a :class:`MatFileError` naming the game, the move number, the side and the reason.

What the format cannot say: the ties of an opening throw, rejected resignations (gnubg does not
record them either) and which plays the engine made by itself. Long nardi is written in the same
layout with a ``; [Variation "Long Nardi"]`` header and, because its opening throw is not played,
an ``; [Opening "6-2"]`` line in each game: tavli reads these files back; other programs do not.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal, NoReturn

from tavli.engine.errors import TavliError
from tavli.engine.events import (
    Beavered,
    Doubled,
    Dropped,
    Event,
    OpeningThrown,
    Played,
    ResignationAccepted,
    ResignationOffered,
    Rolled,
    Side,
    Took,
)
from tavli.engine.game import (
    ActionError,
    FinishedGame,
    MatchState,
    Phase,
    apply,
    legal_plays,
    make_play,
    new_match,
    other,
    read_play,
)
from tavli.engine.match import Match, played
from tavli.engine.play import Dice, Step, format_steps
from tavli.engine.position import OFF, Checkers
from tavli.engine.rules import InvalidRuleSetError, RuleSet
from tavli.engine.variant import Variant
from tavli.engine.variants import VARIANTS

# --- errors and results ---------------------------------------------------------------------------


class MatFileError(TavliError):
    """A .mat file that cannot be read, or that records something the rules do not allow.

    ``game`` and ``move_number`` say where (``None`` before the first game or outside move lines),
    ``side`` who acted (0 is the left column) and ``player`` its name, ``reason`` why in words,
    ``action`` what was attempted ("plays '6/2 6/1' with 4-5"), ``line`` the file's line.
    """

    def __init__(
        self,
        reason: str,
        *,
        game: int | None = None,
        move_number: int | None = None,
        side: Side | None = None,
        player: str | None = None,
        action: str = "",
        line: int | None = None,
    ) -> None:
        self.reason = reason
        self.game = game
        self.move_number = move_number
        self.side = side
        self.action = action
        self.line = line
        where = []
        if game is not None:
            where.append(f"game {game}")
        if move_number is not None:
            where.append(f"move {move_number}")
        if side is not None:
            where.append(f"player {side}" + (f" ({player})" if player else ""))
        if line is not None:
            where.append(f"line {line}")
        prefix = ", ".join(where)
        what = f"{action}: " if action else ""
        super().__init__(f"{prefix}: {what}{reason}" if prefix else f"{what}{reason}")


@dataclass(frozen=True, slots=True)
class ImportedGame:
    """One game of a .mat file: its events for the engine and how it ended (``None``: unfinished)."""

    number: int
    score: tuple[int, int]  # at the start of the game
    events: tuple[Event, ...]
    result: FinishedGame | None


@dataclass(frozen=True)
class ImportedMatch:
    """A .mat file read back and replayed: the rules, the players, every game and the engine match."""

    rules: RuleSet
    players: tuple[str, str]
    games: tuple[ImportedGame, ...]
    match: Match = field(compare=False, repr=False)
    headers: dict[str, str] = field(default_factory=dict)

    @property
    def match_length(self) -> int:
        """The points the match is played to; 0 for money play."""
        return self.rules.match_length

    @property
    def score(self) -> tuple[int, int]:
        """The score after the last game recorded."""
        return self.match.state.score

    @property
    def winner(self) -> Side | None:
        """Who won the match, if it is over."""
        return self.match.state.winner

    @property
    def events(self) -> list[Event]:
        """The whole match's log, every game in turn."""
        return self.match.events


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
    points: int = 0  # for drops and resignations: what the winner scores


@dataclass(slots=True)
class _GameRecord:
    number: int
    score: tuple[int, int]
    opening: tuple[Dice, ...] = ()
    records: list[_Record] = field(default_factory=list)
    finished: FinishedGame | None = None
    wins_match: bool = False
    ended_by_play_at: int | None = None  # the index of the record whose play ended the game


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

    ``match`` is a :class:`~engine.match.Match` or a rule set with its event log. Player 0 is the
    left column. The optional header lines are gnubg's (``site``, ``event``, ``round``, ``date``,
    ``transcriber``, ``comment``); rule options gnubg has no word for are added as header lines
    gnubg keeps as a comment (``; [Jacoby "On"]``). gnubg itself never writes `` and the match``
    after the last game's result (its source has a FIXME there) but reads past it, as JellyFish
    wrote it; it is written unless ``and_the_match`` is false.

    :raises ValueError: for a player name that would break the layout (a colon or a line break).
    :raises ActionError: if the event log breaks the rules.
    """
    rules, events = (match.rules, match.events) if isinstance(match, Match) else (match[0], list(match[1]))
    for name in players:
        if not name.strip() or ":" in name or "\n" in name or "\r" in name or "Game " in name:
            raise ValueError(
                f"a player's name in a .mat file cannot be empty or hold ':', 'Game ' or a line break: {name!r}"
            )
    lines = _header_lines(rules, site, event, round, date, transcriber, comment)
    text = "".join(lines) + "\n" + f" {rules.match_length} point match\n\n"
    for game in _game_records(rules, events):
        text += _format_game(game, rules, players, and_the_match)
    return text if text.endswith("\n") else text + "\n"


def _header_lines(
    rules: RuleSet,
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
    lines.extend(f'; [{key} "{value}"]\n' for key, value in _rule_headers(rules))
    if transcriber:
        lines.append(f'; [Transcriber "{transcriber}"]\n')
    if comment:
        lines.append("\n; " + comment.rstrip("\n").replace("\n", "\n; "))
    return lines


def _rule_headers(rules: RuleSet) -> list[tuple[str, str]]:
    """The header lines for the rule options that differ from what a .mat file is assumed to mean."""
    default = RuleSet(variant=rules.variant, match_length=rules.match_length)
    headers = []
    if rules.rules.mat_variation is not None:
        headers.append(("Variation", rules.rules.mat_variation))
    if rules.is_match and not rules.crawford:
        headers.append(("Crawford", "Off"))
    if rules.jacoby:
        headers.append(("Jacoby", "On"))
    if rules.beavers:
        headers.append(("Beaver", "On"))
    if rules.cube != default.cube:
        headers.append(("Cube", "On" if rules.cube else "Off"))
    if rules.cube_limit != default.cube_limit:
        headers.append(("CubeLimit", str(rules.cube_limit)))
    if rules.automatic_doubles:
        headers.append(("AutomaticDoubles", str(rules.automatic_doubles_limit)))
    if rules.opening != default.opening:
        headers.append(("OpeningThrow", _OPENING_WORDS[rules.opening or "PLAY_OPENING_DICE"]))
    if rules.match_openings != default.match_openings:
        headers.append(("MatchOpenings", "WinnerOpens"))
    return headers


_OPENING_WORDS = {"PLAY_OPENING_DICE": "Played", "WINNER_ROLLS_AGAIN": "WinnerRollsAgain"}


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
            written = _plain_steps(moves, before.game.position.opponent, rules)
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
            if rolled is not None:
                game.records.append(_Record("dice", rolled.side, rolled.dice))
            assert before.game.resignation is not None
            resigner = before.game.resignation[0]
            game.records.append(_Record("resign", resigner, points=state.finished[-1].points))
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
            text = f" Drops{gap}Wins {_points(record.points)}{suffix}"
        else:  # resign
            wins = f"Wins {_points(record.points)}{suffix}\n"
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
            out.append(f"{prefix}Wins {_points(game.finished.points)}{suffix}\n\n")
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


def _points(points: int) -> str:
    return f"{points} point" + ("" if points == 1 else "s")


# --- import ---------------------------------------------------------------------------------------

_HEADER = re.compile(r'^\s*[;#]\s*\[\s*(?P<key>[^"\]]*?)\s*"(?P<value>[^"]*)"\s*\]')
_LENGTH = re.compile(r"^\s*(?P<length>\d+)\s*[Pp]oint\s+[Mm]atch")
_GAME = re.compile(r"^\s*Game\s+(?P<number>\d+)\s*$")
_SCORE = re.compile(
    r"^\s*(?P<name0>[^:]*?)\s*:\s*(?P<score0>\d+)\s+(?P<name1>[^:]*?)\s*:\s*(?P<score1>\d+)\s*$"
)
_MOVE_NUMBER = re.compile(r"^\s*(?P<number>\d+)\)")
_ITEM = re.compile(
    r"(?P<dice>(?<![\w/])[1-6][1-6]:)"
    r"|(?P<word>\b(?:doubles?|takes?|drops?|beavers?|raccoons?|wins?|resigns?)\b)",
    re.IGNORECASE,
)
_RIGHT_FROM = 20  # an item that starts this far into a line stands in the right column


def _is_result(found: re.Match[str]) -> bool:
    return bool(found["word"]) and found["word"].lower().startswith("win")


@dataclass(frozen=True, slots=True)
class _Item:
    """One column's entry: a roll and its play, a cube action or a result."""

    side: Side
    word: str  # "dice", "double", "take", "drop", "beaver", "raccoon", "win", "resign"
    text: str  # for dice: the play written after them; for others: the rest of the entry
    dice: Dice | None
    move_number: int | None
    line: int


def import_mat(text: str, *, rules: RuleSet | None = None) -> ImportedMatch:
    """The match a .mat file records, every game replayed and checked by the engine.

    The rules come from the file (its match length and header lines such as
    ``; [Variation "Long Nardi"]``, ``; [Jacoby "On"]``) unless ``rules`` is given.

    :raises MatFileError: for a file that cannot be read, or on the first play, cube action or
        result that the rules do not allow, with the game, move number, side and reason.
    """
    lines = text.lstrip("\ufeff").splitlines()
    headers, length, start = _read_header(lines)
    if rules is None:
        rules = _rules_from_headers(headers, length)
    elif rules.match_length != length:
        raise MatFileError(f"the file is a {length} point match, the rules given say {rules.match_length}")
    blocks = _game_blocks(lines, start)
    if not blocks:
        raise MatFileError("the file holds no game")
    reader = _GameReader(rules)
    players: tuple[str, str] | None = None
    for position, (number, first, last) in enumerate(blocks):
        index = first
        while index < last and not lines[index].strip():
            index += 1
        score = _SCORE.match(lines[index]) if index < last else None
        if score is None:
            raise MatFileError(
                "a game starts with a score line, like ' Alice : 0   Bob : 0'", game=number, line=index + 1
            )
        if players is None:
            players = (score["name0"], score["name1"])
        reader.players = players
        reader.start_game(number, (int(score["score0"]), int(score["score1"])), index + 1)
        for line_index in range(index + 1, last):
            reader.read_line(lines[line_index], line_index + 1)
        reader.end_game(last=position == len(blocks) - 1, line=last)
    assert players is not None
    return ImportedMatch(
        rules=rules,
        players=players,
        games=tuple(reader.games),
        match=Match.replay(rules, reader.events),
        headers=headers,
    )


def _game_blocks(lines: Sequence[str], start: int) -> list[tuple[int, int, int]]:
    """Each game's number and the range of its lines, after the header."""
    blocks: list[tuple[int, int, int]] = []
    for index in range(start, len(lines)):
        line = lines[index]
        game = _GAME.match(line)
        if game is not None:
            if blocks:
                blocks[-1] = blocks[-1][:2] + (index,)
            blocks.append((int(game["number"]), index + 1, len(lines)))
        elif not blocks and line.strip() and not line.lstrip().startswith((";", "#")):
            raise MatFileError(f"expected ' Game 1', found {line.strip()!r}", line=index + 1)
    return blocks


def _read_header(lines: Sequence[str]) -> tuple[dict[str, str], int, int]:
    """The header's ``[Key "value"]`` lines, the match length and the index of the line after it."""
    headers: dict[str, str] = {}
    for index, line in enumerate(lines):
        header = _HEADER.match(line)
        if header is not None:
            headers[header["key"]] = header["value"]
            continue
        length = _LENGTH.match(line)
        if length is not None:
            return headers, int(length["length"]), index + 1
        if _GAME.match(line):
            break
    raise MatFileError("not a .mat file: no ' N point match' line before the first game")


def _variant_named(variation: str) -> Variant:
    """The variant a ``Variation`` header names; without one, a .mat file is backgammon's."""
    def plain(name: str) -> str:
        return re.sub(r"[\s_-]", "", name.lower())

    for variant in VARIANTS.values():
        if plain(variation) in {plain(variant.title), plain(variant.mat_variation or variant.title)}:
            return variant
    titles = " and ".join(variant.title for variant in VARIANTS.values())
    raise MatFileError(f"tavli plays {titles}, not {variation!r}")


def _rules_from_headers(headers: dict[str, str], length: int) -> RuleSet:
    def on(key: str) -> bool | None:
        value = headers.get(key)
        return None if value is None else value.strip().lower() in ("on", "yes", "true", "1")

    options: dict[str, object] = {"match_length": length}
    variation = headers.get("Variation", headers.get("Variant"))
    if variation is not None:
        options["variant"] = _variant_named(variation).name
    if length and on("Crawford") is False:
        options["crawford"] = False
    if not length:
        for key, option in (("Jacoby", "jacoby"), ("Beaver", "beavers")):
            if on(key):
                options[option] = True
    if on("Cube") is not None:
        options["cube"] = on("Cube")
    for key, option in (("CubeLimit", "cube_limit"), ("AutomaticDoubles", "automatic_doubles_limit")):
        if key in headers:
            try:
                options[option] = int(headers[key])
            except ValueError:
                raise MatFileError(f"the header's {key} is a number, not {headers[key]!r}") from None
    if "AutomaticDoubles" in headers:
        options["automatic_doubles"] = True
    if "OpeningThrow" in headers:
        words = {word.lower(): rule for rule, word in _OPENING_WORDS.items()}
        options["opening"] = words.get(headers["OpeningThrow"].lower(), headers["OpeningThrow"])
    if headers.get("MatchOpenings", "").lower() == "winneropens":
        options["match_openings"] = "WINNER_OPENS"
    try:
        return RuleSet(**options)  # type: ignore[arg-type]
    except InvalidRuleSetError as error:
        raise MatFileError(f"the header's rules do not go together: {error}") from None


class _GameReader:
    """Turns a game's lines into events and applies each one, so that the first illegal one stops it."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.state: MatchState = new_match(rules)
        self.events: list[Event] = []
        self.games: list[ImportedGame] = []
        self._game_events: list[Event] = []
        self._number = 0
        self._score = (0, 0)
        self._opening: tuple[Dice, ...] | None = None
        self._unplayed: _Item | None = None  # a roll written without a play: a resignation must follow
        self._move_number: int | None = None
        self.players: tuple[str, str] = ("", "")

    # --- games -------------------------------------------------------------------------------

    def start_game(self, number: int, score: tuple[int, int], line: int) -> None:
        state = self.state
        if state.over:
            raise MatFileError("the match was already over", game=number, line=line)
        if number != state.game.number:
            raise MatFileError(
                f"game {state.game.number} comes next, not game {number}", game=number, line=line
            )
        if score != state.score:
            raise MatFileError(
                f"the score line says {score[0]}-{score[1]}, but the games before make it"
                f" {state.score[0]}-{state.score[1]}",
                game=number,
                line=line,
            )
        self._number, self._score = number, score
        self._game_events = []
        self._opening = None
        self._unplayed = None
        self._move_number = None

    def end_game(self, *, last: bool, line: int) -> None:
        """Close the game; only the file's last game may be unfinished."""
        if not last and not self._game_over():
            if self._unplayed is not None:
                self._play_unwritten()
            raise MatFileError("the game ends before anyone has won it", game=self._number, line=line)
        if self._opening is not None and self.state.game.phase is Phase.OPENING and not self._game_over():
            self.state = apply(self.state, OpeningThrown(self._opening))  # thrown, not yet played
            self.events.append(OpeningThrown(self._opening))
            self._game_events.append(OpeningThrown(self._opening))
        finished = next((game for game in self.state.finished if game.number == self._number), None)
        self.games.append(ImportedGame(self._number, self._score, tuple(self._game_events), finished))

    # --- lines -------------------------------------------------------------------------------

    def read_line(self, line: str, line_number: int) -> None:
        if not line.strip():
            return
        if line.lstrip().startswith((";", "#")):
            opening = _HEADER.match(line)
            if opening is not None and opening["key"] == "Opening":
                self._opening = self._read_opening(opening["value"], line_number)
            return
        for item in self._items(line, line_number):
            self._apply_item(item)

    def _items(self, line: str, line_number: int) -> list[_Item]:
        move_number = _MOVE_NUMBER.match(line)
        offset = 0
        if move_number is not None:
            self._move_number = int(move_number["number"])
            offset = move_number.end()
        starts = list(_ITEM.finditer(line, offset))
        if not starts:
            raise MatFileError(
                f"cannot read {line.strip()!r}",
                game=self._number,
                move_number=self._move_number,
                line=line_number,
            )
        leftover = line[offset : starts[0].start()].strip()
        if leftover:
            raise MatFileError(
                f"cannot read {leftover!r}",
                game=self._number,
                move_number=self._move_number,
                line=line_number,
            )
        items = []
        for position, found in enumerate(starts):
            end = starts[position + 1].start() if position + 1 < len(starts) else len(line)
            # The right column starts far into the line, or after the left one; a result stands in
            # the winner's column, which gnubg may write after a roll of the same line.
            right = found.start() >= _RIGHT_FROM or (position > 0 and not _is_result(found))
            side: Side = 1 if right else 0
            rest = line[found.end() : end].strip()
            if found["dice"]:
                dice = (int(found["dice"][0]), int(found["dice"][1]))
                items.append(_Item(side, "dice", rest, dice, self._move_number, line_number))
            else:
                word = found["word"].lower().rstrip("s")
                items.append(_Item(side, word, rest, None, self._move_number, line_number))
        return items

    def _read_opening(self, value: str, line: int) -> tuple[Dice, ...]:
        throws = []
        for throw in value.split():
            found = re.fullmatch(r"([1-6])-([1-6])", throw)
            if found is None:
                raise MatFileError(
                    f"an opening throw is written like 6-2, not {throw!r}", game=self._number, line=line
                )
            throws.append((int(found[1]), int(found[2])))
        if not throws:
            raise MatFileError("the opening line names no throw", game=self._number, line=line)
        return tuple(throws)

    # --- items -------------------------------------------------------------------------------

    def _apply_item(self, item: _Item) -> None:
        if item.word == "resign":
            return  # gnubg ignores these too: the "Wins" entry says what the resignation was worth
        if self._unplayed is not None and item.word != "win":
            self._play_unwritten()
        if self._game_over():
            if item.word == "win":
                self._check_result(item)
                return
            self._fail(item, "the game is already over", self._describe(item))
        if self.state.game.phase is Phase.OPENING and item.word != "win":
            self._open(item)
        if item.word == "dice":
            self._roll_and_play(item)
        elif item.word == "double":
            self._apply(item, Doubled(item.side), "doubles")
            self._check_cube(item, "doubles")
        elif item.word == "beaver":
            self._apply(item, Beavered(item.side), "beavers")
            self._check_cube(item, "beavers")
        elif item.word == "take":
            self._apply(item, Took(item.side), "takes")
        elif item.word == "drop":
            self._apply(item, Dropped(item.side), "drops")
        elif item.word == "win":
            self._resign(item)
        else:
            self._fail(item, f"tavli does not play {item.word}s", item.word)

    def _roll_and_play(self, item: _Item) -> None:
        assert item.dice is not None
        dice = item.dice
        rolled = f"{dice[0]}-{dice[1]}"
        game = self.state.game
        if game.phase is Phase.PLAYING and game.turn == item.side and not self._game_events_since_opening():
            if game.dice is None or sorted(game.dice) != sorted(dice):
                shown = f"{game.dice[0]}-{game.dice[1]}" if game.dice else "nothing"
                self._fail(item, f"the opening throw gave {shown}", f"plays {rolled}")
        else:
            self._apply(item, Rolled(item.side, dice), f"rolls {rolled}")
        play = item.text
        if play.lower().startswith("cannot move"):
            play = ""
        if play.startswith("???"):
            self._unplayed = item
            return
        if not play and legal_plays(self.state)[0].steps:
            self._unplayed = item  # a resignation follows, or the play was forced
            return
        self._play(item, play)

    def _play_unwritten(self) -> None:
        """A roll written without its play and not followed by a resignation: the play was forced
        (gnubg reads it so), or there is none and the engine says what should have been played."""
        item, self._unplayed = self._unplayed, None
        assert item is not None
        plays = legal_plays(self.state)
        self._play(item, plays[0].steps if len(plays) == 1 else "")

    def _game_events_since_opening(self) -> bool:
        """Whether anything but the opening throw has happened in this game."""
        return any(not isinstance(event, OpeningThrown) for event in self._game_events)

    def _open(self, item: _Item) -> None:
        """The opening throw, which a .mat file does not write: from the game's ``Opening`` line,
        else from the first play's dice when the opening throw is played, else made up."""
        throws = self._opening
        if throws is None:
            if self.rules.opening == "PLAY_OPENING_DICE":
                if item.word != "dice" or item.dice is None:
                    self._fail(
                        item,
                        "the game starts with the opening throw, played as the first move",
                        self._describe(item),
                    )
                high, low = max(item.dice), min(item.dice)
                if high == low:
                    self._fail(
                        item,
                        "the opening throw cannot be a double: its dice are the two players' throws",
                        self._describe(item),
                    )
                throws = ((high, low),) if item.side == 0 else ((low, high),)
            else:
                throws = ((2, 1),) if item.side == 0 else ((1, 2),)  # only who started is known
        self._apply(item, OpeningThrown(throws, item.side), "throws for who starts")
        if self.state.game.turn != item.side:
            self._fail(item, f"player {self.state.game.turn} won the opening throw", self._describe(item))

    def _play(self, item: _Item, play: str | tuple[Step, ...]) -> None:
        assert item.dice is not None
        written = play if isinstance(play, str) else format_steps(play)
        action = f"plays {written or 'nothing'!r} with {item.dice[0]}-{item.dice[1]}"
        try:
            chosen = read_play(self.state, item.side, play)
        except ActionError as error:
            self._fail(item, error.reason, action)
        self._append(played(item.side, chosen), make_play(self.state, item.side, chosen))

    def _resign(self, item: _Item) -> None:
        """``Wins N points`` while the game is still on: the other side resigned (as gnubg reads it)."""
        points = self._written_points(item)
        cube = self.state.game.cube_value
        # The least the resignation can have been for to be worth the points written.
        levels = self.rules.rules.resign_levels
        level = next((level for level in levels if level.multiplier * cube >= points), levels[-1])
        loser = other(item.side)
        self._unplayed = None
        if self.state.game.phase is Phase.OPENING:
            # Resigned before the first roll: the throw for who starts is only in an Opening line
            # (a file without one does not say who started, and it makes no difference here).
            throws = self._opening or ((2, 1),)
            self._apply(item, OpeningThrown(throws, item.side), "throws for who starts")
        self._apply(item, ResignationOffered(loser, level.value), f"player {loser} resigns")
        self._apply(item, ResignationAccepted(item.side), "accepts the resignation")
        self._check_result(item)

    def _check_result(self, item: _Item) -> None:
        finished = next(game for game in self.state.finished if game.number == self._number)
        points = self._written_points(item) if item.word == "win" else finished.points
        if (finished.winner, finished.points) != (item.side, points):
            self._fail(
                item,
                f"the game ended with player {finished.winner} winning {_points(finished.points)}",
                f"wins {_points(points)}",
            )

    def _check_cube(self, item: _Item, action: str) -> None:
        written = re.fullmatch(r"=>\s*(\d+)", item.text)
        value = self.state.game.cube_value * (2 if self.state.game.phase is Phase.DOUBLED else 1)
        if written is not None and int(written[1]) != value:
            self._fail(item, f"that turns the cube to {value}", f"{action} => {written[1]}")

    def _written_points(self, item: _Item) -> int:
        written = re.match(r"(\d+)\s+points?\b", item.text, re.IGNORECASE)
        if written is None:
            self._fail(item, "a result is written 'Wins 2 points'", f"wins {item.text}")
        return int(written[1])

    # --- the engine ------------------------------------------------------------------------------

    def _game_over(self) -> bool:
        return any(game.number == self._number for game in self.state.finished)

    def _apply(self, item: _Item, event: Event, action: str) -> None:
        try:
            after = apply(self.state, event)
        except ActionError as error:
            self._fail(item, error.reason, action)
        self._append(event, after)

    def _append(self, event: Event, after: MatchState) -> None:
        self.state = after
        self.events.append(event)
        self._game_events.append(event)

    def _fail(self, item: _Item, reason: str, action: str) -> NoReturn:
        raise MatFileError(
            reason,
            game=self._number,
            move_number=item.move_number,
            side=item.side,
            player=self.players[item.side],
            action=action,
            line=item.line,
        )

    @staticmethod
    def _describe(item: _Item) -> str:
        if item.dice is not None:
            return f"plays {item.text!r} with {item.dice[0]}-{item.dice[1]}"
        return f"{item.word}s {item.text}".strip()


__all__ = ["ImportedGame", "ImportedMatch", "MatFileError", "export_mat", "import_mat"]
