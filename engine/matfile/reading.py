"""Reading a .mat file's text, in any program's dialect, into what it records, line by line.

Reading is lenient and knows no rules: it finds the header's tags and match length, each game's
score line and, on each move line, the entries of its two columns (a roll and the play written
after it, a cube action, a result). Whether any of it is legal is for :mod:`.checking`. What
cannot be read is kept as an entry with a problem, where it stands, so that the checker reports
it when the game reaches it.

The dialects read: ``; [Key "Value"]`` tags, a byte-order mark, CRLF line ends, a boxed banner
or other text before the match line; the match line in any case, with or without leading spaces;
score lines whose names hold spaces, commas, ratings or replaced characters; the right column
wherever a program puts it (found from the score line, and after the left column's entry);
``Cannot Move`` or nothing for a roll that cannot be played; ``???`` for an unrecorded move; a
server's ``Illegal play (...)`` board dump; ``Double``/``Doubles``, ``Take``/``Takes``,
``Drop``/``Drops``, ``Beavers``, ``Resigns``; ``Wins N point(s)`` (``and the match``, ``and wins
the match``) in either column or at the line's start, and the loser's ``Losses N point``. A result
at the line's start with no move number is in neither column: whose it is, is for the checker.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Literal, Protocol

if TYPE_CHECKING:
    from tavli.engine.events import Side
    from tavli.engine.play import Dice

RecordFormat = Literal["mat", "sgf"]
"""A match record's format: a .mat file in any program's dialect, or GNU Backgammon's SGF."""

EntryKind = Literal[
    "roll", "double", "take", "drop", "beaver", "raccoon", "win", "loss", "resign", "unreadable"
]


class UnreadableFile(Exception):
    """A text that holds no match record: no match line, or no game."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One column's entry on a move line.

    ``play`` is a roll's play as written (``""`` when nothing is written or ``Cannot Move``);
    ``value`` the cube value a double or beaver writes, or the points of a result; ``problem``
    says why an entry cannot stand for anything (an unrecorded move, a board dump, text that is
    no entry), and the checker reports it where the game reaches it.
    """

    kind: EntryKind
    side: Side
    line: int
    move: int | None
    text: str  # the entry as written
    dice: Dice | None = None
    play: str = ""
    value: int | None = None
    problem: str | None = None
    wins_match: bool = False  # a result written "and the match"
    # False for a result at the line's start with no move number: no column says whose it is (its
    # side is 0 until the checker finds it from the game's other result line or from the game).
    in_column: bool = True


@dataclass(frozen=True, slots=True)
class GameLines:
    """What a game's lines after its score line record: tavli's own opening line and the entries."""

    opening: tuple[Dice, ...] | None  # tavli's own "; [Opening "6-2"]" line
    opening_line: int | None
    entries: tuple[Entry, ...]


class _ReadGameLines(Protocol):
    """How a game's lines are read when first asked for: all of them, or those up to a line."""

    def __call__(self, *, through: int | None = None) -> GameLines: ...


@dataclass(frozen=True, slots=True, eq=False)
class GameRecord:
    """One game as written: its number, the players and score of its score line, its entries.

    A game read from a .mat file reads its lines after the score line when they are first asked
    for (``lines``: its :class:`GameLines`, or how to read them): a game that another check answers
    for (:mod:`.summary`) is not read twice."""

    number: int
    line: int  # the " Game n" line
    players: tuple[str, str] | None  # None: no score line could be read
    score: tuple[int, int] | None
    score_line: int
    last_line: int  # the game's last line, where a missing result is missed
    lines: GameLines | _ReadGameLines = field(repr=False)

    @property
    def read(self) -> GameLines:
        """The game's lines after its score line, read."""
        if not isinstance(self.lines, GameLines):
            object.__setattr__(self, "lines", self.lines())
        assert isinstance(self.lines, GameLines)
        return self.lines

    def entries_through(self, line: int) -> tuple[Entry, ...]:
        """The game's entries on its lines up to ``line`` (from 1), reading none of the lines after
        it when the game's lines are not read yet."""
        if isinstance(self.lines, GameLines):
            return tuple(entry for entry in self.lines.entries if entry.line <= line)
        return self.lines(through=line).entries

    @property
    def opening(self) -> tuple[Dice, ...] | None:
        return self.read.opening

    @property
    def opening_line(self) -> int | None:
        return self.read.opening_line

    @property
    def entries(self) -> tuple[Entry, ...]:
        return self.read.entries

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameRecord):
            return NotImplemented
        return (self.number, self.line, self.players, self.score, self.score_line, self.last_line) == (
            other.number,
            other.line,
            other.players,
            other.score,
            other.score_line,
            other.last_line,
        ) and self.read == other.read

    def __hash__(self) -> int:
        return hash((self.number, self.line, self.score, self.last_line))


