"""Checking a match record against the rules: every play, cube action and result, every problem.

Each game is replayed through the engine's state machine from the game before it or, when that
one could not be checked to its end, from its own score line (as GNU Backgammon takes each game
up). A problem ends the checking of its game and is kept with where it stands: the game, the move
number, the side, the line. The rules come from the header's tags: the variant (``Variation``, which
also names backgammon's other starts as GNU Backgammon writes them: ``NackGammon``, ``HyperGammon (2)``),
``Crawford``, ``Jacoby``, ``Beaver``, the cube's tags, ``Backgammons``, ``MatchOpenings``,
``HomeHitAndRun``; Crawford is on in match
play unless a tag turns it off, and which game is the Crawford game follows from the score.

Lenient where the record is only written differently: dice in either order, a double written
with the moves that could be played, a forced play left unwritten, a win written as the points
that were enough to win the match (the score keeps the points the game was worth, as GNU
Backgammon counts them), the loser's ``Losses`` line as well as or instead of the winner's
``Wins`` line, a roll written after the game was over with nothing played.

Results are read by their meaning, not their column alone: a result at the line's start (no move
number, no column) names the winner the game's other result line names, else the game's winner
once it is decided, else the side the next game's score line credits; with none of these it is a
problem, not a guess. A game's result lines must agree on the winner and the points, and ``and the
match`` must bring the winner to the match length.

A game the header names as lost on time (``; [Game 3 Time "Alice ran out of time"]``, as
:mod:`.export` writes it) ends at its result line with the loser's :class:`TimeRanOut`: the side
that did not win ran out of time, and the winner's points are what the time loss gives, the points
it needed for the match or, in money play, the cube's value. When it ran out is not checked: a
.mat file keeps no times.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING, NoReturn

from tavli.engine.events import (
    Beavered,
    Doubled,
    Dropped,
    Event,
    OpeningThrown,
    ResignationAccepted,
    ResignationOffered,
    Rolled,
    Side,
    TimeRanOut,
    Took,
    played,
)
from tavli.engine.game import (
    ActionError,
    FinishedGame,
    MatchState,
    Phase,
    apply,
    legal_plays,
    make_play,
    match_at,
    new_match,
    other,
    read_play,
)
from tavli.engine.matfile.header import RULE_TAGS, rules_of, time_loss_tag
from tavli.engine.matfile.problems import (
    RESULT_WITHOUT_LOSER,
    MatFileError,
    Problem,
    RulesUnknown,
    cube_turned_to,
    match_not_won,
    points_in_words,
    resignation_worth_at_most,
)
from tavli.engine.matfile.reading import Entry, GameRecord, MatRecord
from tavli.engine.play import Step, format_steps
from tavli.engine.rules import RuleSet

if TYPE_CHECKING:
    from tavli.engine.match import Match  # (imported for a clean record's match alone: see match())


@dataclass(frozen=True, slots=True)
class CheckedGame:
    """One game as checked: its score line, the events replayed and how it ended (``None``:
    unfinished, or its checking stopped at a problem)."""

    number: int
    score: tuple[int, int] | None  # at the start of the game, as its score line says
    events: tuple[Event, ...]
    result: FinishedGame | None  # also when a problem follows the game's end (a result misread)
    problem: Problem | None


@dataclass(frozen=True)
class MatchCheck:
    """A record checked: its rules, every game, the score after the last one, every problem."""

    record: MatRecord
    rules: RuleSet
    games: tuple[CheckedGame, ...]
    score: tuple[int, int]
    problems: tuple[Problem, ...]

    @property
    def clean(self) -> bool:
        return not self.problems

    @property
    def events(self) -> list[Event]:
        """The whole record's log, every game in turn (a clean record's: it replays as one match)."""
        return [event for game in self.games for event in game.events]

    def match(self) -> Match:
        """The match a clean record describes, ready to go on where it stopped."""
        if self.problems:
            raise ValueError("a record with problems describes no match")
        from tavli.engine.match import Match  # the dice sources it brings are not needed to check

        return Match.replay(self.rules, self.events)


@dataclass(frozen=True, slots=True)
class StoppedAt:
    """A quicker check's answer for a game plainly clean up to the first entry the reader could not
    read (a move not recorded), on ``line``, which stops its checking with the reader's problem."""

    line: int


