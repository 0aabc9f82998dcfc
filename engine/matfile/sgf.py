"""GNU Backgammon's SGF match records (Smart Game Format, game type ``GM[6]``), both ways.

gnubg saves a match as one SGF game tree per game. The root node says the match (``MI[length:7]
[game:0][ws:0][bs:0]``: the length, the game's number from 0 and the score before it), the
players (``PW`` is player 0, white; ``PB`` player 1, black), the rules (``RU[Crawford:
CrawfordGame:Jacoby]``, ``NoCube``) and the result (``RE[W+2]``, ``RE[B+1R]`` for a resignation).
Each following node is one action: ``W[31hefe]`` a roll and its play, each step two letters
naming the board's points from white's side (``a``-``x`` white's points 1-24, black's 24-1;
``y`` the bar, ``z`` off), ``B[double]``, ``W[take]``, ``W[drop]``; ``PL[W]DI[31]`` sets dice
that were rolled and not played. A resignation has no node: gnubg writes it only in ``RE``. A
game lost on time is written as a resignation worth the points the time loss gave (gnubg has no
clocks, and reads it so) with a root property of tavli's own, ``TL[B]`` (black ran out of time), by
which tavli reads it back as a time loss.

- :func:`export_sgf` writes a match as gnubg's ``save match`` does (its SaveGame).
- :func:`read_sgf` reads a file leniently into the same record a .mat file is read into, and
  :func:`check_sgf` checks it with the .mat checker, so that every play goes through the rules
  and every problem is reported the same way: game, move, side, line and words. A move number
  counts the game's lines as a .mat file would write them (a line per pair of actions).

What the format says and does not: gnubg records no opening throw's ties, no rejected resignation
and no beaver of its own: it writes a beaver as the taker's double while doubled, followed by the
doubler's take. tavli writes it so and reads it back as a beaver (which needs no answer in tavli's
rules, so the take is read past), and a file that beavers has beavers on. Rules gnubg has no word
for (cube limit, backgammons) go in a root property of tavli's own, ``TR[CubeLimit=8:Beaver=On]``,
which gnubg ignores. Long nardi cannot be written: gnubg's rules property names only backgammon's
variants (Nackgammon, Hypergammon), and its moves only backgammon's board. Analysis properties
(``A``, ``DA``, luck and skill marks, ``GS``) and comments are read past: tavli's log keeps plays,
not evaluations.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace

from tavli.engine.backgammon import Start
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
from tavli.engine.game import apply, new_match
from tavli.engine.match import Match
from tavli.engine.matfile.checking import MatchCheck, MatFileError, Problem, RulesUnknown, check_record
from tavli.engine.matfile.header import rule_headers, time_loss_tag
from tavli.engine.matfile.reading import Entry, EntryKind, GameLines, GameRecord, MatRecord, decode
from tavli.engine.play import Dice
from tavli.engine.position import BAR, OFF
from tavli.engine.rules import TAVLI, RuleSet

COLOURS = "WB"
"""The SGF letter of each side: player 0 is white, player 1 black."""

_BAR_LETTER, _OFF_LETTER = "y", "z"
# tavli's own root property naming the side that lost a game on time, which gnubg ignores.
_TIME_LOSS = "TL"
# The starts other than backgammon's that gnubg's RU names, as its variants.
_GNUBG_VARIANTS: dict[str, Start] = {
    "Nackgammon": "NACKGAMMON",
    "Hypergammon1": "HYPERGAMMON_1",
    "Hypergammon2": "HYPERGAMMON_2",
    "Hypergammon3": "HYPERGAMMON_3",
}
# The .mat header's rule tags that gnubg's RU says itself (a Variation that gnubg can write is a
# start of its own): tavli's own TR property holds the others.
_SAID_BY_RU = ("Crawford", "Jacoby", "Cube", "Variation")
# A number has at most nine digits, so that every number a file writes is a small integer.
_NUMBER = re.compile(r"[0-9]{1,9}")
_CUBE_ACTIONS: dict[str, EntryKind] = {"double": "double", "take": "take", "drop": "drop"}


class SgfFormatError(ValueError):
    """A text that is not an SGF match record at all, or a match the format cannot say."""


# --- writing -------------------------------------------------------------------------------------


def export_sgf(
    match: Match | tuple[RuleSet, Iterable[Event]],
    *,
    players: tuple[str, str] = ("Player 0", "Player 1"),
) -> str:
    """The match (finished or not, or a money session) as gnubg's SGF: one game tree a game.

    :raises SgfFormatError: for rules gnubg's SGF cannot say (long nardi, automatic doubles,
        opening rules other than playing the opening throw: gnubg records no opening throw).
    :raises ActionError: if the event log breaks the rules.
    """
    rules, events = (match.rules, match.events) if isinstance(match, Match) else (match[0], list(match[1]))
    _check_writable(rules)
    games = _trees_written(rules, list(events))
    return "".join(_format_tree(game, rules, players) for game in games)


def _check_writable(rules: RuleSet) -> None:
    refusal = sgf_refusal(rules)
    if refusal is not None:
        raise SgfFormatError(refusal)


def sgf_refusal(rules: RuleSet) -> str | None:
    """Why gnubg's SGF cannot record a match of ``rules``, in a player's words; ``None`` if it can."""
    if rules.variant == TAVLI:
        return (
            "GNU Backgammon's SGF cannot record a tavli match: its rules property names only "
            "backgammon's variants, and two of the match's three games are not backgammon"
        )
    if not rules.rules.hits:
        return (
            f"GNU Backgammon's SGF cannot record {rules.variant.replace('-', ' ')}: its rules "
            "property names only backgammon's variants and its moves only backgammon's board"
        )
    if rules.automatic_doubles or rules.opening != "PLAY_OPENING_DICE":
        return (
            "GNU Backgammon's SGF records no opening throw, so it cannot record a match whose "
            "opening is not played from the opening throw or whose ties double the cube"
        )
    return None


@dataclass(slots=True)
class _GameTree:
    number: int  # from 0, as gnubg counts
    score: tuple[int, int]
    crawford_game: bool
    nodes: list[str] = field(default_factory=list)
    result: str = ""  # RE's value, once the game is over
    ran_out_of_time: Side | None = None  # the side whose time ran out, in a game lost on time


def _trees_written(rules: RuleSet, events: list[Event]) -> list[_GameTree]:
    state = new_match(rules)
    games = [_GameTree(0, state.score, state.game.crawford)]
    rolled: Rolled | None = None  # a roll not yet played
    for event in events:
        game = games[-1]
        before = state
        state = apply(state, event)
        side = getattr(event, "side", None)
        colour = COLOURS[side] if side is not None else ""
        if isinstance(event, OpeningThrown):
            if state.game.dice is not None:  # the opening throw is the starter's first roll
                rolled = Rolled(state.game.turn, state.game.dice)
        elif isinstance(event, Rolled):
            rolled = event
        elif isinstance(event, Played):
            assert before.game.dice is not None
            dice = f"{before.game.dice[0]}{before.game.dice[1]}"
            steps = "".join(
                _letter(step.start, event.side) + _letter(step.end, event.side) for step in event.steps
            )
            game.nodes.append(f"{colour}[{dice}{steps}]")
            rolled = None
        elif isinstance(event, Doubled):
            game.nodes.append(f"{colour}[double]")
        elif isinstance(event, Beavered):
            # gnubg writes a beaver as the taker's double, which the doubler then takes; in tavli's
            # rules a beaver needs no answer, so the take is written for it.
            game.nodes.append(f"{colour}[double]\n;{COLOURS[1 - event.side]}[take]")
        elif isinstance(event, Took):
            game.nodes.append(f"{colour}[take]")
        elif isinstance(event, Dropped):
            game.nodes.append(f"{colour}[drop]")
        if isinstance(event, ResignationAccepted | TimeRanOut) and rolled is not None:
            game.nodes.append(_unplayed(rolled))
            rolled = None
        if isinstance(event, TimeRanOut):
            game.ran_out_of_time = event.side
        if len(state.finished) > len(before.finished):
            finished = state.finished[-1]
            assert finished.winner is not None, "a game with hits is never drawn"
            given_up = isinstance(event, ResignationAccepted | TimeRanOut)
            game.result = f"{COLOURS[finished.winner]}+{finished.points}" + ("R" if given_up else "")
            rolled = None
            if not state.over:
                games.append(_GameTree(len(games), state.score, state.game.crawford))
    if rolled is not None:
        games[-1].nodes.append(_unplayed(rolled))
    if len(games) > 1 and not games[-1].nodes:
        games.pop()  # the next game has not started
    return games


def _letter(point: int, side: Side) -> str:
    """A point of the mover's own numbering (bar 25, off 0) as gnubg's SGF letter, which names the
    board's points from white's side: ``a`` is white's 1 point and black's 24 point."""
    if point == BAR:
        return _BAR_LETTER
    if point == OFF:
        return _OFF_LETTER
    return chr(ord("a") + (point - 1 if side == 0 else 24 - point))


def _unplayed(rolled: Rolled) -> str:
    return f"PL[{COLOURS[rolled.side]}]DI[{rolled.dice[0]}{rolled.dice[1]}]"


def _format_tree(game: _GameTree, rules: RuleSet, players: tuple[str, str]) -> str:
    root = (
        "(;FF[4]GM[6]CA[UTF-8]AP[tavli]"
        f"MI[length:{rules.match_length}][game:{game.number}][ws:{game.score[0]}][bs:{game.score[1]}]"
        f"PW[{_escaped(players[0])}]PB[{_escaped(players[1])}]"
    )
    said = [
        word
        for word, on in (
            ("NoCube", not rules.cube),
            ("Crawford", rules.is_match and rules.crawford),
            ("CrawfordGame", game.crawford_game),
            ("Jacoby", rules.jacoby),
            *((word, rules.start == start) for word, start in _GNUBG_VARIANTS.items()),
        )
        if on
    ]
    if said:
        root += f"RU[{':'.join(said)}]"
    unsaid = [f"{key}={value}" for key, value in rule_headers(rules) if key not in _SAID_BY_RU]
    if unsaid:
        root += f"TR[{':'.join(unsaid)}]"
    if game.result:
        root += f"RE[{game.result}]"
    if game.ran_out_of_time is not None:
        root += f"{_TIME_LOSS}[{COLOURS[game.ran_out_of_time]}]"
    return root + "".join(f"\n;{node}" for node in game.nodes) + ")\n"


def _escaped(text: str) -> str:
    """A property value as SGF escapes it: ``\\`` and ``]`` after a backslash."""
    return text.replace("\\", "\\\\").replace("]", "\\]")


# --- reading -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Node:
    line: int
    properties: dict[str, list[str]]


def read_sgf(text: str) -> MatRecord:
    """An SGF file's games read into the record a .mat file is read into (see :func:`check_sgf`).

    Only each game's main line is read, as gnubg does: variations are skipped.

    :raises SgfFormatError: for a text that holds no SGF game, ends inside one, or whose match
        information (``MI``) is not numbers.
    """
    trees = list(_game_trees_of(text))
    if not trees:
        raise SgfFormatError("the file holds no SGF game: no '(;' begins one")
    first = trees[0][0].properties
    if "GM" not in first:
        raise SgfFormatError("the SGF file does not say which game it records: backgammon's is GM[6]")
    if first["GM"][0].strip() != "6":
        raise SgfFormatError(f"the SGF file records another game (GM[{first['GM'][0]}]), not backgammon")
    info = _match_info(first)
    tags = _rule_tags(first)
    players = (first.get("PW", [""])[0], first.get("PB", [""])[0])
    games = tuple(_game_record(nodes, position, players) for position, nodes in enumerate(trees))
    if any(entry.kind == "beaver" for game in games for entry in game.entries):
        tags["Beaver"] = "On"
    for nodes, game in zip(trees, games, strict=True):
        loser = nodes[0].properties.get(_TIME_LOSS, [""])[0].strip()
        if loser in ("W", "B"):
            # The .mat checker's own word for a game lost on time: its header tag.
            tags[time_loss_tag(game.number)] = f"{players[COLOURS.index(loser)]} ran out of time"
    return MatRecord(
        tags=tags, match_length=info.get("length", 0), match_line=trees[0][0].line, games=games, format="sgf"
    )


def check_sgf(text: str | bytes, *, rules: RuleSet | None = None) -> MatchCheck:
    """An SGF file read and checked as :func:`~tavli.engine.matfile.check_mat` checks a .mat file.

    :raises MatFileError: for a file that holds no SGF match or names rules tavli does not play.
    """
    if isinstance(text, bytes):
        text = decode(text)
    try:
        check = check_record(read_sgf(text), rules)
    except (SgfFormatError, RulesUnknown) as error:
        raise MatFileError([Problem(str(error))]) from None
    wrong_winners = tuple(_wrong_winners(check))
    return replace(check, problems=check.problems + wrong_winners) if wrong_winners else check


def _wrong_winners(check: MatchCheck) -> Iterator[Problem]:
    """A game whose ``RE`` names the player who lost it. The .mat checker lets a game's only result
    line stand in either column, as some programs write every result on the left; an SGF result
    names its winner."""
    players = check.record.players or ("", "")
    for record, game in zip(check.record.games, check.games, strict=True):
        written = next((entry for entry in record.entries if entry.kind == "win"), None)
        if written is None or game.result is None or game.problem is not None:
            continue
        if written.side != game.result.winner:
            yield Problem(
                f"player {game.result.winner} won the game",
                game=record.number,
                move=written.move,
                line=written.line,
                side=written.side,
                player=players[written.side],
                action=f"{written.text} says player {written.side} won",
            )


def _match_info(root: dict[str, list[str]]) -> dict[str, int]:
    """The numbers of the root's ``MI`` property: ``length``, ``game``, ``ws``, ``bs``."""
    info: dict[str, int] = {}
    for value in root.get("MI", []):
        key, _, number = (part.strip() for part in value.partition(":"))
        if key not in ("length", "game", "ws", "bs"):
            continue  # gnubg also writes clock fields
        if not _NUMBER.fullmatch(number):
            shown = number if len(number) <= 20 else number[:20] + "..."
            raise SgfFormatError(f"the match information's {key} is a number, not {shown!r}")
        info[key] = int(number)
    return info