@dataclass(frozen=True, slots=True)
class MatRecord:
    """A whole .mat file as written: the header's tags, the match length (0: money) and the games
    (or an SGF file read into the same, its ``format`` ``"sgf"``)."""

    tags: dict[str, str]
    match_length: int
    match_line: int
    games: tuple[GameRecord, ...]
    format: RecordFormat = "mat"

    @property
    def players(self) -> tuple[str, str] | None:
        """The names of the first score line, player 0 on the left."""
        return next((game.players for game in self.games if game.players is not None), None)


def decode(data: bytes) -> str:
    """A file's bytes as text: UTF-8 (with or without a byte-order mark), else Windows' Western
    European code page (which reads Latin-1's letters as Latin-1 does), its five undefined bytes
    read as U+FFFD: never as the control characters Latin-1 would make of bytes 0x80-0x9F."""
    return decode_to_utf8(data)[0]


def decode_to_utf8(data: bytes) -> tuple[str, bytes]:
    """A file's bytes as :func:`decode` reads them, and the same text as UTF-8: the file's own
    bytes when they are UTF-8 (any byte-order mark kept), else the text encoded."""
    try:
        return data.decode("utf-8-sig"), data
    except UnicodeDecodeError:
        text = data.decode("cp1252", errors="replace")
        return text, text.encode()


# An SGF file begins with its first game tree, "(;"; a .mat file never does (its first line is a
# tag, a banner, a blank or the match line).
_SGF_START = re.compile(r"\A\ufeff?\s*\(\s*;")


def record_format(text: str) -> RecordFormat:
    """The format a match record is written in, told by its content: SGF where it begins with a
    game tree (``(;``, after any byte-order mark and white space), else .mat."""
    return "sgf" if _SGF_START.match(text) else "mat"


# Every pattern is linear in its line (possessive runs, names taken whole and stripped after), so
# that a hostile record's long runs of blanks cost no more than its length; a number has at most
# nine digits, so that every number a record writes is a small integer.
_NUMBER = r"\d{1,9}"
_TAG = re.compile(r'^\s*+[;#]\s*+\[(?P<key>[^"\]]*+)"(?P<value>[^"]*+)"\s*+\]')
_LENGTH = re.compile(rf"^\s*+(?P<length>{_NUMBER})\s*+point\s++match\b", re.IGNORECASE)
_GAME = re.compile(rf"^\s*+Game\s++(?P<number>{_NUMBER})\s*+$", re.IGNORECASE)
_SCORE = re.compile(
    rf"^(?P<name0>[^:]*+):\s*+(?P<score0>{_NUMBER}+)\s*+(?P<name1>[^:]*+):\s*+(?P<score1>{_NUMBER})\s*+$"
)
_MOVE_NUMBER = re.compile(rf"^\s*+(?P<number>{_NUMBER})\)")
_ENTRY = re.compile(
    r"(?P<dice>(?<![\w/])[1-6][1-6]:)"
    r"|(?<!and )(?P<word>\b(?:doubles?|takes?|drops?|beavers?|raccoons?|wins?|losses|loses|resigns?)\b)"
    r"|(?P<unrecorded>\?{2,}+)",
    re.IGNORECASE,
)
_BOARD_DUMP = re.compile(r"Illegal play\s*+\([^)]*+\)?", re.IGNORECASE)
_RESULT = re.compile(rf"^(?P<points>{_NUMBER})\s++points?\b(?P<rest>.*)$", re.IGNORECASE)
_CUBE = re.compile(rf"^=>\s*+(?P<value>{_NUMBER})$")
_WORDS: dict[str, EntryKind] = {
    "double": "double",
    "doubles": "double",
    "take": "take",
    "takes": "take",
    "drop": "drop",
    "drops": "drop",
    "beaver": "beaver",
    "beavers": "beaver",
    "raccoon": "raccoon",
    "raccoons": "raccoon",
    "win": "win",
    "wins": "win",
    "losses": "loss",
    "loses": "loss",
    "resign": "resign",
    "resigns": "resign",
}
_RIGHT_COLUMN_AT_LEAST = 14  # a lone entry this far into a line is in the right column, whatever the layout
_RIGHT_COLUMN_AT_MOST = 26  # ... and one this far, whatever the names (gnubg's right column is at 33)
# A result on a line with no move number that starts before this stands where the number would, not in
# the left column (which starts after "%3d) "): its column does not say whose it is.
_LEFT_COLUMN_AT_LEAST = 4


