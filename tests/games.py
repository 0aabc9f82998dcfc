"""Seeded games: a supply of positions as they arise in play, for cross-checks, whole matches
between seeded random players, for what records and servers keep of them, and games between two
bots played on the engine alone, for how well a bot plays."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Literal

from tavli.clients.bots.base import Bot, ResignLevel, Situation
from tavli.engine import BAR, Play, Position, Variant
from tavli.engine.dice import SeededDice
from tavli.engine.events import Side
from tavli.engine.game import Action, MatchState, Phase
from tavli.engine.match import Match
from tavli.engine.play import Dice
from tavli.engine.rules import RuleSet

Style = Literal["random", "blitz"]


def positions_from_games(
    variant: Variant, *, seed: int, count: int, style: Style = "random"
) -> Iterator[tuple[Position, Dice]]:
    """``count`` (position, roll) pairs from seeded games, side on roll first.

    ``random`` plays any legal play; ``blitz`` hits and closes its home board whenever it can
    (in backgammon), which brings the bar and closed boards that random play seldom reaches.
    """
    rng = random.Random(seed)
    produced = 0
    while True:
        position = variant.start_position()
        while variant.result(position) is None:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            yield position, dice
            produced += 1
            if produced == count:
                return
            plays = list(variant.legal_plays(position, dice))
            if style == "blitz":
                best = max(_blitz_value(play) for play in plays)
                plays = [play for play in plays if _blitz_value(play) == best]
            position = rng.choice(plays).position.swapped()


def _blitz_value(play: Play) -> int:
    player, opponent = play.position
    home_points = sum(1 for point in range(1, 7) if player[point] >= 2)
    return 2 * opponent[BAR] + 3 * home_points


# --- seeded matches ------------------------------------------------------------------------------


def bot_match(
    rules: RuleSet,
    seed: int,
    *,
    games: int | None = None,
    events: int | None = None,
    double: float = 0.15,
    take: float = 0.6,
    beaver: float = 0.0,
    resign: float = 0.0,
) -> Match:
    """A match between two random players: they double, take, drop, beaver and resign by chance,
    resigning only before they roll (a roll left unplayed is tested on its own)."""
    rng = random.Random(seed)
    match = Match(rules, dice=SeededDice(f"mat-{seed}"))
    while not match.state.over:
        if (games is not None and len(match.state.finished) >= games) or (
            events is not None and len(match.events) >= events
        ):
            break
        game = match.state.game
        side = game.turn
        if game.phase is Phase.OPENING:
            match.roll(0)
        elif game.phase is Phase.DOUBLED:
            taker = 1 - side
            chance = rng.random()
            if Action.BEAVER in match.legal_actions(taker) and chance < beaver:
                match.beaver(taker)
            elif chance < take:
                match.take(taker)
            else:
                match.drop(taker)
        elif game.phase is Phase.RESIGNING:
            assert game.resignation is not None
            answer = match.accept if rng.random() < 0.7 else match.reject
            answer(1 - game.resignation[0])
        elif game.phase is Phase.ROLLING:
            who = side if rng.random() < 0.5 else 1 - side
            if rng.random() < resign and Action.RESIGN in match.legal_actions(who):
                levels = (
                    ["single", "gammon", "backgammon"]
                    if rules.variant == "backgammon"
                    else ["single", "mars"]
                )
                match.resign(who, rng.choice(levels))  # type: ignore[arg-type]
            elif Action.DOUBLE in match.legal_actions(side) and rng.random() < double:
                match.double(side)
            else:
                match.roll(side)
        else:
            match.play(side, rng.choice(match.legal_plays()))
    return match


def roll_then_resign(*, opening: bool, roller_resigns: bool) -> Match:
    """A game that ends when, after a roll (the opening throw, or a later one), the roller or the
    other side resigns before the roll is played."""
    match = Match(RuleSet(match_length=3), dice=SeededDice("resign"))
    match.roll(0)
    if not opening:
        match.play(match.state.game.turn, match.legal_plays()[0])
        match.roll(match.state.game.turn)
    roller = match.state.game.turn
    resigner = roller if roller_resigns else 1 - roller
    match.resign(resigner, "single")  # type: ignore[arg-type]
    match.accept(1 - resigner)  # type: ignore[arg-type]
    return match


ROLL_THEN_RESIGN = [(opening, roller) for opening in (False, True) for roller in (False, True)]


# A match whose backgammon is scored as a gammon.
AS_GAMMON_MATCH = RuleSet(match_length=7, backgammons="AS_GAMMON")
# The bots of this seed end game 3 with the loser's checker still in the winner's home board: a
# backgammon on the board, at a centred cube.
BACKGAMMON_SEED = 5
BACKGAMMON_GAME = 3


def as_gammon_match_with_a_backgammon() -> Match:
    """A 7-point match under AS_GAMMON whose game 3 is a backgammon on the board (checked here: the
    same log replayed with backgammons counted scores that game 3, the others the same)."""
    match = bot_match(AS_GAMMON_MATCH, seed=BACKGAMMON_SEED)
    counted = Match.replay(RuleSet(match_length=7), match.events).state.finished
    ours = match.state.finished
    assert [game.points for game in counted] == [
        3 if game.number == BACKGAMMON_GAME else game.points for game in ours
    ]
    assert counted[BACKGAMMON_GAME - 1].result.value == "backgammon"
    return match


def score_after(match: Match, games: int) -> tuple[int, int]:
    """The score after the match's first ``games`` games."""
    score = [0, 0]
    for game in match.state.finished[:games]:
        score[game.winner] += game.points
    return score[0], score[1]


