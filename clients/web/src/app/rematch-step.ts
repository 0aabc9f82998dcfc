// Where a finished match stands on a rematch, for the seat the page plays: nothing (a watcher,
// or the match not over), a new game against the same bot, or the offer and acceptance between
// two people. Pure: the rematch box (rematch.ts) shows it and the game's state (game-state.ts)
// keeps watching a finished match while a rematch may yet come.

import { Seat, type Game } from "../gen/tavli/v1/games_service_pb";
import { isBot, otherSeat, playerName } from "./convert";

/** What the rematch box says and offers, for `mySeat` of a finished match. */
export type RematchStep =
  | { kind: "none" }
  | { kind: "computer"; bot: string }
  | { kind: "offer" }
  | { kind: "offered"; text: string }
  | { kind: "accept"; text: string }
  | { kind: "join"; game: string };

/** The bot a seat is played by ("" for the server's default), from its player id "bot:NAME". */
export function botOf(game: Game, seat: Seat): string {
  const player = seat === Seat.SEAT_1 ? game.seat1Player : game.seat0Player;
  return (player?.playerId ?? "").replace(/^bot:/, "");
}

export function rematchStep(game: Game, mySeat: Seat | null, matchOver: boolean): RematchStep {
  if (mySeat === null || !matchOver) {
    return { kind: "none" };
  }
  const them = otherSeat(mySeat);
  if (isBot(game, them)) {
    return { kind: "computer", bot: botOf(game, them) };
  }
  const rematch = game.rematch;
  if (!rematch || rematch.offeredBy === Seat.SEAT_UNSPECIFIED) {
    return { kind: "offer" };
  }
  if (rematch.game) {
    return { kind: "join", game: rematch.game };
  }
  if (rematch.offeredBy === mySeat) {
    return { kind: "offered", text: `You offered a rematch: waiting for ${playerName(game, them)} to accept it.` };
  }
  return { kind: "accept", text: `${playerName(game, them)} offers a rematch.` };
}

/** Whether a seat at a finished match between two people waits on a rematch: one may yet be
 *  offered or accepted, or its way to the agreed one is still to be asked for. */
export function awaitsRematch(step: RematchStep): boolean {
  return ["offer", "offered", "accept", "join"].includes(step.kind);
}