def read_record(text: str) -> MatRecord:
    """What a .mat file's text records, read leniently.

    :raises UnreadableFile: for a text with no match line, or no game after it.
    """
    lines = text.lstrip("\ufeff").splitlines()
    tags, length, match_line = read_header(lines)
    starts = [index for index in range(match_line, len(lines)) if _GAME.match(lines[index])]
    if not starts:
        raise UnreadableFile("the file holds no game: no ' Game 1' line after the match line")
    games = []
    for position, start in enumerate(starts):
        end = starts[position + 1] if position + 1 < len(starts) else len(lines)
        games.append(_read_game(lines, start, end))
    return MatRecord(tags=tags, match_length=length, match_line=match_line, games=tuple(games))


def read_header(lines: Sequence[str]) -> tuple[dict[str, str], int, int]:
    """The header's tags, the match length and the index of the line after the match line. Other
    text before the match line (a banner, a title) is passed over."""
    tags: dict[str, str] = {}
    for index, line in enumerate(lines):
        tag = _TAG.match(line)
        if tag is not None:
            tags[tag["key"].strip()] = tag["value"]
            continue
        length = _LENGTH.match(line)
        if length is not None:
            return tags, int(length["length"]), index + 1
        if _GAME.match(line):
            break
    raise UnreadableFile("not a .mat file: no ' N point match' line before the first game")


def read_score_line(line: str) -> tuple[tuple[str, str], tuple[int, int], int] | None:
    """A game's score line (`` Alice : 0   Bob : 2``): the players, the score and where the
    right-hand name starts; ``None`` for any other line."""
    score = _SCORE.match(line)
    if score is None:
        return None
    players = (score["name0"].strip(), score["name1"].strip())
    return players, (int(score["score0"]), int(score["score1"])), score.start("name1")


def _read_game(lines: Sequence[str], start: int, end: int) -> GameRecord:
    found = _GAME.match(lines[start])
    assert found is not None
    number = int(found["number"])
    index = start + 1
    while index < end and not lines[index].strip():
        index += 1
    score = read_score_line(lines[index]) if index < end else None
    players, points = (None, None) if score is None else score[:2]
    score_line = index + 1  # where the score line is, or should be
    right_from = _RIGHT_COLUMN_AT_LEAST
    if score is not None:
        # A long left name pushes the right one along (gnubg writes "%-31s" and no gap after it),
        # but not the right column of the move lines.
        right_from = min(max(right_from, score[2] - 6), _RIGHT_COLUMN_AT_MOST)
    else:
        index -= 1  # the line after " Game n" is read as a move line
    return GameRecord(
        number=number,
        line=start + 1,
        players=players,
        score=points,
        score_line=score_line,
        last_line=end,
        lines=partial(_read_game_lines, lines, index + 1, end, right_from),
    )


def _read_game_lines(
    lines: Sequence[str], start: int, end: int, right_from: int, *, through: int | None = None
) -> GameLines:
    """The game's lines from the index ``start`` to ``end`` read, or only those up to the line
    numbered ``through`` (from 1)."""
    reader = _LineReader(right_from)
    opening = opening_line = None
    for line_index in range(start, end if through is None else min(end, through)):
        line = lines[line_index]
        tag = _TAG.match(line)
        if tag is not None:
            if tag["key"].strip() == "Opening":
                opening, opening_line = reader.opening(tag["value"], line_index + 1), line_index + 1
            continue
        if line.lstrip().startswith((";", "#")):
            continue
        reader.read(line, line_index + 1)
    return GameLines(opening, opening_line, tuple(reader.entries))


