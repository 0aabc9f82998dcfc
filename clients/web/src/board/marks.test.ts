import { describe, expect, it } from "vitest";
import { boardForSeat, startBoard } from "../app/record";
import { Seat } from "../gen/tavli/v1/games_service_pb";
import { arrowsMarkup } from "./marks";
import type { BoardState } from "./model";

const step = (from: number, to: number, die: number) => ({ from, to, die, hit: false });
const start = (): BoardState => startBoard({ variant: "backgammon", usesCube: true, automaticDoubles: 0, cubeLimit: 64 });

describe("a play drawn as arrows", () => {
  it("draws one numbered arrow per step, in the order played", () => {
    const markup = arrowsMarkup({ ...start(), arrows: { side: "me", steps: [step(24, 18, 6), step(18, 13, 5)] } });
    expect(markup).toContain('data-steps="24/18 18/13"');
    expect(markup.match(/class="arrow"/g)).toHaveLength(2);
    expect(markup).toContain('data-arrow="1"');
    expect(markup).toContain('data-arrow="2"');
  });

  it("draws nothing without a play, or for a roll that cannot be played", () => {
    expect(arrowsMarkup(start())).toBe("");
    expect(arrowsMarkup({ ...start(), arrows: { side: "them", steps: [] } })).toBe("");
  });

  it("starts an arrow from the bar at the mover's half and ends one borne off in its tray", () => {
    const mine = arrowsMarkup({ ...start(), arrows: { side: "me", steps: [step(25, 22, 3), step(2, 0, 2)] } });
    const theirs = arrowsMarkup({ ...start(), arrows: { side: "them", steps: [step(25, 22, 3), step(2, 0, 2)] } });
    expect(mine).not.toBe(theirs);
  });

  it("keeps the mover's side when the board is turned to the other seat", () => {
    const board = { ...start(), arrows: { side: "me" as const, steps: [step(8, 5, 3)] } };
    expect(boardForSeat(board, Seat.SEAT_1).arrows?.side).toBe("them");
    expect(boardForSeat(board, Seat.SEAT_0).arrows?.side).toBe("me");
  });
});
