"""GNU Backgammon as an oracle for `.mat` match files.

Debian's gnubg is a real outside program: the tests of our own `.mat` importer ask it how it reads
a file (how many games, the final score, the match length, the warnings it printed on the way) and
have it play matches against itself to make fresh files.

Every gnubg process runs one job only (several files in one process mix up their outputs), reads its
commands from stdin, gets an empty temporary HOME and no rc files (so nothing of the user's gnubg
set-up, such as `set aliases`, can change how it reads a file, and it writes nothing into the user's
home), and a fixed locale, so that its messages are in English.

Seats: gnubg's player 0 is the player in the left column of a file's score lines, player 1 the one on
the right (gnubg would swap them only for a left-column name listed in `set aliases`, which is never
set here). Names are gnubg's own: it cuts a name at its first comma (`nori,1752` becomes `nori`).
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

GNUBG = Path("/usr/games/gnubg")
TIMEOUT_SECONDS = 60.0
# The players of gnubg_selfplay_match, left column first.
SELFPLAY_NAMES = ("Left", "Right")

# The names gnubg_read gives the players before the import. No file can give a player a name with a
# comma in it (gnubg cuts names there), so if the names are still these afterwards, the import set up
# no match.
_UNREAD_NAMES = ("tavli,unread-0", "tavli,unread-1")
# The last line gnubg prints before the import's own output: its answer to naming player 1.
_BEFORE_IMPORT = f"Player 1 is now known as `{_UNREAD_NAMES[1]}'."
# The first line of `show player`, which follows the import's output.
_AFTER_IMPORT = "Player 0:"
# The lines of a board drawing: its Position ID and Match ID lines and its rows.
_BOARD_LINE = re.compile(r" GNU Backgammon  Position ID: | {17}Match ID   : |[ v^][+|]")
# A player's name in `show player`.
_PLAYER_NAME = re.compile(r"^Player ([01]):\n  Name: (.*)$", re.MULTILINE)


def gnubg_available() -> bool:
    """Whether Debian's gnubg is installed here."""
    return os.access(GNUBG, os.X_OK)


requires_gnubg = pytest.mark.skipif(
    not gnubg_available(), reason=f"GNU Backgammon is not installed ({GNUBG})"
)


@dataclass(frozen=True)
class GnubgReading:
    """How gnubg read one `.mat` file.

    `games` and `score` are those of its `show score` after the import: the games it counted and the
    final score, (left-column player, right-column player). `match_length` is 0 for a money session.
    `warnings` are the lines it printed while importing, in order, other than board drawings.
    `players` are the names it gave the players, in the same order as `score`.
    """

    games: int
    score: tuple[int, int]
    match_length: int
    warnings: tuple[str, ...]
    players: tuple[str, str]


def gnubg_reads(paths: Sequence[Path], *, workers: int = 4) -> dict[Path, GnubgReading | None]:
    """Read every file of `paths` with gnubg, one process per file, `workers` processes at a time."""
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return dict(zip(paths, pool.map(gnubg_read, paths)))


def gnubg_read(path: Path) -> GnubgReading | None:
    """Import `path` with gnubg: how it read it, or None if the import set up no match."""
    commands = [
        f"set player 0 name {_UNREAD_NAMES[0]}",
        f"set player 1 name {_UNREAD_NAMES[1]}",
        f"import mat {_quoted(path)}",
        "show player",
        "show score",
    ]
    return _reading(_run_gnubg(commands))


def gnubg_selfplay_match(path: Path, *, length: int, seed: int, variation: str = "standard") -> Path:
    """Have gnubg play a `length`-point match against itself and export it to `path` as a `.mat` file.

    `variation` is gnubg's name of the starting position (`set variation`): `standard` or
    `nackgammon` (Debian's gnubg lacks the bear-off databases its hypergammon variations need).

    The same seed gives the same file: the players are always named SELFPLAY_NAMES (left column first)
    and the one line of the export that changes from day to day, its `; [EventDate ...]` header, is
    removed. Both players think at 0 ply; a 7-point match still takes 2 to 4 seconds, mostly gnubg
    waiting about 10 ms after each move. A file already at `path` is replaced.
    """
    if length < 1:
        raise ValueError(f"gnubg_selfplay_match plays matches of 1 point or more, not {length}")
    path.unlink(missing_ok=True)
    output = _run_gnubg(
        [
            "set rng mersenne",
            f"set seed {seed}",
            "set defaultnames {} {}".format(*SELFPLAY_NAMES),
            "set player both gnubg",
            "set player both chequerplay evaluation plies 0",
            "set player both cubedecision evaluation plies 0",
            "set display off",
            f"set variation {variation}",
            f"new match {length}",
            f"export match mat {_quoted(path)}",
        ]
    )
    if not path.is_file():
        raise RuntimeError(f"gnubg exported no match to {path}; it printed:\n{output[-2000:]}")
    _remove_event_date(path)
    return path


def _run_gnubg(commands: Sequence[str]) -> str:
    """Run one gnubg process on `commands` and return all it printed, stderr merged into stdout."""
    with tempfile.TemporaryDirectory(prefix="gnubg-home-") as home:
        completed = subprocess.run(
            [str(GNUBG), "--tty", "--quiet", "--no-rc"],
            input="".join(f"{command}\n" for command in commands).encode("utf-8", "surrogateescape"),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env={"HOME": home, "PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"},
            timeout=TIMEOUT_SECONDS,
            check=True,
        )
    return completed.stdout.decode("utf-8", errors="replace")


def _quoted(path: Path) -> str:
    """`path` as one argument of a gnubg command: in double quotes, with `\\` and `"` escaped."""
    text = str(path)
    if "\n" in text:
        raise ValueError(f"gnubg commands are lines: a path with a newline cannot be passed: {path!r}")
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _reading(output: str) -> GnubgReading | None:
    """Parse the output of gnubg_read's commands."""
    lines = output.split("\n")
    try:
        start = lines.index(_BEFORE_IMPORT) + 1
        end = lines.index(_AFTER_IMPORT, start)
    except ValueError:
        raise RuntimeError(f"unexpected output from gnubg:\n{output[-2000:]}") from None
    report = "\n".join(lines[end:])
    names = dict(_PLAYER_NAME.findall(report))
    players = (names["0"], names["1"])
    if players == _UNREAD_NAMES:
        return None
    score = _score_line(players).search(report)
    if score is None:
        raise RuntimeError(f"no score for {players} in gnubg's output:\n{report[-2000:]}")
    games, score_0, score_1, match_length = score.groups(default="0")
    return GnubgReading(
        games=int(games),
        score=(int(score_0), int(score_1)),
        match_length=int(match_length),
        warnings=tuple(line for line in lines[start:end] if line.strip() and not _BOARD_LINE.match(line)),
        players=players,
    )


def _score_line(players: tuple[str, str]) -> re.Pattern[str]:
    """The start of `show score`'s line for these players, in a match or a money session.

    Knowing the names makes the line unambiguous, whatever spaces, commas or digits they hold.
    """
    name_0, name_1 = (re.escape(name) for name in players)
    return re.compile(
        rf"The score \(after (\d+) games?\) is: {name_0} (\d+), {name_1} (\d+) "
        rf"\((?:match to (\d+) points?|money session)"
    )


def _remove_event_date(path: Path) -> None:
    """Remove the `; [EventDate "..."]` header line (the export's date) from the file at `path`."""
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(line for line in lines if not line.startswith(b'; [EventDate "')))