CleanGame = Callable[
    ["GameRecord", "MatchState | None", bool, "GameRecord | None"], "MatchState | StoppedAt | None"
]
"""A quicker check of one game that answers only where the game is plainly clean (the compiled
core's, :mod:`.summary`): given the game, the match before it (``None``: the game is taken up from
its own score line), whether the score lines before it reached the Crawford score and the game
after it (``None``: it is the record's last), the match after it, or where the game stops at an
entry the reader could not read (:class:`StoppedAt`); ``None`` where it does not answer, and the
game is checked here."""


def check_record(
    record: MatRecord, rules: RuleSet | None = None, *, clean_game: CleanGame | None = None
) -> MatchCheck:
    """Every game of ``record`` checked against ``rules`` (by default, the header's). With
    ``clean_game``, the games it answers for are not checked here: the check holds only the
    others (their events and problems), the problems of the games it stops (without their
    events), and the score after the last game.

    :raises RulesUnknown: if the header names rules tavli does not play, or ``rules`` disagree
        with the record's match length.
    """
    if rules is None:
        rules = rules_of(record.tags, record.match_length)
    elif rules.match_length != record.match_length:
        raise RulesUnknown(
            f"the file is a {record.match_length} point match, the rules given say {rules.match_length}"
        )
    players = record.players or ("", "")
    state: MatchState | None = new_match(rules)  # None: the game before could not be checked
    crawford_played = False
    games: list[CheckedGame] = []
    problems: list[Problem] = []
    for position, game in enumerate(record.games):
        following = record.games[position + 1] if position + 1 < len(record.games) else None
        after = None if clean_game is None else clean_game(game, state, crawford_played, following)
        if isinstance(after, MatchState):
            state = after
        else:
            checker = _GameChecker(
                rules,
                game,
                players,
                last=following is None,
                next_score=None if following is None else following.score,
                time_loss=record.tags.get(time_loss_tag(game.number)),
            )
            if after is None or not checker.stop_at(after):
                state = checker.check(state, crawford_played)
            else:
                state = None
            games.append(checker.checked())
            if checker.problem is not None:
                problems.append(checker.problem)
        crawford_played = crawford_played or _at_crawford_score(game, rules)
    return MatchCheck(record, rules, tuple(games), _final_score(record, games, state), tuple(problems))


def _at_crawford_score(game: GameRecord, rules: RuleSet) -> bool:
    """Whether the game's score line has a side a point from the match (so the Crawford game has
    been reached, for a game taken up from its own score line)."""
    return game.score is not None and rules.is_match and max(game.score) >= rules.match_length - 1


def _final_score(record: MatRecord, games: list[CheckedGame], state: MatchState | None) -> tuple[int, int]:
    """The score after the last game: the engine's when the game was checked to its end; else its
    score line and its result, the engine's if the game was over before the problem, else the one
    written."""
    if state is not None:
        return state.score
    last, checked = record.games[-1], games[-1]
    if last.score is None:
        return next((game.score for game in reversed(record.games) if game.score is not None), (0, 0))
    score = list(last.score)
    if checked.result is not None and checked.result.winner is not None:
        score[checked.result.winner] += checked.result.points
    else:
        written = _placed_result(last.entries)
        if written is not None and written.value is not None:
            score[_winner(written)] += written.value
    return score[0], score[1]


# --- one game -------------------------------------------------------------------------------------


