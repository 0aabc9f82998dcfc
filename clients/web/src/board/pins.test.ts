import { describe, expect, it } from "vitest";
import { pinnedStackSpots, pointSlot, stackSpots } from "./geometry";
import { boardMarkup } from "./markup";
import type { BoardState, LegalPlay, SideCheckers, Step } from "./model";
import { MoveInput, applyStep, pipCount, stepFor } from "./moves";
import { pinsAfterStep } from "./pins";
import { describeBoard } from "./words";

function side(counts: Record<number, number>, pinned: number[] = []): SideCheckers {
  const points = Array<number>(24).fill(0);
  let onBoard = 0;
  for (const [point, count] of Object.entries(counts)) {
    points[Number(point) - 1] = count;
    onBoard += count;
  }
  return { points, bar: 0, off: 15 - onBoard, pinned };
}

const step = (from: number, to: number, die: number): Step => ({ from, to, die, hit: false });

// A Plakoto position: my checker on my 20-point is pinned under their lone checker on their 5-point
// (my 20); their lone checker on their 3-point (my 22) can be pinned.
function plakoto(dice: number[] = [2, 1]): BoardState {
  const me = side({ 24: 12, 20: 1, 12: 1, 8: 1 }, [20]);
  const them = side({ 24: 12, 5: 1, 3: 1, 10: 1 });
  return { variant: "plakoto", me, them, dice, diceSide: "me", cube: null, pips: { me: pipCount(me), them: pipCount(them) } };
}

// The engine's legal plays of that position with 2-1 (tavli.engine Plakoto legal_plays).
const PLAYS_21: LegalPlay[] = [
  { notation: "24/23 24/22", steps: [step(24, 22, 2), step(24, 23, 1)] },
  { notation: "24/21", steps: [step(24, 22, 2), step(22, 21, 1)] },
  { notation: "24/22 12/11", steps: [step(24, 22, 2), step(12, 11, 1)] },
  { notation: "24/22 8/7", steps: [step(24, 22, 2), step(8, 7, 1)] },
  { notation: "24/23 12/10", steps: [step(12, 10, 2), step(24, 23, 1)] },
  { notation: "12/9", steps: [step(12, 10, 2), step(10, 9, 1)] },
  { notation: "12/10 8/7", steps: [step(12, 10, 2), step(8, 7, 1)] },
  { notation: "24/23 8/6", steps: [step(8, 6, 2), step(24, 23, 1)] },
  { notation: "12/11 8/6", steps: [step(8, 6, 2), step(12, 11, 1)] },
  { notation: "8/5", steps: [step(8, 6, 2), step(6, 5, 1)] },
];

describe("Plakoto's pins", () => {
  it("pin a lone opposing checker a step lands on, and free it when the last pinner leaves", () => {
    const board = plakoto();
    const pinned = applyStep(board, step(24, 22, 2));
    expect(pinned.them.pinned).toEqual([3]);
    expect(pinned.them.points[2]).toBe(1); // the pinned checker stays counted where it stands
    expect(pinned.them.bar).toBe(0);
    const freed = applyStep(pinned, step(22, 21, 1));
    expect(freed.them.pinned).toEqual([]);
  });

  it("keep a pin while another pinner stays on the point", () => {
    const board = applyStep(applyStep(plakoto([2, 1]), step(24, 22, 2)), step(24, 22, 2));
    expect(applyStep(board, step(22, 21, 1)).them.pinned).toEqual([3]);
  });

  it("leave a game without pins as it was", () => {
    const board = { ...plakoto(), variant: "backgammon" as const };
    expect(pinsAfterStep("backgammon", board.me, board.them, step(24, 22, 2))).toEqual({ mover: [20], other: [] });
  });

  it("hold a pinned checker where it is, and its point against the other side", () => {
    const board = plakoto([4, 2]);
    expect(stepFor(board, 20, 2)).toBeNull(); // my pinned checker cannot move
    expect(stepFor(board, 24, 4)).toBeNull(); // their lone checker there pins mine: not a landing
    expect(stepFor(board, 24, 2)).toEqual(step(24, 22, 2)); // a lone checker: pinned, not hit
    expect(stepFor(board, 12, 2)).toEqual(step(12, 10, 2));
  });

  it("let the move input make exactly the server's plays, pins and all", () => {
    const input = new MoveInput(plakoto(), PLAYS_21);
    expect(input.sources()).toEqual([24, 12, 8]); // not the pinned 20
    expect([...input.destinations(24).keys()].sort()).toEqual([21, 22, 23]);
    expect(input.move(24, 22)).toEqual([step(24, 22, 2)]);
    expect(input.board.them.pinned).toEqual([3]);
    expect(input.move(22, 21)).toEqual([step(22, 21, 1)]);
    expect(input.complete()?.notation).toBe("24/21");
  });

  it("are drawn with the pinner on top of the pinned checker, marked and named", () => {
    const board = applyStep(plakoto(), step(24, 22, 2));
    const svg = boardMarkup(board, board, [], null, { dice: false, cube: false });
    const theirs = pinnedStackSpots(pointSlot(22), 1);
    expect(theirs.pinned).toEqual(stackSpots(pointSlot(22), 1)[0]);
    expect(svg).toContain(`<g class="pinned" data-pinned-side="them"><title>their checker, pinned</title><circle class="checker checker-them" cx="${theirs.pinned.x}" cy="${theirs.pinned.y}"`);
    expect(svg).toContain(`<circle class="checker checker-me" cx="${theirs.pinners[0].x}" cy="${theirs.pinners[0].y}"`);
    expect(svg).toContain(`data-pinned-side="me"><title>my checker, pinned</title>`);
    expect(svg).toContain('aria-label="point 22, 1 theirs pinned under 1 mine');
    expect(svg).toContain('aria-label="point 20, 1 mine pinned under 1 theirs');
    expect(describeBoard(board)).toContain("Plakoto, from my side.");
    // Five pinners over a pinned checker: four drawn above it, the last counting all five.
    const tall = { ...board, me: { ...board.me, points: board.me.points.map((n, i) => (i === 21 ? 5 : i === 23 ? 8 : n)) } };
    const spots = pinnedStackSpots(pointSlot(22), 5).pinners;
    expect(spots).toHaveLength(4);
    expect(boardMarkup(tall, tall, [], null, { dice: false, cube: false })).toContain(
      `<text class="checker-count checker-count-me" x="${spots[3].x}" y="${spots[3].y + 8}">5</text>`,
    );
    expect(describeBoard(board)).toContain("pinned on the 20-point");
    expect(describeBoard(board)).toContain("pinned on my 22-point");
  });
});
