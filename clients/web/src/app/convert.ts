// The API's Game in the page's terms: the board from the side of the seat the page sits at (a
// watcher sits at seat 0), the dice and the cube as "me" and "them", and the plays the server
// lists in the board component's shape. Pure functions, no DOM.

import type { Board as BoardMessage, Play, Step as StepMessage } from "../gen/tavli/v1/board_pb";
import { Variant as VariantEnum } from "../gen/tavli/v1/board_pb";
import { CubeMode, Phase, Seat, type Game } from "../gen/tavli/v1/games_service_pb";
import type { BoardState, LegalPlay, Side, SideCheckers, Step, Variant } from "../board/model";

export const CHECKERS = 15;

/** The seat on the other side of the table. */
export function otherSeat(seat: Seat): Seat {
  return seat === Seat.SEAT_0 ? Seat.SEAT_1 : Seat.SEAT_0;
}

/** 0 for SEAT_0, 1 for SEAT_1 (the index into score, pip_counts and clocks.remaining). */
export function seatIndex(seat: Seat): 0 | 1 {
  return seat === Seat.SEAT_1 ? 1 : 0;
}

/** Whose a seat is, seen from the page's seat; null for no seat. */
export function sideOf(seat: Seat, mySeat: Seat): Side | null {
  if (seat === Seat.SEAT_UNSPECIFIED) {
    return null;
  }
  return seat === mySeat ? "me" : "them";
}

/** The board's variant of a game's variant (a tavli match's games are Portes, backgammon's board,
 *  Plakoto and Fevga: Game.variant names the one in play). */
export function variantOf(variant: VariantEnum): Variant {
  switch (variant) {
    case VariantEnum.LONG_NARDI:
      return "long-nardi";
    case VariantEnum.PLAKOTO:
      return "plakoto";
    case VariantEnum.FEVGA:
      return "fevga";
    default:
      return "backgammon";
  }
}

/** The board's variant of the game in play (Game.variant; the rule set's when a server leaves it
 *  unset). */
export function gameVariant(game: Game): Variant {
  return variantOf(game.variant || (game.ruleSet?.variant ?? VariantEnum.BACKGAMMON));
}

/** Whether the game is played with the doubling cube at all. */
export function usesCube(game: Game): boolean {
  const rules = game.ruleSet;
  if (!rules || rules.variant !== VariantEnum.BACKGAMMON || rules.matchLength === 1) {
    return false; // a cube in backgammon only; no double can be offered in a 1-point match
  }
  return rules.cube !== CubeMode.NO_CUBE;
}

function sideCheckers(points: number[] | undefined, bar: number, pinned: number[] | undefined): SideCheckers {
  const counts = Array.from({ length: 24 }, (_, i) => points?.[i] ?? 0);
  const onBoard = counts.reduce((sum, n) => sum + n, 0) + bar;
  return { points: counts, bar, off: Math.max(0, CHECKERS - onBoard), pinned: [...(pinned ?? [])].sort((a, b) => a - b) };
}

/** Pip count of one side, its own numbering (the bar counts 25). */
export function pipCount(side: SideCheckers): number {
  return side.points.reduce((sum, n, i) => sum + n * (i + 1), 0) + side.bar * 25;
}

/**
 * The board from `mySeat`'s side. `board` is seen from seat 0 (as Game.seat0_board is): its
 * "player" is seat 0, its "opponent" seat 1, each on its own points.
 */
export function checkersFromSeat0(board: BoardMessage | undefined, mySeat: Seat): { me: SideCheckers; them: SideCheckers } {
  const seat0 = sideCheckers(board?.playerPoints, board?.playerBar ?? 0, board?.playerPinnedPoints);
  const seat1 = sideCheckers(board?.opponentPoints, board?.opponentBar ?? 0, board?.opponentPinnedPoints);
  return mySeat === Seat.SEAT_1 ? { me: seat1, them: seat0 } : { me: seat0, them: seat1 };
}

/** The game as the board component shows it, from `mySeat`'s side (SEAT_0 for a watcher). */
export function toBoardState(game: Game, mySeat: Seat): BoardState {
  const { me, them } = checkersFromSeat0(game.seat0Board, mySeat);
  const pips = game.pipCounts.length === 2
    ? { mine: game.pipCounts[seatIndex(mySeat)], theirs: game.pipCounts[1 - seatIndex(mySeat)] }
    : { mine: pipCount(me), theirs: pipCount(them) };
  const beforeStart = game.phase === Phase.OPENING || game.phase === Phase.MATCH_OVER;
  return {
    variant: gameVariant(game),
    me,
    them,
    dice: [...game.dice],
    diceSide: beforeStart ? null : sideOf(game.turn, mySeat),
    cube: usesCube(game) ? { value: game.cubeValue || 1, owner: sideOf(game.cubeOwner, mySeat) } : null,
    pips: { me: pips.mine, them: pips.theirs },
  };
}

export function toStep(step: StepMessage): Step {
  return { from: step.fromPoint, to: step.toPoint, die: step.die, hit: step.hit };
}

export function toLegalPlays(plays: Play[]): LegalPlay[] {
  return plays.map((play) => ({ notation: play.notation, steps: play.steps.map(toStep) }));
}

/** Whether the only legal play is no play at all (the roll cannot be played). */
export function mustPass(plays: LegalPlay[]): boolean {
  return plays.length === 1 && plays[0].steps.length === 0;
}

/**
 * The display name of a seat, or a plain "Seat 0"/"Seat 1" for a seat nobody named. A name that
 * could turn the text around it (a right-to-left letter, or a directional formatting character
 * such as U+202E) comes isolated, between U+2068 and U+2069, as `<bdi>` would: whatever its
 * direction, the score and words beside it keep their order.
 */
export function playerName(game: Game, seat: Seat): string {
  const player = seat === Seat.SEAT_1 ? game.seat1Player : game.seat0Player;
  const name = player?.displayName?.trim();
  if (!name) {
    return seat === Seat.SEAT_1 ? "Seat 1" : "Seat 0";
  }
  return TURNS_TEXT_AROUND.test(name) ? `\u2068${name}\u2069` : name;
}

/**
 * The blocks Unicode gives right-to-left by default (Hebrew to the Arabic extensions, their
 * presentation forms, the historic scripts from U+10800 and U+1E800) and the directional marks,
 * embeddings, overrides and isolates.
 */
const TURNS_TEXT_AROUND =
  /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff\u{10800}-\u{10fff}\u{1e800}-\u{1efff}\u061c\u200f\u202a-\u202e\u2066-\u2069]/u;

/** Whether a seat is played by a bot (as the page names bots it seats: player_id "bot:NAME"). */
export function isBot(game: Game, seat: Seat): boolean {
  const player = seat === Seat.SEAT_1 ? game.seat1Player : game.seat0Player;
  return (player?.playerId ?? "").startsWith("bot:");
}

/** The score of a seat (money play: the running total), as a number (it is a uint64). */
export function scoreOf(game: Game, seat: Seat): bigint {
  return game.score[seatIndex(seat)] ?? 0n;
}

export function isMoneyPlay(game: Game): boolean {
  return (game.ruleSet?.matchLength ?? 0) === 0;
}

/** Whether `seat` is among those the game expects to act now. */
export function expectsAction(game: Game, seat: Seat): boolean {
  return game.toAct.includes(seat);
}
