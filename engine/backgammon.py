"""Backgammon: hitting, the bar, gammons and backgammons; and the rule set's options that change
how checkers move: the start (nackgammon, hypergammon) and hit-and-run in the home board."""

from __future__ import annotations

from typing import Literal

from tavli.engine import core
from tavli.engine.play import Dice, Play, Step
from tavli.engine.position import BAR, OFF, Checkers, Point, Position
from tavli.engine.variant import (
    GameResult,
    LegalPlays,
    Variant,
    bear_off_refusal,
    bear_off_start,
    is_better_way,
)

Start = Literal["STANDARD", "NACKGAMMON", "HYPERGAMMON_1", "HYPERGAMMON_2", "HYPERGAMMON_3"]
HomeHitAndRun = Literal["ALLOWED", "FORBIDDEN"]

STARTS: dict[Start, dict[Point, int]] = {
    "STANDARD": {24: 2, 13: 5, 8: 3, 6: 5},
    "NACKGAMMON": {24: 2, 23: 2, 13: 4, 8: 3, 6: 4},
    "HYPERGAMMON_1": {24: 1},
    "HYPERGAMMON_2": {24: 1, 23: 1},
    "HYPERGAMMON_3": {24: 1, 23: 1, 22: 1},
}
"""Where each side's checkers stand before the first roll, for each ``start`` (RULES.md)."""

START_VALUES: tuple[Start, ...] = tuple(STARTS)
HOME_HIT_AND_RUN_VALUES: tuple[HomeHitAndRun, ...] = ("ALLOWED", "FORBIDDEN")

# Each other start's name in a player's words, in a .mat file's Variation header (as GNU
# Backgammon's export.c writes it) and in GNU Backgammon's ``set variation``.
_START_NAMES: dict[Start, tuple[str, str, str]] = {
    "NACKGAMMON": ("nackgammon", "NackGammon", "nackgammon"),
    "HYPERGAMMON_1": ("1-checker hypergammon", "HyperGammon (1)", "1-chequer-hypergammon"),
    "HYPERGAMMON_2": ("2-checker hypergammon", "HyperGammon (2)", "2-chequer-hypergammon"),
    "HYPERGAMMON_3": ("3-checker hypergammon", "HyperGammon (3)", "3-chequer-hypergammon"),
}


