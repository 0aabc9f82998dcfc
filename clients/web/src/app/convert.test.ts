import { describe, expect, it } from "vitest";
import { create } from "@bufbuild/protobuf";
import { BoardSchema, PlaySchema, Variant } from "../gen/tavli/v1/board_pb";
import { CubeMode, Phase, Seat } from "../gen/tavli/v1/games_service_pb";
import { checkersFromSeat0, mustPass, pipCount, toBoardState, toLegalPlays } from "./convert";
import { backgammonGame, startPoints } from "./fixtures.test-helpers";

function seat0BoardWith(seat0: number[], seat1: number[], seat0Bar = 0, seat1Bar = 0) {
  return create(BoardSchema, { playerPoints: seat0, playerBar: seat0Bar, opponentPoints: seat1, opponentBar: seat1Bar });
}

describe("the board from my seat's side", () => {
  it("seat 0 sees seat0_board as it is", () => {
    const mine = Array(24).fill(0);
    mine[0] = 15;
    const theirs = startPoints();
    const state = toBoardState(backgammonGame({ seat0Board: seat0BoardWith(mine, theirs), pipCounts: [15, 167] }), Seat.SEAT_0);
    expect(state.me.points).toEqual(mine);
    expect(state.them.points).toEqual(theirs);
    expect(state.pips).toEqual({ me: 15, them: 167 });
  });

  it("seat 1 sees the two sides swapped, each still on its own points", () => {
    const seat0 = Array(24).fill(0);
    seat0[5] = 15;
    const seat1 = Array(24).fill(0);
    seat1[20] = 14;
    const state = toBoardState(
      backgammonGame({ seat0Board: seat0BoardWith(seat0, seat1, 0, 1), pipCounts: [90, 319] }),
      Seat.SEAT_1,
    );
    expect(state.me.points).toEqual(seat1);
    expect(state.me.bar).toBe(1);
    expect(state.them.points).toEqual(seat0);
    expect(state.pips).toEqual({ me: 319, them: 90 });
  });

  it("counts the checkers borne off", () => {
    const seat0 = Array(24).fill(0);
    seat0[0] = 3;
    const { me, them } = checkersFromSeat0(seat0BoardWith(seat0, startPoints(), 1), Seat.SEAT_0);
    expect(me.off).toBe(11);
    expect(them.off).toBe(0);
  });

  it("pads a short list of points to 24", () => {
    const { me } = checkersFromSeat0({ playerPoints: [], playerBar: 0, opponentPoints: [], opponentBar: 0 } as never, Seat.SEAT_0);
    expect(me.points).toHaveLength(24);
    expect(me.off).toBe(15);
  });

  it("gives the dice to the side on turn, none before the opening throw", () => {
    const playing = toBoardState(backgammonGame({ phase: Phase.PLAYING, turn: Seat.SEAT_1, dice: [6, 4] }), Seat.SEAT_0);
    expect(playing.dice).toEqual([6, 4]);
    expect(playing.diceSide).toBe("them");
    const opening = toBoardState(backgammonGame({ phase: Phase.OPENING }), Seat.SEAT_0);
    expect(opening.diceSide).toBeNull();
    expect(opening.dice).toEqual([]);
  });

  it("shows the cube with its owner from my side", () => {
    const game = backgammonGame({ cubeValue: 4, cubeOwner: Seat.SEAT_1 });
    expect(toBoardState(game, Seat.SEAT_1).cube).toEqual({ value: 4, owner: "me" });
    expect(toBoardState(game, Seat.SEAT_0).cube).toEqual({ value: 4, owner: "them" });
    expect(toBoardState(backgammonGame(), Seat.SEAT_0).cube).toEqual({ value: 1, owner: null });
  });

  it("has no cube in long nardi or with the cube switched off", () => {
    const nardi = backgammonGame({ ruleSet: { variant: Variant.LONG_NARDI, matchLength: 3, cube: CubeMode.NO_CUBE } });
    expect(toBoardState(nardi, Seat.SEAT_0).cube).toBeNull();
    expect(toBoardState(nardi, Seat.SEAT_0).variant).toBe("long-nardi");
    const noCube = backgammonGame({ ruleSet: { variant: Variant.BACKGAMMON, matchLength: 0, cube: CubeMode.NO_CUBE } });
    expect(toBoardState(noCube, Seat.SEAT_0).cube).toBeNull();
  });

  it("counts pips itself when the game gives none", () => {
    const state = toBoardState(backgammonGame({ pipCounts: [] }), Seat.SEAT_0);
    expect(state.pips).toEqual({ me: 167, them: 167 });
    expect(pipCount({ points: startPoints(), bar: 1, off: 0 })).toBe(192);
  });
});

describe("legal plays in the board's shape", () => {
  it("keeps notation and steps", () => {
    const plays = toLegalPlays([
      create(PlaySchema, {
        notation: "24/18 13/9",
        steps: [
          { fromPoint: 24, toPoint: 18, die: 6, hit: false },
          { fromPoint: 13, toPoint: 9, die: 4, hit: false },
        ],
      }),
    ]);
    expect(plays).toEqual([
      {
        notation: "24/18 13/9",
        steps: [
          { from: 24, to: 18, die: 6, hit: false },
          { from: 13, to: 9, die: 4, hit: false },
        ],
      },
    ]);
    expect(mustPass(plays)).toBe(false);
  });

  it("knows a roll that cannot be played", () => {
    expect(mustPass(toLegalPlays([create(PlaySchema, { notation: "", steps: [] })]))).toBe(true);
  });
});

describe("the Greek games' boards", () => {
  it("take the game in play from Game.variant, and each side's pins from the board, seen from my seat", () => {
    const seat0 = Array(24).fill(0);
    seat0[23] = 13;
    seat0[19] = 1; // seat 0's 20-point: its checker pinned there
    seat0[21] = 1; // seat 0's 22-point: pinning seat 1's checker on its 3-point
    const seat1 = Array(24).fill(0);
    seat1[23] = 13;
    seat1[4] = 1; // pinning seat 0's checker on its 20-point
    seat1[2] = 1; // pinned
    const board = create(BoardSchema, { playerPoints: seat0, opponentPoints: seat1, playerPinnedPoints: [20], opponentPinnedPoints: [3] });
    const tavli = { variant: Variant.TAVLI, matchLength: 3, cube: CubeMode.NO_CUBE };
    const game = backgammonGame({ ruleSet: tavli, variant: Variant.PLAKOTO, seat0Board: board });
    const fromSeat1 = toBoardState(game, Seat.SEAT_1);
    expect(fromSeat1.variant).toBe("plakoto");
    expect(fromSeat1.cube).toBeNull();
    expect(fromSeat1.me.pinned).toEqual([3]);
    expect(fromSeat1.them.pinned).toEqual([20]);
    expect(toBoardState(backgammonGame({ ruleSet: tavli, variant: Variant.FEVGA }), Seat.SEAT_0).variant).toBe("fevga");
    expect(toBoardState(backgammonGame({ ruleSet: tavli, variant: Variant.BACKGAMMON }), Seat.SEAT_0).variant).toBe("backgammon");
  });
});
