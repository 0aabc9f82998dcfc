"""A match being played: the state machine, its event log and its dice.

:class:`Match` turns a side's actions into events (rolling the dice from its source, playing
forced rolls when the rule set says so, committing to and revealing verifiable seeds), applies
them with :func:`tavli.engine.game.apply` and appends them to its log. ``Match.replay`` rebuilds a match
from its log alone: the log is the match.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

from tavli.engine.checking import GivenStep, in_play_order
from tavli.engine.dice import DiceSource, SeededDice, SystemDice
from tavli.engine.events import (
    Beavered,
    DiceCommitted,
    Doubled,
    Dropped,
    Event,
    OpeningThrown,
    RematchAccepted,
    RematchOffered,
    ResignationAccepted,
    ResignationOffered,
    ResignationRejected,
    ResignLevel,
    Rolled,
    SeedRevealed,
    Side,
    TimeRanOut,
    Took,
    WrittenPlay,
    played,
)
from tavli.engine.game import (
    Action,
    ActionError,
    MatchState,
    Phase,
    apply,
    apply_stored,
    legal_actions,
    legal_plays,
    make_play,
    new_match,
    read_play,
    resignation_offered,
)
from tavli.engine.play import Dice, Play
from tavli.engine.rules import RuleSet


class Match:
    """A match or money session in play, with its log of events.

    ``dice`` is where throws come from (the operating system's randomness by default). With
    ``verifiable=True`` each game's throws come instead from a fresh secret seed whose SHA-256 is
    logged before the game (:class:`~tavli.engine.events.DiceCommitted`) and the seed itself after it
    (:class:`~tavli.engine.events.SeedRevealed`); see :mod:`tavli.engine.dice` for the derivation. ``seeds``
    gives the secret seed of game number n (a server derives them from a key of its own, so that
    it need not store them); by default each is 32 fresh random bytes. ``now`` tells the time,
    for a rule set with clocks: each event is stamped with it as it is recorded.
    """

    def __init__(
        self,
        rules: RuleSet,
        *,
        dice: DiceSource | None = None,
        verifiable: bool = False,
        seeds: Callable[[int], bytes] | None = None,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.rules = rules
        self.state: MatchState = new_match(rules)
        self.events: list[Event] = []
        self._dice: DiceSource = dice or SystemDice()
        self._verifiable = verifiable
        self._seeds = seeds
        self._now = now
        self._game_seed: SeededDice | None = None
        self._game_first_throw = 0
        # Where in the log the game in play started, and the state then (a snapshot's matter).
        self.game_started: tuple[int, MatchState] = (0, self.state)
        if verifiable:
            self._commit_dice()

    @classmethod
    def replay(
        cls,
        rules: RuleSet,
        events: Iterable[Event],
        *,
        dice: DiceSource | None = None,
        verifiable: bool = False,
        seeds: Callable[[int], bytes] | None = None,
        seed_in_play: bytes | None = None,
        now: Callable[[], float] = time.time,
        start: tuple[int, MatchState] | None = None,
    ) -> Match:
        """The match a log describes, ready to go on with ``dice``.

        ``start`` is the state after the log's first n events (a snapshot, see
        :mod:`tavli.engine.snapshot`): the log is folded from there rather than from its first event.

        A verifiable match goes on with the secret seed committed to for the game in play: the
        one ``seeds`` gives for its number, or ``seed_in_play`` (see :attr:`seed_in_play`).

        :raises ActionError: if an event in the log breaks the rules.
        :raises ValueError: if that seed is not the seed the log committed to.
        """
        match = cls(rules, dice=dice, seeds=seeds, now=now)
        if start is not None:
            at, match.state = start
            logged = list(events)
            match.events, events = logged[:at], logged[at:]
            match.game_started = start
        match._fold(events)
        match._verifiable = verifiable
        match._resume_dice(seed_in_play)
        return match

    def extend(self, events: Iterable[Event]) -> None:
        """Apply ``events``, logged after this match's own (by another process, which checked
        them when it stored them), as :meth:`replay` would have: a process that is behind folds
        only what it has not seen, and makes each play as logged
        (:func:`~tavli.engine.game.apply_stored`).

        :raises ActionError: if an event does not fit the match at all.
        :raises ValueError: if a game's dice commitment is not to the seed :attr:`seeds` gives.
        """
        self._fold(events, stored=True)
        self._resume_dice(None)

    def fork(self) -> Match:
        """A copy to decide an action on: acting on it leaves this match as it is."""
        copy = Match.__new__(Match)
        copy.__dict__.update(self.__dict__)
        copy.events = list(self.events)
        return copy

    @property
    def seed_in_play(self) -> bytes | None:
        """The secret seed of the game in play, with verifiable dice (keep it to resume)."""
        return None if self._game_seed is None else self._game_seed.seed

    @property
    def dice_commitment(self) -> str:
        """The SHA-256 of the seed of the game in play, with verifiable dice; else ``""``."""
        return "" if self._game_seed is None else self._game_seed.commitment

    # --- actions -------------------------------------------------------------------------

    def roll(self, side: Side) -> list[Event]:
        """Throw for who starts (either side, at the start of a game) or roll the dice.

        :raises ActionError: if ``side`` may not roll now.
        """
        if self.state.game.phase is Phase.OPENING and not self.state.over:
            throws: list[Dice] = []
            while not throws or throws[-1][0] == throws[-1][1]:
                throws.append(self._throw(len(throws)))
            return self._record(OpeningThrown(tuple(throws), side))
        return self._record(Rolled(side, self._throw(0)))

    def play(self, side: Side, play: str | Play | Sequence[GivenStep]) -> list[Event]:
        """Play the dice: the play in standard notation, a :class:`Play`, or its steps (each a
        :class:`~tavli.engine.play.Step` or a start and an end). The log keeps the play as data.

        :raises ActionError: if it is not ``side``'s play to make, or the play is illegal.
        """
        if isinstance(play, Play):
            play = in_play_order(play.steps)  # as its notation lists them: the highest start first
        return self._record_play(side, read_play(self.state, side, play))

    def double(self, side: Side) -> list[Event]:
        return self._record(Doubled(side))

    def take(self, side: Side) -> list[Event]:
        return self._record(Took(side))

    def drop(self, side: Side) -> list[Event]:
        return self._record(Dropped(side))

    def beaver(self, side: Side) -> list[Event]:
        return self._record(Beavered(side))

    def resign(self, side: Side, level: ResignLevel) -> list[Event]:
        """Offer to resign a single game, a gammon or a backgammon (a mars in long nardi);
        the offer is capped to what can still be lost, and logged as capped."""
        asked = ResignationOffered(side, level)
        capped = resignation_offered(self.state, asked)
        return self._record(ResignationOffered(side, capped))

    def expire(self, now: float) -> list[Event]:
        """Record that the running clock ran out, if it has by ``now`` (the event is dated at
        the deadline itself, whenever it is noticed); returns the events appended, if any."""
        deadline = self.deadline
        if deadline is None or now < deadline:
            return []
        assert self.state.clock is not None and self.state.clock.running is not None
        return self._record(TimeRanOut(self.state.clock.running, at=deadline))

    def claim(self, side: Side) -> list[Event]:
        """Record that the other side claimed the match because ``side``'s player was gone:
        ``side`` loses as on time (:class:`TimeRanOut`, claimed).

        :raises ActionError: WRONG_PHASE before the match has started, GAME_OVER after its end.
        """
        return self._record(TimeRanOut(side, claimed=True))

    @property
    def deadline(self) -> float | None:
        """When the seat whose clock runs loses on time; None without a running clock."""
        clock, rules = self.state.clock, self.rules.clock
        return None if clock is None or rules is None else clock.deadline(rules)

    def accept(self, side: Side) -> list[Event]:
        return self._record(ResignationAccepted(side))

    def reject(self, side: Side) -> list[Event]:
        return self._record(ResignationRejected(side))

    def offer_rematch(self, side: Side) -> list[Event]:
        """Offer the other side another match of the same rules, once the match is over.

        :raises ActionError: before the match is over, or once a rematch is offered or accepted.
        """
        return self._record(RematchOffered(side))

    def accept_rematch(self, side: Side, game: str) -> list[Event]:
        """Accept the other side's offer of a rematch, to be played as the game named ``game``.

        :raises ActionError: with no offer, for the side that offered it, or once accepted.
        """
        return self._record(RematchAccepted(side, game))

    # --- reading the state ---------------------------------------------------------------

    def legal_actions(self, side: Side) -> list[Action]:
        return legal_actions(self.state, side)

    def legal_plays(self) -> list[Play]:
        return legal_plays(self.state)

    @property
    def version(self) -> int:
        """How many events the log holds: changes with every action."""
        return len(self.events)

    # --- the machinery ---------------------------------------------------------------------

    def _fold(self, events: Iterable[Event], *, stored: bool = False) -> None:
        for event in events:
            if isinstance(event, WrittenPlay):  # an older log's form: read once, kept as data
                play = read_play(self.state, event.side, event.play)
                event = played(event.side, play, forced=event.forced)
            self._apply(event, stored=stored)

    def _apply(self, event: Event, after: MatchState | None = None, *, stored: bool = False) -> None:
        """Apply ``event``: checked by the rules, unless it is ``stored`` (see ``extend``)."""
        game = self.state.game.number
        self.state = apply_stored(self.state, event) if stored else apply(self.state, event, after)
        self.events.append(event)
        if self.state.game.number != game:
            self.game_started = (self.version, self.state)

    def _resume_dice(self, seed_in_play: bytes | None) -> None:
        """Go on with the secret seed of the game in play after the log, if its dice are
        committed to one: ``seed_in_play``, else the one :attr:`_seeds` gives for its number."""
        commitment = open_commitment(self.events)
        if commitment is None:
            self._game_seed = None
            return
        if self._game_seed is not None and self._game_seed.commitment == commitment.commitment:
            return  # the same game goes on with the seed already in hand
        if seed_in_play is None and self._seeds is not None:
            seed_in_play = self._seeds(commitment.game)
        seed = SeededDice(seed_in_play or b"")
        if seed.commitment != commitment.commitment:
            raise ValueError("the seed in play does not match the game's dice commitment")
        self._game_seed = seed
        self._game_first_throw = commitment.first_throw

    def _record_play(self, side: Side, play: Play, *, forced: bool = False) -> list[Event]:
        """Record a play :func:`read_play` has read for the state now, without checking it again."""
        return self._record(played(side, play, forced=forced), make_play(self.state, side, play))

    def _record(self, event: Event, after: MatchState | None = None) -> list[Event]:
        """Apply ``event`` (whose resulting state is ``after`` when the caller has worked it out)
        and what follows from it without a decision; return all appended."""
        before = len(self.events)
        games_finished = len(self.state.finished)
        if self.state.clock is not None and event.at is None:
            event = replace(event, at=self._now())
        self._apply(event, after)
        if len(self.state.finished) > games_finished:
            self._reveal_dice()
            if not self.state.over:
                self._commit_dice()
        self._play_forced()
        return self.events[before:]

    def _play_forced(self) -> None:
        state = self.state
        if not self.rules.auto_play_forced or state.game.phase is not Phase.PLAYING:
            return
        plays = legal_plays(state)
        if len(plays) == 1:
            only = read_play(state, state.game.turn, in_play_order(plays[0].steps))
            self._record_play(state.game.turn, only, forced=True)

    def _throw(self, offset: int) -> Dice:
        index = self.state.throws + offset
        if self._game_seed is not None:
            return self._game_seed.roll(index - self._game_first_throw)
        return self._dice.roll(index)

    def _commit_dice(self) -> None:
        if not self._verifiable:
            return
        number = self.state.game.number
        self._game_seed = SeededDice.fresh() if self._seeds is None else SeededDice(self._seeds(number))
        self._game_first_throw = self.state.throws
        self.events.append(
            DiceCommitted(self.state.game.number, self._game_seed.commitment, self.state.throws)
        )

    def _reveal_dice(self) -> None:
        if self._game_seed is None:
            return
        number = self.state.finished[-1].number
        self.events.append(SeedRevealed(number, self._game_seed.seed.hex()))
        self._game_seed = None


def open_commitment(events: Sequence[Event], end: int | None = None) -> DiceCommitted | None:
    """The dice commitment of the game in play after ``events`` (their first ``end``, if given),
    if its seed is not yet revealed. Read from the end back, without copying the log."""
    for index in range((len(events) if end is None else end) - 1, -1, -1):
        event = events[index]
        if isinstance(event, SeedRevealed):
            return None
        if isinstance(event, DiceCommitted):
            return event
    return None


__all__ = ["ActionError", "Match", "open_commitment", "played"]