class Backgammon(Variant):
    """Backgammon as RULES.md describes it. My point ``p`` is the opponent's point ``25 - p``.

    ``start`` places the checkers (nackgammon's start, or hypergammon's 1-3 checkers a side);
    ``home_hit_and_run`` ``FORBIDDEN`` keeps a checker that hits in the mover's home board where it
    hit for the rest of the play (Turkish tavla). A rule set's instance comes from
    :func:`tavli.engine.variants.variant_with`, which builds one per set of options.
    """

    name = "backgammon"
    title = "backgammon"
    mat_variation = None
    gnubg_variant = "standard"
    hits = True
    cube = True
    default_opening = "PLAY_OPENING_DICE"
    resign_levels = (GameResult.SINGLE, GameResult.GAMMON, GameResult.BACKGAMMON)
    same_way_round = False
    example_plays = ("13/7 8/7", "bar/22", "24/18*/13", "6/2(2)", "6/off")
    compiled_rules: int | None = core.BACKGAMMON_RULES
    move_options = ("start", "home_hit_and_run")

    def __init__(self, *, start: Start = "STANDARD", home_hit_and_run: HomeHitAndRun = "ALLOWED") -> None:
        """:raises ValueError: for an option's value the rule book does not name."""
        for option, value, values in (
            ("start", start, START_VALUES),
            ("home_hit_and_run", home_hit_and_run, HOME_HIT_AND_RUN_VALUES),
        ):
            if value not in values:
                raise ValueError(f"{option} is {' or '.join(values)}, not {value!r}")
        self.start = start
        self.home_hit_and_run = home_hit_and_run
        if start != "STANDARD":
            self.title, self.mat_variation, self.gnubg_variant = _START_NAMES[start]
        side = [0] * 26
        for point, count in STARTS[start].items():
            side[point] = count
        self.checkers = sum(side)
        self._start = Position.trusted(tuple(side), tuple(side))
        # The compiled core plays 15 checkers a side and lets a hitter run on.
        if self.checkers != 15 or home_hit_and_run != "ALLOWED":
            self.compiled_rules = None

    def start_position(self) -> Position:
        return self._start

    def __repr__(self) -> str:
        return f"<Backgammon start={self.start} home_hit_and_run={self.home_hit_and_run}>"

    def opponent_point(self, point: Point) -> Point:
        return 25 - point

    def most_to_lose(self, position: Position) -> GameResult:
        mine, theirs = position
        if mine[OFF]:
            return GameResult.SINGLE
        # Gammoned at least; backgammoned too while a checker may still be caught in the
        # winner's home board: one is there or on the bar now, or the sides are still in contact.
        contact = _highest(mine) + _highest(theirs) > 25
        return GameResult.BACKGAMMON if any(mine[19:26]) or contact else GameResult.GAMMON

    def result(self, position: Position) -> GameResult | None:
        for winner, loser in ((position.player, position.opponent), (position.opponent, position.player)):
            if winner[OFF] == self.checkers:
                if loser[OFF]:
                    return GameResult.SINGLE
                # The loser's points 19-24 are the winner's home board.
                if any(loser[19:26]):
                    return GameResult.BACKGAMMON
                return GameResult.GAMMON
        return None

    def step(
        self, position: Position, start: Point, die: int, *, taken: tuple[Step, ...], dice: Dice
    ) -> Step | str:
        player, opponent = position
        if start == OFF:
            return "a checker borne off is out of play: it cannot move again"
        if start != BAR and player[BAR]:
            checkers = "checker" if player[BAR] == 1 else "checkers"
            return f"you must enter your {checkers} from the bar first"
        if not player[start]:
            return (
                "you have no checker on the bar"
                if start == BAR
                else f"you have no checker on your {start}-point"
            )
        if self.home_hit_and_run == "FORBIDDEN" and _hitter_stays(player, start, _hits_of(taken)):
            return (
                f"the checker that hit on your {start}-point must stay there this turn:"
                " a checker that hits in your home board may not move on"
            )
        end = start - die
        if end <= 0:
            return bear_off_refusal(player, start, die, outside="outside your home board or on the bar")
        if _held(opponent)[end]:
            where = "from the bar" if start == BAR else f"from your {start}-point"
            return f"the {die} cannot be played {where}: your {end}-point is blocked"
        return Step(start, end, die, _blots(opponent)[end])

    def _pure_plays(self, position: Position, dice: Dice) -> LegalPlays:
        if self.home_hit_and_run == "FORBIDDEN":  # the quick paths let every checker run on
            return super()._pure_plays(position, dice)
        high, low = dice
        player = position.player
        if high != low and not player[BAR] and sum(player[7:25]) >= 2:
            # The commonest case, and every play found uses both dice: no filter to apply.
            plays = _two_dice_in_the_field(position, high, low)
            if plays:
                return LegalPlays(position, dice, plays)
        elif high == low:
            entering, entered = _enter_double(position, high)
            if entered.player[BAR] or len(entering) == 4:  # the roll is spent entering, or lost
                return LegalPlays(position, dice, [Play.trusted(entering, entered)])
            # With as many checkers outside the home board as steps left, no step can bear off.
            if sum(entered.player[7:25]) >= 4 - len(entering):
                plays, all_four = _double_in_the_field(entered, high, entering)
                if all_four:  # the usual case: no filter to apply
                    return LegalPlays(position, dice, plays)
                return self._apply_maximum_use(position, dice, plays)
        return super()._pure_plays(position, dice)

    def _step_sequences(self, position: Position, dice: Dice) -> list[Play]:
        high, low = dice
        player = position.player
        if high != low and player[BAR]:
            return _two_dice_from_the_bar(position, high, low)
        search = _Search(position, dice, self)
        if high == low:
            search.double(high, 4, BAR, (), 0)
            return search.doubles
        search.two(high, low)
        search.two(low, high)
        return [
            _new(Play, (steps, search.position_after(mover, hits)))
            for (mover, hits), steps in search.found.items()
        ]