def _rule_tags(root: dict[str, list[str]]) -> dict[str, str]:
    """The root's rules as the .mat header's tags, so that one reader names the rules."""
    words = set(root.get("RU", [""])[0].split(":")) - {""}
    tags = {
        "Crawford": "On" if "Crawford" in words else "Off",
        "Jacoby": "On" if "Jacoby" in words else "Off",
    }
    for word, start in _GNUBG_VARIANTS.items():
        if word in words:
            variation = RuleSet(start=start).rules.mat_variation
            assert variation is not None, "every start but backgammon's has its .mat name"
            tags["Variation"] = variation
    if "NoCube" in words:
        tags["Cube"] = "Off"
    for pair in root.get("TR", [""])[0].split(":"):
        key, equals, value = pair.partition("=")
        if equals:
            tags[key.strip()] = value.strip()
    return tags


def _game_record(nodes: list[_Node], position: int, players: tuple[str, str]) -> GameRecord:
    root = nodes[0]
    info = _match_info(root.properties)
    entries: list[Entry] = []
    actions = 0  # the game's actions so far, as a .mat file's columns count them
    doubled = beavered = False
    for node in nodes[1:]:
        entry = _entry(node, doubled)
        if entry is None or (beavered and entry.kind == "take"):
            continue  # gnubg's take of a beaver, which needs none in tavli's rules
        if actions == 0 and entry.side == 1:
            actions = 1  # player 1 starts: the first line's left column is empty
        entries.append(replace(entry, move=actions // 2 + 1))
        actions += 1
        doubled = entry.kind == "double"
        beavered = entry.kind == "beaver"
    result = _result(root, nodes[-1].line, actions // 2 + 1)
    if result is not None:
        entries.append(result)
    return GameRecord(
        number=info.get("game", position) + 1,
        line=root.line,
        players=(root.properties.get("PW", [players[0]])[0], root.properties.get("PB", [players[1]])[0]),
        score=(info.get("ws", 0), info.get("bs", 0)),
        score_line=root.line,
        last_line=nodes[-1].line,
        lines=GameLines(None, None, tuple(entries)),
    )


def _entry(node: _Node, doubled: bool) -> Entry | None:
    """The action of a node: a roll and its play, a cube action, or dice rolled and not played."""
    for colour in COLOURS:
        if colour in node.properties:
            side: Side = 0 if colour == "W" else 1
            value = node.properties[colour][0].strip()
            text = f"{colour}[{value}]"
            if value in _CUBE_ACTIONS:
                kind = "beaver" if value == "double" and doubled else _CUBE_ACTIONS[value]
                return Entry(kind, side, node.line, None, text)
            return _roll(value, side, node.line, text)
    if "DI" in node.properties:
        colour = node.properties.get("PL", ["W"])[0].strip().upper()[:1]
        return _roll(node.properties["DI"][0].strip(), 1 if colour == "B" else 0, node.line, "DI")
    return None


def _roll(value: str, side: Side, line: int, text: str) -> Entry:
    if len(value) < 2 or not all(digit in "123456" for digit in value[:2]) or len(value) % 2:
        return Entry("unreadable", side, line, None, text, problem="a roll is two dice from 1 to 6")
    dice: Dice = (int(value[0]), int(value[1]))
    steps = [value[index : index + 2] for index in range(2, len(value), 2)]
    points = [[_point(letter, side) for letter in step] for step in steps]
    if any(point is None for step in points for point in step):
        return Entry(
            "unreadable", side, line, None, text, dice, problem="a step is two letters from 'a' to 'z'"
        )
    play = " ".join(f"{start}/{end}" for start, end in points)
    return Entry("roll", side, line, None, text, dice, play)


def _point(letter: str, side: Side) -> int | None:
    """A gnubg SGF letter as a point of the mover's own numbering (bar 25, off 0)."""
    if letter == _BAR_LETTER:
        return BAR
    if letter == _OFF_LETTER:
        return OFF
    if not "a" <= letter <= "x":
        return None
    index = ord(letter) - ord("a")
    return index + 1 if side == 0 else 24 - index


def _result(root: _Node, line: int, move: int) -> Entry | None:
    """The root's ``RE`` as the winner's result line, if the game is over."""
    value = root.properties.get("RE", [""])[0].strip().upper()
    if len(value) < 3 or value[0] not in COLOURS or value[1] != "+":
        return None
    digits = value[2:].rstrip("R")
    side: Side = 0 if value[0] == "W" else 1
    if not _NUMBER.fullmatch(digits):
        return Entry("unreadable", side, line, move, f"RE[{value}]", problem="a result's points are a number")
    return Entry("win", side, line, move, f"RE[{value}]", value=int(digits))


# --- SGF's syntax --------------------------------------------------------------------------------


# SGF's tokens, read in one pass: a tree's brackets, a node's start, a property's name (FF[3]-era
# lower case letters in it are ignored), a value to its unescaped "]", white space and anything
# else, which is skipped as gnubg skips it. A "[" that does not open a whole value is one the file
# ends inside.
_TOKENS = re.compile(
    r"(?P<open>\()|(?P<close>\))|(?P<node>;)|(?P<name>[A-Za-z]+)"
    r"|\[(?P<value>[^\\\]]*(?:\\.[^\\\]]*)*)\]|(?P<cut>\[)|\s+|[^()\[;A-Za-z\s]+",
    re.DOTALL,
)
_ESCAPED = re.compile(r"\\(.)", re.DOTALL)


def _game_trees_of(text: str) -> Iterator[list[_Node]]:
    """Each game tree's main line: its nodes and, in each variation, only the first one's."""
    nodes: list[_Node] = []
    properties: dict[str, list[str]] | None = None  # the node being read, if any
    name = ""
    depth = 0
    skipping = 0  # the depth of a variation skipped (0: none)
    children = [0]  # how many variations each open tree has had so far
    line = 1
    for token in _TOKENS.finditer(text):
        kind = token.lastgroup
        if kind == "value":
            raw = token.group("value")
            if properties is not None:
                value = _ESCAPED.sub(r"\1", raw) if "\\" in raw else raw
                properties.setdefault(name, []).append(value)
            line += raw.count("\n")
            continue
        if kind == "name":
            name = "".join(char for char in token.group() if char.isupper())
            continue
        if kind is None:
            line += token.group().count("\n")
            continue
        if kind == "cut":
            raise SgfFormatError(f"line {line}: the file ends inside a property value (a ']' is missing)")
        properties = None
        if kind == "node":
            if depth:
                properties = {}
                if not skipping:
                    nodes.append(_Node(line, properties))
        elif kind == "open":
            depth += 1
            children[-1] += 1
            if not skipping and children[-1] > 1 and depth > 1:
                skipping = depth
            children.append(0)
        else:  # close
            if depth == 0:
                raise SgfFormatError(f"line {line}: a ')' closes no game tree")
            if skipping == depth:
                skipping = 0
            depth -= 1
            children.pop()
            if depth == 0:
                if nodes:
                    yield nodes
                nodes = []
    if depth:
        raise SgfFormatError(f"line {line}: the file ends inside a game tree (a ')' is missing)")


__all__ = ["COLOURS", "SgfFormatError", "check_sgf", "export_sgf", "read_sgf", "sgf_refusal"]
