import { describe, expect, it } from "vitest";
import type { BoardState, SideCheckers } from "../board/model";
import { soundsOf } from "./sounds";

function start(): SideCheckers {
  const points = Array<number>(24).fill(0);
  points[23] = 2;
  points[12] = 5;
  points[7] = 3;
  points[5] = 5;
  return { points, bar: 0, off: 0 };
}

function board(changes: Partial<BoardState> = {}): BoardState {
  return { variant: "backgammon", me: start(), them: start(), dice: [], diceSide: null, cube: null, pips: { me: 167, them: 167 }, ...changes };
}

describe("the sounds of a change on the board", () => {
  it("nothing for the first board shown, nor for the same board again", () => {
    expect(soundsOf(null, board({ dice: [6, 5], diceSide: "me" }))).toEqual([]);
    expect(soundsOf(board({ dice: [6, 5], diceSide: "me" }), board({ dice: [6, 5], diceSide: "me" }))).toEqual([]);
  });

  it("the dice for a roll, the same numbers by the other side included", () => {
    expect(soundsOf(board(), board({ dice: [3, 1], diceSide: "me" }))).toEqual(["dice"]);
    expect(soundsOf(board({ dice: [3, 1], diceSide: "me" }), board({ dice: [3, 1], diceSide: "them" }))).toEqual(["dice"]);
  });

  it("a checker for a play, and both when a play and the next roll come together", () => {
    const moved = start();
    moved.points[7] -= 1;
    moved.points[4] += 1;
    expect(soundsOf(board({ dice: [3, 1], diceSide: "me" }), board({ me: moved }))).toEqual(["checker"]);
    expect(soundsOf(board({ dice: [3, 1], diceSide: "me" }), board({ me: moved, dice: [4, 4], diceSide: "them" }))).toEqual(["dice", "checker"]);
  });

  it("a checker hit to the bar or borne off is a move too", () => {
    expect(soundsOf(board(), board({ them: { ...start(), bar: 1 } }))).toEqual(["checker"]);
    expect(soundsOf(board(), board({ me: { ...start(), off: 1 } }))).toEqual(["checker"]);
  });
});