def _hitter_stays(player: Checkers | list[int], start: Point, hits: int) -> bool:
    """Whether a step from ``start`` would move a checker that must stay where it hit, under
    ``home_hit_and_run`` ``FORBIDDEN``: the mover hit on that home-board point this play (``hits``,
    a bitmask of the mover's points) and has no other checker there to move. The rule, stated once."""
    return start <= 6 and bool(hits >> start & 1) and player[start] <= 1


def _hits_of(steps: tuple[Step, ...]) -> int:
    """The mover's points hit by ``steps``, as a bitmask."""
    hits = 0
    for step in steps:
        if step.hit:
            hits |= 1 << step.end
    return hits


# While a play is searched, its hits are a bitmask of the mover's points hit. A point is hit at most
# once in a turn: the hit checker cannot come back before the turn ends. Nothing the mover does opens
# or closes a point during its turn either (a hit blot leaves an open point open), so the opponent's
# checkers are read once, at the start.

_new = tuple.__new__


def _held(opponent: Checkers) -> list[bool]:
    """For each of the mover's points (0-25), whether the opponent holds it: two or more of its
    checkers stand there. The blocking rule, stated once: no step may end on a held point.

    The mover's point p is the opponent's 25 - p (a die of n enters on the mover's 25 - n, the
    opponent's n). Off and the bar are never held.
    """
    held = [count >= 2 for count in opponent[::-1]]
    held[OFF] = held[BAR] = False
    return held


def _blots(opponent: Checkers) -> list[bool]:
    """For each of the mover's points (0-25), whether a lone opponent checker (a blot) stands
    there: a step ending on it hits it. Off and the bar are never blots."""
    blots = [count == 1 for count in opponent[::-1]]
    blots[OFF] = blots[BAR] = False
    return blots


def _highest(checkers: Checkers) -> int:
    """The side's highest point with a checker (the bar counts as 25), 0 when all are off."""
    return next((point for point in range(BAR, 0, -1) if checkers[point]), 0)


def _two_dice_in_the_field(position: Position, high: int, low: int) -> list[Play]:
    """The plays of both dice of a non-double, when nothing is on the bar and nothing can bear off.

    With two or more checkers outside the home board no step of the turn can bear off, so a step
    is legal exactly when a checker stands on its start and the opponent does not hold its end.
    A play is then a step of each die. Two different pairs of steps lead to the same position only
    when both move one checker (or, the same thing, move one checker on to a point another then
    leaves) by both dice from the same start: through the high die's point or the low die's. So
    only those runs need telling apart, by their start and their hits.
    Returns an empty list when no play uses both dice.
    """
    player = position.player
    opponent = position.opponent
    blot = _blots(opponent)
    held = _held(opponent)  # the ends below are all points: no step here bears off
    firsts = [
        _new(Step, (start, start - high, high, blot[start - high]))
        for start in range(24, high, -1)
        if player[start] and not held[start - high]
    ]
    seconds = [
        _new(Step, (start, start - low, low, blot[start - low]))
        for start in range(24, low, -1)
        if player[start] and not held[start - low]
    ]
    plays: list[Play] = []
    opponent_after: dict[int, Checkers] = {}

    def opponent_hit(hits: int) -> Checkers:
        after = opponent_after[hits] = _after_hits(opponent, hits)
        return after

    # A run by its start, the point between if it hit there, and whether it hit at the end.
    runs: dict[tuple[Point, Point, bool], tuple[Step, Step]] = {}
    board = list(player)
    for first in firsts:
        start, end, _, hit = first
        alone = player[start] == 1
        board[start] -= 1
        board[end] += 1
        # With the first step made, each second step changes two counts of ``board`` and back.
        for second in seconds:
            start2, end2, _, hit2 = second
            if start2 == end:
                runs.setdefault((start, end if hit else 0, hit2), (first, second))
                continue
            if end2 == start:
                runs.setdefault((start2, 0, hit), (second, first))
                continue
            if start2 == start and alone:
                continue
            if hit and end2 == end:
                second = _new(Step, (start2, end, low, False))
                hit2 = False
            board[start2] -= 1
            board[end2] += 1
            if hit or hit2:
                hits = (1 << end if hit else 0) | (1 << end2 if hit2 else 0)
                result = (tuple(board), opponent_after.get(hits) or opponent_hit(hits))
            else:
                result = (tuple(board), opponent)
            plays.append(_new(Play, ((first, second), _new(Position, result))))
            board[start2] += 1
            board[end2] -= 1
        board[start] += 1
        board[end] -= 1
        if not player[end] and end > low and not held[end - low]:
            second = _new(Step, (end, end - low, low, blot[end - low]))
            runs.setdefault((start, end if hit else 0, second.hit), (first, second))
    for first in seconds:
        start, end, _, hit = first
        if not player[end] and end > high and not held[end - high]:
            second = _new(Step, (end, end - high, high, blot[end - high]))
            runs.setdefault((start, end if hit else 0, second.hit), (first, second))
    for steps in runs.values():
        first, second = steps
        board[first.start] -= 1
        board[second.end] += 1  # the point between loses and regains its checker
        if first.hit or second.hit:
            hits = (1 << first.end if first.hit else 0) | (1 << second.end if second.hit else 0)
            result = (tuple(board), opponent_after.get(hits) or opponent_hit(hits))
        else:
            result = (tuple(board), opponent)
        plays.append(_new(Play, (steps, _new(Position, result))))
        board[first.start] += 1
        board[second.end] -= 1
    return plays


