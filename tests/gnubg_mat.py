"""GNU Backgammon as an oracle for `.mat` match files.

Debian's gnubg is a real outside program: the tests of our own `.mat` importer ask it how it reads
a file (how many games, the final score, the match length, the warnings it printed on the way) and
have it play matches against itself to make fresh files.

Every gnubg process runs one job only (several files in one process mix up their outputs), reads its
commands from stdin, gets an empty temporary HOME and no rc files (so nothing of the user's gnubg
set-up, such as `set aliases`, can change how it reads a file, and it writes nothing into the user's
home), and a fixed locale, so that its messages are in English.

gnubg answers the same whichever engine the tests run on: how it read a file and the matches it
played are kept for the run (tests/kept_answers.py), so that the pure engine's pass does not ask it
again.

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

from tests.kept_answers import keep_answer, kept_answer, kept_or_worked_out

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
    question = ("gnubg reads", path.name, path.read_bytes())  # gnubg may name the file in a warning
    return kept_or_worked_out(question, lambda: _reading(_run_gnubg(commands)))


def gnubg_selfplay_match(
    path: Path, *, length: int, seed: int, variation: str = "standard", noise: float = 0.0
) -> Path:
    """Have gnubg play a `length`-point match against itself and export it to `path` as a `.mat` file.

    `variation` is gnubg's name of the starting position (`set variation`): `standard` or
    `nackgammon` (Debian's gnubg lacks the bear-off databases its hypergammon variations need).
    `noise` is the standard deviation of the noise gnubg adds to its players' evaluations (noisy
    players make errors for an analysis to find; with noise the players are not deterministic
    from the seed alone, so the file is fresh each time).

    The same seed gives the same file: the players are always named SELFPLAY_NAMES (left column first)
    and the one line of the export that changes from day to day, its `; [EventDate ...]` header, is
    removed. Both players think at 0 ply; a 7-point match still takes 2 to 4 seconds, mostly gnubg
    waiting about 10 ms after each move. A file already at `path` is replaced.
    """
    if length < 1:
        raise ValueError(f"gnubg_selfplay_match plays matches of 1 point or more, not {length}")
    question = ("gnubg plays a match", length, seed, variation, noise)
    if _write_kept_file(question, path):
        return path
    path.unlink(missing_ok=True)
    output = _run_gnubg(
        [
            "set rng mersenne",
            f"set seed {seed}",
            "set defaultnames {} {}".format(*SELFPLAY_NAMES),
            "set player both gnubg",
            "set player both chequerplay evaluation plies 0",
            "set player both cubedecision evaluation plies 0",
            f"set player both chequerplay evaluation noise {noise}",
            f"set player both cubedecision evaluation noise {noise}",
            "set display off",
            f"set variation {variation}",
            f"new match {length}",
            f"export match mat {_quoted(path)}",
        ]
    )
    if not path.is_file():
        raise RuntimeError(f"gnubg exported no match to {path}; it printed:\n{output[-2000:]}")
    _remove_event_date(path)
    keep_answer(question, path.read_bytes())
    return path


def gnubg_selfplay_money_game(path: Path, *, seed: int, noise: float) -> Path:
    """Have gnubg play one money game with the Jacoby rule against itself (noisy players, as
    gnubg_selfplay_match's) and export it to `path`, with the tag that says the game had the
    Jacoby rule (gnubg's own .mat export does not say it)."""
    question = ("gnubg plays a money game", seed, noise)
    if _write_kept_file(question, path):
        return path
    path.unlink(missing_ok=True)
    output = _run_gnubg(
        [
            "set rng mersenne",
            f"set seed {seed}",
            "set player both gnubg",
            "set player both chequerplay evaluation plies 0",
            "set player both cubedecision evaluation plies 0",
            f"set player both chequerplay evaluation noise {noise}",
            f"set player both cubedecision evaluation noise {noise}",
            "set display off",
            "set jacoby on",
            "set automatic game off",  # one game, not a session without end
            "new session",
            f"set player 0 name {SELFPLAY_NAMES[0]}",
            f"set player 1 name {SELFPLAY_NAMES[1]}",
            f"export match mat {_quoted(path)}",
        ]
    )
    if not path.is_file():
        raise RuntimeError(f"gnubg exported no game to {path}; it printed:\n{output[-2000:]}")
    _remove_event_date(path)
    path.write_text('; [Jacoby "On"]\n' + path.read_text())
    keep_answer(question, path.read_bytes())
    return path


def _write_kept_file(question: tuple[object, ...], path: Path) -> bool:
    """Write the file gnubg made for ``question`` in this run to ``path``, if it was kept: whether it was."""
    kept = kept_answer(question)
    if kept is None:
        return False
    path.write_bytes(kept[0])
    return True


def _run_gnubg(commands: Sequence[str], *, timeout: float = TIMEOUT_SECONDS) -> str:
    """Run one gnubg process on `commands` and return all it printed, stderr merged into stdout."""
    with tempfile.TemporaryDirectory(prefix="gnubg-home-") as home:
        completed = subprocess.run(
            [str(GNUBG), "--tty", "--quiet", "--no-rc"],
            input="".join(f"{command}\n" for command in commands).encode("utf-8", "surrogateescape"),
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env={"HOME": home, "PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"},
            timeout=timeout,
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


@dataclass(frozen=True)
class GnubgAnalysis:
    """How gnubg's `analyse match` judged a `.mat` file.

    `losses` holds each roll's play it analysed, by (game from 1, gnubg's move number, player):
    the equity (EMG) the play lost against gnubg's best. `statistics` holds, for each player in
    seat order, the match statistics read from its text export: "unforced moves", "close cube
    decisions", "doubles", "takes", "chequer error rate", "cube error rate", "error rate" (mEMG)
    and "luck rate".
    """

    losses: dict[tuple[int, int, str], float]
    statistics: tuple[dict[str, float], dict[str, float]]


# A move's block in gnubg's text export, the played move marked with "*" in its ranked list.
_MOVE_BLOCK = re.compile(r"\nMove number (\d+):\s+(.+?) to play \d\d\n")
_PLAYED_MOVE = re.compile(
    r"^\*\s+\d+\. Cubeful \d-ply.*?Eq\.: [+-]?\d+\.\d+(?: \(([+-]\d+\.\d+)\))?", re.MULTILINE
)
_STATISTICS = {
    "unforced moves": ("Chequerplay statistics", r"Unforced moves\s+(\d+)\s+(\d+)"),
    "chequer error rate": (
        "Chequerplay statistics",
        r"Error rate mEMG \((?:MWC|Points)\)\s+([+-]?[\d.]+).*?\)\s+([+-]?[\d.]+)",
    ),
    "luck rate": (
        "Luck statistics",
        r"Luck rate mEMG \((?:MWC|Points)\)\s+([+-]?[\d.]+).*?\)\s+([+-]?[\d.]+)",
    ),
    "close cube decisions": ("Cube statistics", r"Close or actual cube decisions\s+(\d+)\s+(\d+)"),
    "doubles": ("Cube statistics", r"\nDoubles\s+(\d+)\s+(\d+)"),
    "takes": ("Cube statistics", r"\nTakes\s+(\d+)\s+(\d+)"),
    "cube error rate": (
        "Cube statistics",
        r"Error rate mEMG \((?:MWC|Points)\)\s+([+-]?[\d.]+).*?\)\s+([+-]?[\d.]+)",
    ),
    "error rate": (
        "Overall statistics",
        r"Error rate mEMG \((?:MWC|Points)\)\s+([+-]?[\d.]+).*?\)\s+([+-]?[\d.]+)",
    ),
}


def gnubg_analysis(path: Path, *, plies: int, jacoby: bool = False) -> GnubgAnalysis:
    """Have gnubg analyse the match at `path` at `plies` (chequer play and cube, cubeful, one
    thread) and read its judgement from its text export (one file a game, the match's
    statistics in the last). A money session is analysed with the Jacoby rule if `jacoby`
    (gnubg takes it from its settings, not from the file)."""
    with tempfile.TemporaryDirectory(prefix="gnubg-analysis-") as folder:
        export = Path(folder) / "match.txt"
        _run_gnubg(
            [
                "set threads 1",
                f"set analysis chequerplay evaluation plies {plies}",
                "set analysis chequerplay evaluation cubeful on",
                f"set analysis cubedecision evaluation plies {plies}",
                "set analysis cubedecision evaluation cubeful on",
                "set export moves number 1000",  # every play ranked, so the played one is listed
                f"set jacoby {'on' if jacoby else 'off'}",
                f"import mat {_quoted(path)}",
                "analyse match",
                f"export match text {_quoted(export)}",
            ],
            timeout=30 * 60,
        )
        games = [export, *sorted(Path(folder).glob("match_[0-9][0-9][0-9].txt"))]
        texts = [game.read_text(encoding="utf-8") for game in games]
    losses: dict[tuple[int, int, str], float] = {}
    for number, text in enumerate(texts, start=1):
        parts = _MOVE_BLOCK.split(text)
        for move, player, block in zip(parts[1::3], parts[2::3], parts[3::3]):
            played = _PLAYED_MOVE.search(block)
            if played is not None:  # a roll that cannot be played has no list
                losses[(number, int(move), player)] = -float(played.group(1) or 0)
    return GnubgAnalysis(losses, _match_statistics(texts[-1]))


def _match_statistics(text: str) -> tuple[dict[str, float], dict[str, float]]:
    heading = "Match statistics" if "Match statistics" in text else "Session statistics"  # money play
    match_part = text[text.index(heading) :]
    players: tuple[dict[str, float], dict[str, float]] = ({}, {})
    for name, (section, pattern) in _STATISTICS.items():
        found = re.search(pattern, match_part[match_part.index(section) :])
        if found is None:
            raise RuntimeError(f"no {name} in gnubg's statistics:\n{match_part}")
        for player, value in zip(players, found.groups()):
            player[name] = -float(value) if "error" in name else float(value)  # gnubg writes errors < 0
    return players
