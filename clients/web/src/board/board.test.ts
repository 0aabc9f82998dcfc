import { describe, expect, it } from "vitest";
import { cubeNumber } from "./markup";
import { describeBoard } from "./words";
import type { BoardState, SideCheckers } from "./model";

function side(counts: Record<number, number>, bar = 0): SideCheckers {
  const points = Array<number>(24).fill(0);
  let onBoard = bar;
  for (const [point, count] of Object.entries(counts)) {
    points[Number(point) - 1] = count;
    onBoard += count;
  }
  return { points, bar, off: 15 - onBoard };
}

describe("the board in words", () => {
  it("says whose checkers are where from my side, the dice, the cube and the pips", () => {
    const start = { 24: 2, 13: 5, 8: 3, 6: 5 };
    const state: BoardState = {
      variant: "backgammon",
      me: side(start),
      them: side(start),
      dice: [6, 5],
      diceSide: "me",
      cube: { value: 2, owner: "them" },
      pips: { me: 167, them: 167 },
    };
    expect(describeBoard(state)).toBe(
      "Backgammon, from my side. " +
        "My checkers: 2 on the 24-point, 5 on the 13, 3 on the 8, 5 on the 6; none on the bar; none off. " +
        "Their checkers, by my point numbers: 5 on my 19-point, 3 on my 17, 5 on my 12, 2 on my 1; none on the bar; none off. " +
        "Dice: 6 and 5, mine. Cube: 2, theirs. Pips: mine 167, theirs 167.",
    );
  });

  it("in long nardi their head is my 12-point, and there is no bar and no cube", () => {
    const state: BoardState = {
      variant: "long-nardi",
      me: side({ 24: 14, 3: 1 }),
      them: side({ 24: 13 }),
      dice: [],
      diceSide: null,
      cube: null,
      pips: { me: 339, them: 312 },
    };
    expect(describeBoard(state)).toBe(
      "Long nardi, from my side. " +
        "My checkers: 14 on the 24-point, 1 on the 3; none off. " +
        "Their checkers, by my point numbers: 13 on my 12-point; 2 off. " +
        "No dice to play. No cube. Pips: mine 339, theirs 312.",
    );
  });
});

describe("the cube's face", () => {
  it("shows 64 while the cube is centred at 1, as a real cube has no 1", () => {
    expect(cubeNumber({ value: 1, owner: null })).toBe(64);
  });

  it("shows its value once it has been turned, wherever it is", () => {
    expect(cubeNumber({ value: 2, owner: "them" })).toBe(2);
    expect(cubeNumber({ value: 64, owner: "me" })).toBe(64);
    // An automatic double leaves it centred at 2.
    expect(cubeNumber({ value: 2, owner: null })).toBe(2);
  });
});
