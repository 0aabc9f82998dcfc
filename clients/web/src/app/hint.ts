// What a hint at the table asks GNU Backgammon (AnalysisService) and how its answer reads: whether
// this table offers hints at all, the question for the seat on turn (its position, dice and the
// match or money game with the cube as it stands), and the answers in a player's words. No DOM:
// hint-panel.ts shows them.

import type { MessageInitShape } from "@bufbuild/protobuf";
import {
  CubeAction,
  CubeOwner,
  CubeResponse,
  type GameContextSchema,
  type GetCubeDecisionRequestSchema,
  type ListRankedPlaysRequestSchema,
} from "../gen/tavli/v1/analysis_service_pb";
import { HomeHitAndRun, Start, Variant } from "../gen/tavli/v1/board_pb";
import { Seat, type Game } from "../gen/tavli/v1/games_service_pb";
import { isBot, otherSeat, scoreOf } from "./convert";

/** The look-ahead a player may choose: GNU Backgammon's 0, 1 and 2 plies (0 the quickest). */
export const PLIES = [0, 1, 2] as const;
export type Plies = (typeof PLIES)[number];

/** Why a table offers no hint, in a player's words; null where it does. */
export function noHintReason(game: Game, mySeat: Seat | null): string | null {
  if (mySeat === null) {
    return "Hints are for the players at the table.";
  }
  const rules = game.ruleSet;
  const start = rules?.start ?? Start.UNSPECIFIED;
  if (game.variant !== Variant.BACKGAMMON || (start !== Start.UNSPECIFIED && start !== Start.STANDARD && start !== Start.NACKGAMMON)) {
    return "GNU Backgammon does not evaluate this game: no hints here.";
  }
  if (rules?.homeHitAndRun === HomeHitAndRun.FORBIDDEN) {
    return "GNU Backgammon knows only backgammon's own rules, not a hitter kept in the home board: no hints here.";
  }
  if (!isBot(game, otherSeat(mySeat)) && !game.hintsAllowed) {
    return "This table was created without hints.";
  }
  return null;
}

/** The match or money game from the seat on turn's side, the cube as it stands, and money play's
 * Jacoby rule and beavers where the game has them (the evaluator asks every question of that game). */
export function gameContext(game: Game, plies: Plies): MessageInitShape<typeof GameContextSchema> {
  const onRoll = game.turn === Seat.SEAT_1 ? Seat.SEAT_1 : Seat.SEAT_0;
  const matchLength = game.ruleSet?.matchLength ?? 0;
  const owner =
    game.cubeOwner === Seat.SEAT_UNSPECIFIED ? CubeOwner.UNSPECIFIED : game.cubeOwner === onRoll ? CubeOwner.PLAYER : CubeOwner.OPPONENT;
  return {
    matchLength,
    playerScore: matchLength === 0 ? 0 : Number(scoreOf(game, onRoll)),
    opponentScore: matchLength === 0 ? 0 : Number(scoreOf(game, otherSeat(onRoll))),
    crawford: game.crawford,
    cubeValue: game.cubeValue || 1,
    cubeOwner: owner,
    jacoby: matchLength === 0 && (game.ruleSet?.jacoby ?? false),
    beavers: matchLength === 0 && (game.ruleSet?.beavers ?? false),
    plies,
  };
}

/** ListRankedPlays for the roll waiting to be played. */
export function rankedPlaysRequest(game: Game, plies: Plies): MessageInitShape<typeof ListRankedPlaysRequestSchema> {
  return {
    variant: Variant.BACKGAMMON,
    position: { form: { case: "positionId", value: game.positionId } },
    dice: [...game.dice],
    context: gameContext(game, plies),
  };
}

/** GetCubeDecision for the seat on turn before it rolls (while a double waits, the doubler). */
export function cubeDecisionRequest(game: Game, plies: Plies): MessageInitShape<typeof GetCubeDecisionRequestSchema> {
  return {
    variant: Variant.BACKGAMMON,
    position: { form: { case: "positionId", value: game.positionId } },
    context: gameContext(game, plies),
  };
}

/** An equity as players write it: signed, three decimals ("+0.123", "−0.045"). */
export function equityText(equity: number): string {
  const rounded = Math.round(equity * 1000) / 1000;
  const sign = rounded > 0 ? "+" : rounded < 0 ? "\u2212" : "";
  return `${sign}${Math.abs(rounded).toFixed(3)}`;
}

/** A play's loss against the best: "best" for none, else "−0.045". */
export function lossText(loss: number): string {
  return Math.round(loss * 1000) === 0 ? "best" : equityText(-loss);
}

const ACTIONS: Record<CubeAction, string> = {
  [CubeAction.UNSPECIFIED]: "",
  [CubeAction.NO_DOUBLE]: "No double",
  [CubeAction.DOUBLE_TAKE]: "Double, take",
  [CubeAction.DOUBLE_PASS]: "Double, pass",
  [CubeAction.TOO_GOOD]: "Too good to double",
};

/** The proper cube action in words. */
export function cubeActionText(action: CubeAction): string {
  return ACTIONS[action] ?? "";
}

/** The doubled side's proper answer in words. */
export function cubeResponseText(response: CubeResponse): string {
  return response === CubeResponse.TAKE ? "Take" : response === CubeResponse.PASS ? "Pass" : "";
}
