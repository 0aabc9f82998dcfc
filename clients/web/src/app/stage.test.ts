import { describe, expect, it } from "vitest";
import { create } from "@bufbuild/protobuf";
import { EventKind, GameEventSchema, Phase, Seat } from "../gen/tavli/v1/games_service_pb";
import { backgammonGame } from "./fixtures.test-helpers";
import { boardOf, finalBoard } from "./stage";
import type { Change } from "./sync";

function bearingOff(): number[] {
  const points = Array(24).fill(0);
  points[0] = 1; // one checker left, on the 1-point
  return points;
}

describe("the board as shown", () => {
  it("keeps each side's last roll and the last play, from the viewer's side", () => {
    const game = backgammonGame();
    const shown = { game, rolled: [[6, 5], [3, 1]] as [number[], number[]], lastPlay: { seat: Seat.SEAT_1, steps: [{ from: 8, to: 5, die: 3, hit: false }] } };
    const fromSeat1 = boardOf(shown, Seat.SEAT_1);
    expect(fromSeat1.rolled).toEqual({ me: [3, 1], them: [6, 5] });
    expect(fromSeat1.lastPlay).toEqual({ side: "me", steps: shown.lastPlay.steps });
    expect(boardOf(shown, Seat.SEAT_0).lastPlay?.side).toBe("them");
  });

  it("shows a double waiting for its answer as the cube at twice its value before the side that answers", () => {
    const game = backgammonGame({ phase: Phase.DOUBLED, cubeValue: 2, cubeOwner: Seat.SEAT_1, toAct: [Seat.SEAT_0] });
    const board = boardOf({ game, rolled: [[], []], lastPlay: null }, Seat.SEAT_0);
    expect(board.cube).toEqual({ value: 4, owner: "me", offered: true });
    expect(boardOf({ game: backgammonGame({ cubeValue: 2, cubeOwner: Seat.SEAT_1 }), rolled: [[], []], lastPlay: null }, Seat.SEAT_0).cube).toEqual({ value: 2, owner: "them" });
  });
});

describe("a finished game's final position", () => {
  it("is the position before the last play with the play made, marked, even when the state after is the next game", () => {
    const seat1 = Array(24).fill(0);
    seat1[5] = 15;
    const before = backgammonGame({
      eventCount: 40n,
      phase: Phase.PLAYING,
      dice: [2, 1],
      seat0Board: { playerPoints: bearingOff(), playerBar: 0, opponentPoints: seat1, opponentBar: 0 },
    });
    const after = backgammonGame({ eventCount: 41n, gameNumber: 2, finishedGames: [{ gameNumber: 1, winner: Seat.SEAT_0, points: 2 }] });
    const event = create(GameEventSchema, {
      sequence: 40n,
      kind: EventKind.PLAY,
      seat: Seat.SEAT_0,
      steps: [{ fromPoint: 1, toPoint: 0, die: 2 }],
    });
    const change: Change = { event, before, after, ended: after.finishedGames[0] };
    const board = finalBoard(change, null, Seat.SEAT_0);
    expect(board?.me.off).toBe(15);
    expect(board?.me.points.every((n) => n === 0)).toBe(true);
    expect(board?.them.points[5]).toBe(15);
    expect(board?.lastPlay).toEqual({ side: "me", steps: [{ from: 1, to: 0, die: 2, hit: false }] });
  });

  it("is the position as it was when the game ended without a play (a drop, a resignation)", () => {
    const before = backgammonGame({ eventCount: 12n, phase: Phase.DOUBLED, toAct: [Seat.SEAT_1] });
    const after = backgammonGame({ eventCount: 13n, gameNumber: 2, finishedGames: [{ gameNumber: 1, winner: Seat.SEAT_0, points: 1 }] });
    const event = create(GameEventSchema, { sequence: 12n, kind: EventKind.DROP, seat: Seat.SEAT_1 });
    const board = finalBoard({ event, before, after, ended: after.finishedGames[0] }, null, Seat.SEAT_0);
    expect(board?.me.points[5]).toBe(5);
    expect(board?.cube).toEqual({ value: 2, owner: "them", offered: true });
  });
});