class _LineReader:
    """Reads one game's move lines into entries."""

    def __init__(self, right_from: int) -> None:
        self.right_from = right_from
        self.entries: list[Entry] = []
        self.move: int | None = None

    def opening(self, value: str, line: int) -> tuple[Dice, ...] | None:
        throws = []
        for throw in value.split():
            found = re.fullmatch(r"([1-6])-([1-6])", throw)
            if found is None:
                self._unreadable(0, line, value, f"an opening throw is written like 6-2, not {throw!r}")
                return None
            throws.append((int(found[1]), int(found[2])))
        return tuple(throws) or None

    def read(self, line: str, line_number: int) -> None:
        if not line.strip():
            return
        number = _MOVE_NUMBER.match(line)
        offset = 0
        if number is not None:
            self.move = int(number["number"])
            offset = number.end()
        # A board dump holds names and numbers that must not be read as entries.
        masked = _BOARD_DUMP.sub(lambda found: "#" * len(found[0]), line)
        # "42: ???" is a roll whose play is not recorded; "???" alone, a move not recorded at all.
        starts: list[re.Match[str]] = []
        for found in _ENTRY.finditer(masked, offset):
            after_dice = (
                starts and starts[-1]["dice"] and not masked[starts[-1].end() : found.start()].strip()
            )
            if not (found["unrecorded"] and after_dice):
                starts.append(found)
        leftover = line[offset : starts[0].start() if starts else len(line)].strip()
        if leftover:
            side: Side = 1 if line.index(leftover, offset) >= self.right_from else 0
            self._unreadable(side, line_number, leftover, f"cannot read {leftover!r}")
            return
        for position, found in enumerate(starts):
            stop = starts[position + 1].start() if position + 1 < len(starts) else len(line)
            right = found.start() >= self.right_from or (position > 0 and not _is_result(found))
            entry = self._entry(found, 1 if right else 0, line[found.end() : stop].strip(), line_number)
            if number is None and found.start() < _LEFT_COLUMN_AT_LEAST and entry.kind in ("win", "loss"):
                entry = replace(entry, in_column=False)
            self.entries.append(entry)

    def _entry(self, found: re.Match[str], side: Side, rest: str, line: int) -> Entry:
        written = (found[0] + " " + rest).strip()
        if found["dice"]:
            dice = (int(found["dice"][0]), int(found["dice"][1]))
            return self._roll(side, line, written, dice, rest)
        if found["unrecorded"]:
            return self._problem(side, line, written, move_not_recorded(written))
        kind = _WORDS[found["word"].lower()]
        if kind in ("double", "beaver"):
            cube = _CUBE.match(rest)
            if rest and cube is None:
                return self._problem(
                    side, line, written, f"a cube action is written 'Doubles => 2', not {written!r}"
                )
            value = int(cube["value"]) if cube is not None else None
            return Entry(kind, side, line, self.move, written, value=value)
        if kind in ("win", "loss"):
            result = _RESULT.match(rest)
            if result is None or not _ends_a_result(result["rest"]):
                return self._problem(
                    side, line, written, f"a result is written 'Wins 2 points', not {written!r}"
                )
            wins_match = bool(result["rest"].strip())
            return Entry(
                kind, side, line, self.move, written, value=int(result["points"]), wins_match=wins_match
            )
        if rest:
            return self._problem(side, line, written, f"cannot read {rest!r} after {found[0]!r}")
        return Entry(kind, side, line, self.move, written)

    def _roll(self, side: Side, line: int, written: str, dice: Dice, play: str) -> Entry:
        problem = play_not_recorded(play)
        if problem is not None:
            return Entry("roll", side, line, self.move, written, dice=dice, problem=problem)
        return Entry("roll", side, line, self.move, written, dice=dice, play=written_play(play))

    def _problem(self, side: Side, line: int, written: str, problem: str) -> Entry:
        return Entry("unreadable", side, line, self.move, written, problem=problem)

    def _unreadable(self, side: Side, line: int, written: str, problem: str) -> None:
        self.entries.append(self._problem(side, line, written, problem))


def written_play(play: str) -> str:
    """A roll's play as written after its dice, ``""`` for a roll written as not played
    (``Cannot Move``, ``No play``)."""
    return "" if play.lower().replace(" ", "") in ("cannotmove", "cantmove", "nomove", "noplay") else play


def move_not_recorded(written: str) -> str:
    """The problem of a column's entry written ``???`` (``written``: the entry and what follows it)."""
    return f"the move is not recorded ({written!r})"


def play_not_recorded(play: str) -> str | None:
    """The problem of a roll whose play is written as ``play`` but not recorded (a server's board
    dump, or ``???``); ``None`` for any other play."""
    if _BOARD_DUMP.match(play):
        return "a board dump ('Illegal play (...)') stands where the play should be: the play is not recorded"
    if play.startswith("??"):
        return f"the play is not recorded ({play!r})"
    return None


def _is_result(found: re.Match[str]) -> bool:
    """Whether an entry found is a result (a win or a loss), which stands in its own column
    wherever it is on the line, after a roll or not."""
    return bool(found["word"]) and _WORDS[found["word"].lower()] in ("win", "loss")


def _ends_a_result(rest: str) -> bool:
    """Whether the words after ``Wins 2 points`` are ones a result may end with."""
    words = rest.strip().lower()
    return words in ("", "and the match", "and wins the match", "and match")


__all__ = [
    "Entry",
    "GameLines",
    "GameRecord",
    "MatRecord",
    "UnreadableFile",
    "decode",
    "decode_to_utf8",
    "move_not_recorded",
    "play_not_recorded",
    "read_header",
    "read_record",
    "read_score_line",
    "written_play",
]
