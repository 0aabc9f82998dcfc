"""A request's position and game context, as the evaluator is asked them.

The evaluator sees a gnubg board: the side on roll second, each side on its own points, which
are tavli's points too (both number a side's points from its own 1-point, its bar at 25).
"""

from __future__ import annotations

from tavli.engine import BAR, Position, Variant
from tavli.server import convert
from tavli.server.analysis.values import Context, CubeOwnerName, GnubgBoard
from tavli.server.errors import BadRequest, NoEvaluator
from tavli.v1 import analysis_service_pb2 as pb, board_pb2

MOST_PLIES = 2
LONGEST_MATCH = 64  # the longest match gnubg's match equity table covers
LARGEST_CUBE = 4096
EVALUATED = ("standard", "nackgammon")  # gnubg's names of the variants its evaluator knows

_CUBE_OWNERS: dict[int, CubeOwnerName] = {
    pb.CUBE_OWNER_UNSPECIFIED: "centre",
    pb.CUBE_OWNER_PLAYER: "player",
    pb.CUBE_OWNER_OPPONENT: "opponent",
}


def evaluated_position(variant_number: int, message: board_pb2.Position) -> tuple[Variant, Position]:
    """The variant and position a request gives, if GNU Backgammon can evaluate them.

    :raises NoEvaluator: for a variant it does not evaluate (long nardi).
    :raises BadRequest, InvalidPositionError: for a malformed position.
    :raises GameOverError: for a position whose game is over.
    """
    variant = convert.variant_of(variant_number)
    check_evaluated(variant)
    position = convert.position_of(variant, message)
    variant.check_position(position)
    return variant, position


def check_evaluated(variant: Variant) -> None:
    """Whether GNU Backgammon evaluates ``variant``'s positions: standard backgammon and
    nackgammon (hypergammon's databases are not in the evaluator, and it knows no other variant).

    :raises NoEvaluator: if it does not.
    """
    if variant.gnubg_variant not in EVALUATED:
        raise NoEvaluator(
            f"GNU Backgammon does not evaluate {variant.title}: no analysis is available for it"
        )


def board_of(position: Position) -> GnubgBoard:
    """gnubg's board of a tavli position: the side on roll second, its points 1-24, then its bar.

    The same call gives the board after a play (``play.position``, the mover still first): the
    mover is then second, as gnubg wants a position it is asked to rank moves into."""
    player, opponent = position
    return _side(opponent), _side(player)


def context_of(message: pb.GameContext) -> Context:
    """The evaluator's context of a request's, checked.

    :raises BadRequest: for plies, a score, a cube or a Crawford game no match can have, or the
        Jacoby rule or beavers in a match.
    """
    if message.plies > MOST_PLIES:
        raise BadRequest(f"plies is 0, 1 or 2, not {message.plies}")
    cube_value = message.cube_value or 1
    if cube_value > LARGEST_CUBE or cube_value & (cube_value - 1):
        raise BadRequest(f"cube_value is a power of 2 up to {LARGEST_CUBE}, not {cube_value}")
    owner = _CUBE_OWNERS.get(message.cube_owner)
    if owner is None:
        raise BadRequest(f"cube_owner {message.cube_owner} is not one this server knows")
    if cube_value > 1 and owner == "centre":
        raise BadRequest(f"a cube of {cube_value} has been doubled: say who owns it")
    score = (message.player_score, message.opponent_score)
    length = message.match_length
    if length == 0:
        if any(score) or message.crawford:
            raise BadRequest("money play has no match score and no Crawford game: give a match_length")
    else:
        _check_match(length, score, message.crawford, cube_value)
        if message.jacoby or message.beavers:
            raise BadRequest("the Jacoby rule and beavers are money play's: a match has neither")
    return Context(
        length, score, message.crawford, cube_value, owner, message.plies, message.jacoby, message.beavers
    )


def _check_match(length: int, score: tuple[int, int], crawford: bool, cube_value: int) -> None:
    if length > LONGEST_MATCH:
        raise BadRequest(f"match_length is at most {LONGEST_MATCH} points, not {length}")
    if max(score) >= length:
        raise BadRequest(f"a score of {score[0]}-{score[1]} has already won a {length}-point match")
    if crawford and length - 1 not in score:
        raise BadRequest(
            f"at {score[0]}-{score[1]} in a {length}-point match no side is one point away: no Crawford game"
        )
    if crawford and cube_value > 1:
        raise BadRequest("no one doubles in the Crawford game: the cube stays at 1")


def _side(checkers: tuple[int, ...]) -> tuple[int, ...]:
    return (*checkers[1:BAR], checkers[BAR])