def _two_dice_from_the_bar(position: Position, high: int, low: int) -> list[Play]:
    """The plays of a non-double for a side with checkers on the bar.

    The first step enters (the die of n lands on the mover's point 25 - n). With two or more on
    the bar the second step enters too, or is lost. With one, the second die moves any checker;
    none can bear off, since the checker just entered is outside the home board.
    """
    player, opponent = position
    held = _held(opponent)
    blot = _blots(opponent)
    found: dict[tuple[Checkers, int], tuple[Step, ...]] = {}
    for first, second in ((high, low), (low, high)):
        entered = 25 - first
        if held[entered]:
            continue
        step = _new(Step, (BAR, entered, first, blot[entered]))
        board = list(player)
        board[BAR] -= 1
        board[entered] += 1
        hits = 1 << entered if step.hit else 0
        if board[BAR]:
            follows = (
                [_new(Step, (BAR, 25 - second, second, blot[25 - second]))] if not held[25 - second] else []
            )
        else:
            follows = [
                _new(
                    Step, (start, start - second, second, blot[start - second] and start - second != entered)
                )
                for start in range(24, second, -1)
                if board[start] and not held[start - second]
            ]
        if not follows:
            found.setdefault((tuple(board), hits), (step,))
        for follow in follows:
            board[follow.start] -= 1
            board[follow.end] += 1
            key = (tuple(board), hits | 1 << follow.end if follow.hit else hits)
            found.setdefault(key, (step, follow))
            board[follow.start] += 1
            board[follow.end] -= 1
    if not found:
        return [_new(Play, ((), position))]
    return [
        _new(Play, (steps, _new(Position, (mover, _after_hits(opponent, hits) if hits else opponent))))
        for (mover, hits), steps in found.items()
    ]


def _enter_double(position: Position, die: int) -> tuple[tuple[Step, ...], Position]:
    """The steps of a double that enter checkers from the bar, and the position after them: each
    checker on the bar enters, up to four, if the point is open. Entering comes first and cannot be
    done another way, so every legal play of the roll begins with these steps."""
    player, opponent = position
    point = 25 - die
    if not player[BAR] or _held(opponent)[point]:
        return (), position
    entering = min(player[BAR], 4)
    hit = _blots(opponent)[point]
    first = _new(Step, (BAR, point, die, hit))  # the others land where it hit
    steps = (first,) + (_new(Step, (BAR, point, die, False)),) * (entering - 1)
    board = list(player)
    board[BAR] -= entering
    board[point] += entering
    after = _after_hits(opponent, 1 << point) if hit else opponent
    return steps, _new(Position, (tuple(board), after))


