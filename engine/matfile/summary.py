"""A match record's verdict: its rules, players, games, final score and problems, without the
events of its games (what ``tavli check-match`` reports of each file).

A .mat record of backgammon from the standard start is read and checked in one pass by the
compiled core (``_core.check_mat_games``, over the record's UTF-8 bytes split into lines once:
``_core.MatText``) where it can answer: every line in a dialect it reads, every play, cube action
and result plainly clean or stopped at a problem the core names (a move or play not recorded, a
cube turned to another value, a result worth more than a resignation, a result that does not say
who lost, "and the match" short of the match), which is worded here as the checker words it
(:mod:`.problems`, :mod:`.reading`). Anything else (another format or variant, rules it does not play, a
problem, a dialect it leaves to the pure reader) is read and checked by
:func:`~tavli.engine.matfile.check_match_record`, which is the reference: both give the same
verdict for every record the core answers for.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING

from tavli.engine import core
from tavli.engine.errors import (
    NOT_YOUR_TURN,
    AmbiguousPlayError,
    IllegalPlayError,
    InvalidPlayError,
    refusal_of_play,
)
from tavli.engine.matfile.header import rules_of, time_loss_tag
from tavli.engine.matfile.problems import (
    RESULT_WITHOUT_LOSER,
    Problem,
    RulesUnknown,
    cube_turned_to,
    match_not_won,
    resignation_worth_at_most,
)
from tavli.engine.matfile.reading import (
    UnreadableFile,
    decode_to_utf8,
    move_not_recorded,
    play_not_recorded,
    read_header,
    read_record,
    read_score_line,
    record_format,
    written_play,
)
from tavli.engine.play import check_dice
from tavli.engine.position import Position
from tavli.engine.rules import InvalidRuleSetError, RuleSet

if TYPE_CHECKING:
    from tavli.engine._core import CoreProblem, MatText
    from tavli.engine.game import MatchState
    from tavli.engine.matfile.checking import StoppedAt
    from tavli.engine.matfile.reading import GameRecord

# The pure checker and the engine's game it replays are imported only for a record the core does
# not answer for: a run over clean records does not load them.


@dataclass(frozen=True, slots=True)
class RecordSummary:
    """A record checked: its rules, the first score line's players (``None``: no game has one),
    how many games it holds, the score after the last and every problem."""

    rules: RuleSet
    players: tuple[str, str] | None
    games: int
    score: tuple[int, int]
    problems: tuple[Problem, ...]


def summarize_record(text: str | bytes) -> RecordSummary:
    """A match record in either format checked as :func:`check_match_record` checks it, reduced to
    its verdict; by the compiled core in one pass where it can answer, game by game where it can
    answer for some games only.

    :raises MatFileError: for a text that holds no match record, or names rules tavli does not play.
    """
    text, data = decode_to_utf8(text) if isinstance(text, bytes) else (text, text.encode())
    summary = _summary_with_the_core(text, data)
    if summary is not None:
        return summary
    from tavli.engine.matfile.records import check_match_record

    checked = check_match_record(text)
    return RecordSummary(
        checked.rules, checked.record.players, len(checked.games), checked.score, checked.problems
    )


def _summary_with_the_core(text: str, data: bytes) -> RecordSummary | None:
    """The summary of a .mat record (its text, and the same as UTF-8) the core plays the rules of,
    each game it finds plainly clean checked by the core and the others by the pure checker;
    ``None`` for any other record."""
    compiled = core.compiled
    if compiled is None or record_format(text) != "mat":
        return None
    lines = text.lstrip("\ufeff").splitlines()
    try:
        tags, length, start = read_header(lines)
        rules = rules_of(tags, length)
    except (UnreadableFile, RulesUnknown):
        return None
    if not _played_by_the_core(rules) or any(_lost_on_time(key) for key in tags):
        return None
    try:
        mat_text = compiled.MatText(data)  # the same lines as ``lines``
    except ValueError:
        return None  # a record of 2 GB or more, whose lines the core does not number: the pure reader's
    answer = compiled.check_mat_games(mat_text, start, *_core_rules(rules))
    if answer is not None:
        games, score, first_score_line, found = answer
        worded = [_worded(lines, rules, problem) for problem in found]
        problems = tuple(problem for problem in worded if problem is not None)
        if len(problems) == len(worded):
            written = read_score_line(lines[first_score_line])
            return RecordSummary(rules, None if written is None else written[0], games, score, problems)
    try:
        record = read_record(text)
    except UnreadableFile:
        return None
    from tavli.engine.matfile.checking import check_record

    checked = check_record(record, rules, clean_game=_CleanByTheCore(mat_text, rules))
    return RecordSummary(rules, record.players, len(record.games), checked.score, checked.problems)


def _worded(lines: list[str], rules: RuleSet, found: CoreProblem) -> Problem | None:
    """A problem the core's pass found (``_core.check_mat_games`` says what each holds), in the
    words the reader or the checker gives it; ``None`` where they would not be the checker's (a play
    the engine finds legal, written as only the pure reader reads it), and the checker decides."""
    problem, game, line_index, score_line, move, side, text, play, (first, second), board = found
    line = lines[line_index]
    written, after = line[text[0] : text[1]], line[play[0] : play[1]]
    entry = f"{written} {after}".strip()  # the entry as written (``reading.Entry.text``)
    action = entry
    reason: str | None
    if problem == "unreadable":
        reason = play_not_recorded(after) if written.endswith(":") else move_not_recorded(entry)
        action = ""
    elif problem == "cube":
        reason = cube_turned_to(first)
    elif problem == "resignation":
        reason = resignation_worth_at_most(first, second)
    elif problem == "no loser":
        reason = RESULT_WITHOUT_LOSER
    elif problem == "not your turn":
        reason, action = NOT_YOUR_TURN, f"rolls {first}-{second}"
    elif problem == "play" and board is not None:
        reason = _refusal_of_play(rules, Position(*board), (first, second), written_play(after))
        action = f"plays {written_play(after) or 'nothing'!r} with {first}-{second}"
    elif problem == "match not won":
        reason = match_not_won(first, second, rules.match_length)
    else:
        reason = None
    score = read_score_line(lines[score_line])
    if reason is None or score is None:
        return None
    player = None if side is None else score[0][side]
    return Problem(reason, game=game, move=move, line=line_index + 1, side=side, player=player, action=action)


def _refusal_of_play(rules: RuleSet, position: Position, dice: tuple[int, int], play: str) -> str | None:
    """Why ``play`` is refused with ``dice`` in ``position`` (the side on turn's), as the game says
    it (``game.read_play``); ``None`` where it is legal."""
    try:
        rules.rules.parse_play(position, check_dice(dice), play)
    except (InvalidPlayError, IllegalPlayError, AmbiguousPlayError) as error:
        return refusal_of_play(error)
    return None


class _CleanByTheCore:
    """:data:`~tavli.engine.matfile.checking.CleanGame` by the compiled core."""

    def __init__(self, text: MatText, rules: RuleSet) -> None:
        self.text = text
        self.rules = rules

    def __call__(
        self, game: GameRecord, before: MatchState | None, crawford_played: bool, following: GameRecord | None
    ) -> MatchState | StoppedAt | None:
        from tavli.engine.game import match_at
        from tavli.engine.matfile.checking import StoppedAt

        compiled = core.compiled
        assert compiled is not None
        if before is None:
            taken_up: tuple[int | None, tuple[int, int] | None, bool] = (None, None, crawford_played)
        elif before.over:
            return None
        else:
            # The Crawford game played before this one (the match's flag counts this game too).
            played_before = before.crawford_played and not before.game.crawford
            taken_up = (before.game.number, before.score, played_before)
        next_score = False if following is None else following.score
        answer = compiled.check_mat_game(
            self.text, game.line - 1, game.last_line, next_score, taken_up, *_core_rules(self.rules)
        )
        if answer is None or isinstance(answer, int):
            return None if answer is None else StoppedAt(answer)
        score, crawford_played_after, over = answer
        if over and following is not None:
            return None  # a game after the match's end: the pure checker says so
        return match_at(self.rules, game.number + 1, score, crawford_played=crawford_played_after)


def _core_rules(rules: RuleSet) -> tuple[int, bool, bool, bool, int]:
    """The rules as the core's pass takes them."""
    return rules.match_length, rules.crawford, rules.jacoby, rules.uses_cube, rules.highest_cube


def _lost_on_time(tag: str) -> bool:
    """Whether a header tag says a game was lost on time (a game the pure checker checks)."""
    if not tag.endswith(" Time"):  # (at once for the other tags, which every record has a dozen of)
        return False
    words = tag.split()
    return len(words) == 3 and words[1].isdigit() and tag == time_loss_tag(int(words[1]))


_BACKGAMMON = RuleSet()


@lru_cache(maxsize=64)
def _played_by_the_core(rules: RuleSet) -> bool:
    """Whether ``rules`` are backgammon's as the core's pass plays them: from the standard start,
    the opening throw played, no automatic doubles or clocks; any match length, cube limit,
    Crawford, Jacoby and beavers (a beaver itself is left to the pure checker)."""
    try:
        played = replace(
            rules,
            match_length=0,
            cube=_BACKGAMMON.cube,
            cube_limit=_BACKGAMMON.cube_limit,
            crawford=_BACKGAMMON.crawford,
            jacoby=_BACKGAMMON.jacoby,
            beavers=_BACKGAMMON.beavers,
        )
    except InvalidRuleSetError:
        return False
    return played == _BACKGAMMON


__all__ = ["RecordSummary", "summarize_record"]