# --- two bots on the engine alone ----------------------------------------------------------------


def bots_match(rules: RuleSet, bots: tuple[Bot, Bot], *, dice_seed: str) -> Match:
    """A match between ``bots[0]`` (side 0) and ``bots[1]`` on the seeded dice ``dice_seed``,
    played in this process on the engine alone: to its end, or in money play (``match_length`` 0)
    until a game is won. Each bot is asked what a seat driver asks it at a server's game
    (``tavli.clients.seat_driver``): before rolling, whether to resign, then whether to double
    when the rules let it; a double's answer, a beaver only when the rules allow one; a
    resignation's answer; and a play from the legal plays. Side 0 throws the opening.

    :raises AssertionError: if a bot chooses a play that is not one of the legal plays.
    """
    match = Match(rules, dice=SeededDice(dice_seed))
    while not match.state.over and not (rules.match_length == 0 and _a_game_won(match.state)):
        game = match.state.game
        side = game.turn
        if game.phase is Phase.OPENING:
            match.roll(0)
        elif game.phase is Phase.DOUBLED:
            taker: Side = 1 - side  # type: ignore[assignment]
            beavers = Action.BEAVER in match.legal_actions(taker)
            answer = bots[taker].answer_double(bot_situation(match.state, taker, beavers_allowed=beavers))
            if answer == "drop":
                match.drop(taker)
            elif answer == "beaver" and beavers:
                match.beaver(taker)
            else:
                match.take(taker)
        elif game.phase is Phase.RESIGNING:
            assert game.resignation is not None
            resigner, offered = game.resignation
            answerer: Side = 1 - resigner  # type: ignore[assignment]
            level: ResignLevel = offered.value  # type: ignore[assignment]
            accepts = bots[answerer].accept_resignation(bot_situation(match.state, answerer), level)
            (match.accept if accepts else match.reject)(answerer)
        elif game.phase is Phase.ROLLING:
            _before_rolling(match, bots[side], side)
        else:
            plays = match.legal_plays()
            variant = match.state.game_rules.rules
            chosen = bots[side].choose_play(variant, game.position, game.dice or (0, 0), plays)
            assert chosen in plays, f"{bots[side].name} chose {chosen.notation()!r}, not a legal play"
            match.play(side, chosen)
    return match


def _before_rolling(match: Match, bot: Bot, side: Side) -> None:
    situation = bot_situation(match.state, side)
    actions = match.legal_actions(side)
    level = bot.resign(situation)
    if level is not None and Action.RESIGN in actions:
        match.resign(side, level)
    elif Action.DOUBLE in actions and bot.offer_double(situation):
        match.double(side)
    else:
        match.roll(side)


def _a_game_won(state: MatchState) -> bool:
    """Whether a game of the match has a winner (a drawn Plakoto game has none)."""
    return any(finished.winner is not None for finished in state.finished)


def bot_situation(state: MatchState, side: Side, *, beavers_allowed: bool = False) -> Situation:
    """What the bot at ``side`` knows of the match besides the board, from its own side."""
    game = state.game
    owner: Literal["bot", "opponent", "centre"] = (
        "centre" if game.cube_owner is None else "bot" if game.cube_owner == side else "opponent"
    )
    return Situation(
        variant=state.game_rules.rules,
        position=game.position_of(side),
        cube_value=game.cube_value,
        cube_owner=owner,
        score=(state.score[side], state.score[1 - side]),
        match_length=state.rules.match_length,
        crawford=game.crawford,
        beavers_allowed=beavers_allowed,
    )


def first_game_won(match: Match) -> tuple[Side, int]:
    """The side that won the match's first game with a winner, and the points it won."""
    finished = next(game for game in match.state.finished if game.winner is not None)
    assert finished.winner is not None
    return finished.winner, finished.points