def _double_in_the_field(
    position: Position, die: int, entered: tuple[Step, ...] = ()
) -> tuple[list[Play], bool]:
    """The plays of a double when nothing is on the bar and nothing can bear off, and whether
    every one of them uses all four dice (else the maximum-use rule still has to pick).
    ``entered``: the steps that already brought checkers in from the bar to reach ``position``.

    With at least as many checkers outside the home board as steps left, none of the steps can
    bear off, so a step is legal exactly when a checker stands on its start and the opponent does
    not hold its end: the starts worth trying are fixed for the turn. The steps go from the highest
    start down, so each multiset of starts, and with it each resulting position, is found once (see
    :meth:`_Search.double`).
    """
    double = _FieldDouble(position, die)
    double.extend(0, 4 - len(entered), entered, 0)
    return double.plays, double.all_four


class _FieldDouble:
    """The search :func:`_double_in_the_field` makes: the mover's checkers as the steps move
    them, the starts worth trying, and the plays found."""

    __slots__ = ("all_four", "moves", "opponent", "opponent_after", "player", "plays")

    def __init__(self, position: Position, die: int) -> None:
        self.player = player = list(position.player)
        self.opponent = opponent = position.opponent
        held = _held(opponent)
        blot = _blots(opponent)
        # The starts worth trying: the opponent does not hold their end, and a checker stands
        # there now or can arrive there this turn (moving on from a point up to three dice
        # higher). Each with its end and its step, made once: hitting when a blot stands at the
        # end, and the same step quiet, for a checker landing where a blot was already hit this turn.
        reachable = {point - moves * die for point in range(1, 25) if player[point] for moves in range(4)}
        self.moves = [
            (
                start,
                start - die,
                _new(Step, (start, start - die, die, blot[start - die])),
                _new(Step, (start, start - die, die, False)),
            )
            for start in range(24, die, -1)
            if start in reachable and not held[start - die]
        ]
        self.plays: list[Play] = []
        # The opponent's checkers after each set of hits, worked out once: many plays share one.
        self.opponent_after = {0: opponent}
        self.all_four = True  # until a play ends early, blocked

    def opponent_hit(self, hits: int) -> Checkers:
        after = self.opponent_after.get(hits)
        if after is None:
            after = self.opponent_after[hits] = _after_hits(self.opponent, hits)
        return after

    def record(self, steps: tuple[Step, ...], hits: int) -> None:
        """A play blocked before its fourth step."""
        self.all_four = False
        result = (tuple(self.player), self.opponent_hit(hits))
        self.plays.append(_new(Play, (steps, _new(Position, result))))

    def extend(self, first: int, left: int, steps: tuple[Step, ...], hits: int) -> None:
        """The plays that go on from ``steps`` (which hit the points of ``hits``, a bit each) with
        ``left`` steps more, each from the start of ``moves[first]`` or a lower one."""
        player, plays, moves, opponent_after = self.player, self.plays, self.moves, self.opponent_after
        found = len(plays)
        for index in range(first, len(moves)):
            start, end, step, quiet = moves[index]
            if not player[start]:
                continue
            after = hits
            if step.hit:
                if hits >> end & 1:
                    step = quiet
                else:
                    after = hits | 1 << end
            player[start] -= 1
            player[end] += 1
            if left > 1:
                self.extend(index, left - 1, steps + (step,), after)
            else:
                # The last step, inline: this loop makes every play of a full double.
                result = (tuple(player), opponent_after.get(after) or self.opponent_hit(after))
                plays.append(_new(Play, (steps + (step,), _new(Position, result))))
            player[start] += 1
            player[end] -= 1
        if len(plays) == found:
            self.record(steps, hits)


def _after_hits(opponent: Checkers, hits: int) -> Checkers:
    counts = list(opponent)
    while hits:
        point = hits.bit_length() - 1
        hits ^= 1 << point
        counts[25 - point] -= 1
        counts[BAR] += 1
    return tuple(counts)