class _Stop(Exception):
    """The game's checking ends here, at this problem."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem


class _GameChecker:
    """Replays one game's entries through the engine; the first problem stops it."""

    def __init__(
        self,
        rules: RuleSet,
        game: GameRecord,
        players: tuple[str, str],
        *,
        last: bool,
        next_score: tuple[int, int] | None,
        time_loss: str | None,
    ) -> None:
        self.rules = rules
        self.game = game
        self.players = game.players or players
        self.last = last
        self.next_score = next_score  # the next game's score line, which says who won this one
        self.time_loss = time_loss  # the header's "Alice ran out of time" for a game lost on time
        self._first_result: tuple[Entry, Side] | None = None  # the first result line read, and its winner
        self.state: MatchState = new_match(rules)
        self.events: list[Event] = []
        self.problem: Problem | None = None
        self._unplayed: Entry | None = None  # a roll written without a play: a resignation may follow
        self._finished_before = 0  # the match's games finished before this one

    def check(self, before: MatchState | None, crawford_played: bool) -> MatchState | None:
        """Check the game from ``before`` (``None``: from its own score line); the state after it,
        or ``None`` if a problem stopped it."""
        try:
            self.state = self._start(before, crawford_played)
            self._finished_before = len(self.state.finished)
            for entry in self.game.entries:
                self._entry(entry)
            self._end()
        except _Stop as stop:
            self.problem = stop.problem
            return None
        return self.state

    @cached_property
    def result_lines(self) -> int:
        """How many result lines the game has."""
        return sum(entry.kind in ("win", "loss") for entry in self.game.entries)

    @cached_property
    def placed_result(self) -> Entry | None:
        """The game's first result line whose column says whose it is."""
        return _placed_result(self.game.entries)

    def stop_at(self, stopped: StoppedAt) -> bool:
        """Stop the game, without replaying it, at its first entry the reader could not read, where
        a quicker check found the game plainly clean until then (as :meth:`check` would stop it);
        ``False``, and nothing done, if that entry is not on the line the check says. The game's
        lines after that one are not read."""
        entries = self.game.entries_through(stopped.line)
        entry = next((entry for entry in entries if entry.problem is not None), None)
        if entry is None or entry.problem is None or entry.line != stopped.line:
            return False
        self.problem = self._problem(entry, entry.problem, "")
        return True

    def checked(self) -> CheckedGame:
        return CheckedGame(
            self.game.number, self.game.score, tuple(self.events), self._finished(), self.problem
        )

    # --- the game's start and end ------------------------------------------------------------

    def _start(self, before: MatchState | None, crawford_played: bool) -> MatchState:
        game, rules = self.game, self.rules
        if game.score is None:
            self._game_problem(
                "a game starts with a score line, like ' Alice : 0   Bob : 0'", game.score_line
            )
        if before is not None:
            if before.over:
                self._game_problem("the match was already over", game.line)
            if game.number != before.game.number:
                self._game_problem(f"game {before.game.number} comes next, not game {game.number}", game.line)
            if game.score != before.score:
                self._game_problem(
                    f"the score line says {game.score[0]}-{game.score[1]}, but the games before make it"
                    f" {before.score[0]}-{before.score[1]}",
                    game.score_line,
                )
            return before
        if rules.is_match and max(game.score) >= rules.match_length:
            self._game_problem(
                f"the score line says {game.score[0]}-{game.score[1]}: the {rules.match_length} point match"
                " was already over",
                game.score_line,
            )
        opener: Side = next((entry.side for entry in game.entries if entry.kind == "roll"), 0)
        return match_at(rules, game.number, game.score, crawford_played=crawford_played, opener=opener)

    def _end(self) -> None:
        """Close the game; only the file's last game may be unfinished."""
        if self._unplayed is not None and not self._over() and not self.last:
            self._play_unwritten()
        if not self.last and not self._over():
            self._game_problem("the game ends without a result: nobody has won it", self.game.last_line)
        if self.game.opening is not None and self.state.game.phase is Phase.OPENING and not self._over():
            # Thrown, not yet played: the record stops after the throw for who starts.
            opening = OpeningThrown(self.game.opening)
            try:
                self._append(opening, apply(self.state, opening))
            except ActionError as error:
                self._game_problem(
                    f"the Opening line's throws: {error.message}", self.game.opening_line or self.game.line
                )
        if self.time_loss is not None:
            self._check_lost_on_time()

    def _check_lost_on_time(self) -> None:
        """A game the header says was lost on time ended so."""
        finished = self._finished()
        if finished is None:
            self._game_problem(
                f"the header says {self.time_loss!r}, but nobody has won the game", self.game.last_line
            )
        if finished.ended_by != "time":
            how = {"play": "by a play", "drop": "by a dropped double"}.get(finished.ended_by, "otherwise")
            self._game_problem(
                f"the header says {self.time_loss!r}, but player {finished.winner} won the game {how}",
                self.game.line,
            )

    # --- entries -----------------------------------------------------------------------------

    def _entry(self, entry: Entry) -> None:
        if entry.kind == "resign":
            return  # the result written after it says what the resignation was worth
        if entry.problem is not None:
            self._fail(entry, entry.problem, "")
        if entry.kind in ("win", "loss"):
            self._result(entry)
            return
        if self._unplayed is not None:
            self._play_unwritten()
        if self._over():
            if entry.kind == "roll" and not entry.play:
                return  # a roll written after the end, with nothing played: nothing happened
            self._fail(entry, "the game is already over", _described(entry))
        if self.state.game.phase is Phase.OPENING:
            self._open(entry)
        if entry.kind == "roll":
            self._roll_and_play(entry)
        elif entry.kind == "double":
            self._apply(entry, Doubled(entry.side), "doubles")
            self._check_cube(entry)
        elif entry.kind == "beaver":
            self._apply(entry, Beavered(entry.side), "beavers")
            self._check_cube(entry)
        elif entry.kind == "take":
            self._apply(entry, Took(entry.side), "takes")
        elif entry.kind == "drop":
            self._apply(entry, Dropped(entry.side), "drops")
        else:
            self._fail(entry, f"tavli does not play {entry.kind}s", _described(entry))

    def _roll_and_play(self, entry: Entry) -> None:
        assert entry.dice is not None
        dice = entry.dice
        game = self.state.game
        if game.phase is Phase.PLAYING and game.turn == entry.side and not self._anything_but_the_opening():
            if game.dice is None or sorted(game.dice) != sorted(dice):
                shown = f"{game.dice[0]}-{game.dice[1]}" if game.dice else "nothing"
                self._fail(entry, f"the opening throw gave {shown}", f"plays {dice[0]}-{dice[1]}")
        else:
            self._apply(entry, Rolled(entry.side, dice), f"rolls {dice[0]}-{dice[1]}")
        if not entry.play and legal_plays(self.state)[0].steps:
            self._unplayed = entry  # a resignation follows, or the play was forced
            return
        self._play(entry, entry.play)

    def _play_unwritten(self) -> None:
        """A roll written without its play and not followed by a resignation: the play was forced
        (GNU Backgammon reads it so), or there is more than one and the engine says what must be
        played."""
        entry, self._unplayed = self._unplayed, None
        assert entry is not None
        plays = legal_plays(self.state)
        self._play(entry, plays[0].steps if len(plays) == 1 else "")

    def _anything_but_the_opening(self) -> bool:
        return any(not isinstance(event, OpeningThrown) for event in self.events)

    def _open(self, entry: Entry) -> None:
        """The opening throw, which a .mat file does not write: from the game's ``Opening`` line,
        else from the first play's dice when the opening throw is played, else made up."""
        throws = self.game.opening
        if throws is None:
            if self.rules.opening == "PLAY_OPENING_DICE":
                if entry.kind != "roll" or entry.dice is None:
                    self._fail(
                        entry,
                        "the game starts with the opening throw, played as the first move",
                        _described(entry),
                    )
                high, low = max(entry.dice), min(entry.dice)
                if high == low:
                    self._fail(
                        entry,
                        "the opening throw cannot be a double: its dice are the two players' throws",
                        _described(entry),
                    )
                throws = ((high, low),) if entry.side == 0 else ((low, high),)
            else:
                throws = ((2, 1),) if entry.side == 0 else ((1, 2),)  # only who started is known
        self._apply(entry, OpeningThrown(throws, entry.side), "throws for who starts")
        if self.state.game.turn != entry.side:
            self._fail(entry, f"player {self.state.game.turn} won the opening throw", _described(entry))

    def _play(self, entry: Entry, play: str | tuple[Step, ...]) -> None:
        assert entry.dice is not None
        try:
            chosen = read_play(self.state, entry.side, play)
        except ActionError as error:
            # The action in words, built only for a play refused.
            written = play if isinstance(play, str) else format_steps(play)
            self._fail(
                entry, error.message, f"plays {written or 'nothing'!r} with {entry.dice[0]}-{entry.dice[1]}"
            )
        self._append(played(entry.side, chosen), make_play(self.state, entry.side, chosen))

    # --- results -----------------------------------------------------------------------------

    def _result(self, written: Entry) -> None:
        """A result line: whose it is, that it agrees with the game's first result line (and so
        with every one before it), then what it says: while the game is on, how it ended (a
        resignation, or a time loss the header names); once it is over, the points it scored; and
        the match, if the line says so."""
        winner = self._winner_written(written)
        entry = replace(written, side=winner if written.kind == "win" else other(winner), in_column=True)
        if self._first_result is None:
            self._first_result = entry, winner
        first, first_winner = self._first_result
        if first_winner != winner:
            self._fail(entry, f"line {first.line} says player {first_winner} won", _described(entry))
        if first.value != entry.value:
            assert first.value is not None
            reason = f"line {first.line} says the game was worth {points_in_words(first.value)}"
            self._fail(entry, reason, _described(entry))
        if self._over():
            self._check_result(entry, winner)
        elif self.time_loss is not None:
            self._lose_on_time(entry, winner)
        else:
            self._resign(entry, winner)
        if entry.wins_match:
            self._check_match_won(entry)

    def _winner_written(self, entry: Entry) -> Side:
        """Who a result line says won: by its column; for a line at the line's start, by the game's
        result line in a column, else by the game's end if it is over, else by the next game's
        score line.

        :raises _Stop: if none of these says who won.
        """
        if entry.in_column:
            return _winner(entry)
        if self.placed_result is not None:
            return _winner(self.placed_result)
        finished = self._finished()
        if finished is not None and finished.winner is not None:  # (a drawn game has no winner)
            return finished.winner
        assert entry.value is not None
        scored = self._scored_by_next_game(entry.value)
        if scored is not None:
            return scored
        raise _Stop(
            Problem(
                RESULT_WITHOUT_LOSER,
                game=self.game.number,
                move=entry.move,
                line=entry.line,
                action=entry.text,
            )
        )

    def _scored_by_next_game(self, points: int) -> Side | None:
        """The side the next game's score line credits with this game's ``points`` (``None``: it
        credits neither side with exactly these)."""
        if self.next_score is None or self.game.score is None:
            return None
        gained = (self.next_score[0] - self.game.score[0], self.next_score[1] - self.game.score[1])
        side: Side
        for side in (0, 1):
            if gained[side] == points and gained[other(side)] == 0:
                return side
        return None

    def _check_match_won(self, entry: Entry) -> None:
        """A result written "and the match" brings the game's winner to the match length."""
        if not self.rules.is_match:
            self._fail(entry, "money play has no match to win", _described(entry))
        finished = self._finished()
        assert finished is not None
        winner = finished.winner
        if winner is None:
            self._fail(entry, "the game was drawn: nobody won the match by it", _described(entry))
        score = self.state.score[winner]
        if score < self.rules.match_length:
            self._fail(entry, match_not_won(winner, score, self.rules.match_length), _described(entry))

    def _resign(self, entry: Entry, winner: Side) -> None:
        """A result while the game is still on: the loser resigned (as GNU Backgammon reads it)."""
        assert entry.value is not None
        cube = self.state.game.cube_value
        levels = self.rules.resign_levels
        # The least the resignation can have been for to be worth the points written.
        level = next((level for level in levels if level.multiplier * cube >= entry.value), None)
        if level is None:
            most = levels[-1].multiplier * cube
            self._fail(entry, resignation_worth_at_most(most, cube), _described(entry))
        loser = other(winner)
        self._unplayed = None
        if self.state.game.phase is Phase.OPENING:
            # Resigned before the first roll: the throw for who starts is only in an Opening line
            # (a file without one does not say who started, and it makes no difference here).
            throws = self.game.opening or ((2, 1),)
            self._apply(entry, OpeningThrown(throws, winner), "throws for who starts")
        self._apply(entry, ResignationOffered(loser, level.resign_level), f"player {loser} resigns")
        self._apply(entry, ResignationAccepted(winner), "accepts the resignation")
        self._check_result(entry, winner)

    def _lose_on_time(self, entry: Entry, winner: Side) -> None:
        """A result while the game is still on, in a game the header says was lost on time: the
        side that did not win ran out of time, whenever it was (a .mat file keeps no times)."""
        loser = other(winner)
        named = self.time_loss.removesuffix(" ran out of time").strip() if self.time_loss else ""
        if named == self.players[winner] != self.players[loser]:
            reason = f"the header says {named} ran out of time, but {named} wins the game"
            self._fail(entry, reason, _described(entry))
        self._unplayed = None
        if self.state.game.phase is Phase.OPENING:
            if self.game.opening is None:
                self._fail(entry, "no clock runs before the throw for who starts", _described(entry))
            self._apply(entry, OpeningThrown(self.game.opening), "throws for who starts")
        self._apply(entry, TimeRanOut(loser), f"player {loser} runs out of time")
        self._check_result(entry, winner)

    def _check_result(self, entry: Entry, winner: Side) -> None:
        """The winner and points a result writes against the game's. A game's only result line may
        stand in the other player's column (some programs write every result in the left column);
        where the game has two, they say together who won."""
        finished = self._finished()
        assert finished is not None
        assert entry.value is not None
        if finished.winner is not None and winner != finished.winner and self.result_lines > 1:
            self._fail(entry, f"player {finished.winner} won the game", _described(entry))
        needed = None if finished.winner is None else self._needed(finished.winner)
        enough = needed is not None and needed <= entry.value < finished.points
        if entry.value != finished.points and not enough:
            self._fail(entry, _result_in_words(finished, self.rules), _described(entry))

    def _needed(self, side: Side) -> int | None:
        """The points ``side`` needed at the game's start to win the match (``None``: money play)."""
        if not self.rules.is_match or self.game.score is None:
            return None
        return self.rules.match_length - self.game.score[side]

    def _check_cube(self, entry: Entry) -> None:
        value = self.state.game.cube_value * (2 if self.state.game.phase is Phase.DOUBLED else 1)
        if entry.value is not None and entry.value != value:
            self._fail(entry, cube_turned_to(value), entry.text)

    # --- the engine --------------------------------------------------------------------------

    def _finished(self) -> FinishedGame | None:
        """How this game ended, once it has."""
        finished = self.state.finished
        return finished[self._finished_before] if len(finished) > self._finished_before else None

    def _over(self) -> bool:
        return len(self.state.finished) > self._finished_before

    def _apply(self, entry: Entry, event: Event, action: str) -> None:
        try:
            after = apply(self.state, event)
        except ActionError as error:
            self._fail(entry, error.message, action)
        self._append(event, after)

    def _append(self, event: Event, after: MatchState) -> None:
        self.state = after
        self.events.append(event)

    def _fail(self, entry: Entry, reason: str, action: str) -> NoReturn:
        raise _Stop(self._problem(entry, reason, action))

    def _problem(self, entry: Entry, reason: str, action: str) -> Problem:
        return Problem(
            reason,
            game=self.game.number,
            move=entry.move,
            line=entry.line,
            side=entry.side,
            player=self.players[entry.side],
            action=action,
        )

    def _game_problem(self, reason: str, line: int) -> NoReturn:
        raise _Stop(Problem(reason, game=self.game.number, line=line))


def _result_in_words(finished: FinishedGame, rules: RuleSet) -> str:
    """How the game ended and what it scored, for a result that writes other points."""
    points = points_in_words(finished.points)
    if finished.winner is None:
        return "the game ended in a draw, which scores nothing"
    if finished.ended_by != "time":
        return f"the game ended with player {finished.winner} winning {points}"
    loser = other(finished.winner)
    if rules.is_match:
        return (
            f"player {loser} ran out of time, which gives player {finished.winner} the {points} it needed"
            " for the match"
        )
    return f"player {loser} ran out of time, which loses the game at the cube's value: {points}"


def _winner(entry: Entry) -> Side:
    return entry.side if entry.kind == "win" else other(entry.side)


def _placed_result(entries: Sequence[Entry]) -> Entry | None:
    """A game's first result line whose column says whose it is."""
    return next((entry for entry in entries if entry.kind in ("win", "loss") and entry.in_column), None)


def _described(entry: Entry) -> str:
    if entry.dice is not None:
        return f"plays {entry.play!r} with {entry.dice[0]}-{entry.dice[1]}"
    return entry.text


__all__ = [
    "RULE_TAGS",
    "CheckedGame",
    "CleanGame",
    "MatFileError",
    "MatchCheck",
    "Problem",
    "RulesUnknown",
    "StoppedAt",
    "check_record",
    "rules_of",
]