class _Search:
    """A depth-first search of every step sequence: for doubles, and for the bar and bearing off."""

    __slots__ = ("blot", "doubles", "found", "hitter_stays", "may_bear_off", "player", "position", "targets")
    targets: dict[int, list[tuple[Point, Point, Step, Step]]]

    def __init__(self, position: Position, dice: Dice, variant: Backgammon) -> None:
        opponent = position.opponent
        self.hitter_stays = variant.home_hit_and_run == "FORBIDDEN"
        self.position = position
        self.player = list(position.player)
        self.blot = _blots(opponent)
        held = _held(opponent)
        # For each die, the (start, end) pairs that land on a point the opponent does not hold,
        # from no higher than the mover's highest checker: no checker ever stands above it.
        player = position.player
        top = next(point for point in range(BAR, -1, -1) if player[point])
        # Each with its step made once: hitting where a blot stands, and quiet for landing where
        # a blot was already hit this turn.
        blot = self.blot
        self.targets = {
            die: [
                (
                    start,
                    start - die,
                    _new(Step, (start, start - die, die, blot[start - die])),
                    _new(Step, (start, start - die, die, False)),
                )
                for start in range(top, die, -1)
                if not held[start - die]
            ]
            for die in dict.fromkeys(dice)  # a double's die once
        }
        # A step brings at most one checker home, so with four or more outside none of a turn's
        # (at most four) steps can bear off.
        self.may_bear_off = sum(position.player[7:26]) < 4
        self.found: dict[tuple[Checkers, int], tuple[Step, ...]] = {}
        self.doubles: list[Play] = []

    def position_after(self, mover: Checkers, hits: int) -> Position:
        opponent = self.position.opponent
        return _new(Position, (mover, _after_hits(opponent, hits) if hits else opponent))

    def steps(self, die: int, highest: Point, hits: int) -> list[Step]:
        """The single steps with ``die`` from points no higher than ``highest``."""
        player = self.player
        if player[BAR]:
            return [
                quiet if hits >> end & 1 else hitting
                for start, end, hitting, quiet in self.targets[die][:1]
                if start == BAR
            ]
        steps = [
            quiet if hits >> end & 1 else hitting
            for start, end, hitting, quiet in self.targets[die]
            if start <= highest and player[start]
        ]
        if self.may_bear_off:
            start = bear_off_start(player, die, highest)
            if start is not None:
                steps.append(_new(Step, (start, OFF, die, False)))
        if self.hitter_stays and hits:
            return [step for step in steps if not _hitter_stays(player, step.start, hits)]
        return steps

    def record(self, hits: int, steps: tuple[Step, ...]) -> None:
        key = (tuple(self.player), hits)
        if is_better_way(steps, self.found.get(key)):
            self.found[key] = steps

    def two(self, first: int, second: int) -> None:
        player = self.player
        for step in self.steps(first, 24, 0):
            start, end, _, hit = step
            player[start] -= 1
            player[end] += 1
            hits = 1 << end if hit else 0
            follow = self.steps(second, 24, hits)
            if not follow:
                self.record(hits, (step,))
            for step2 in follow:
                start2, end2, _, hit2 = step2
                player[start2] -= 1
                player[end2] += 1
                self.record(hits | 1 << end2 if hit2 else hits, (step, step2))
                player[start2] += 1
                player[end2] -= 1
            player[start] += 1
            player[end] -= 1
        if not self.found:
            self.record(0, ())

    def double(self, die: int, left: int, highest: Point, steps: tuple[Step, ...], hits: int) -> None:
        # The steps of a double go from the highest starting point down. Any play can be reordered
        # so, and then the play is fixed by the multiset of its starting points, which this order
        # lists once each: every sequence found leads to a position of its own.
        moves = self.steps(die, highest, hits)
        player = self.player
        if not moves:
            self.doubles.append(_new(Play, (steps, self.position_after(tuple(player), hits))))
            return
        for step in moves:
            start, end, _, hit = step
            player[start] -= 1
            player[end] += 1
            if left > 1:
                self.double(die, left - 1, start, steps + (step,), hits | 1 << end if hit else hits)
            else:
                result = self.position_after(tuple(player), hits | 1 << end if hit else hits)
                self.doubles.append(_new(Play, (steps + (step,), result)))
            player[start] += 1
            player[end] -= 1
